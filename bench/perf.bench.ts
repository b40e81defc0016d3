/**
 * Issue 25: the availability search, a month of calendar_entries and the six admin reports,
 * BEFORE (the functions as they were, tests/db/fixtures/perf-before.sql, schema perf_before)
 * and AFTER (the schema's), in one run on the same data, on PGlite and on PostgreSQL 15:
 * - reports and calendar: 1,000 more berths with a year of stays, one every 5 days per berth
 *   (~75,000 orders; the operations benchmark's size);
 * - search: 1,000 berths with ten years of stays, one every 14 days per berth (~250,000).
 * Each figure: p50 (median) and p95 over RUNS samples, before and after interleaved.
 * PERF_SCALE=1 (opt-in, Postgres only): 10,000 berths and 1 million stays over ten years,
 * search, booking (rolled back), a calendar month and report_revenue for a year, against the
 * 1,000-berth figures; PERF_SCALE=only runs just that (progress on stderr).
 * Session 13: the search and the calendar month also as the local REST service sends them
 * (supabase/local/src/rest: the RPC call with its JSON arguments, every output column, wrapped
 * into one json document by json_agg), in a request transaction as the caller (withRequest):
 * what the app's answer costs the database, beside the figure of the rows returned to a client.
 * The data is loaded set-based in replica mode (no per-row triggers); the report facts are then
 * filled by the migrations' backfills (private.refresh_order_report_facts(null),
 * private.refresh_occupancy(null), private.refresh_calendar_occupations(null)).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import { openPglite } from '../supabase/local/src/db/pglite.ts';
import { openPostgres } from '../supabase/local/src/db/postgres.ts';
import { bootstrapPlatform } from '../supabase/local/src/bootstrap/index.ts';
import { migrate } from '../supabase/local/src/migrate.ts';
import type { Database, Queryable } from '../supabase/local/src/db/types.ts';
import { startPostgresServer, type PostgresServer } from '../supabase/local/test/harness/postgres-server.ts';
import { derived, quantile, summarise, type BenchRow } from '../supabase/local/bench/types.ts';
import { beforeSql } from '../tests/db/perf-data.ts';
import { loadSchema } from '../supabase/local/src/rest/schema.ts';
import { parseOrder, parseSelect } from '../supabase/local/src/rest/parse.ts';
import { Aliases, Params, buildNode, quoteIdent, readSql } from '../supabase/local/src/rest/query.ts';
import { withRequest } from '../supabase/local/src/db/request.ts';

const root = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.PERF_RUNS ?? 20);
const ADMIN = 'a0000000-0000-4000-8000-000000000001';
const KUNDE = 'a0000000-0000-4000-8000-000000000003';
const REPORTS = [
  'report_occupancy',
  'report_revenue',
  'report_average_stay',
  'report_guests_by_country',
  'report_sale_codes',
  'report_check_in_rate',
];

class Rollback extends Error {}

/** The admin's reports run as authenticated (as PostgREST calls them): the old copies too. */
const grantBefore = `grant usage on schema perf_before to anon, authenticated;
  grant execute on all functions in schema perf_before to anon, authenticated;`;

/**
 * `berths` more berths (prefix X) and a stay every `every` days per berth over `days` days
 * ending today, priced, in every sale state, with statuses; loaded set-based without triggers.
 */
export function bulkHarbourSql(berths: number, days: number, every: number): string {
  const a = `'23456789ABCDEFGHJKMNPQRSTVWXYZ'`;
  const code = [0, 1, 2, 3].map((k) => `substr(${a}, 1 + (q.n / ${30 ** k}) % 30, 1)`).join(' || ');
  return `
    set session_replication_role = replica;
    insert into public.places (name, pier, width, length, one_day)
    select 'X' || lpad(n::text, 5, '0'), 'X', 2.5 + (n % 14) * 0.25, 6 + (n % 20), false
    from generate_series(1, ${berths}) n;
    insert into public.long_term_holders (place_id, starts_on, boat_name)
    select id, current_date - 200, 'Dauerlieger' from public.places where name like 'X%' and substring(name, 2)::int % 10 = 0;
    create temp table bulk_breakdowns as
    select n as nights, l as length, c as code, private.price_breakdown('overnight', n, l - 0.5, c, case when c is not null then 500 end) as b
    from generate_series(1, 4) n, generate_series(6, 25) l, unnest(array['RHEIN5', null]) c;
    insert into public.orders (place_id, booking_number, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown,
                               email, sale_code, place_snapshot, boat, person, checked_in, checked_in_at, created_at)
    select q.place_id, 'HD-' || (10 + q.n / 810000) || '-' || ${code}, 'overnight',
           private.berlin_at(q.arrival, time '14:00'), private.berlin_at(q.arrival + q.nights, time '12:00'),
           case when q.arrival + q.nights >= current_date then 'confirmed' when q.h % 20 = 3 then 'confirmed' else 'completed' end::public.order_status,
           case when q.h % 20 = 3 then 'pending' else 'paid' end::public.payment_status,
           (b.b ->> 'gross_cents')::int, b.b, 'bench' || (q.h % 5000) || '@example.org', b.code,
           jsonb_build_object('id', q.place_id, 'name', q.name), jsonb_build_object('name', 'B', 'length', q.length - 0.5, 'width', q.width - 0.2),
           jsonb_build_object('first_name', 'Bench', 'last_name', 'Gast', 'country', (array['Deutschland', 'Nederland', 'Belgique', 'Schweiz'])[1 + q.h % 4]),
           q.h % 20 <> 3 and q.arrival < current_date, case when q.h % 20 <> 3 and q.arrival < current_date then private.berlin_at(q.arrival, time '15:00') end,
           private.berlin_at(q.arrival, time '09:00') - interval '10 days'
    from (
      select p.id as place_id, p.name, p.length, p.width, current_date - ${days} + k * ${every} as arrival,
             1 + abs(hashtext(p.name || k)) % 4 as nights, abs(hashtext(p.name || k)) as h,
             (row_number() over ())::int as n
      from public.places p, generate_series(0, ${Math.floor(days / every)}) k
      where p.name like 'X%'
    ) q
    join bulk_breakdowns b on b.nights = q.nights and b.length = q.length
      and b.code is not distinct from case when q.h % 10 = 1 then 'RHEIN5' end;
    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
    select o.place_id, o.id, case when o.status = 'completed' then 'rent' else 'reservation' end::public.place_status_type, o.starts_at, o.ends_at
    from public.orders o where o.booking_number like 'HD-1_-%';
    reset session_replication_role;
    drop table bulk_breakdowns;
    select private.refresh_order_report_facts(null);
    select private.refresh_occupancy(null);
    select private.refresh_calendar_occupations(null);
    -- The facts' backfill queued every arrival day (report_pending): taken in once, as the first
    -- report after a change would (the measured calls roll back, so they would each redo it).
    select private.report_flush();
    analyze;
  `;
}

async function timed(db: Database, sql: string, admin: boolean): Promise<number> {
  let ms = 0;
  await db
    .transaction(async (tx: Queryable) => {
      if (admin) {
        await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
          JSON.stringify({ sub: ADMIN, role: 'authenticated', aal: 'aal2' }),
        ]);
      }
      const started = performance.now();
      await tx.query(sql);
      ms = performance.now() - started;
      throw new Rollback();
    })
    .catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return ms;
}

/**
 * The statement the local REST service sends for `POST /rpc/<name>` with the JSON body `args`
 * (rest/index.ts planRpc: each argument read from the body by json_to_record; rest/query.ts
 * readSql: every output column, order/limit, one json document), with its parameters.
 */
export async function restRpcSql(
  db: Database,
  name: string,
  args: Record<string, unknown>,
  query: { order?: string; limit?: number } = {},
) {
  const cache = await loadSchema(db);
  const fn = (cache.functions.get(name) ?? []).find((f) => Object.keys(args).every((k) => f.args.some((a) => a.name === k)));
  if (!fn) throw new Error(`no function ${name}(${Object.keys(args).join(', ')}) in the REST schema cache`);
  const p = new Params();
  const json = p.add(JSON.stringify(args), 'json');
  const callArgs = Object.keys(args)
    .map(
      (k) =>
        `${quoteIdent(k)} := (select _a.${quoteIdent(k)} from json_to_record(${json}) as _a(${quoteIdent(k)} ${fn.args.find((a) => a.name === k)!.type}))`,
    )
    .join(', ');
  const call = `${quoteIdent(cache.schema)}.${quoteIdent(fn.name)}(${callArgs})`;
  const table = {
    name: fn.name,
    kind: 'f' as const,
    columns: fn.outColumns,
    byName: new Map(fn.outColumns.map((c) => [c.name, c])),
    pk: [],
  };
  const root = buildNode(cache, table, call, fn.name, fn.name, parseSelect('*'), new Aliases());
  if (query.order) root.order = parseOrder(query.order);
  root.limit = query.limit;
  root.offset = 0;
  return { sql: readSql(root, p, { count: false, single: false }), params: p.values };
}

type Call = string | { sql: string; params: unknown[]; role: 'anon' | 'authenticated' };

/** A REST statement timed inside the request's transaction (role, claims, settings), rolled back. */
async function timedRest(db: Database, call: Exclude<Call, string>): Promise<number> {
  let ms = 0;
  const claims = call.role === 'anon' ? { role: 'anon' } : { sub: ADMIN, role: 'authenticated', aal: 'aal2' };
  await withRequest(db, { role: call.role, claims, method: 'POST', path: '/rpc', searchPath: ['public', 'extensions'] }, async (tx) => {
    const started = performance.now();
    const { rows } = await tx.query<{ body: string; n: number }>(call.sql, call.params);
    ms = performance.now() - started;
    if (!(rows[0]?.n > 0)) throw new Error(`REST statement answered no rows: ${call.sql.slice(0, 200)}`);
    throw new Rollback();
  }).catch((error) => {
    if (!(error instanceof Rollback)) throw error;
  });
  return ms;
}

const run1 = (db: Database, call: Call, admin: boolean) => (typeof call === 'string' ? timed(db, call, admin) : timedRest(db, call));

/** Before and after, interleaved, RUNS samples each after a warm-up; p50 and p95. */
async function pair(
  db: Database,
  engine: string,
  name: string,
  before: Call,
  after: Call,
  admin: boolean,
  note: string,
): Promise<BenchRow[]> {
  const b: number[] = [];
  const a: number[] = [];
  await run1(db, before, admin);
  await run1(db, after, admin);
  for (let i = 0; i < RUNS; i++) {
    b.push(await run1(db, before, admin));
    a.push(await run1(db, after, admin));
  }
  const p95 = (xs: number[]) => Math.round(quantile(xs, 0.95) * 100) / 100;
  const load = `load average ${loadavg()[0].toFixed(1)}`;
  return [
    summarise(`${name}, before`, 'ms', b, `${engine}; p95 ${p95(b)} ms; ${note}; ${load}`, engine),
    summarise(`${name}, after`, 'ms', a, `${engine}; p95 ${p95(a)} ms; ${note}; ${load}`, engine),
  ];
}

const month = `(current_date - 60, current_date - 30`;
const year = `(current_date - 365, current_date)`;
const search = (schema: string) =>
  `select * from ${schema}.search_available_places('overnight', current_date + 10, 9.4, 3.2, current_date + 12)`;

/** Dates as the app sends them (JSON strings), relative to today as the SQL figures are. */
async function days(db: Database, offsets: number[]): Promise<string[]> {
  const { rows } = await db.query<{ d: string }>(
    `select (current_date + k)::text as d from unnest($1::int[]) with ordinality u(k, i) order by i`,
    [offsets],
  );
  return rows.map((r) => r.d);
}

/**
 * Search and calendar month as the REST service sends them: after = the public endpoint
 * (`POST /rpc/search_available_places` as a guest, `POST /rpc/calendar_entries?order=id` as
 * staff, every row in one document); before = the same statement around the copy in
 * perf_before (for the calendar the old private function, which had no staff wrapper).
 */
async function restCalls(db: Database, what: 'search' | 'calendar'): Promise<[Call, Call]> {
  if (what === 'search') {
    const [arrival, departure] = await days(db, [10, 12]);
    const args = { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 9.4, p_boat_width: 3.2 };
    const after = await restRpcSql(db, 'search_available_places', args, { limit: 1000 });
    const before = after.sql.replace('"public"."search_available_places"(', '"perf_before"."search_available_places"(');
    return [
      { ...after, sql: before, role: 'anon' },
      { ...after, role: 'anon' },
    ];
  }
  const [from, to] = await days(db, [-60, -30]);
  const after = await restRpcSql(db, 'calendar_entries', { p_from: from, p_to: to }, { order: 'id' });
  const before = after.sql.replace('"public"."calendar_entries"(', '"perf_before"."calendar_entries"("p_place_id" := null, ');
  return [
    { ...after, sql: before, role: 'authenticated' },
    { ...after, role: 'authenticated' },
  ];
}

async function measureEngine(engine: 'PGlite' | 'Postgres', open: () => Promise<Database>): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // Reports and calendar: a year of stays every 5 days on 1,000 more berths.
  let db = await open();
  try {
    await bootstrapPlatform(db);
    await migrate(db, resolve(root, 'supabase'), { seed: true });
    await db.exec(beforeSql + grantBefore);
    let started = performance.now();
    await db.exec(bulkHarbourSql(1000, 365, 5));
    const built = Math.round((performance.now() - started) / 1000);
    const counts = (
      await db.query<{ b: string; o: string }>(
        `select (select count(*) from public.places where not archived) as b, (select count(*) from public.orders) as o`,
      )
    ).rows[0];
    const note = `${counts.b} berths, ${counts.o} orders, data built in ${built} s`;
    rows.push(
      ...(await pair(
        db,
        engine,
        'calendar_entries, one month',
        `select * from perf_before.calendar_entries${month}, null)`,
        `select * from private.calendar_entries${month}, null)`,
        false,
        note,
      )),
    );
    const [calBefore, calAfter] = await restCalls(db, 'calendar');
    rows.push(
      ...(await pair(
        db,
        engine,
        'calendar_entries, one month, REST statement (one json document)',
        calBefore,
        calAfter,
        false,
        `${note}; POST /rpc/calendar_entries?order=id as staff, every row in one document (the service's max_rows of 1,000 would split it into 8 pages); the statement inside the request transaction`,
      )),
    );
    for (const r of REPORTS)
      rows.push(
        ...(await pair(
          db,
          engine,
          `${r}, one year`,
          `select * from perf_before.${r}${year}`,
          `select * from public.${r}${year}`,
          true,
          note,
        )),
      );
    await db.close();
    // Search: ten years of stays every 14 days on 1,000 berths.
    db = await open();
    await bootstrapPlatform(db);
    await migrate(db, resolve(root, 'supabase'), { seed: true });
    await db.exec(beforeSql + grantBefore);
    started = performance.now();
    await db.exec(bulkHarbourSql(1000 - 58, 3650, 14));
    const built2 = Math.round((performance.now() - started) / 1000);
    const c2 = (
      await db.query<{ b: string; s: string }>(
        `select (select count(*) from public.places where not archived) as b, (select count(*) from public.place_statuses) as s`,
      )
    ).rows[0];
    const note2 = `${c2.b} berths, ${c2.s} stays over 10 years, data built in ${built2} s`;
    rows.push(...(await pair(db, engine, 'search_available_places, 10 years', search('perf_before'), search('private'), false, note2)));
    const [searchBefore, searchAfter] = await restCalls(db, 'search');
    rows.push(
      ...(await pair(
        db,
        engine,
        'search_available_places, 10 years, REST statement (one json document)',
        searchBefore,
        searchAfter,
        false,
        `${note2}; POST /rpc/search_available_places as a guest (anon); the statement inside the request transaction`,
      )),
    );
  } finally {
    await db.close();
  }
  return rows;
}

/**
 * The scale data in one session (session_replication_role is per connection), statement by
 * statement with its time on stderr, so a slow step shows where it is; each statement is bounded
 * by PERF_SCALE_STEP_S (default 600 s).
 */
async function buildScaleData(db: Database, berths: number, every: number): Promise<number> {
  const steps = bulkHarbourSql(berths, 3650, every)
    .split(/;\s*\n/)
    .map((x) => x.trim())
    .filter(Boolean);
  const stepSeconds = Number(process.env.PERF_SCALE_STEP_S ?? 600);
  const started = performance.now();
  await db.transaction(async (tx) => {
    await tx.exec(`set local statement_timeout = '${stepSeconds}s'`);
    for (const step of steps) {
      const t = performance.now();
      await tx.exec(step);
      const head = step.replace(/\s+/g, ' ').slice(0, 60);
      console.error(`scale ${berths}: ${((performance.now() - t) / 1000).toFixed(1)} s  ${head}`);
    }
  });
  return Math.round((performance.now() - started) / 1000);
}

/** Item 6 (opt-in): one cost at 1,000 and at 10,000 berths with ten years of stays (Postgres). */
export async function scale(server: PostgresServer): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const sizes: [number, number][] = [
    [1000, 36],
    [10_000, 36],
  ]; // a stay every 36 days for ten years: ~100 per berth -> 1M at 10,000
  const dbs: { berths: number; db: Database; url: string; note: string; place: string }[] = [];
  try {
    // both harbours first, then every figure measured on both in turn (load falls on both alike)
    for (const [berths, every] of sizes) {
      const url = await server.createDatabase(`scale_${berths}`);
      const db = await openPostgres({ connectionString: url, max: 2, roundTripTimeoutMs: 0 });
      dbs.push({ berths, db, url, note: '', place: '' });
      const t = performance.now();
      await bootstrapPlatform(db);
      await migrate(db, resolve(root, 'supabase'), { seed: true });
      console.error(`scale ${berths}: schema and seed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const built = await buildScaleData(db, berths, every);
      const c = (
        await db.query<{ s: string; o: string }>(
          `select (select count(*) from public.place_statuses) as s, (select count(*) from public.orders) as o`,
        )
      ).rows[0];
      dbs[dbs.length - 1].note = `Postgres; ${berths} berths, ${c.s} stays (${c.o} orders) over 10 years (data built in ${built} s)`;
      // X00011: a berth without a long-term holder (every tenth has one)
      dbs[dbs.length - 1].place = (await db.query<{ id: string }>(`select id from public.places where name = 'X00011'`)).rows[0].id;
    }
    const figures = (place: string): [string, string, boolean][] => [
      ['search_available_places', search('private'), false],
      [
        'create_booking (rolled back)',
        `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', '{"sub":"${KUNDE}","role":"authenticated","email":"kunde@hafen.test"}', true); select id from public.create_booking('${place}', 'overnight', current_date + 400, '{"name":"Bench","length":9.4,"width":3.2}', '{"first_name":"Klaus","last_name":"Kunde"}', p_departure => current_date + 402)`,
        false,
      ],
      ['calendar_entries, one month', `select * from private.calendar_entries${month}, null)`, false],
      ['report_revenue, one year', `select * from public.report_revenue${year}`, true],
    ];
    for (let f = 0; f < 4; f++) {
      const samples = dbs.map(() => [] as number[]);
      for (const d of dbs) {
        const [, sql, admin] = figures(d.place)[f];
        await timed(d.db, sql, admin);
      }
      for (let i = 0; i < RUNS; i++) {
        for (let k = 0; k < dbs.length; k++) {
          const d = dbs[(i + k) % dbs.length];
          const [, sql, admin] = figures(d.place)[f];
          samples[(i + k) % dbs.length].push(await timed(d.db, sql, admin));
        }
      }
      const name = figures('')[f][0];
      const medians = dbs.map((d, k) => {
        const row = summarise(
          `scale: ${name}, ${d.berths} berths`,
          'ms',
          samples[k],
          `${d.note}; p95 ${Math.round(quantile(samples[k], 0.95) * 100) / 100} ms; measured in turn with the other size; load average ${loadavg()[0].toFixed(1)}`,
          'Postgres',
        );
        console.error(`scale ${d.berths}: ${name} p50 ${row.median} ms`);
        rows.push(row);
        return row.median;
      });
      rows.push(
        derived(
          `scale: ${name}, 10,000 / 1,000 berths`,
          'x',
          Math.round((medians[1] / medians[0]) * 100) / 100,
          RUNS,
          'Postgres; ratio of medians',
          'Postgres',
        ),
      );
    }
    if (process.env.PERF_SCALE_EXPLAIN) {
      // The plans at both sizes on stderr, nested statements included (auto_explain's output as
      // notices to this client), to see which part grows.
      for (const d of dbs) {
        const client = new pg.Client({ connectionString: d.url });
        client.on('notice', (n) => console.error(n.message));
        await client.connect();
        try {
          await client.query(`load 'auto_explain'; set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on;
            set auto_explain.log_buffers = on; set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice`);
          for (const [name, sql, admin] of figures(d.place)) {
            if (name.startsWith('create_booking')) continue;
            console.error(`=== ${name}, ${d.berths} berths`);
            const claims = JSON.stringify({ sub: ADMIN, role: 'authenticated', aal: 'aal2' }).replace(/'/g, "''");
            await client.query(
              `begin; ${admin ? `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', '${claims}', true);` : ''} ${sql}; rollback`,
            );
          }
        } finally {
          await client.end();
        }
      }
    }
  } finally {
    for (const d of dbs) await d.db.close();
  }
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const only = process.env.PERF_ENGINE; // pglite | postgres (both when unset)
  if (process.env.PERF_SCALE === 'only') {
    const server = await startPostgresServer();
    try {
      return await scale(server);
    } finally {
      server.stop();
    }
  }
  if (only !== 'postgres') rows.push(...(await measureEngine('PGlite', () => openPglite())));
  if (only === 'pglite') return rows;
  const server = await startPostgresServer();
  try {
    let n = 0;
    rows.push(
      ...(await measureEngine('Postgres', async () =>
        openPostgres({ connectionString: await server.createDatabase(`perf_${n++}`), max: 2, roundTripTimeoutMs: 0 }),
      )),
    );
    if (process.env.PERF_SCALE === '1') rows.push(...(await scale(server)));
  } finally {
    server.stop();
  }
  return rows;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = await run();
  console.table(rows);
  if (process.env.PERF_JSON) (await import('node:fs')).writeFileSync(process.env.PERF_JSON, JSON.stringify(rows));
}
