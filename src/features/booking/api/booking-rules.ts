import { getSupabase } from '@/lib/auth';
import { berlinToday } from '@/lib/dates';
import { bookingKeys } from '@/features/booking/api/keys';
import type { FairPeriod } from '@/features/booking/api/fair-periods';

/**
 * What step 1 checks a stay against before it searches (issue 40 items 4 and 10): the fair
 * periods still to come and the booking horizon (the last day a stay may end,
 * public.booking_last_day()). The database checks the same in every booking function.
 */
export interface BookingRules {
  fairs: FairPeriod[];
  lastDay: string;
}

let pending: { at: number; promise: Promise<BookingRules> } | undefined;

async function fetchRules(): Promise<BookingRules> {
  const supabase = await getSupabase();
  const [fairs, horizon] = await Promise.all([
    supabase.from('fair_periods').select('name, name_en, starts_on, ends_on').gte('ends_on', berlinToday()).order('starts_on'),
    supabase.rpc('booking_last_day'),
  ]);
  if (fairs.error) throw fairs.error;
  if (horizon.error) throw horizon.error;
  return { fairs: fairs.data, lastDay: horizon.data };
}

/** The rules, fetched once per five minutes (the form's resolver and its calendar share them). */
export function bookingRules(): Promise<BookingRules> {
  if (!pending || Date.now() - pending.at > 5 * 60_000) {
    const promise = fetchRules();
    pending = { at: Date.now(), promise };
    promise.catch(() => {
      if (pending?.promise === promise) pending = undefined;
    });
  }
  return pending.promise;
}

export const bookingRulesQueryOptions = {
  queryKey: [...bookingKeys.all, 'rules'] as const,
  queryFn: bookingRules,
  staleTime: 5 * 60_000,
};
