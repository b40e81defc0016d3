import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { parseDecimal, stayParams, type BerthDataValues } from '@/features/booking/schemas/berth-values';
import { bookingKeys } from '@/features/booking/api/keys';
import type { Quote } from '@/features/booking/api/types';

/** The price breakdown of the stay (quote_booking), with an optional sale code. */
export const quoteQueryOptions = (berth: BerthDataValues, saleCode: string) => {
  const params = { ...stayParams(berth), p_boat_length: parseDecimal(berth.boatLength), p_sale_code: saleCode || undefined };
  return queryOptions({
    queryKey: bookingKeys.quote(params),
    queryFn: async (): Promise<Quote> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('quote_booking', params);
      if (error) throw error;
      // quote_booking returns jsonb, `Json` in the generated type (overrideTypes refuses Json's array arm): it is a Quote.
      return data as unknown as Quote;
    },
    staleTime: 0,
    retry: false,
  });
};
