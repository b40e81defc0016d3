import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshPostgresDatabase, skipBecause } from './harness/engines.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import type { Database } from '../src/db/types.ts';
import { readAsRequest, withRequest } from '../src/db/request.ts';

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`database interface on ${engine.name}`, engine.skip))(
    `database interface on ${engine.name}`,
    () => {
      let db: Database;
      let url = '';
      beforeAll(async () => {
        if (engine.name === 'postgres') url = await freshPostgresDatabase();
        db = engine.name === 'pglite' ? await openPglite() : await openPostgres({ connectionString: url });
        await db.exec(
          `create table public.t (id int primary key, n bigint, at timestamptz, d date, doc jsonb, ok boolean, price numeric(10,2))`,
        );
        // The API roles (cluster-wide on Postgres, so only when missing).
        await db.exec(`do $$ begin
        if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin; end if;
      end $$`);
      });
      afterAll(() => db.close());

      it('returns the same value shapes on both engines', async () => {
        await db.query(
          `insert into public.t values (1, 9007199254740993, '2026-06-01 14:00+02', '2026-06-01', '{"a": [1, "x"]}', true, 12.5)`,
        );
        const { rows, rowCount, fields } = await db.query(`select id, n, at at time zone 'UTC' as at_utc, d, doc, ok, price from public.t`);
        expect(rows).toEqual([
          { id: 1, n: '9007199254740993', at_utc: '2026-06-01 12:00:00', d: '2026-06-01', doc: { a: [1, 'x'] }, ok: true, price: '12.50' },
        ]);
        expect(rowCount).toBe(1);
        expect(fields.map((f) => f.name)).toEqual(['id', 'n', 'at_utc', 'd', 'doc', 'ok', 'price']);
        const update = await db.query(`update public.t set ok = false where id = 1`);
        expect(update.rowCount).toBe(1);
      });

      it('commits a transaction and rolls one back entirely on error', async () => {
        await db.transaction(async (tx) => {
          await tx.query('insert into public.t (id) values (2)');
        });
        await expect(
          db.transaction(async (tx) => {
            await tx.query('insert into public.t (id) values (3)');
            await tx.query('insert into public.t (id) values (2)'); // duplicate key
          }),
        ).rejects.toMatchObject({ code: '23505' });
        const { rows } = await db.query<{ id: number }>('select id from public.t order by id');
        expect(rows.map((r) => r.id)).toEqual([1, 2]);
      });

      it('sets the role and claims for one transaction only', async () => {
        const inside = await withRequest(
          db,
          { role: 'authenticated', claims: { sub: 'u1', role: 'authenticated' } },
          async (tx) =>
            (await tx.query<{ u: string; c: string }>(`select current_user as u, current_setting('request.jwt.claims', true) as c`))
              .rows[0],
        );
        expect(inside).toEqual({ u: 'authenticated', c: '{"sub":"u1","role":"authenticated"}' });
        const outside = (await db.query<{ u: string }>('select current_user as u')).rows[0];
        expect(outside.u).toBe('supabase_admin');
        await expect(withRequest(db, { role: 'supabase_admin', claims: {} }, async () => 1)).rejects.toThrow(/does not exist/);
      });

      it('passes quotes, backslashes and other odd text in the request settings through unchanged', async () => {
        // The settings go to the database as quoted literals with BEGIN (one round trip): whatever a
        // client puts in a header, path or claim must arrive as written and never end the literal.
        const odd = `it's a \\'; select 1; -- \\\\x00 "q" \u00e4\u{1F6A2} $1 $$`;
        const headers = { 'x-odd': odd, 'user-agent': "O'Brien\\" };
        const inside = await withRequest(
          db,
          {
            role: 'authenticated',
            claims: { sub: odd, role: 'authenticated' },
            method: 'GET',
            path: `/t'\\`,
            headers,
            timezone: 'Europe/Berlin',
            readOnly: true,
          },
          async (tx) =>
            (
              await tx.query<{ c: string; h: string; p: string; tz: string; ro: string }>(
                `select current_setting('request.jwt.claims') as c, current_setting('request.headers') as h, current_setting('request.path') as p, current_setting('timezone') as tz, current_setting('transaction_read_only') as ro`,
              )
            ).rows[0],
        );
        expect(JSON.parse(inside.c)).toEqual({ sub: odd, role: 'authenticated' });
        expect(JSON.parse(inside.h)).toEqual(headers);
        expect(inside).toMatchObject({ p: `/t'\\`, tz: 'Europe/Berlin', ro: 'on' });
        // A bad setting fails the request and rolls it back, as a parametrised statement did.
        await expect(withRequest(db, { role: 'authenticated', claims: {}, timezone: "Nowhere/'x" }, async () => 1)).rejects.toThrow(
          /invalid value for parameter "TimeZone"/,
        );
        expect((await db.query<{ u: string }>('select current_user as u')).rows[0].u).toBe('supabase_admin');
      });

      it('runs a REST read as one simple query: the settings hold for it (RLS too) and end with it', async () => {
        // One connection on Postgres, so the checks after the read see the session that ran it.
        const one = engine.name === 'pglite' ? db : await openPostgres({ connectionString: url, max: 1 });
        try {
          await db.exec(`create table public.owned (id int primary key, owner text not null);
          alter table public.owned enable row level security;
          create policy owned_mine on public.owned for select to authenticated
            using (owner = current_setting('request.jwt.claims', true)::jsonb ->> 'sub');
          grant select, insert on public.owned to authenticated;
          insert into public.owned values (1, 'u1'), (2, 'u2'), (3, 'u1')`);
          const context = {
            role: 'authenticated',
            claims: { sub: 'u1', role: 'authenticated' },
            method: 'GET',
            path: '/owned',
            readOnly: true,
            timezone: 'Asia/Tokyo',
          };
          const read = await readAsRequest<{ ids: string; u: string; ro: string; tz: string }>(
            one,
            context,
            `select string_agg(id::text, ',' order by id) as ids, current_user as u, current_setting('transaction_read_only') as ro, current_setting('timezone') as tz from public.owned`,
          );
          expect(read?.rows).toEqual([{ ids: '1,3', u: 'authenticated', ro: 'on', tz: 'Asia/Tokyo' }]);
          // tx: no transaction is left open. A transaction-local setting made by one statement is
          // gone in the next only if each ran in its own transaction (comparing now() with
          // statement_timestamp() was not reliable: in the extended protocol they differ under load).
          const after = async () => {
            await one.query(`select set_config('test.open_tx', 'yes', true)`);
            return (
              await one.query<{ u: string; c: string; tz: string; tx: boolean }>(
                `select current_user as u, coalesce(current_setting('request.jwt.claims', true), '') as c, current_setting('timezone') as tz, coalesce(current_setting('test.open_tx', true), '') <> 'yes' as tx`,
              )
            ).rows[0];
          };
          // nothing stays behind: role, claims, time zone are back, and no transaction is open
          expect(await after()).toEqual({ u: 'supabase_admin', c: '', tz: 'UTC', tx: true });
          // read-only: a write fails, and an error ends the implicit transaction (nothing kept, nothing open)
          await expect(readAsRequest(one, context, `insert into public.owned values (4, 'u1') returning id`)).rejects.toMatchObject({
            code: '25006',
          });
          await expect(readAsRequest(one, context, `select 1 / 0`)).rejects.toMatchObject({ code: '22012' });
          expect(await after()).toEqual({ u: 'supabase_admin', c: '', tz: 'UTC', tx: true });
          expect((await one.query<{ n: string }>('select count(*)::text as n from public.owned')).rows[0].n).toBe('3');
          if (engine.name === 'postgres') {
            // the role's statement_timeout applies to the read that follows the settings
            await expect(readAsRequest(one, { ...context, statementTimeout: '100ms' }, `select pg_sleep(1)`)).rejects.toMatchObject({
              code: '57014',
            });
            expect(await after()).toEqual({ u: 'supabase_admin', c: '', tz: 'UTC', tx: true });
          }
        } finally {
          if (one !== db) await one.close();
        }
      });

      it('delivers NOTIFY to listeners after commit, and stops after unlisten', async () => {
        const got: string[] = [];
        const unlisten = await db.listen('hafen_events', (p) => got.push(p));
        await db.transaction(async (tx) => {
          await tx.query(`select pg_notify('hafen_events', 'booked')`);
        });
        await db
          .transaction(async () => {
            throw new Error('rolled back');
          })
          .catch(() => {});
        await expect.poll(() => got, { timeout: 2000 }).toEqual(['booked']);
        await unlisten();
        await db.query(`select pg_notify('hafen_events', 'after')`);
        await new Promise((r) => setTimeout(r, 200));
        expect(got).toEqual(['booked']);
      });

      // Postgres only: PGlite runs in the process and has no connection to drop (declared only
      // there, so the PGlite run does not report a skipped test).
      if (engine.name === 'postgres')
        it('reconnects a dropped LISTEN connection and listens again', async () => {
          const got: string[] = [];
          const unlisten = await db.listen('hafen_reconnect', (p) => got.push(p));
          // Kill the listener's backend, as a server restart or a network cut would.
          await db.query(`select pg_terminate_backend(pid) from pg_stat_activity
                       where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`);
          await expect
            .poll(
              async () => {
                await db.query(`select pg_notify('hafen_reconnect', 'after-drop')`);
                return got.includes('after-drop');
              },
              { timeout: 10_000, interval: 300 },
            )
            .toBe(true);
          await unlisten();
        });

      it(engine.name === 'postgres' ? 'runs transactions concurrently (a pool)' : 'serialises transactions (one session)', async () => {
        const order: string[] = [];
        const slow = db.transaction(async (tx) => {
          order.push('slow:start');
          await tx.query('select pg_sleep(0.3)');
          order.push('slow:end');
        });
        await new Promise((r) => setTimeout(r, 50));
        const fast = db.transaction(async (tx) => {
          order.push('fast:start');
          await tx.query('select 1');
          order.push('fast:end');
        });
        await Promise.all([slow, fast]);
        expect(order).toEqual(
          engine.name === 'postgres'
            ? ['slow:start', 'fast:start', 'fast:end', 'slow:end']
            : ['slow:start', 'slow:end', 'fast:start', 'fast:end'],
        );
      });
    },
  );
}
