import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Enums } from '@/lib/database.types';
import { bookingKeys } from '@/features/booking/api/keys';

export interface PaymentTerms {
  mode: Enums<'payment_mode'>;
  /** How long an unpaid booking holds its berth when it must be paid online. */
  hold_minutes: number;
}

/** How a booking of this kind is paid (the admin's setting now; the order keeps it when booked). */
export const paymentTermsQueryOptions = (kind: Enums<'order_kind'>) =>
  queryOptions({
    queryKey: bookingKeys.paymentTerms(kind),
    queryFn: async (): Promise<PaymentTerms> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('payment_terms', { p_kind: kind });
      if (error) throw error;
      // payment_terms returns jsonb (`Json` in the generated type): {mode, hold_minutes}.
      return data as unknown as PaymentTerms;
    },
    staleTime: 60_000,
  });
