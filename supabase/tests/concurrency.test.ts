/**
 * No double booking under real concurrency: 20 clients book the same berth for the same
 * nights at once on PostgreSQL 15. Exactly one order lands; every other caller gets SQLSTATE
 * 23P01 'berth_no_longer_available' (HTTP 409 through PostgREST). PGlite is one session, so
 * this runs on Postgres only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { engines, skipBecause } from '../local/test/harness/engines.ts';
import { preparedPostgres } from '../local/test/harness/stack.ts';

const postgres = engines().find((e) => e.name === 'postgres')!;
const CLIENTS = 20;

describe.skipIf(postgres.skip && skipBecause('create_booking concurrency on postgres', postgres.skip))(
  'create_booking concurrency on postgres',
  () => {
    let url: string;
    let admin: pg.Client;

    beforeAll(async () => {
      url = await preparedPostgres('supabase', false, 'race');
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`insert into public.places (name, width, length) values ('RACE', 4, 12)`);
      await admin.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
         select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                'racer' || n || '@test.local', '', now(), '{"provider":"email","providers":["email"]}', '{}'
         from generate_series(1, $1) n`,
        [CLIENTS],
      );
    });
    afterAll(async () => {
      await admin?.end();
    });

    it(`${CLIENTS} concurrent bookings of one berth give exactly one order`, async () => {
      const users = (await admin.query<{ id: string; email: string }>(`select id, email from auth.users order by email`)).rows;
      expect(users).toHaveLength(CLIENTS);
      const clients = await Promise.all(
        users.map(async () => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          return c;
        }),
      );
      try {
        // Every client opens its transaction and becomes its user first, then all book at once.
        await Promise.all(
          clients.map(async (c, i) => {
            await c.query('begin');
            await c.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
              JSON.stringify({ sub: users[i].id, role: 'authenticated', email: users[i].email }),
            ]);
          }),
        );
        const outcomes = await Promise.all(
          clients.map(async (c) => {
            try {
              const { rows } = await c.query<{ id: string }>(
                `select id from public.create_booking(
                   (select id from public.places where name = 'RACE'), 'overnight',
                   (now() at time zone 'Europe/Berlin')::date + 30,
                   '{"name":"Racer","length":9.5,"width":3.5}', '{"first_name":"R","last_name":"Acer"}',
                   p_departure => (now() at time zone 'Europe/Berlin')::date + 32)`,
              );
              await c.query('commit');
              return { ok: true as const, id: rows[0].id };
            } catch (error) {
              await c.query('rollback');
              const e = error as { code?: string; message?: string };
              return { ok: false as const, code: e.code, message: e.message };
            }
          }),
        );
        const won = outcomes.filter((o) => o.ok);
        const lost = outcomes.filter((o) => !o.ok);
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(CLIENTS - 1);
        for (const o of lost) expect(o).toEqual({ ok: false, code: '23P01', message: 'berth_no_longer_available' });
        const stored = await admin.query<{ orders: string; live: string }>(
          `select (select count(*) from public.orders)::text as orders,
                  (select count(*) from public.place_statuses where not cancelled)::text as live`,
        );
        expect(stored.rows[0]).toEqual({ orders: '1', live: '1' });
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    });

    // Session 17: two transactions that each hold a stay the other then books over wait for each
    // other at the exclusion constraint; Postgres aborts one (40P01, a 500 through PostgREST).
    // The booking functions answer that loser as any other: 23P01 'berth_no_longer_available'.
    it('two bookings that wait for each other at the exclusion constraint: the loser is told the berth is taken, never a deadlock', async () => {
      await admin.query(`insert into public.places (name, width, length) values ('CROSS', 4, 12)`);
      const users = (await admin.query<{ id: string; email: string }>(`select id, email from auth.users order by email limit 2`)).rows;
      const [t1, t2] = await Promise.all(
        users.map(async (u) => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          await c.query('begin');
          await c.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
            JSON.stringify({ sub: u.id, role: 'authenticated', email: u.email }),
          ]);
          return c;
        }),
      );
      const book = (c: pg.Client, from: number) =>
        c.query(
          `select id from public.create_booking((select id from public.places where name = 'CROSS'), 'overnight',
                   (now() at time zone 'Europe/Berlin')::date + $1::int, '{"name":"Cross","length":9.5,"width":3.5}',
                   '{"first_name":"C","last_name":"Ross"}', p_departure => (now() at time zone 'Europe/Berlin')::date + $1::int + 1)`,
          [from],
        );
      const outcome = (p: Promise<unknown>) =>
        p.then(
          () => 'booked',
          (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
        );
      try {
        await book(t1, 60); // t1 holds night +60
        await book(t2, 64); // t2 holds night +64
        const second = outcome(book(t2, 60)); // t2 waits for t1
        await new Promise((r) => setTimeout(r, 300));
        const first = outcome(book(t1, 64)); // t1 waits for t2: a cycle
        // t2 has waited longer, so its deadlock check runs first and it is the one aborted.
        expect(await second).toBe('23P01 berth_no_longer_available');
        await t2.query('rollback');
        expect(await first).toBe('booked');
        await t1.query('commit');
        const live = await admin.query<{ n: string }>(
          `select count(*)::text as n from public.place_statuses s join public.places p on p.id = s.place_id where p.name = 'CROSS' and not s.cancelled`,
        );
        expect(live.rows[0].n).toBe('2');
      } finally {
        await Promise.all([t1, t2].map((c) => c.end()));
      }
    });

    // Issue 25 (session 12): the report tables kept by triggers (occupancy_nights, report_days)
    // stay exact when many transactions write the same nights and arrival day at once; so do the
    // calendar's kept rows (calendar_occupations, session 14).
    it(`${CLIENTS} concurrent sales on other berths for the same nights keep the report tables exact`, async () => {
      await admin.query(
        `insert into public.places (name, width, length) select 'CONC' || lpad(n::text, 2, '0'), 4, 12 from generate_series(1, $1) n`,
        [CLIENTS],
      );
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          return c;
        }),
      );
      try {
        await Promise.all(clients.map((c) => c.query('begin')));
        const outcomes = await Promise.all(
          clients.map(async (c, i) => {
            try {
              // A confirmed sale with its stay (arrival day +40, 2-4 nights), as the desk writes it.
              await c.query(
                `with o as (
                   insert into public.orders (place_id, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown,
                                              email, place_snapshot, boat, person)
                   select p.id, 'overnight', private.berlin_at(d, time '14:00'), private.berlin_at(d + $2::int, time '12:00'), 'confirmed', 'paid',
                          (b ->> 'gross_cents')::int, b, 'conc' || $1::int || '@example.org', jsonb_build_object('id', p.id, 'name', p.name),
                          '{"name":"C","length":9.5,"width":3.5}', '{"first_name":"C","last_name":"Onc","country":"Nederland"}'
                   from public.places p, (select (now() at time zone 'Europe/Berlin')::date + 40 as d) x,
                        private.price_breakdown('overnight', $2::int, 9.5, null, null) b
                   where p.name = 'CONC' || lpad($1::text, 2, '0')
                   returning id, place_id, starts_at, ends_at
                 )
                 insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
                 select place_id, id, 'reservation', starts_at, ends_at from o`,
                [i + 1, 2 + (i % 3)],
              );
              await c.query('commit');
              return 'ok';
            } catch (error) {
              await c.query('rollback');
              return (error as { code?: string }).code ?? 'error';
            }
          }),
        );
        expect(outcomes).toEqual(Array(CLIENTS).fill('ok'));
        const nights = `select night, size_class, booked, berths from private.occupancy_nights where berths <> 0 order by 1, 2, 3`;
        const days = `select day, kind, sale_code, orders, net_cents, gross_cents, paid_cents, nights from private.report_days order by 1, 2, 3`;
        // The sales only queued their nights and days; the reports flush the queue before they read.
        await admin.query('select private.report_flush()');
        // And the calendar's kept rows (session 14), queued by the same transactions.
        const calendar = `select * from private.calendar_occupations order by id`;
        const kept = [(await admin.query(nights)).rows, (await admin.query(days)).rows, (await admin.query(calendar)).rows];
        expect((await admin.query(`select count(*)::int as n from private.report_pending`)).rows[0]).toEqual({ n: 0 });
        expect(kept[1]).toContainEqual(expect.objectContaining({ orders: CLIENTS, nights: String(CLIENTS * 3 - 1) }));
        await admin.query('begin');
        await admin.query(
          'select private.refresh_occupancy(null), private.refresh_report_days(null), private.refresh_calendar_occupations(null)',
        );
        const fresh = [(await admin.query(nights)).rows, (await admin.query(days)).rows, (await admin.query(calendar)).rows];
        await admin.query('rollback');
        expect(fresh).toEqual(kept);
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    });
  },
);
