import { addDaysIso, HARBOUR_TIME_ZONE } from '@/lib/dates';
import type { CalendarData, CalendarEntry } from './calendar';

/** One row of public.calendar_entries: an occupation once, not yet spread over days. */
export type EntryRow = Omit<CalendarEntry, 'place_name'>;

// en-CA formats a date as yyyy-MM-dd; one formatter for all rows (thousands per month).
const berlinDate = new Intl.DateTimeFormat('en-CA', { timeZone: HARBOUR_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The days from..to (yyyy-MM-dd), inclusive. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDaysIso(day, 1)) days.push(day);
  return days;
}

/**
 * Spreads occupations over the Berlin days [from, to] they touch (first day: the start's date;
 * last day: the date just before the end; open-ended holdings to the last day shown), in
 * start order per cell, as public.calendar does in SQL.
 */
export function spreadEntries(rows: EntryRow[], names: Map<string, string>, days: string[]): CalendarData['cells'] {
  const cells: CalendarData['cells'] = {};
  if (days.length === 0) return cells;
  const index = new Map(days.map((d, i) => [d, i]));
  const from = days[0]!;
  const to = days[days.length - 1]!;
  const sorted = rows.map((r) => ({ r, start: Date.parse(r.starts_at) })).sort((a, b) => a.start - b.start);
  for (const { r, start } of sorted) {
    const entry: CalendarEntry = { ...r, place_name: names.get(r.place_id) ?? '' };
    const firstDay = berlinDate.format(start);
    const lastDay = r.ends_at === null ? to : berlinDate.format(Date.parse(r.ends_at) - 1);
    const first = firstDay < from ? 0 : index.get(firstDay);
    const last = lastDay > to ? days.length - 1 : index.get(lastDay);
    if (first === undefined || last === undefined) continue;
    const byDay = (cells[r.place_id] ??= {});
    for (let i = first; i <= last; i++) (byDay[days[i]!] ??= []).push(entry);
  }
  return cells;
}
