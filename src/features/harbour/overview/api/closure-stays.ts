import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';
import { harbourKeys } from '@/features/harbour/shared/keys';

/** A stay in the harbour closure in force (public.harbour_closure_stays; ADR 0053 "Guests in a closure"). */
export type ClosureStay = Omit<Database['public']['Functions']['harbour_closure_stays']['Returns'][number], 'choice' | 'chosen_at'> & {
  choice: 'keep' | 'move' | 'cancel' | null;
  chosen_at: string | null;
};

/** The affected stays, with what each guest was told and chose (staff; empty while no closure is in force). */
export const closureStaysQueryOptions = () =>
  queryOptions({
    queryKey: harbourKeys.closureStays(),
    queryFn: async (): Promise<ClosureStay[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('harbour_closure_stays').overrideTypes<ClosureStay[], { merge: false }>();
      if (error) throw error;
      return data;
    },
  });
