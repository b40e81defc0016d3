import { describe, expect, it } from 'vitest';
import { TZDate } from '@date-fns/tz';
import { addDays, differenceInCalendarDays, format, parseISO } from 'date-fns';
import { de, enGB } from 'date-fns/locale';
import {
  addDaysIso,
  berlinDay,
  berlinToday,
  formatBerlinDateTime,
  formatBerlinShort,
  formatBerlinTime,
  formatDay,
  HARBOUR_TIME_ZONE,
  nightsBetween,
} from '@/lib/dates';

// src/lib/dates.ts formats without date-fns (so booking step 1 loads less); these are the
// date-fns formulas it used before, and every text must stay as they gave it.
const before = {
  formatDay: (day: string, locale: string) =>
    format(parseISO(day), locale === 'en' ? 'EEE, d MMM yyyy' : 'EEE, d. MMM yyyy', { locale: locale === 'en' ? enGB : de }),
  addDaysIso: (day: string, n: number) => format(addDays(parseISO(day), n), 'yyyy-MM-dd'),
  nightsBetween: (a: string, b: string) => differenceInCalendarDays(parseISO(b), parseISO(a)),
  berlinDay: (instant: string | Date) => format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), 'yyyy-MM-dd'),
  formatBerlinDateTime: (instant: string | Date, locale: string) =>
    format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), locale === 'en' ? 'EEE, d MMM yyyy, HH:mm' : "EEE, d. MMM yyyy, HH:mm 'Uhr'", {
      locale: locale === 'en' ? enGB : de,
    }),
  formatBerlinShort: (instant: string | Date, locale: string) =>
    format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), locale === 'en' ? 'dd/MM/yy, HH:mm' : 'dd.MM.yy, HH:mm'),
  formatBerlinTime: (instant: string | Date) => format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), 'HH:mm'),
};

const days: string[] = [];
for (let t = Date.UTC(2023, 11, 25); t <= Date.UTC(2032, 0, 5); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));

describe('dates without date-fns give the texts date-fns gave', () => {
  it('formats every day of 2024–2031 in German and English', () => {
    expect(formatDay('2026-12-05', 'de')).toBe('Sa., 5. Dez. 2026');
    expect(formatDay('2026-12-05', 'en')).toBe('Sat, 5 Dec 2026');
    for (const day of days) {
      for (const locale of ['de', 'en']) expect(formatDay(day, locale)).toBe(before.formatDay(day, locale));
    }
  });

  it('adds days and counts nights across years, leap days and daylight saving', () => {
    for (const [index, day] of days.entries()) {
      for (const n of [-400, -31, -1, 0, 1, 2, 30, 90, 366]) expect(addDaysIso(day, n)).toBe(before.addDaysIso(day, n));
      const other = days[(index * 7919) % days.length]!;
      expect(nightsBetween(day, other)).toBe(before.nightsBetween(day, other));
    }
  });

  it('reads instants in Europe/Berlin: every 10 minutes around both daylight-saving changes of 2026, and a sample of years', () => {
    const instants: (string | Date)[] = ['2026-12-05T13:00:00Z', '2026-12-05T14:00:00+01:00', new Date('2031-07-01T21:59:59.999Z')];
    for (const [from, to] of [
      ['2026-03-28T12:00:00Z', '2026-03-30T00:00:00Z'],
      ['2026-10-24T12:00:00Z', '2026-10-26T00:00:00Z'],
    ] as const) {
      for (let t = Date.parse(from); t <= Date.parse(to); t += 10 * 60_000) instants.push(new Date(t).toISOString());
    }
    for (let t = Date.UTC(2024, 0, 1, 0, 7); t < Date.UTC(2032, 0, 1); t += 86_400_000 * 3 + 3_600_000 * 5 + 60_000 * 13)
      instants.push(new Date(t));
    expect(formatBerlinDateTime('2026-12-05T13:00:00Z', 'de')).toBe('Sa., 5. Dez. 2026, 14:00 Uhr');
    expect(formatBerlinShort('2026-03-29T00:30:00Z', 'en')).toBe('29/03/26, 01:30');
    for (const instant of instants) {
      expect(berlinDay(instant)).toBe(before.berlinDay(instant));
      expect(formatBerlinTime(instant)).toBe(before.formatBerlinTime(instant));
      for (const locale of ['de', 'en']) {
        expect(formatBerlinDateTime(instant, locale)).toBe(before.formatBerlinDateTime(instant, locale));
        expect(formatBerlinShort(instant, locale)).toBe(before.formatBerlinShort(instant, locale));
      }
    }
    expect(berlinToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(berlinToday(new Date('2026-07-31T21:59:00Z'))).toBe('2026-07-31');
  });

  it('refuses what is no day or instant as date-fns did', () => {
    for (const bad of ['', 'x', '2026-02-30', '2026-13-01']) {
      expect(() => formatDay(bad, 'de')).toThrow(RangeError);
      expect(() => before.formatDay(bad, 'de')).toThrow(RangeError);
      expect(() => addDaysIso(bad, 1)).toThrow(RangeError);
      expect(nightsBetween(bad, '2026-01-01')).toBeNaN();
      expect(before.nightsBetween(bad, '2026-01-01')).toBeNaN();
    }
    expect(() => formatBerlinDateTime('nonsense', 'de')).toThrow(RangeError);
    expect(() => berlinDay('nonsense')).toThrow(RangeError);
  });
});
