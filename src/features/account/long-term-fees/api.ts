import { queryOptions, useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { FunctionCallError, invokeFunction } from '@/lib/edge-functions';
import type { Tables } from '@/lib/database.types';

/** The states public.long_term_fee_status derives (text in the generated row). */
export type FeeState = 'open' | 'overdue' | 'processing' | 'partially_paid' | 'paid' | 'overpaid' | 'failed' | 'cancelled';

/** An instalment with its invoice and money, as the holder (RLS: own rows) or staff read it. */
export type FeeStatus = Omit<Tables<'long_term_fee_status'>, 'state'> & { state: FeeState | null };

/** A SEPA mandate as its holder reads it. */
export type Mandate = Pick<Tables<'sepa_mandates'>, 'id' | 'contract_id' | 'reference' | 'iban_last4' | 'status' | 'created_at'>;

export const feeKeys = {
  mine: ['long-term-fees', 'mine'] as const,
  mandates: ['long-term-fees', 'mandates'] as const,
};

/** My instalments, by due day (docs/adr/0048-seasonal-fees-and-sepa.md). */
export function myFeesQueryOptions() {
  return queryOptions({
    queryKey: feeKeys.mine,
    queryFn: async (): Promise<FeeStatus[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('long_term_fee_status')
        .select('*')
        .order('due_on')
        .order('instalment')
        .overrideTypes<FeeStatus[]>();
      if (error) throw error;
      return data;
    },
  });
}

/** My SEPA mandates, newest first. */
export function myMandatesQueryOptions() {
  return queryOptions({
    queryKey: feeKeys.mandates,
    queryFn: async (): Promise<Mandate[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('sepa_mandates')
        .select('id, contract_id, reference, iban_last4, status, created_at')
        .order('created_at', { ascending: false });
      if (error) throw error;
      return data;
    },
  });
}

/**
 * Starts the SEPA mandate of a contract (edge function create-sepa-setup: Stripe Checkout in
 * setup mode). Resolves to the hosted page's URL; the webhook stores the mandate.
 */
export function useStartSepaSetup() {
  return useMutation({
    mutationFn: async (contractId: string): Promise<string> => {
      const { url } = await invokeFunction<{ url: string }>('create-sepa-setup', { contract_id: contractId });
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new FunctionCallError('unknown');
      return url;
    },
  });
}
