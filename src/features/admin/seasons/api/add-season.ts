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
        p_name_en: v.nameEn,
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

/**
 * Edits a season (update_season: admins): the names always, the dates while nothing refers to it
 * (season_in_use otherwise); the kind stays.
 */
export function useUpdateSeason() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...v }: SeasonValues & { id: string }) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('update_season', {
        p_id: id,
        p_name: v.name,
        p_name_en: v.nameEn,
        p_starts_on: v.startsOn,
        p_ends_on: v.endsOn,
      });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seasonKeys.all }),
  });
}

/** Deletes a season nothing refers to (delete_season: admins; season_in_use otherwise). */
export function useDeleteSeason() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('delete_season', { p_id: id });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seasonKeys.all }),
  });
}
