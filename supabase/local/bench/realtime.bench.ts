import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startStack, type Stack } from '../src/stack.ts';
import { findPostgresBin, startPostgresServer } from '../test/harness/postgres-server.ts';
import { summarise, type BenchRow } from './types.ts';

const fixture = resolve(import.meta.dirname, '../test/fixtures/realtime');
const SUBSCRIBERS = 50;
const INSERTS = 60;
const WARMUP = 5;

/**
 * Realtime fan-out: 50 clients (50 different users, each with its own websocket) subscribed to
 * an RLS-protected table every signed-in user may read; each insert must reach all 50 (so 50
 * RLS checks per insert). Measures insert -> delivered to the last of the 50 subscribers.
 */
async function measure(stack: Stack, engine: string): Promise<BenchRow[]> {
  const clients: SupabaseClient[] = [];
  const arrivals: number[][] = [];
  let current = -1;
  try {
    await Promise.all(
      Array.from({ length: SUBSCRIBERS }, async (_, i) => {
        const token = await stack.context.jwt.sign({ sub: randomUUID(), role: 'authenticated', aud: 'authenticated' }, 3600);
        const c = createClient(stack.url, stack.keys.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
          accessToken: async () => token,
        });
        clients.push(c);
        await c.realtime.setAuth();
        await new Promise<void>((ok, fail) =>
          c
            .channel(`bench-${i}`)
            .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'board' }, () => {
              if (current >= 0) arrivals[current].push(performance.now());
            })
            .subscribe((status, err) => (status === 'SUBSCRIBED' ? ok() : status !== 'CLOSED' && fail(err ?? new Error(status)))),
        );
      }),
    );
    const all: number[] = [];
    const each: number[] = [];
    for (let n = 0; n < WARMUP + INSERTS; n++) {
      current = n;
      arrivals[n] = [];
      const t0 = performance.now();
      await stack.db.query(`insert into public.board (label) values ($1)`, [`bench ${n}`]);
      const deadline = t0 + 5000;
      while (arrivals[n].length < SUBSCRIBERS) {
        if (performance.now() > deadline) throw new Error(`insert ${n} reached ${arrivals[n].length} of ${SUBSCRIBERS} subscribers`);
        await new Promise((r) => setImmediate(r));
      }
      if (n >= WARMUP) {
        all.push(Math.max(...arrivals[n]) - t0);
        each.push(...arrivals[n].map((t) => t - t0));
      }
    }
    return [
      summarise(`insert -> delivered to all ${SUBSCRIBERS} subscribers`, 'ms', all, `${engine}, RLS checked per subscriber`),
      summarise('insert -> delivered, per subscriber', 'ms', each, `${engine}, ${INSERTS} inserts x ${SUBSCRIBERS}`),
    ];
  } finally {
    await Promise.all(clients.map((c) => c.removeAllChannels().catch(() => {})));
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const options = { workdir: fixture, port: 0, mailPort: 0, smtpPort: 0, seed: false };
  const pglite = await startStack({ ...options, inMemory: true });
  try {
    rows.push(...(await measure(pglite, 'PGlite')));
  } finally {
    await pglite.close();
  }
  const bin = findPostgresBin();
  if (bin) {
    const server = await startPostgresServer(bin);
    try {
      const stack = await startStack({ ...options, databaseUrl: await server.createDatabase('bench_realtime') });
      try {
        rows.push(...(await measure(stack, 'Postgres')));
      } finally {
        await stack.close();
      }
    } finally {
      server.stop();
    }
  }
  return rows;
}
