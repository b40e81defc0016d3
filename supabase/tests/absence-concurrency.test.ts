/**
 * No double booking between a holder coming back and guests booking the nights of their absence
 * (issue 43 deliverable 4, docs/adr/0054-holder-absences.md), under real concurrency on
 * PostgreSQL: guests' stays lock the absence that covers them FOR SHARE (the trigger on
 * place_statuses), the holder's change locks it FOR UPDATE. Whoever comes second is refused:
 * the holder with 23P01 absence_nights_let, a guest with 23P01 berth_no_longer_available.
 * PGlite is one session, so this runs on Postgres only (as concurrency.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { engines, skipBecause } from '../local/test/harness/engines.ts';
import { preparedPostgres } from '../local/test/harness/stack.ts';

const postgres = engines().find((e) => e.name === 'postgres')!;
const GUESTS = 20;

describe.skipIf(postgres.skip && skipBecause('holder absence concurrency on postgres', postgres.skip))(
  'holder absence concurrency on postgres',
  () => {
    let url: string;
    let admin: pg.Client;
    let users: { id: string; email: string }[];

    beforeAll(async () => {
      url = await preparedPostgres('supabase', false, 'absrace');
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
         select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                'absent' || lpad(n::text, 2, '0') || '@test.local', '', now(), '{"provider":"email","providers":["email"]}', '{}'
         from generate_series(0, $1) n`,
        [GUESTS],
      );
      // absent00 is the holder, the others are guests.
      users = (
        await admin.query<{ id: string; email: string }>(`select id, email from auth.users where email like 'absent%' order by email`)
      ).rows;
    });
    afterAll(async () => {
      await admin?.end();
    });

    /** A berth held by absent00 for a year, with an absence of 40 nights from day +30. */
    async function heldBerth(name: string) {
      await admin.query(`insert into public.places (name, width, length) values ($1, 4, 12)`, [name]);
      const { rows } = await admin.query<{ id: string }>(
        `insert into public.long_term_holders (place_id, user_id, last_name, starts_on, ends_on)
         select id, $2, 'Absent', current_date, current_date + 365 from public.places where name = $1
         returning id`,
        [name, users[0].id],
      );
      const absence = await admin.query<{ id: string }>(
        `insert into public.holder_absences (holder_id, place_id, starts_on, ends_on)
         select h.id, h.place_id, (now() at time zone 'Europe/Berlin')::date + 30, (now() at time zone 'Europe/Berlin')::date + 70
           from public.long_term_holders h where h.id = $1
         returning id`,
        [rows[0].id],
      );
      return { holder: rows[0].id, absence: absence.rows[0].id };
    }

    async function session(u: { id: string; email: string }) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query('begin');
      await c.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub: u.id, role: 'authenticated', email: u.email }),
      ]);
      return c;
    }

    /** Guest i books one night, day +30+i (inside the absence). */
    const book = (c: pg.Client, berth: string, night: number) =>
      c
        .query(
          `select id from public.create_booking((select id from public.places where name = $1), 'overnight',
                   (now() at time zone 'Europe/Berlin')::date + $2::int, '{"name":"Gast","length":9.5,"width":3.5}',
                   '{"first_name":"G","last_name":"Ast"}', p_departure => (now() at time zone 'Europe/Berlin')::date + $2::int + 1)`,
          [berth, night],
        )
        .then(
          () => 'booked',
          (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
        );

    /** Live guest stays on the berth on nights no absence covers: must always be 0. */
    const uncovered = async (berth: string) =>
      (
        await admin.query<{ n: number }>(
          `select count(*)::int as n from public.place_statuses s join public.places p on p.id = s.place_id
            where p.name = $1 and not s.cancelled and s.order_id is not null
              and not exists (select 1 from public.holder_absences a join public.long_term_holders h on h.id = a.holder_id
                              where h.place_id = s.place_id and a.starts_on <= (s.starts_at at time zone 'Europe/Berlin')::date
                                and a.ends_on > (s.ends_at at time zone 'Europe/Berlin')::date - 1)`,
          [berth],
        )
      ).rows[0].n;

    it(`${GUESTS} guests book first, the holder withdraws the absence meanwhile: the holder waits and is refused`, async () => {
      const { absence } = await heldBerth('ABS-A');
      const guests = await Promise.all(users.slice(1).map(session));
      const holder = await session(users[0]);
      try {
        const booked = await Promise.all(guests.map((c, i) => book(c, 'ABS-A', 30 + i)));
        expect(booked).toEqual(Array(GUESTS).fill('booked'));
        const withdrawal = holder.query(`select public.delete_holder_absence($1)`, [absence]).then(
          () => 'withdrawn',
          (e: { code?: string; message?: string }) => `${e.code} ${e.message}`,
        );
        await new Promise((r) => setTimeout(r, 300));
        await Promise.all(guests.map((c) => c.query('commit')));
        expect(await withdrawal).toBe('23P01 absence_nights_let');
        await holder.query('rollback');
        expect(await uncovered('ABS-A')).toBe(0);
      } finally {
        await Promise.all([...guests, holder].map((c) => c.end()));
      }
    });

    it(`the holder shortens first, ${GUESTS} guests book the nights given back meanwhile: every guest waits and is refused`, async () => {
      const { holder: holding, absence } = await heldBerth('ABS-B');
      const holder = await session(users[0]);
      const guests = await Promise.all(users.slice(1).map(session));
      try {
        // Back on day +40: nights +40 to +69 are given back (not yet committed).
        await holder.query(
          `select public.save_holder_absence($1, (now() at time zone 'Europe/Berlin')::date + 30, (now() at time zone 'Europe/Berlin')::date + 40, $2)`,
          [holding, absence],
        );
        const outcomes = Promise.all(guests.map((c, i) => book(c, 'ABS-B', 40 + i)));
        await new Promise((r) => setTimeout(r, 300));
        await holder.query('commit');
        expect(await outcomes).toEqual(Array(GUESTS).fill('23P01 berth_no_longer_available'));
        await Promise.all(guests.map((c) => c.query('rollback')));
        expect(await uncovered('ABS-B')).toBe(0);
      } finally {
        await Promise.all([...guests, holder].map((c) => c.end()));
      }
    });

    it(`${GUESTS} guests and the holder's return all at once: never a guest on a night the holder holds`, async () => {
      const { absence } = await heldBerth('ABS-C');
      const guests = await Promise.all(users.slice(1).map(session));
      const holder = await session(users[0]);
      try {
        const all = await Promise.all([
          ...guests.map(async (c, i) => {
            const r = await book(c, 'ABS-C', 30 + 2 * i);
            await c.query(r === 'booked' ? 'commit' : 'rollback');
            return r;
          }),
          holder.query(`select public.delete_holder_absence($1)`, [absence]).then(
            async () => {
              await holder.query('commit');
              return 'withdrawn';
            },
            async (e: { code?: string; message?: string }) => {
              await holder.query('rollback');
              return `${e.code} ${e.message}`;
            },
          ),
        ]);
        const holderOutcome = all[GUESTS];
        const guestsBooked = all.slice(0, GUESTS).filter((r) => r === 'booked').length;
        // Either the holder won (no guest booked) or at least one guest did (the holder is refused).
        if (holderOutcome === 'withdrawn') expect(guestsBooked).toBe(0);
        else expect(holderOutcome).toBe('23P01 absence_nights_let');
        for (const r of all.slice(0, GUESTS)) expect(['booked', '23P01 berth_no_longer_available']).toContain(r);
        expect(await uncovered('ABS-C')).toBe(0);
      } finally {
        await Promise.all([...guests, holder].map((c) => c.end()));
      }
    });
  },
);
