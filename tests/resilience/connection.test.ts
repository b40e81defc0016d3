/**
 * Faults (issue 13, item 3), part two, on Postgres: the database connection is lost in the
 * middle of a request. The stack talks to Postgres through a TCP proxy this test controls, so
 * the connection can be cut (both sockets closed) or refused; and a backend is killed from
 * the server side with pg_terminate_backend. Each time the caller gets a clean answer (503 with
 * a JSON error body, not a 500 or a hang) within a bounded time, and the next request works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { engines, freshPostgresDatabase, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { startStack, type Stack } from '../../supabase/local/src/stack.ts';
import { PROJECT, berlinDay, book, createBerths, guest } from './support.ts';

const postgres = engines().find((e) => e.name === 'postgres')!;
/** A lost connection must be answered within this (the pool's connect timeout is 10 s). */
const BOUND_MS = 3_000;

/** A TCP proxy in front of Postgres that the test can cut or make refuse connections. */
async function tcpProxy(target: URL) {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((inbound) => {
    if (refusing) {
      inbound.destroy();
      return;
    }
    const outbound = connect(Number(target.port), target.hostname);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: Object.assign(new URL(target.href), { port: String(port) }).href,
    /** Closes every open connection (as a dropped network or a restarted server would). */
    cut() {
      for (const s of sockets) s.destroy();
    },
    refuse(on: boolean) {
      refusing = on;
    },
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

/** A raw PostgREST call with the anon key; the time until the answer (or the fetch error). */
async function timed(stack: Stack, path: string, init: RequestInit = {}) {
  const started = performance.now();
  const res = await fetch(`${stack.url}/rest/v1${path}`, {
    ...init,
    headers: { apikey: stack.keys.anonKey, 'content-type': 'application/json', ...init.headers },
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text || 'null') as Record<string, unknown>, ms: performance.now() - started };
}

describe.skipIf(postgres.skip && skipBecause('lost database connection on postgres', postgres.skip))('a lost database connection on postgres', { timeout: 60_000 }, () => {
  let stack: Stack;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let admin: pg.Client;

  beforeAll(async () => {
    const direct = await freshPostgresDatabase('conn');
    proxy = await tcpProxy(new URL(direct));
    stack = await startStack({ workdir: PROJECT, databaseUrl: proxy.url, seed: false, port: 0, mailPort: 0, smtpPort: 0 });
    admin = new pg.Client({ connectionString: direct });
    await admin.connect();
    // A request that is still running when the connection goes (test database only).
    await admin.query(`create function public.resilience_sleep(seconds float) returns float language sql as 'select pg_sleep(seconds); select seconds'`);
    await admin.query(`grant execute on function public.resilience_sleep(float) to anon; notify pgrst, 'reload schema'`);
    await createBerths(stack.db, 'N', 2);
    // wait for the schema cache to know the function (bounded)
    for (let i = 0; i < 100 && (await timed(stack, '/rpc/resilience_sleep', { method: 'POST', body: '{"seconds":0}' })).status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await admin?.end();
    await proxy?.close();
  });

  const slowCall = () => timed(stack, '/rpc/resilience_sleep', { method: 'POST', body: '{"seconds":2.5}' });
  const expectRecovered = async () => {
    const next = await timed(stack, '/places?select=name&order=name');
    expect([next.status, next.body]).toEqual([200, [{ name: 'N01' }, { name: 'N02' }]]);
  };

  it('answers 503 with a JSON error when the server terminates the backend mid-request, then recovers', async () => {
    const pending = slowCall();
    await expect
      .poll(async () => (await admin.query(`select 1 from pg_stat_activity where query like '%resilience_sleep%' and datname = current_database() and pid <> pg_backend_pid() and state = 'active'`)).rowCount, { timeout: 5_000, interval: 50 })
      .toBe(1);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'supabase-local' and datname = current_database() and pid <> pg_backend_pid() and state = 'active'`);
    const r = await pending;
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: '57P01', message: 'terminating connection due to administrator command' });
    expect(r.ms).toBeLessThan(2_500 + BOUND_MS);
    await expectRecovered();
  });

  it('answers 503 with a JSON error when the connection is cut mid-request, then recovers', async () => {
    const pending = slowCall();
    await new Promise((r) => setTimeout(r, 400));
    const cutAt = performance.now();
    proxy.cut();
    const r = await pending;
    const afterCut = performance.now() - cutAt;
    expect({ status: r.status, code: r.body?.code }).toEqual({ status: 503, code: 'PGRST001' });
    expect(r.body).toMatchObject({ message: 'Database client error. Retrying the connection.' });
    expect(afterCut).toBeLessThan(BOUND_MS);
    await expectRecovered();
  });

  it('answers a booking with 503 while the database is unreachable, and books once it is back', async () => {
    const sb = await guest(stack.url, stack.keys.anonKey, 1);
    const { rows: [berth] } = await stack.db.query<{ id: string }>(`select id from public.places where name = 'N01'`);
    proxy.cut();
    proxy.refuse(true);
    const started = performance.now();
    const attempt = { placeId: berth.id, arrival: berlinDay(30), departure: berlinDay(31), boatLength: 8 };
    const down = await book(sb, attempt, 'down');
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect({ status: down.status, code: down.error?.code }).toEqual({ status: 503, code: 'PGRST001' });
    proxy.refuse(false);
    const up = await book(sb, attempt, 'up');
    expect(up.status).toBe(200);
    const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from public.orders`);
    expect(rows[0].n).toBe(1);
    await expectRecovered();
  });
});
