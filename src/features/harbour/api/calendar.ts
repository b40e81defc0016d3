import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { addDaysIso, berlinDay } from '@/lib/dates';
import { harbourKeys } from './keys';

export type CalendarView = 'day' | 'week' | 'month';
export const CALENDAR_SPAN: Record<CalendarView, number> = { day: 1, week: 7, month: 30 };

/** The range a view shows from its first day (today first). */
export function calendarRange(from: string, view: CalendarView) {
  return { from, to: addDaysIso(from, CALENDAR_SPAN[view] - 1) };
}

/** One occupation of a berth on a day, as public.calendar returns it (Europe/Berlin days). */
export interface CalendarEntry {
  id: string;
  place_id: string;
  place_name: string;
  type: 'reservation' | 'rent' | 'service' | 'long_term';
  order_id: string | null;
  order_status: string | null;
  starts_at: string;
  ends_at: string | null;
  note: string | null;
  boat_name: string | null;
  guest: string | null;
  block_reason: 'maintenance' | 'reserved' | null;
}

export interface CalendarData {
  days: string[];
  places: { id: string; name: string; pier: string | null }[];
  /** place id -> day -> occupations */
  cells: Record<string, Record<string, CalendarEntry[]>>;
}

/** One row of public.calendar_entries: an occupation once, not yet spread over days. */
type EntryRow = Omit<CalendarEntry, 'place_name'>;

/**
 * Spreads occupations over the Berlin days [from, to] they touch (first day: the start's date;
 * last day: the date just before the end; open-ended holdings to the last day shown), in
 * start order per cell, as public.calendar does in SQL.
 */
export function spreadEntries(rows: EntryRow[], names: Map<string, string>, from: string, to: string): CalendarData['cells'] {
  const cells: CalendarData['cells'] = {};
  const sorted = [...rows].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at));
  for (const row of sorted) {
    const entry: CalendarEntry = { ...row, place_name: names.get(row.place_id) ?? '' };
    const first = berlinDay(row.starts_at) < from ? from : berlinDay(row.starts_at);
    const end = row.ends_at === null ? to : berlinDay(new Date(new Date(row.ends_at).getTime() - 1));
    const last = end > to ? to : end;
    const byDay = (cells[row.place_id] ??= {});
    for (let day = first; day <= last; day = addDaysIso(day, 1)) (byDay[day] ??= []).push(entry);
  }
  return cells;
}

/**
 * All berths and their occupations per day of [from, to] (staff only; RLS and the function
 * refuse others). calendar_entries sends each occupation once (a month of 1,000 berths is ~4.5
 * times less data than the day-by-day calendar()); it is spread over the days here.
 */
export const calendarQueryOptions = (from: string, to: string) =>
  queryOptions({
    queryKey: harbourKeys.calendar(from, to),
    queryFn: async (): Promise<CalendarData> => {
      const supabase = await getSupabase();
      const [places, entries] = await Promise.all([
        supabase.from('places').select('id, name, pier').eq('archived', false).order('name'),
        supabase.rpc('calendar_entries', { p_from: from, p_to: to }),
      ]);
      if (places.error) throw places.error;
      if (entries.error) throw entries.error;
      const list = (places.data ?? []) as CalendarData['places'];
      const names = new Map(list.map((p) => [p.id, p.name]));
      const days: string[] = [];
      for (let day = from; day <= to; day = addDaysIso(day, 1)) days.push(day);
      return { days, places: list, cells: spreadEntries((entries.data ?? []) as unknown as EntryRow[], names, from, to) };
    },
    staleTime: 30_000,
  });
