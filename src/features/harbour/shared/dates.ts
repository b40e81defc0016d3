import { TZDate } from '@date-fns/tz';
import { HARBOUR_TIME_ZONE } from '@/lib/dates';

/** The instant a Berlin calendar day (yyyy-MM-dd) starts, as UTC ISO. */
export function berlinDayStart(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, 0, 0, 0, 0, HARBOUR_TIME_ZONE).getTime()).toISOString();
}
