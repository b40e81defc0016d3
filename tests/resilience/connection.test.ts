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
import { deadlineMs } from '../../supabase/local/src/rest/execute.ts';
import { PROJECT, berlinDay, book, createBerths, guest } from './support.ts';

const postgres = engines().find((e) => e.name === 'postgres')!;
/** A lost connection must be answered within this (the pool's connect timeout is 10 s). */
const BOUND_MS = 3_000;
/**
 * An anon request's deadline per database round trip: anon's statement_timeout (3 s, as on
 * hosted Supabase; checked in beforeAll) plus the grace for the server to report it.
 */
const ANON_DEADLINE_MS = deadlineMs('3s')!;
/** Waiting for a pooled connection is bounded by the pool (PostgREST's acquisition timeout). */
const ACQUIRE_MS = 10_000;
/** What a loaded machine may add to a deadline before the answer is out. */
const SLACK_MS = 3_000;

/**
 * A TCP proxy in front of Postgres that the test can cut, make refuse connections, or turn
 * into a black hole: it stops forwarding in both directions but keeps every socket open, as a
 * network that drops packets without a reset. What arrives meanwhile (bytes, closes, new
 * connections) is held and delivered when the hole closes, as TCP's retransmissions would.
 */
async function tcpProxy(target: URL) {
  const sockets = new Set<Socket>();
  let refusing = false;
  let holding: (() => void)[] | undefined;
  /** Runs `action` now, or when the black hole ends. */
  const deliver = (action: () => void) => (holding ? holding.push(action) : action());
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  const server: Server = createServer((inbound) => {
    if (refusing) {
      inbound.destroy();
      return;
    }
    track(inbound);
    const held: Buffer[] = [];
    let outbound: Socket | undefined;
    inbound.on('data', (chunk: Buffer) => deliver(() => (outbound ? outbound.write(chunk) : held.push(chunk))));
    inbound.on('close', () => deliver(() => outbound?.destroy()));
    deliver(() => {
      if (inbound.destroyed) return;
      const out = connect(Number(target.port), target.hostname);
      outbound = out;
      track(out);
      for (const chunk of held.splice(0)) out.write(chunk);
      out.on('data', (chunk: Buffer) => deliver(() => inbound.write(chunk)));
      out.on('close', () => deliver(() => inbound.destroy()));
    });
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
    blackhole(on: boolean) {
      if (on) {
        holding ??= [];
        return;
      }
      const actions = holding ?? [];
      holding = undefined;
      for (const action of actions) action();
    },
    close: () =>
      new Promise<void>((r) => {
        holding = undefined;
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

describe.skipIf(postgres.skip && skipBecause('lost database connection on postgres', postgres.skip))(
  'a lost database connection on postgres',
  { timeout: 60_000 },
  () => {
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
      await admin.query(
        `create function public.resilience_sleep(seconds float) returns float language sql as 'select pg_sleep(seconds); select seconds'`,
      );
      await admin.query(`grant execute on function public.resilience_sleep(float) to anon; notify pgrst, 'reload schema'`);
      await createBerths(stack.db, 'N', 2);
      const {
        rows: [anon],
      } = await admin.query<{ config: string[] }>(
        `select setconfig as config from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname = 'anon' and s.setdatabase = 0`,
      );
      expect(anon.config).toContain('statement_timeout=3s');
      // wait for the schema cache to know the function (bounded)
      for (
        let i = 0;
        i < 100 && (await timed(stack, '/rpc/resilience_sleep', { method: 'POST', body: '{"seconds":0}' })).status !== 200;
        i++
      ) {
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
        .poll(
          async () =>
            (
              await admin.query(
                `select 1 from pg_stat_activity where query like '%resilience_sleep%' and datname = current_database() and pid <> pg_backend_pid() and state = 'active'`,
              )
            ).rowCount,
          { timeout: 5_000, interval: 50 },
        )
        .toBe(1);
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'supabase-local' and datname = current_database() and pid <> pg_backend_pid() and state = 'active'`,
      );
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
      const {
        rows: [berth],
      } = await stack.db.query<{ id: string }>(`select id from public.places where name = 'N01'`);
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

    it('answers auth with 503 while the database is unreachable, and signs in again once it is back', async () => {
      const email = `outage-${Date.now()}@example.org`;
      const auth = (path: string, body: unknown, key = stack.keys.anonKey) =>
        fetch(`${stack.url}/auth/v1${path}`, {
          method: 'POST',
          headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
      const created = await auth('/admin/users', { email, password: 'Outage1234', email_confirm: true }, stack.keys.serviceRoleKey);
      expect(created.status).toBe(200);
      const signIn = () => auth('/token?grant_type=password', { email, password: 'Outage1234' });
      expect((await signIn()).status).toBe(200);

      proxy.cut();
      proxy.refuse(true);
      try {
        const started = performance.now();
        const down = await signIn();
        expect(performance.now() - started).toBeLessThan(BOUND_MS);
        expect({ status: down.status, error_code: down.body.error_code }).toEqual({ status: 503, error_code: 'unexpected_failure' });
        expect(down.body.msg).toBe('The database is unavailable. Please try again in a moment.');
        // a guest's anonymous sign-in (the booking flow's first call) gets the same clean answer
        expect((await auth('/signup', { data: {} })).status).toBe(503);
      } finally {
        proxy.refuse(false);
      }
      const up = await signIn();
      expect(up.status).toBe(200);
      expect(up.body.access_token).toEqual(expect.any(String));
      await expectRecovered();
    });

    it('answers 504 within the deadline when the network black-holes mid-request, drops that connection, then recovers', async () => {
      const pool = (stack.db as unknown as { pool: pg.Pool }).pool;
      let removed = 0;
      const onRemove = () => removed++;
      pool.on('remove', onRemove);
      try {
        const pending = slowCall();
        await new Promise((r) => setTimeout(r, 400));
        proxy.blackhole(true);
        const holeAt = performance.now();
        const r = await pending;
        const afterHole = performance.now() - holeAt;
        expect({ status: r.status, code: r.body?.code }).toEqual({ status: 504, code: 'PGRST003' });
        expect(r.body).toMatchObject({ message: 'Timed out waiting for the database to answer.' });
        // the deadline, not something else: the statement alone (2.5 s) was within it
        expect(r.ms).toBeGreaterThan(ANON_DEADLINE_MS - 500);
        expect(afterHole).toBeLessThan(ANON_DEADLINE_MS + SLACK_MS);
        // Requests that arrive while the hole lasts: some get an idle pooled connection (its
        // statement gets no answer: the deadline), others wait for a new one (no answer to the
        // startup: the pool's acquisition timeout): every one answers 504 in time, none hangs.
        const during = await Promise.all(Array.from({ length: 12 }, () => timed(stack, '/places?select=name&order=name')));
        for (const d of during) {
          expect({ status: d.status, code: d.body?.code }).toEqual({ status: 504, code: 'PGRST003' });
          expect(d.ms).toBeLessThan(Math.max(ANON_DEADLINE_MS, ACQUIRE_MS) + SLACK_MS);
        }
        expect(during.map((d) => d.body.message)).toContain('Timed out acquiring connection from connection pool.');
      } finally {
        proxy.blackhole(false);
        pool.off('remove', onRemove);
      }
      // every connection that timed out was dropped from the pool, none handed out again:
      // twenty requests in a row (more than the pool holds) all answer
      expect(removed).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 20; i++) await expectRecovered();
      expect((await timed(stack, '/rpc/resilience_sleep', { method: 'POST', body: '{"seconds":0.1}' })).status).toBe(200);
    });
  },
);
