import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

/**
 * A long-term holder's absences (issue 43 deliverable 4, docs/adr/0054-holder-absences.md): the
 * holder (or staff for them) enters, changes or withdraws the nights they are away; the berth is
 * offered to guests then. The database decides (save_holder_absence, delete_holder_absence) and
 * refuses a return into nights already let (absence_nights_let, the nights in DETAIL).
 */
export interface Absence {
  id: string;
  starts_on: string;
  ends_on: string;
  /** Nights of the absence already let to guests (ISO days). */
  let_nights: string[];
}

export const absenceKeys = {
  all: ['long-term', 'absences'] as const,
  of: (holderId: string) => ['long-term', 'absences', holderId] as const,
};

export const absencesQueryOptions = (holderId: string) =>
  queryOptions({
    queryKey: absenceKeys.of(holderId),
    queryFn: async (): Promise<Absence[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('holder_absence_list', { p_holder_id: holderId });
      if (error) throw error;
      return data;
    },
  });

export function useSaveAbsence(holderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { startsOn: string; endsOn: string; absenceId?: string }) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('save_holder_absence', {
        p_holder_id: holderId,
        p_starts_on: v.startsOn,
        p_ends_on: v.endsOn,
        p_absence_id: v.absenceId,
      });
      if (error) throw error;
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: absenceKeys.of(holderId) }),
  });
}

export function useDeleteAbsence(holderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (absenceId: string) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('delete_holder_absence', { p_absence_id: absenceId });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: absenceKeys.of(holderId) }),
  });
}
