import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { berlinToday } from '@/lib/dates';
import { bookingKeys } from '@/features/booking/api/keys';

export type FairPeriod = Pick<Tables<'fair_periods'>, 'name' | 'name_en' | 'starts_on' | 'ends_on'>;

/** Fair periods still to come (fair boater berths are bookable inside them only). */
export const fairPeriodsQueryOptions = queryOptions({
  queryKey: bookingKeys.fairPeriods(),
  queryFn: async (): Promise<FairPeriod[]> => {
    const supabase = await getSupabase();
    const { data, error } = await supabase
      .from('fair_periods')
      .select('name, name_en, starts_on, ends_on')
      .gte('ends_on', berlinToday())
      .order('starts_on');
    if (error) throw error;
    return data;
  },
  staleTime: 5 * 60_000,
});
