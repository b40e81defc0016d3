import { resolve } from 'node:path';
import { openPglite } from '../src/db/pglite.ts';
import { bootstrapPlatform } from '../src/bootstrap/index.ts';
import { migrate } from '../src/migrate.ts';
import type { Database } from '../src/db/types.ts';
import { summarise, type BenchRow } from './types.ts';

const root = resolve(import.meta.dirname, '../../..');
const ADMIN = 'a0000000-0000-4000-8000-000000000001';
const RUNS = 5;

const REPORTS = [
  'report_occupancy',
  'report_revenue',
  'report_average_stay',
  'report_guests_by_country',
  'report_sale_codes',
  'report_check_in_rate',
];

/** Runs a statement as the seeded admin (as PostgREST would: role + claims) and times it. */
async function timeAsAdmin(db: Database, sql: string, check: (rows: Record<string, unknown>[]) => void): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const rows = await db.transaction(async (tx) => {
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: ADMIN, role: 'authenticated', aal: 'aal2' }),
      ]);
      return (await tx.query(sql)).rows as Record<string, unknown>[];
    });
    const ms = performance.now() - started;
    check(rows);
    if (i > 0) samples.push(ms); // the first run warms caches
  }
  return samples;
}

/** A year of stays on 1,000 more berths: one stay of 1-4 nights every 5 days per berth. */
async function addLargeHarbour(db: Database): Promise<number> {
  await db.exec(`
    insert into public.places (name, pier, width, length, one_day)
    select 'X' || lpad(i::text, 4, '0'), 'X', 3 + (i % 5) * 0.5, 7 + (i % 12), false
    from generate_series(1, 1000) i;
    create temporary table bench_stays as
    select p.id as place_id, p.name, p.length, p.width,
           (now() at time zone 'Europe/Berlin')::date - 366 + k * 5 as arrival,
           1 + abs(hashtext(p.name || k)) % 4 as nights,
           abs(hashtext(p.name || k)) as h
    from public.places p, generate_series(0, 72) k
    where p.name like 'X%';
    insert into public.orders (place_id, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown,
                               email, sale_code, place_snapshot, boat, person, checked_in, checked_in_at, created_at)
    select s.place_id, 'overnight', private.berlin_at(s.arrival, time '14:00'), private.berlin_at(s.arrival + s.nights, time '12:00'),
           case when s.h % 20 = 3 then 'confirmed' else 'completed' end::public.order_status,
           case when s.h % 20 = 3 then 'pending' else 'paid' end::public.payment_status,
           (private.price_breakdown('overnight', s.nights, s.length - 0.5, case when s.h % 10 = 1 then 'RHEIN5' end, case when s.h % 10 = 1 then 500 end) ->> 'gross_cents')::int,
           private.price_breakdown('overnight', s.nights, s.length - 0.5, case when s.h % 10 = 1 then 'RHEIN5' end, case when s.h % 10 = 1 then 500 end),
           'bench' || (s.h % 5000) || '@example.org', case when s.h % 10 = 1 then 'RHEIN5' end,
           jsonb_build_object('id', s.place_id, 'name', s.name), jsonb_build_object('name', 'B', 'length', s.length - 0.5, 'width', s.width - 0.2),
           jsonb_build_object('first_name', 'Bench', 'last_name', 'Gast', 'country', (array['Deutschland', 'Nederland', 'Belgique', 'Schweiz'])[1 + s.h % 4]),
           s.h % 20 <> 3, case when s.h % 20 <> 3 then private.berlin_at(s.arrival, time '15:00') end,
           private.berlin_at(s.arrival, time '09:00') - interval '10 days'
    from bench_stays s
    where s.arrival + s.nights < (now() at time zone 'Europe/Berlin')::date;
    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
    select o.place_id, o.id, 'rent', o.starts_at, o.ends_at
    from public.orders o join public.places p on p.id = o.place_id
    where p.name like 'X%';
  `);
  const { rows } = await db.query<{ n: string }>(`select count(*) as n from public.orders`);
  return Number(rows[0].n);
}

/** The calendar for a month and each report over a year, on the seeded harbour and on 1,000 more berths (PGlite). */
export async function run(): Promise<BenchRow[]> {
  const db = await openPglite();
  const out: BenchRow[] = [];
  try {
    await bootstrapPlatform(db);
    await migrate(db, resolve(root, 'supabase'));
    const month = `(now() at time zone 'Europe/Berlin')::date - 60, (now() at time zone 'Europe/Berlin')::date - 30`;
    const year = `(now() at time zone 'Europe/Berlin')::date - 365, (now() at time zone 'Europe/Berlin')::date`;
    const counts = async () => {
      const { rows } = await db.query<{ berths: string; orders: string }>(
        `select (select count(*) from public.places where not archived) as berths, (select count(*) from public.orders) as orders`,
      );
      return `PGlite, ${rows[0].berths} berths, ${rows[0].orders} orders`;
    };
    const wholeMonth = (rows: Record<string, unknown>[]) => {
      if (rows.length !== 31) throw new Error(`calendar returned ${rows.length} days`);
    };

    let note = await counts();
    out.push(
      summarise(
        'calendar, one month, seeded harbour (~60 berths)',
        'ms',
        await timeAsAdmin(db, `select * from public.calendar(${month})`, wholeMonth),
        note,
      ),
    );
    for (const report of REPORTS) {
      out.push(
        summarise(
          `${report}, one year, seeded harbour`,
          'ms',
          await timeAsAdmin(db, `select * from public.${report}(${year})`, () => {}),
          note,
        ),
      );
    }

    await addLargeHarbour(db);
    // The derived report and calendar tables take the bulk load in, as the five-minute schedule would.
    await db.exec('select private.report_flush(); analyze');
    note = await counts();
    out.push(
      summarise(
        'calendar, one month, 1,000 more berths',
        'ms',
        await timeAsAdmin(db, `select * from public.calendar(${month})`, wholeMonth),
        note,
      ),
    );
    for (const report of REPORTS) {
      out.push(
        summarise(
          `${report}, one year, 1,000 more berths`,
          'ms',
          await timeAsAdmin(db, `select * from public.${report}(${year})`, () => {}),
          note,
        ),
      );
    }
  } finally {
    await db.close();
  }
  return out;
}
