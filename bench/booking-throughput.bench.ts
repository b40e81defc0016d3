/**
 * Bookings of distinct berths per second through the local stack (HTTP, supabase-js
 * rpc('create_booking') as the app calls it, signed-in customers): on Postgres, where requests
 * run in parallel on the pool's connections, and on PGlite (one session, requests queue) for
 * comparison. Each round books 200 berths for one night, 20 requests in flight; the next
 * round books the following night. The figure is bookings per second per round, and the
 * latency of a single booking under that load.
 */
import { resolve } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startStack, type Stack } from '../supabase/local/src/stack.ts';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../supabase/local/test/harness/postgres-server.ts';
import { skipped, summarise, type BenchRow } from '../supabase/local/bench/types.ts';
import { berlinDay, book, createBerths, createCustomers, customer } from '../tests/resilience/support.ts';

const root = resolve(import.meta.dirname, '..');
const BERTHS = 200;
const CUSTOMERS = 20;
const IN_FLIGHT = 20;
const ROUNDS = 6;
const quiet = { info() {}, warn() {}, error() {} };

async function measure(stack: Stack, engine: 'Postgres' | 'PGlite'): Promise<BenchRow[]> {
  const berths = await createBerths(stack.db, 'T', BERTHS);
  const emails = await createCustomers(stack.db, 'bench', CUSTOMERS);
  const clients: SupabaseClient[] = [];
  for (const [i, email] of emails.entries()) clients.push(await customer(stack.url, stack.keys.anonKey, email, i));
  const rates: number[] = [];
  const latencies: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const night = 60 + round + 1;
    const queue = [...berths];
    let n = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (queue.length) {
          const placeId = queue.shift()!;
          const sb = clients[n++ % clients.length];
          const t = performance.now();
          const r = await book(sb, { placeId, arrival: berlinDay(night), departure: berlinDay(night + 1), boatLength: 9.5 }, 'bench');
          if (r.status !== 200) throw new Error(`booking refused: ${r.status} ${JSON.stringify(r.error)}`);
          if (round >= 0) latencies.push(performance.now() - t);
        }
      }),
    );
    if (round >= 0) rates.push(BERTHS / ((performance.now() - started) / 1000)); // round -1 warms up
  }
  const { rows } = await stack.db.query<{ n: number }>(`select count(*)::int as n from public.orders`);
  if (rows[0].n !== BERTHS * (ROUNDS + 1)) throw new Error(`expected ${BERTHS * (ROUNDS + 1)} orders, found ${rows[0].n}`);
  const note = `${BERTHS} distinct berths per round, ${IN_FLIGHT} in flight, ${CUSTOMERS} signed-in customers, supabase-js over HTTP`;
  return [
    summarise('bookings of distinct berths per second', 'per s', rates, `${note}; one figure per round`, engine),
    summarise('one booking under that load (HTTP round trip)', 'ms', latencies, note, engine),
  ];
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const workdir = resolve(root, 'supabase');
  const bin = findPostgresBin();
  if (!bin) rows.push(skipped('bookings of distinct berths per second (Postgres)', 'PostgreSQL server binaries not found'));
  else {
    let server: PostgresServer | undefined;
    try {
      server = await startPostgresServer(bin);
      const stack = await startStack({
        workdir,
        databaseUrl: await server.createDatabase('booking_bench'),
        seed: false,
        port: 0,
        mailPort: 0,
        smtpPort: 0,
        log: quiet,
      });
      try {
        rows.push(...(await measure(stack, 'Postgres')));
      } finally {
        await stack.close();
      }
    } finally {
      server?.stop();
    }
  }
  const pglite = await startStack({ workdir, inMemory: true, seed: false, port: 0, mailPort: 0, smtpPort: 0, log: quiet });
  try {
    rows.push(...(await measure(pglite, 'PGlite')));
  } finally {
    await pglite.close();
  }
  return rows;
}
