import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';

/** The states public.long_term_fee_status derives (text in the generated row). */
export type FeeState = 'open' | 'overdue' | 'processing' | 'partially_paid' | 'paid' | 'overpaid' | 'failed' | 'cancelled';

/** An instalment with its invoice and money (the admin area's own copy: features import no other's internals). */
export type FeeStatus = Omit<Tables<'long_term_fee_status'>, 'state'> & { state: FeeState | null };

export const staffFeeKeys = { all: ['long-term-fees', 'staff'] as const };

/** Every instalment with its state, failed debits and overdue fees first (public.long_term_fees_overview, staff). */
export function feesOverviewQueryOptions() {
  return queryOptions({
    queryKey: staffFeeKeys.all,
    queryFn: async (): Promise<FeeStatus[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('long_term_fees_overview', { p_limit: 1000 }).overrideTypes<FeeStatus[]>();
      if (error) throw error;
      return data;
    },
  });
}

/** What record_fee_transfer and repay_fee_overpayment answer: the ledger row and the fee's balance. */
type FeeTransferAnswer = { payment_id: string; replay: boolean; balance_cents: number; state: string };

/** One of the two transfers staff record for a fee; both take the same arguments. */
function useFeeTransferRpc(fn: 'record_fee_transfer' | 'repay_fee_overpayment') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { feeId: string; amountCents: number; note: string; requestKey: string }) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc(fn, {
        p_fee_id: v.feeId,
        p_amount_cents: v.amountCents,
        p_request_key: v.requestKey,
        p_note: v.note || undefined,
      });
      if (error) throw error;
      return data as FeeTransferAnswer;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['long-term-fees'] }),
  });
}

/**
 * Records an incoming bank transfer for a fee (public.record_fee_transfer). The request key is
 * made once per form and kept across retries, so a double click or a lost answer records the
 * transfer once (ADR 0048).
 */
export function useRecordFeeTransfer() {
  return useFeeTransferRpc('record_fee_transfer');
}

/**
 * Records that an overpaid fee's money went back to the holder by transfer
 * (public.repay_fee_overpayment): at most what is overpaid, once per request key (ADR 0048).
 */
export function useRepayFeeOverpayment() {
  return useFeeTransferRpc('repay_fee_overpayment');
}
