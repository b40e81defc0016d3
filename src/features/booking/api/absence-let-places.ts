import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

/**
 * The berths a stay would take from a long-term holder's absence (public.absence_let_places,
 * issue 43, docs/adr/0054-holder-absences.md), for [arrival, departure): the search marks them.
 */
export const absenceLetPlacesQueryOptions = (arrival: string, departure: string) =>
  queryOptions({
    queryKey: ['absence-let-places', arrival, departure] as const,
    queryFn: async (): Promise<string[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('absence_let_places', { p_arrival: arrival, p_departure: departure });
      if (error) throw error;
      return data;
    },
  });
