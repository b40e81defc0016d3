import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { retryUnlessRefused } from '@/lib/retry';
import { draughtOf, parseDecimal, stayParams, type BerthDataValues } from '@/features/booking/schemas/berth-values';
import { bookingKeys } from '@/features/booking/api/keys';

/** How many berths the search left out as too shallow for the draught, at which level (ADR 0053). */
export interface DepthNotice {
  too_shallow: number;
  level_cm: number | null;
  level_source: 'forecast' | 'now' | null;
  margin_cm: number;
}

/** Only asked when a draught was given (search_depth_notice); null otherwise. */
export const searchDepthNoticeQueryOptions = (berth: BerthDataValues) => {
  const draught = draughtOf(berth);
  const params = {
    ...stayParams(berth),
    p_boat_length: parseDecimal(berth.boatLength),
    p_boat_width: parseDecimal(berth.boatWidth),
    p_boat_draught: draught ?? 0,
  };
  return queryOptions({
    queryKey: bookingKeys.depthNotice(params),
    queryFn: async (): Promise<DepthNotice | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('search_depth_notice', params).overrideTypes<DepthNotice[]>();
      if (error) throw error;
      return data[0] ?? null;
    },
    enabled: draught !== null,
    staleTime: 0,
    retry: retryUnlessRefused,
  });
};
