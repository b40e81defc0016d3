import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { HarbourStatusKind } from '@/lib/harbour-status';
import { bookingKeys } from '@/features/booking/api/keys';
import type { BerthDataValues } from '@/features/booking/schemas/berth-values';

/** One day of a stay the harbour status knows (stay_harbour_status, docs/adr/0053). */
export interface StayHarbourDay {
  /** The Berlin day (yyyy-MM-dd). */
  day: string;
  status: HarbourStatusKind;
  level_cm: number | null;
  /** Set while staff override the gauge. */
  override_reason: string | null;
}

/**
 * The harbour status of each night of the stay (a day stay: its day) that the gauge forecast or
 * a staff override says something about: the search shows why it offers no berth (closed) or
 * warns (restricted). Empty for days beyond the forecast.
 */
export const stayHarbourStatusQueryOptions = (berth: Pick<BerthDataValues, 'kind' | 'arrival' | 'departure'>) => {
  const params = { p_arrival: berth.arrival, p_departure: berth.kind === 'day' ? undefined : berth.departure };
  return queryOptions({
    queryKey: bookingKeys.harbour(params),
    queryFn: async (): Promise<StayHarbourDay[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('stay_harbour_status', params);
      if (error) throw error;
      return data as StayHarbourDay[];
    },
    staleTime: 60_000,
  });
};
