/**
 * The staff calendar (issue 11): a month of the berth calendar for the seeded harbour (~60
 * berths) and for 1,000 more, on the local stack (PGlite in memory, seed):
 * - the SQL alone: the day-by-day calendar() before and after 20261122002200 and the compact
 *   calendar_entries() the page now uses;
 * - the page's queries as the browser runs them (HTTP, harbour staff's session): berths +
 *   calendar_entries, grouped by berth with each stay's bar among the day columns (barSpan of
 *   src/features/harbour/calendar/api/timeline-layout.ts, the module the timeline draws with), and the
 *   earlier berths + calendar();
 * - booking -> staff calendar updated: a customer books (create_booking over HTTP) while a
 *   staff client is subscribed like the calendar page (postgres_changes INSERT/UPDATE on
 *   place_statuses and orders); measured to the first event and to the refetched calendar
 *   holding the booking.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startStack, type Stack } from '../supabase/local/src/stack.ts';
import { summarise, type BenchRow } from '../supabase/local/bench/types.ts';
import { fetchAll } from '../src/lib/fetch-all.ts';
import { signInWithPassword } from '../supabase/local/test/harness/demo-staff.ts';
import { barSpan } from '../src/features/harbour/calendar/api/timeline-layout.ts';
import { TZDate } from '@date-fns/tz';

const root = resolve(import.meta.dirname, '..');
const RUNS = 5;
const LATENCY_RUNS = 10;
const ADMIN = 'a0000000-0000-4000-8000-000000000001';

/** One row of calendar_entries (as src/features/harbour/calendar/api/calendar.ts reads it). */
interface EntryRow {
  id: string;
  place_id: string;
  order_id: string | null;
  starts_at: string;
  ends_at: string | null;
}

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${from}T12:00:00Z`); d.toISOString().slice(0, 10) <= to; d.setUTCDate(d.getUTCDate() + 1))
    days.push(d.toISOString().slice(0, 10));
  return days;
}

/** The instant (ms) of Berlin midnight starting `day` (as berlinMidnight in src/features/harbour/calendar/api/calendar.ts). */
function berlinMidnight(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, 0, 0, 0, 0, 'Europe/Berlin').getTime();
}

/**
 * What the page does with the rows: grouped by berth in start order (as groupByPlace in
 * src/features/harbour/calendar/api/calendar.ts, which is not imported: that module and its imports need
 * the app's '@/' paths, which the stack's tsconfig that checks this bench does not have), and
 * each stay's bar among the day columns with the timeline's own barSpan (timeline-layout.ts has
 * no imports, so the real module is used).
 */
function timelineBars(rows: EntryRow[], names: Map<string, string>, days: string[]) {
  const after = new Date(`${days[days.length - 1]!}T12:00:00Z`);
  after.setUTCDate(after.getUTCDate() + 1);
  // One more than the days: the end of the last day.
  const dayStarts = [...days, after.toISOString().slice(0, 10)].map(berlinMidnight);
  const byPlace: Record<string, { entry: EntryRow & { place_name: string }; span: NonNullable<ReturnType<typeof barSpan>> }[]> = {};
  const sorted = rows.map((r) => ({ r, start: Date.parse(r.starts_at) })).sort((a, b) => a.start - b.start);
  for (const { r, start } of sorted) {
    const span = barSpan(start, r.ends_at === null ? null : Date.parse(r.ends_at), dayStarts);
    if (span) (byPlace[r.place_id] ??= []).push({ entry: { ...r, place_name: names.get(r.place_id) ?? '' }, span });
  }
  return byPlace;
}

const progress = (what: string) => process.stderr.write(`  calendar bench: ${what} (${new Date().toISOString().slice(11, 19)})\n`);

/** Rows pushed are also printed at once, so a later failure keeps the figures measured so far. */
function printing(rows: BenchRow[]): BenchRow[] {
  const push = rows.push.bind(rows);
  rows.push = (...items: BenchRow[]) => {
    for (const r of items)
      process.stderr.write(`  calendar bench: ${r.name}: median ${r.median} ${r.unit}, p10–p90 ${r.p10}–${r.p90} (${r.note ?? ''})\n`);
    return push(...items);
  };
  return rows;
}

const spread = (samples: number[]) => `min ${Math.round(Math.min(...samples))}, max ${Math.round(Math.max(...samples))}`;

function berlinDay(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

/**
 * The calendar function as it was before 20261122002200 (from 20261122001700, a migration folded
 * into the baseline since: kept in bench/fixtures), for the comparison.
 */
function calendarBefore(): string {
  const sql = readFileSync(resolve(root, 'bench/fixtures/calendar-days-before.sql'), 'utf8');
  return sql.replace('private.calendar_days(', 'private.bench_calendar_days_before(');
}

/** A year of stays on 1,000 more berths (the data of supabase/local/bench/operations.bench.ts). */
function largeHarbour(): string {
  const src = readFileSync(resolve(root, 'supabase/local/bench/operations.bench.ts'), 'utf8');
  return src.split('await db.exec(`')[1]!.split('`);')[0]!;
}

async function timeSql(stack: Stack, sql: string, asAdmin: boolean): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    await stack.db.transaction(async (tx) => {
      if (asAdmin) {
        await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify({ sub: ADMIN, role: 'authenticated', aal: 'aal2' }),
        ]);
      }
      await tx.query(sql);
    });
    if (i > 0) samples.push(performance.now() - t0);
  }
  return samples;
}

async function client(stack: Stack, email: string, password: string): Promise<SupabaseClient> {
  const c = createClient(stack.url, stack.keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await signInWithPassword(c, { email, password });
  if (error) throw error;
  await c.realtime.setAuth();
  return c;
}

/** A supabase-js error as an Error that keeps its details (a fetch failure's cause is there). */
function failure(e: { message: string; details?: string | null; hint?: string | null; code?: string }): Error {
  return new Error([e.message, e.code, e.details, e.hint].filter(Boolean).join(' | '));
}

/** The calendar page's month: berths + calendar_entries, grouped by berth with each stay's bar (as the timeline). */
async function pageQuery(staff: SupabaseClient, from: string, to: string) {
  // As src/features/harbour/calendar/api/calendar.ts loads them: paged past max_rows in a total order.
  const [places, rows] = await Promise.all([
    fetchAll<{ id: string; name: string }>((lo, hi) =>
      staff.from('places').select('id, name, pier').eq('archived', false).order('name').order('id').range(lo, hi),
    ),
    fetchAll<EntryRow>((lo, hi) => staff.rpc('calendar_entries', { p_from: from, p_to: to }).order('id').range(lo, hi)),
  ]).catch((error: unknown) => {
    throw failure(error as { message: string });
  });
  const names = new Map(places.map((p) => [p.id, p.name]));
  return { bars: timelineBars(rows, names, daysOf(from, to)), rows, berths: names.size };
}

async function sqlAndPage(stack: Stack, staff: SupabaseClient, size: string, note: string, withOldPage: boolean): Promise<BenchRow[]> {
  const out = printing([]);
  const from = berlinDay(-60);
  const to = berlinDay(-31); // 30 days, the page's month view
  const args = `'${from}', '${to}'`;
  const before = await timeSql(stack, `select * from private.bench_calendar_days_before(${args}, null)`, false);
  const after = await timeSql(stack, `select * from private.calendar_days(${args}, null)`, false);
  const entries = await timeSql(stack, `select * from private.calendar_entries(${args}, null)`, false);
  const asAdmin = await timeSql(stack, `select * from public.calendar_entries(${args})`, true);
  out.push(summarise(`SQL calendar() month, before (${size})`, 'ms', before, `${note}; ${spread(before)}`));
  out.push(summarise(`SQL calendar() month, after (${size})`, 'ms', after, `${note}; same result, json text per entry; ${spread(after)}`));
  out.push(summarise(`SQL calendar_entries() month (${size})`, 'ms', entries, `${note}; one row per occupation; ${spread(entries)}`));
  out.push(summarise(`SQL calendar_entries() month as staff (${size})`, 'ms', asAdmin, `${note}; role + claims as PostgREST sets them`));

  const page: number[] = [];
  const old: number[] = [];
  // The earlier page query (8 MB of day-by-day JSON at 1,000 berths) once ended in "fetch
  // failed" here: not a timeout but the stack closing a keep-alive socket the client had just
  // sent its request on (fixed in supabase/local/src/stack.ts, closeIfStillIdle); it is
  // measured at both sizes again.
  let rows = 0;
  let berths = 0;
  let bytesNew = 0;
  let bytesOld = 0;
  for (let i = 0; i <= RUNS; i++) {
    let t0 = performance.now();
    const r = await pageQuery(staff, from, to);
    if (i > 0) page.push(performance.now() - t0);
    rows = r.rows.length;
    berths = r.berths;
    bytesNew = JSON.stringify(r.rows).length;
    if (!withOldPage) continue;
    t0 = performance.now();
    const [places, cal] = await Promise.all([
      staff.from('places').select('id, name, pier').eq('archived', false).order('name'),
      staff.rpc('calendar', { p_from: from, p_to: to }),
    ]);
    if (places.error || cal.error) throw failure((places.error ?? cal.error)!);
    if (i > 0) old.push(performance.now() - t0);
    bytesOld = JSON.stringify(cal.data).length;
  }
  // What the page should get: each REST answer is capped at config.toml's max_rows (1,000, as
  // on hosted Supabase); the page loads in pages of that size, so nothing may be missing.
  const {
    rows: [total],
  } = await stack.db.query<{ occupations: number; berths: number }>(
    `select (select count(*)::int from private.calendar_entries(${args}, null)) as occupations, (select count(*)::int from public.places where not archived) as berths`,
  );
  const got =
    rows === total!.occupations && berths === total!.berths
      ? `${rows} occupations, ${berths} berths`
      : `only ${rows} of ${total!.occupations} occupations and ${berths} of ${total!.berths} berths: answers cut at max_rows ${stack.config.api.maxRows}`;
  out.push(
    summarise(
      `page month load, calendar_entries (${size})`,
      'ms',
      page,
      `HTTP as harbour staff, berths + entries + bars per berth; ${got}; ${Math.round(bytesNew / 1024)} KB JSON; ${spread(page)}`,
    ),
  );
  if (withOldPage)
    out.push(
      summarise(
        `page month load, earlier calendar() (${size})`,
        'ms',
        old,
        `HTTP, berths + day-by-day calendar(); ${Math.round(bytesOld / 1024)} KB JSON; ${spread(old)}`,
      ),
    );
  return out;
}

/** A customer books; a staff client subscribed like the calendar page sees it and refetches. */
async function latency(stack: Stack, staff: SupabaseClient, customer: SupabaseClient, size: string, base: number): Promise<BenchRow[]> {
  let waiting: ((t: number) => void) | null = null;
  const channel = staff.channel(`bench-calendar-${size.length}`);
  for (const table of ['place_statuses', 'orders']) {
    channel
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table }, () => waiting?.(performance.now()))
      .on('postgres_changes', { event: 'UPDATE', schema: 'public', table }, () => waiting?.(performance.now()));
  }
  await new Promise<void>((ok, fail) =>
    channel.subscribe((s, err) => (s === 'SUBSCRIBED' ? ok() : s !== 'CLOSED' && fail(err ?? new Error(s)))),
  );
  const toEvent: number[] = [];
  const toCalendar: number[] = [];
  try {
    for (let i = 0; i < LATENCY_RUNS + 2; i++) {
      const arrival = berlinDay(base + i * 3);
      const departure = berlinDay(base + i * 3 + 1);
      const free = await customer.rpc('search_available_places', {
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat_length: 8,
        p_boat_width: 3,
      });
      if (free.error || !free.data?.length) throw free.error ?? new Error(`no free berth on ${arrival}`);
      const placeId = (free.data as { place_id: string }[])[0]!.place_id;
      const event = new Promise<number>((ok) => (waiting = ok));
      const t0 = performance.now();
      const booked = await customer.rpc('create_booking', {
        p_place_id: placeId,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: `Bench ${i}`, length: 8, width: 3 },
        p_person: { first_name: 'Bench', last_name: 'Latenz' },
      });
      if (booked.error) throw booked.error;
      const orderId = (booked.data as { id: string }).id;
      const tEvent = await Promise.race([
        event,
        new Promise<number>((_, fail) => setTimeout(() => fail(new Error('no realtime event within 5 s')), 5000)),
      ]);
      waiting = null;
      // The page invalidates and refetches its range (a week around the booking).
      const { rows } = await pageQuery(staff, berlinDay(base + i * 3 - 3), berlinDay(base + i * 3 + 3));
      const tCalendar = performance.now();
      if (!rows.some((r) => r.order_id === orderId)) throw new Error('the refetched calendar lacks the booking');
      if (i >= 2) {
        toEvent.push(tEvent - t0);
        toCalendar.push(tCalendar - t0);
      }
      // Let the other events of this booking (orders + place_statuses) pass before the next.
      await new Promise((r) => setTimeout(r, 150));
    }
  } finally {
    await staff.removeChannel(channel);
  }
  const rows = printing([]);
  rows.push(
    summarise(
      `booking -> staff realtime event (${size})`,
      'ms',
      toEvent,
      `create_booking over HTTP until the subscribed staff client gets the change; ${spread(toEvent)}`,
    ),
    summarise(
      `booking -> staff calendar refetched (${size})`,
      'ms',
      toCalendar,
      `… plus the page's refetch of its week holding the booking; target < 1000 (issue 11); ${spread(toCalendar)}`,
    ),
  );
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const stack = await startStack({ workdir: resolve(root, 'supabase'), inMemory: true, port: 0, mailPort: 0, smtpPort: 0 });
  const out: BenchRow[] = [];
  try {
    await stack.db.exec(calendarBefore());
    const staff = await client(stack, 'hafen@hafen.test', 'Hafen1234');
    const customer = await client(stack, 'kunde@hafen.test', 'Kunde1234');
    const counts = async () => {
      const { rows } = await stack.db.query<{ berths: string; orders: string }>(
        `select (select count(*) from public.places where not archived) as berths, (select count(*) from public.orders) as orders`,
      );
      return `PGlite, ${rows[0]!.berths} berths, ${rows[0]!.orders} orders`;
    };
    progress('seed: SQL and page');
    out.push(...(await sqlAndPage(stack, staff, 'seed, ~60 berths', await counts(), true)));
    progress('seed: latency');
    out.push(...(await latency(stack, staff, customer, 'seed, ~60 berths', 40)));
    progress('adding 1,000 berths');
    await stack.db.exec(largeHarbour());
    // The derived report and calendar tables take the bulk load in, as the five-minute schedule would.
    await stack.db.exec('select private.report_flush(); analyze');
    progress('1,000: SQL and page');
    out.push(...(await sqlAndPage(stack, staff, '1,000 more berths', await counts(), true)));
    progress('1,000: latency');
    out.push(...(await latency(stack, staff, customer, '1,000 more berths', 90)));
    await Promise.all([staff.removeAllChannels(), customer.removeAllChannels()]);
  } finally {
    await stack.close();
  }
  // every figure is PGlite in this process (the report's guess reads 'PostgREST' as Postgres)
  return out.map((r) => ({ ...r, engine: r.engine ?? 'PGlite' }));
}
