import { TZDate } from '@date-fns/tz';
import { addDays, differenceInCalendarDays, format, parseISO } from 'date-fns';
import { de, enGB } from 'date-fns/locale';

/** Everything a person sees is in the harbour's time zone (ARCHITECTURE.md "Conventions"). */
export const HARBOUR_TIME_ZONE = 'Europe/Berlin';

const dateLocale = (locale: string) => (locale === 'en' ? enGB : de);

/** Today's calendar day in Düsseldorf as yyyy-MM-dd. */
export function berlinToday(now: Date = new Date()): string {
  return format(new TZDate(now, HARBOUR_TIME_ZONE), 'yyyy-MM-dd');
}

/** The Düsseldorf calendar day (yyyy-MM-dd) of an instant. */
export function berlinDay(instant: string | Date): string {
  return format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), 'yyyy-MM-dd');
}

/** A yyyy-MM-dd day plus n days. */
export function addDaysIso(day: string, n: number): string {
  return format(addDays(parseISO(day), n), 'yyyy-MM-dd');
}

/** Nights between two yyyy-MM-dd days (a date difference, never seconds / 86400). */
export function nightsBetween(arrival: string, departure: string): number {
  return differenceInCalendarDays(parseISO(departure), parseISO(arrival));
}

/** A calendar day (yyyy-MM-dd) for people: "Sa., 5. Dez. 2026" / "Sat, 5 Dec 2026". */
export function formatDay(day: string, locale: string): string {
  return format(parseISO(day), locale === 'en' ? 'EEE, d MMM yyyy' : 'EEE, d. MMM yyyy', { locale: dateLocale(locale) });
}

/** An instant as date and time in Düsseldorf: "Sa., 5. Dez. 2026, 14:00". */
export function formatBerlinDateTime(instant: string | Date, locale: string): string {
  const at = new TZDate(new Date(instant), HARBOUR_TIME_ZONE);
  return format(at, locale === 'en' ? 'EEE, d MMM yyyy, HH:mm' : "EEE, d. MMM yyyy, HH:mm 'Uhr'", { locale: dateLocale(locale) });
}

/** An instant as a short numeric date and time in Düsseldorf (tables): "05.12.26, 14:00" / "05/12/26, 14:00". */
export function formatBerlinShort(instant: string | Date, locale: string): string {
  return format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), locale === 'en' ? 'dd/MM/yy, HH:mm' : 'dd.MM.yy, HH:mm');
}

/** An instant's wall-clock time in Düsseldorf: "14:00". */
export function formatBerlinTime(instant: string | Date): string {
  return format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), 'HH:mm');
}
