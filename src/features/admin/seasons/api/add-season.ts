import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { seasonKeys } from '@/features/admin/seasons/api/keys';
import type { SeasonValues } from '@/features/admin/seasons/schemas/season';

/** Adds a season (add_season: admins; an overlap of one kind, bad dates are refused with a code). */
export function useAddSeason() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: SeasonValues) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('add_season', {
        p_name: v.name,
        p_kind: v.kind,
        p_starts_on: v.startsOn,
        p_ends_on: v.endsOn,
      });
      if (error) throw error;
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seasonKeys.all }),
  });
}
