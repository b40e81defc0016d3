import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { t } from '@lingui/core/macro';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';
import { orderKeys } from './keys';

/** Cancels an order before arrival (cancel_booking); the berth is freed. */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (orderId: string) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('cancel_booking', { p_order_id: orderId });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

/** Checks in on the arrival day (check_in): verified owners only. */
export function useCheckIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (orderId: string) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('check_in', { p_order_id: orderId });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

export type HarbourAccess = Database['public']['Functions']['harbour_access']['Returns'][number];

/** The door code and wifi, for those allowed (ARCHITECTURE.md "Who may see the door code and wifi"). */
export const harbourAccessQueryOptions = () =>
  queryOptions({
    queryKey: orderKeys.harbourAccess(),
    queryFn: async (): Promise<HarbourAccess | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('harbour_access');
      if (error) {
        if (error.code === '42501') return null;
        throw error;
      }
      return data[0] ?? null;
    },
    retry: false,
  });

export function orderErrorMessage(error: unknown): string {
  const message = (error as { message?: string } | null)?.message ?? '';
  switch (message) {
    case 'order_not_cancellable':
      return t`Diese Buchung kann nicht mehr storniert werden (nur vor der Anreise).`;
    case 'verification_required':
      return t`Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse.`;
    case 'check_in_not_possible':
      return t`Einchecken ist nur am Anreisetag möglich.`;
    case 'already_checked_in':
      return t`Sie sind bereits eingecheckt.`;
    case 'account_inactive':
      return t`Ihr Konto ist gesperrt. Bitte wenden Sie sich an das Hafenbüro.`;
    default:
      return t`Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.`;
  }
}
