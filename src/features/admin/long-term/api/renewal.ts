import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';
import { adminOfferKeys } from '@/features/admin/long-term/api/offers';

export type RenewalRow = Database['public']['Functions']['renewal_preview']['Returns'][number];

export const renewalKeys = {
  preview: (season: string) => ['admin-offers', 'renewal', season] as const,
};

/** What the renewal of a season's contracts does (public.renewal_preview, ADR 0052). */
export const renewalPreviewQueryOptions = (season: string) =>
  queryOptions({
    queryKey: renewalKeys.preview(season),
    queryFn: async (): Promise<RenewalRow[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('renewal_preview', { p_season_id: season });
      if (error) throw error;
      return data;
    },
    retry: false,
  });

/** One confirmation: the request key is kept for the dialog, so a retry answers the first run. */
export function useConfirmRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { seasonId: string; requestKey: string }) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('confirm_renewal', { p_season_id: v.seasonId, p_request_key: v.requestKey });
      if (error) throw error;
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminOfferKeys.all }),
  });
}

export function useEndContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { contractId: string; reason: string }) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('end_contract', { p_contract_id: v.contractId, p_reason: v.reason });
      if (error) throw error;
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminOfferKeys.all }),
  });
}
