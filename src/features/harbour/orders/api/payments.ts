import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { FunctionCallError, invokeFunction } from '@/lib/edge-functions';
import { fetchOrderBalance, fetchOrderPayments, type Payment, type PaymentMethod } from '@/features/orders';
import type { DeskPaymentMethod } from '@/features/harbour/shared/payment-methods';
import { harbourKeys } from '@/features/harbour/shared/keys';

export { paymentRequestKeys } from '@/lib/request-keys';

export const paymentDeskKeys = {
  ledger: (orderId: string) => [...harbourKeys.all, 'orders', 'payments', orderId] as const,
  balance: (orderId: string) => [...harbourKeys.all, 'orders', 'balance', orderId] as const,
};

/** order_balance() for staff: outstanding, what is to refund and what can be refunded how. */
export const deskBalanceQueryOptions = (orderId: string) =>
  queryOptions({ queryKey: paymentDeskKeys.balance(orderId), queryFn: () => fetchOrderBalance(orderId) });

/** A ledger row with the name of the staff member who recorded it (null: Stripe's webhook). */
export type LedgerRow = Payment & { recorded_by_name: string | null };

/** The order's ledger, oldest first, with who recorded each row (RLS: staff read all payments and profiles). */
export const orderLedgerQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: paymentDeskKeys.ledger(orderId),
    queryFn: async (): Promise<LedgerRow[]> => {
      const rows = await fetchOrderPayments(orderId);
      const supabase = await getSupabase();
      const ids = [...new Set(rows.map((r) => r.recorded_by).filter((id): id is string => !!id))];
      const names = new Map<string, string>();
      if (ids.length) {
        const people = await supabase.from('profiles').select('id, first_name, last_name, email').in('id', ids);
        if (people.error) throw people.error;
        for (const p of people.data) {
          names.set(p.id, [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email || '');
        }
      }
      return rows.map((r) => ({ ...r, recorded_by_name: r.recorded_by ? (names.get(r.recorded_by) ?? null) : null }));
    },
  });

export type RefundMethod = Extract<PaymentMethod, 'online' | 'cash' | 'bank_transfer'>;

export type PaymentAction =
  | { type: 'desk-payment'; orderId: string; method: DeskPaymentMethod; amountCents: number; note: string; requestKey: string }
  | { type: 'refund'; orderId: string; method: RefundMethod; amountCents: number; note: string; notify: boolean; requestKey: string };

/** What a refund through Stripe answers: the ledger row follows with Stripe's refund event. */
export interface OnlineRefund {
  refund_id: string;
  status: string;
}

async function runPaymentAction(action: PaymentAction): Promise<OnlineRefund | null> {
  if (action.type === 'refund' && action.method === 'online') {
    // The request key makes a retry of this refund (a second click, a retry after a timeout)
    // get the same refund back, never a second one (refund-payment, ground rule 6).
    return invokeFunction<OnlineRefund>('refund-payment', {
      order_id: action.orderId,
      amount_cents: action.amountCents,
      idempotency_key: action.requestKey,
    });
  }
  const supabase = await getSupabase();
  const args = {
    p_order_id: action.orderId,
    p_method: action.method,
    p_amount_cents: action.amountCents,
    p_note: action.note.trim() || undefined,
    // The same key on every retry of this action: the database returns the row of the first
    // call instead of recording a second payment or refund (35d_desk_payments.sql).
    p_request_key: action.requestKey,
  };
  const { error, status } =
    action.type === 'desk-payment'
      ? await supabase.rpc('record_desk_payment', args)
      : await supabase.rpc('record_desk_refund', { ...args, p_notify: action.notify });
  // No answer (status 0: the request may have been recorded): "try again", under the same key.
  if (error && status === 0) throw new FunctionCallError('network');
  if (error) throw error;
  return null;
}

/** Whether a failed refund may have been made after all, so a retry must keep its request key. */
export function refundOutcomeOpen(error: unknown): boolean {
  if (!(error instanceof FunctionCallError)) return true;
  return error.code === 'network' || error.code === 'unknown' || error.code === 'refund_in_progress' || (error.status ?? 500) >= 500;
}

/** Records a desk payment or refund, or asks Stripe for a refund; then the order desk refetches (in the background). */
export function usePaymentAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runPaymentAction,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: harbourKeys.all }),
  });
}
