import { queryOptions, useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { FunctionCallError, invokeFunction } from '@/lib/edge-functions';
import { orderKeys } from '@/features/orders/api/keys';
import type { Order, OrderBalance, Payment } from '@/features/orders/api/types';

/** Fetches the order's ledger rows, oldest first (RLS: the order's owner and staff). */
export async function fetchOrderPayments(orderId: string): Promise<Payment[]> {
  const supabase = await getSupabase();
  // kind is text with a check constraint (payment | refund) in the generated row.
  const { data, error } = await supabase
    .from('payments')
    .select('*')
    .eq('order_id', orderId)
    .order('recorded_at')
    .order('id')
    .overrideTypes<Payment[]>();
  if (error) throw error;
  return data;
}

/** The order's ledger for its owner's page. */
export const orderPaymentsQueryOptions = (orderId: string) =>
  queryOptions({ queryKey: orderKeys.payments(orderId), queryFn: () => fetchOrderPayments(orderId), staleTime: 10_000 });

/** Fetches order_balance() (the owner or staff): outstanding, refundable, payment mode. */
export async function fetchOrderBalance(orderId: string): Promise<OrderBalance> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('order_balance', { p_order_id: orderId });
  if (error) throw error;
  // order_balance returns jsonb: Json in the generated types (see OrderBalance).
  return data as unknown as OrderBalance;
}

/** The order's balance and payment mode for its owner's page. */
export const orderBalanceQueryOptions = (orderId: string) =>
  queryOptions({ queryKey: orderKeys.balance(orderId), queryFn: () => fetchOrderBalance(orderId), staleTime: 10_000 });

/** Whether the payment deadline of an order that must be paid online has passed. */
export function paymentLapsed(balance: OrderBalance | undefined, now = Date.now()): boolean {
  return !!balance?.pay_by && Date.parse(balance.pay_by) <= now;
}

/** Whether the guest can pay this order online now (the database has the last word). */
export function canPayOnline(
  order: Pick<Order, 'status' | 'payment_status'>,
  balance: OrderBalance | undefined,
  now = Date.now(),
): boolean {
  return (
    balance !== undefined &&
    !paymentLapsed(balance, now) &&
    balance.payment_mode !== 'desk' &&
    balance.outstanding_cents > 0 &&
    order.payment_status === 'pending' &&
    order.status !== 'cancelled' &&
    order.status !== 'expired'
  );
}

/**
 * Starts Stripe Checkout for the order (edge function create-checkout): a new session, or the
 * open one of this order (a second tab gets the same page). Resolves to the hosted page's URL.
 */
export function useStartCheckout() {
  return useMutation({
    mutationFn: async (orderId: string): Promise<string> => {
      const { url } = await invokeFunction<{ url: string }>('create-checkout', { order_id: orderId });
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new FunctionCallError('unknown');
      return url;
    },
  });
}
