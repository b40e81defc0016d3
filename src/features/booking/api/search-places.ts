import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { retryUnlessRefused } from '@/lib/retry';
import { draughtOf, parseDecimal, stayParams, type BerthDataValues } from '@/features/booking/schemas/berth-values';
import { bookingKeys } from '@/features/booking/api/keys';
import type { PlaceResult, PlaceResultOverride } from '@/features/booking/api/types';

export function searchParams(berth: BerthDataValues) {
  const draught = draughtOf(berth);
  return {
    ...stayParams(berth),
    p_boat_length: parseDecimal(berth.boatLength),
    p_boat_width: parseDecimal(berth.boatWidth),
    // Only when given: berths too shallow for it at the stay's level are left out (ADR 0053).
    ...(draught !== null ? { p_boat_draught: draught } : {}),
  };
}

/** Berths that fit the boat and are free for the whole stay, smallest first (search_available_places). */
export const searchPlacesQueryOptions = (berth: BerthDataValues) => {
  const params = searchParams(berth);
  return queryOptions({
    queryKey: bookingKeys.search(params),
    queryFn: async (): Promise<PlaceResult[]> => {
      const supabase = await getSupabase();
      // RETURNS TABLE nullability and the jsonb quote: see PlaceResultOverride.
      const { data, error } = await supabase.rpc('search_available_places', params).overrideTypes<PlaceResultOverride[]>();
      if (error) throw error;
      return data;
    },
    staleTime: 0,
    // A refused search (period_in_past, beyond_booking_horizon: 22023) is the answer: no retry,
    // and no second request when step 2 mounts after its loader got the refusal (issue 40 item 4).
    retry: retryUnlessRefused,
    retryOnMount: false,
  });
};
