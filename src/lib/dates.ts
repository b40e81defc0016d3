/**
 * Days and times as people in Düsseldorf read them, without date-fns: calendar days are counted
 * in UTC (no daylight saving there), instants are read in Europe/Berlin by the browser's Intl,
 * and the names are date-fns' German and British abbreviations (its `de` and `enGB` locales,
 * which these functions used before), so every text is as it was (tests/unit/dates.test.ts
 * compares them with date-fns). Booking step 1, the first screen of /start/booking, uses them:
 * date-fns and @date-fns/tz would be ~9 KB gzip of its first download.
 */

/** Everything a person sees is in the harbour's time zone (docs/architecture.md "Conventions"). */
export const HARBOUR_TIME_ZONE = 'Europe/Berlin';

const DAY_MS = 24 * 60 * 60 * 1000;
const names = {
  de: {
    weekdays: ['So.', 'Mo.', 'Di.', 'Mi.', 'Do.', 'Fr.', 'Sa.'],
    months: ['Jan.', 'Feb.', 'März', 'Apr.', 'Mai', 'Juni', 'Juli', 'Aug.', 'Sep.', 'Okt.', 'Nov.', 'Dez.'],
  },
  en: {
    weekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  },
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A day and a wall-clock time. */
interface Fields {
  year: number;
  month: number;
  date: number;
  hour: number;
  minute: number;
}

function invalid(): never {
  // date-fns' format threw this for an invalid date; callers keep seeing the same.
  throw new RangeError('Invalid time value');
}

/** A yyyy-MM-dd day (anything after the day, such as a time, is ignored) as UTC midnight in ms. */
function dayToUtc(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return Number.NaN;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = Date.UTC(year, month - 1, date);
  const check = new Date(utc);
  // 2026-02-30 is no day (date-fns' parseISO refused it too).
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return Number.NaN;
  return utc;
}

function utcFields(utc: number): Fields {
  const d = new Date(utc);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, date: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
}

const isoDay = (f: Fields) => `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.date)}`;

let berlinFormat: Intl.DateTimeFormat | undefined;

/** The wall clock in Düsseldorf at an instant. */
function berlinFields(instant: string | Date): Fields {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) invalid();
  berlinFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: HARBOUR_TIME_ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const parts: Record<string, number> = {};
  for (const part of berlinFormat.formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year!, month: parts.month!, date: parts.day!, hour: parts.hour! % 24, minute: parts.minute! };
}

/** "Sa., 5. Dez. 2026" / "Sat, 5 Dec 2026" (date-fns: 'EEE, d. MMM yyyy' / 'EEE, d MMM yyyy'). */
function dayText(f: Fields, locale: string): string {
  const en = locale === 'en';
  const { weekdays, months } = en ? names.en : names.de;
  const weekday = weekdays[new Date(Date.UTC(f.year, f.month - 1, f.date)).getUTCDay()]!;
  return `${weekday}, ${f.date}${en ? '' : '.'} ${months[f.month - 1]} ${pad(f.year, 4)}`;
}

/** Today's calendar day in Düsseldorf as yyyy-MM-dd. */
export function berlinToday(now: Date = new Date()): string {
  return isoDay(berlinFields(now));
}

/** The Düsseldorf calendar day (yyyy-MM-dd) of an instant. */
export function berlinDay(instant: string | Date): string {
  return isoDay(berlinFields(instant));
}

/** A yyyy-MM-dd day plus n days. */
export function addDaysIso(day: string, n: number): string {
  const utc = dayToUtc(day);
  if (Number.isNaN(utc)) invalid();
  return isoDay(utcFields(utc + n * DAY_MS));
}

/** Nights between two yyyy-MM-dd days (a date difference, never seconds / 86400: UTC days have no daylight saving). */
export function nightsBetween(arrival: string, departure: string): number {
  return Math.round((dayToUtc(departure) - dayToUtc(arrival)) / DAY_MS);
}

/** A calendar day (yyyy-MM-dd) for people: "Sa., 5. Dez. 2026" / "Sat, 5 Dec 2026". */
export function formatDay(day: string, locale: string): string {
  const utc = dayToUtc(day);
  if (Number.isNaN(utc)) invalid();
  return dayText(utcFields(utc), locale);
}

/** An instant as date and time in Düsseldorf: "Sa., 5. Dez. 2026, 14:00 Uhr" / "Sat, 5 Dec 2026, 14:00". */
export function formatBerlinDateTime(instant: string | Date, locale: string): string {
  const f = berlinFields(instant);
  return `${dayText(f, locale)}, ${pad(f.hour)}:${pad(f.minute)}${locale === 'en' ? '' : ' Uhr'}`;
}

/** An instant as a short numeric date and time in Düsseldorf (tables): "05.12.26, 14:00" / "05/12/26, 14:00". */
export function formatBerlinShort(instant: string | Date, locale: string): string {
  const f = berlinFields(instant);
  const sep = locale === 'en' ? '/' : '.';
  return `${pad(f.date)}${sep}${pad(f.month)}${sep}${pad(f.year % 100)}, ${pad(f.hour)}:${pad(f.minute)}`;
}

/** An instant's wall-clock time in Düsseldorf: "14:00". */
export function formatBerlinTime(instant: string | Date): string {
  const f = berlinFields(instant);
  return `${pad(f.hour)}:${pad(f.minute)}`;
}
