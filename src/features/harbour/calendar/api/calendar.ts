import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import type { AppSupabaseClient } from '@/lib/supabase';
import { addDaysIso, HARBOUR_TIME_ZONE } from '@/lib/dates';
import { fetchAll } from '@/lib/fetch-all';
import { TZDate } from '@date-fns/tz';
import { harbourKeys } from '@/features/harbour/shared/keys';

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

/** One row of public.calendar_entries: an occupation once. */
export type EntryRow = Omit<CalendarEntry, 'place_name'>;

export interface CalendarData {
  days: string[];
  /** The Berlin midnights (ms) of days, and the end of the last day: one more than days. */
  dayStarts: number[];
  places: Pick<Tables<'places'>, 'id' | 'name' | 'pier'>[];
  /** place id -> its occupations touching the days, in start order (one bar each on the timeline). */
  byPlace: Record<string, CalendarEntry[]>;
}

/** The days from..to (yyyy-MM-dd), inclusive. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDaysIso(day, 1)) days.push(day);
  return days;
}

/** The instant (ms) of Berlin midnight starting `day`. */
export function berlinMidnight(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, 0, 0, 0, 0, HARBOUR_TIME_ZONE).getTime();
}

/** Groups occupations by berth in start order (the timeline draws each once, as one bar). */
export function groupByPlace(rows: EntryRow[], names: Map<string, string>): CalendarData['byPlace'] {
  const byPlace: CalendarData['byPlace'] = {};
  const sorted = rows.map((r) => ({ r, start: Date.parse(r.starts_at) })).sort((a, b) => a.start - b.start);
  for (const { r } of sorted) (byPlace[r.place_id] ??= []).push({ ...r, place_name: names.get(r.place_id) ?? '' });
  return byPlace;
}

type Client = AppSupabaseClient;

/** The berths (not archived) by name, all of them: paged past max_rows (id makes the order total). */
export function calendarPlaces(supabase: Client) {
  return fetchAll((lo, hi) =>
    supabase.from('places').select('id, name, pier').eq('archived', false).order('name').order('id').range(lo, hi),
  );
}

/**
 * Every occupation touching [from, to] of the berths `placeIds` (all berths when null), all of
 * them: a busy range passes max_rows (1,000 rows per answer), so it is paged in a total order (id
 * is unique per occupation). An error on any page fails the query: the page shows its error,
 * never a partial calendar.
 */
export function calendarEntries(supabase: Client, from: string, to: string, placeIds: string[] | null = null) {
  return fetchAll((lo, hi) =>
    // See CalendarEntry: the generated row's nullability and text types are wrong here.
    supabase
      .rpc('calendar_entries', placeIds ? { p_from: from, p_to: to, p_place_ids: placeIds } : { p_from: from, p_to: to })
      .order('id')
      .range(lo, hi)
      .overrideTypes<EntryRow[], { merge: false }>(),
  );
}

/** The days of [from, to] and their Berlin midnights (one more than days: the end of the last). */
export function calendarDays(from: string, to: string): Pick<CalendarData, 'days' | 'dayStarts'> {
  const days = daysOf(from, to);
  return { days, dayStarts: [...days, addDaysIso(to, 1)].map(berlinMidnight) };
}

/** The calendar's data for [from, to], every berth at once (tests and tools; the page loads blocks of berths). */
export async function loadCalendar(supabase: Client, from: string, to: string): Promise<CalendarData> {
  const [places, entries] = await Promise.all([calendarPlaces(supabase), calendarEntries(supabase, from, to)]);
  const names = new Map(places.map((p) => [p.id, p.name]));
  return { ...calendarDays(from, to), places, byPlace: groupByPlace(entries, names) };
}

/**
 * The timeline loads the occupations of the berths it shows, a block of PLACE_BLOCK rows at a
 * time (the block of the visible rows and the next): a month of 1,058 berths is ~7,300
 * occupations, eight max_rows pages that each ran the whole query again (issue 24 item 3).
 */
export const PLACE_BLOCK = 50;

/** The blocks of rows [first, last] (inclusive row indices) and one more below, among `rows` rows. */
export function blocksFor(first: number, last: number, rows: number): number[] {
  if (rows <= 0) return [];
  const lastBlock = Math.floor((rows - 1) / PLACE_BLOCK);
  const a = Math.min(Math.max(Math.floor(first / PLACE_BLOCK), 0), lastBlock);
  const b = Math.min(Math.max(Math.floor(last / PLACE_BLOCK) + 1, a), lastBlock);
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

/** A short stable key for a list of ids (which berths a block holds). */
function idsKey(ids: readonly string[]): string {
  let h = 0;
  for (const id of ids) for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return `${ids.length}:${ids[0] ?? ''}:${(h >>> 0).toString(36)}`;
}

/** The berths of the timeline (staff), by name: changes rarely, so kept for a minute. */
export const calendarPlacesQueryOptions = () =>
  queryOptions({
    queryKey: harbourKeys.calendarPlaces(),
    queryFn: async () => calendarPlaces(await getSupabase()),
    staleTime: 60_000,
  });

/** The occupations of the berths `placeIds` touching [from, to], by berth (staff only; the function refuses others). */
export const calendarBlockQueryOptions = (from: string, to: string, placeIds: readonly string[], names: ReadonlyMap<string, string>) =>
  queryOptions({
    queryKey: harbourKeys.calendar(from, to, idsKey(placeIds)),
    queryFn: async (): Promise<CalendarData['byPlace']> =>
      groupByPlace(await calendarEntries(await getSupabase(), from, to, [...placeIds]), names as Map<string, string>),
    staleTime: 30_000,
  });
