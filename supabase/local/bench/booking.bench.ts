/**
 * The booking functions at two sizes, on PGlite (the local default engine), measured in the
 * database (no HTTP): search_available_places and create_booking on the seeded harbour
 * (58 berths) and on 1,000 berths with 10 years of bookings; and the same search done the
 * way the earlier version did it (load the berths at least as long as the boat with their
 * statuses and long-term starts, filter width, long-term and statuses in JavaScript, sort by
 * area), on the same data, as a ratio to the database search.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openPglite } from '../src/db/pglite.ts';
import { bootstrapPlatform } from '../src/bootstrap/index.ts';
import { migrate } from '../src/migrate.ts';
import type { Database, Queryable } from '../src/db/types.ts';
import { derived, summarise, type BenchRow } from './types.ts';

const workdir = resolve(import.meta.dirname, '../..');
const KUNDE = 'a0000000-0000-4000-8000-000000000003';
const BOAT = { length: 9.4, width: 3.2 };

class Rollback extends Error {}

/** Runs `fn` as the seeded customer in a transaction that is rolled back; returns its ms. */
async function asCustomer(db: Database, fn: (tx: Queryable) => Promise<unknown>): Promise<number> {
  let ms = 0;
  await db
    .transaction(async (tx) => {
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: KUNDE, role: 'authenticated', email: 'kunde@hafen.test' }),
      ]);
      const started = performance.now();
      await fn(tx);
      ms = performance.now() - started;
      throw new Rollback();
    })
    .catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return ms;
}

/** Adds berths up to 1,000 and ten years of stays (about one every two weeks per berth). */
export async function growHarbour(db: Database) {
  // Bulk load without triggers (other migrations queue mails per new order): replica mode.
  await db.exec(`
    set session_replication_role = replica;
    insert into public.places (name, pier, width, length, one_day, features, position)
    select 'X' || lpad(n::text, 4, '0'), 'X', 2.5 + (n % 14) * 0.25, 6 + (n % 20), n % 9 = 0, array['electricity', 'water'],
           array[(n % 40) * 25, (n / 40) * 20]::double precision[]
    from generate_series(1, 1000 - (select count(*) from public.places)::int) n;

    insert into public.long_term_holders (place_id, starts_on, boat_name)
    select id, current_date - 200, 'Dauerlieger' from public.places where name like 'X%' and substring(name, 2)::int % 10 = 0;

    create temp table stays on commit drop as
    select p.id as place_id,
           private.berlin_at(current_date - 3650 + k * 14 + (abs(hashtext(p.id::text)) % 5), time '14:00') as starts_at,
           private.berlin_at(current_date - 3650 + k * 14 + (abs(hashtext(p.id::text)) % 5) + 2 + (k % 4), time '12:00') as ends_at
    from public.places p
    cross join generate_series(0, 3650 / 14 - 1) k
    where p.name like 'X%';

    insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown,
                               email, place_snapshot, boat, person)
    select '${KUNDE}', s.place_id, 'overnight', s.starts_at, s.ends_at,
           case when s.ends_at < now() then 'completed' else 'confirmed' end::public.order_status, 'paid', 7140,
           '{"net_cents":6000}', 'bench@hafen.test', '{}', '{"name":"Bench","length":9.4,"width":3.2}', '{}'
    from stays s;

    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
    select o.place_id, o.id, case when o.status = 'completed' then 'rent' else 'reservation' end::public.place_status_type,
           o.starts_at, o.ends_at
    from public.orders o where o.email = 'bench@hafen.test';
    reset session_replication_role;
    analyze;
  `);
}

interface PlaceRow {
  id: string;
  name: string;
  width: string;
  length: string;
  one_day: boolean;
}

/** The earlier version: berths as long as the boat, everything else filtered in JavaScript. */
async function clientSideSearch(tx: Queryable, arrival: string, departure: string) {
  const places = (
    await tx.query<PlaceRow>(`select id, name, width, length, one_day from public.places where length >= $1 and not archived`, [
      BOAT.length,
    ])
  ).rows;
  const ids = places.map((p) => p.id);
  const statuses = (
    await tx.query<{ place_id: string; starts_at: string; ends_at: string }>(
      `select place_id, starts_at, ends_at from public.place_statuses where place_id = any($1) and not cancelled`,
      [ids],
    )
  ).rows;
  const longTerm = (await tx.query<{ place_id: string; long_term_start: string }>(`select * from public.place_long_term_starts()`)).rows;
  const start = Date.parse(`${arrival}T14:00:00+02:00`);
  const end = Date.parse(`${departure}T12:00:00+02:00`);
  const busy = new Set(statuses.filter((s) => Date.parse(s.starts_at) < end && Date.parse(s.ends_at) > start).map((s) => s.place_id));
  const held = new Map(longTerm.map((l) => [l.place_id, l.long_term_start]));
  return places
    .filter((p) => Number(p.width) >= BOAT.width)
    .filter((p) => !held.has(p.id) || held.get(p.id)! > departure)
    .filter((p) => !busy.has(p.id))
    .sort((a, b) => Number(a.width) * Number(a.length) - Number(b.width) * Number(b.length));
}

function day(offset: number) {
  const d = new Date(Date.now() + offset * 86_400_000);
  return d.toISOString().slice(0, 10);
}

async function measure(db: Database, size: string, runs: number, clientRuns: number): Promise<BenchRow[]> {
  const search: number[] = [];
  const create: number[] = [];
  const client: number[] = [];
  let found = 0;
  for (let i = 0; i < runs; i++) {
    const arrival = day(10 + i * 3);
    const departure = day(12 + i * 3);
    search.push(
      await asCustomer(db, async (tx) => {
        const { rows } = await tx.query(`select * from public.search_available_places('overnight', $1, $2, $3, p_departure => $4)`, [
          arrival,
          BOAT.length,
          BOAT.width,
          departure,
        ]);
        found = rows.length;
      }),
    );
  }
  let clientFound = 0;
  for (let i = 0; i < clientRuns; i++) {
    const arrival = day(10 + i * 3);
    const departure = day(12 + i * 3);
    // Staff may read statuses; the earlier version read them all from the place documents.
    const started = performance.now();
    await db.transaction(async (tx) => {
      clientFound = (await clientSideSearch(tx, arrival, departure)).length;
    });
    client.push(performance.now() - started);
  }
  const place = (
    await db.query<{ id: string }>(
      `select id from public.places where length >= 12 and width >= 4 and name like 'E%' order by name limit 1`,
    )
  ).rows[0].id;
  for (let i = 0; i < runs; i++) {
    const arrival = day(400 + i * 3);
    create.push(
      await asCustomer(db, (tx) =>
        tx.query(
          `select id from public.create_booking($1, 'overnight', $2, '{"name":"Bench","length":9.4,"width":3.2}',
             '{"first_name":"Klaus","last_name":"Kunde"}', p_departure => $3)`,
          [place, arrival, day(402 + i * 3)],
        ),
      ),
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = median(client) / median(search);
  return [
    summarise(`search_available_places, ${size}`, 'ms', search, `PGlite; ${found} berths found`),
    summarise(`create_booking, ${size}`, 'ms', create, 'PGlite; rolled back'),
    summarise(`earlier client-side search, ${size}`, 'ms', client, `PGlite; ${clientFound} berths found`),
    derived(`client-side / database search, ${size}`, 'x', Math.round(ratio * 10) / 10, clientRuns, 'PGlite; ratio of medians'),
  ];
}

/** Cache of prepared databases (seeded; grown), keyed by migrations, seed, this file and the day. */
const cacheDir = resolve(workdir, '../.data/bench-cache');
function cacheKey(stage: string) {
  const hash = createHash('sha256');
  const migrations = join(workdir, 'migrations');
  for (const f of readdirSync(migrations).sort()) hash.update(f).update(readFileSync(join(migrations, f)));
  for (const f of ['seed.sql', 'local/bench/booking.bench.ts', 'local/src/bootstrap/platform.sql'])
    hash.update(readFileSync(join(workdir, f)));
  hash.update(new Date().toISOString().slice(0, 10));
  return join(cacheDir, `booking-${stage}-${hash.digest('hex').slice(0, 16)}.tgz`);
}

async function prepared(
  stage: 'seeded' | 'grown',
  build: (db: Database & { pglite: { dumpDataDir: (c: 'gzip') => Promise<Blob> } }) => Promise<void>,
  from?: Blob,
) {
  const file = cacheKey(stage);
  if (existsSync(file)) return { blob: new Blob([readFileSync(file)]), seconds: 0 };
  const db = await openPglite({ loadDataDir: from });
  try {
    const started = performance.now();
    await build(db);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const bytes = Buffer.from(await (await db.pglite.dumpDataDir('gzip')).arrayBuffer());
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(`${file}.${process.pid}`, bytes);
    renameSync(`${file}.${process.pid}`, file);
    return { blob: new Blob([bytes]), seconds };
  } finally {
    await db.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const seeded = await prepared('seeded', async (db) => {
    await bootstrapPlatform(db);
    await migrate(db, workdir, { seed: true });
  });
  const grown = await prepared('grown', (db) => growHarbour(db), seeded.blob);
  const rows: BenchRow[] = [];
  for (const [blob, size, clientRuns] of [
    [seeded.blob, 'seed', 30],
    [grown.blob, 'grown', 10],
  ] as const) {
    const db = await openPglite({ loadDataDir: blob });
    try {
      const counts = (
        await db.query<{ places: string; statuses: string }>(
          `select (select count(*) from public.places)::text as places, (select count(*) from public.place_statuses)::text as statuses`,
        )
      ).rows[0];
      const label = size === 'seed' ? `seed (${counts.places} berths)` : `${counts.places} berths, ${counts.statuses} stays over 10 years`;
      const measured = await measure(db, label, 30, clientRuns);
      if (size === 'grown') measured[0].note += grown.seconds ? `; data built in ${grown.seconds} s` : '; data from cache';
      rows.push(...measured);
    } finally {
      await db.close();
    }
  }
  return rows;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  console.table(await run());
}
