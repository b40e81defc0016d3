import { differenceInCalendarDays, isValid, parseISO } from 'date-fns';

/** The longest range the report functions accept (private.require_admin_range). */
export const MAX_RANGE_DAYS = 1100;

export const isIsoDay = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && isValid(parseISO(value)) && parseISO(value).toISOString().startsWith(value);

export type RangeProblem = 'order' | 'too_long';

export function rangeProblem(from: string, to: string): RangeProblem | undefined {
  const days = differenceInCalendarDays(parseISO(to), parseISO(from));
  if (days < 0) return 'order';
  if (days > MAX_RANGE_DAYS) return 'too_long';
  return undefined;
}

/** The default range: this calendar year in Düsseldorf (the season April-October and the boot fair in January lie inside). */
export function defaultRange(today: string): { from: string; to: string } {
  const year = today.slice(0, 4);
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

/** The range of the URL, or the default one. */
export function resolveRange(from: string | undefined, to: string | undefined, today: string): { from: string; to: string } {
  return from && to ? { from, to } : defaultRange(today);
}
