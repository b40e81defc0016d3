import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

/** One overdue fee as my_fee_access_hold() lists it (65_fee_reminders.sql). */
export interface OverdueFee {
  reference: string;
  instalment: number;
  instalments: number;
  invoice_number: string | null;
  due_on: string;
  days_overdue: number;
  balance_cents: number;
}

/** The caller's overdue long-term fees and whether the door code and wifi are withheld for them. */
export interface FeeAccessHold {
  withheld: boolean;
  grace_days: number;
  withheld_from: string;
  open_cents: number;
  iban: string;
  fees: OverdueFee[];
}

/** Null when nothing of the caller's is overdue (a guest, a holder who paid). */
async function fetchFeeAccessHold(): Promise<FeeAccessHold | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('my_fee_access_hold');
  if (error) throw error;
  return (data as FeeAccessHold | null) ?? null;
}

export const feeAccessHoldQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['service', 'fee-access-hold', userId], queryFn: fetchFeeAccessHold, staleTime: 60_000, retry: false });
