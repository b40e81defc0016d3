import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import type { AppSupabaseClient } from '@/lib/supabase';
import { addDaysIso } from '@/lib/dates';
import { fetchAll } from '@/lib/fetch-all';
import { daysOf, spreadEntries, type EntryRow } from './calendar-spread';
import { harbourKeys } from './keys';

export type CalendarView = 'day' | 'week' | 'month';
export const CALENDAR_SPAN: Record<CalendarView, number> = { day: 1, week: 7, month: 30 };

/** The range a view shows from its first day (today first). */
export function calendarRange(from: string, view: CalendarView) {
  return { from, to: addDaysIso(from, CALENDAR_SPAN[view] - 1) };
}

/**
 * One occupation of a berth on a day, as public.calendar returns it (Europe/Berlin days). Kept by
 * hand: the generated row of calendar_entries types every RETURNS TABLE column as a not-null
 * string, but type and block_reason are fixed sets and most columns are null for some entries.
 */
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
  places: Pick<Tables<'places'>, 'id' | 'name' | 'pier'>[];
  /** place id -> day -> occupations */
  cells: Record<string, Record<string, CalendarEntry[]>>;
}

type Client = AppSupabaseClient;

/** The berths (not archived) by name, all of them: paged past max_rows (id makes the order total). */
export function calendarPlaces(supabase: Client) {
  return fetchAll((lo, hi) => supabase.from('places').select('id, name, pier').eq('archived', false).order('name').order('id').range(lo, hi));
}

/**
 * Every occupation touching [from, to], all of them: a busy month passes max_rows (1,000 rows
 * per answer), so it is paged in a total order (id is unique per occupation). An error on any
 * page fails the query: the page shows its error, never a partial calendar.
 */
export function calendarEntries(supabase: Client, from: string, to: string) {
  return fetchAll((lo, hi) =>
    // See CalendarEntry: the generated row's nullability and text types are wrong here.
    supabase.rpc('calendar_entries', { p_from: from, p_to: to }).order('id').range(lo, hi).overrideTypes<EntryRow[], { merge: false }>(),
  );
}

/** The calendar's data for [from, to] through `supabase` (the query function's body). */
export async function loadCalendar(supabase: Client, from: string, to: string): Promise<CalendarData> {
  const [places, entries] = await Promise.all([calendarPlaces(supabase), calendarEntries(supabase, from, to)]);
  const names = new Map(places.map((p) => [p.id, p.name]));
  const days = daysOf(from, to);
  return { days, places, cells: spreadEntries(entries, names, days) };
}

/**
 * All berths and their occupations per day of [from, to] (staff only; RLS and the function
 * refuse others). calendar_entries sends each occupation once (a month of 1,000 berths is ~4.5
 * times less data than the day-by-day calendar()); it is spread over the days here.
 */
export const calendarQueryOptions = (from: string, to: string) =>
  queryOptions({
    queryKey: harbourKeys.calendar(from, to),
    queryFn: async (): Promise<CalendarData> => loadCalendar(await getSupabase(), from, to),
    staleTime: 30_000,
  });
