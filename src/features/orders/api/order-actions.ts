import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { invokeFunction } from '@/lib/edge-functions';
import type { Database } from '@/lib/database.types';
import { orderKeys } from '@/features/orders/api/keys';

/** What cancelling now keeps and gives back (public.cancellation_quote; cancel_booking applies the same terms). */
export interface CancellationTerms {
  free: boolean;
  /** Free because the stay was told of a harbour closure (ADR 0053), whatever the policy. */
  closure?: boolean;
  free_until: string;
  free_hours: number;
  fee_percent: number;
  price_cents: number;
  fee_cents: number;
  paid_cents: number;
  kept_cents: number;
  back_cents: number;
  back_card_cents: number;
  back_desk_cents: number;
}

export const cancellationQuoteQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...orderKeys.detail(orderId), 'cancellation-quote'] as const,
    queryFn: async (): Promise<CancellationTerms> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('cancellation_quote', { p_order_id: orderId });
      if (error) throw error;
      return data as unknown as CancellationTerms;
    },
    staleTime: 0,
  });

/**
 * Sends the card refund cancel_booking recorded (refund-payment {cancellation_of}): the same
 * request however often it is sent (a key derived from the order), so a retry never refunds twice.
 * Tried twice; a refund that cannot be sent now is paid back by the harbour office.
 */
async function sendCancellationRefund(orderId: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await invokeFunction('refund-payment', { cancellation_of: orderId });
      return true;
    } catch {
      // retried once with the same request (the database keeps its key)
    }
  }
  return false;
}

/**
 * Cancels an order before arrival (cancel_booking); the berth is freed. What the cancellation
 * policy gives back of an online payment is then refunded to the card (once, whatever retries).
 * Resolves whether the card refund was sent (null: nothing went to the card).
 */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ orderId, backCardCents }: { orderId: string; backCardCents: number }): Promise<boolean | null> => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('cancel_booking', { p_order_id: orderId });
      if (error) {
        // A retry after an answer that got lost: the order is cancelled already; its card refund
        // is still sent (the same request).
        const { data } =
          error.message === 'order_not_cancellable'
            ? await supabase.from('orders').select('status').eq('id', orderId).maybeSingle()
            : { data: null };
        if (data?.status !== 'cancelled') throw error;
      }
      return backCardCents > 0 ? sendCancellationRefund(orderId) : null;
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

/** The door code and wifi, for those allowed (docs/architecture.md "Who may see the door code and wifi"). */
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
