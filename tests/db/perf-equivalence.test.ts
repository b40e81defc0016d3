/**
 * Issue 25: the faster availability search, calendar_entries and admin reports answer exactly
 * what the functions before it answered (tests/db/fixtures/perf-before.sql, schema perf_before),
 * on generated data (tests/db/perf-data.ts: 60 berths, three years of stays in every state,
 * cancellations, moves, payments and refunds, extras, day guests), for many random inputs, on
 * PGlite and on PostgreSQL: every row, in order, to the cent. And the report facts the triggers
 * kept while the data was written equal the facts computed afresh from orders, extras and the
 * ledger; the occupied nights (occupancy_spans, occupancy_nights) and the day sums (report_days)
 * kept by the triggers, also after staff reschedules, moves, cancellations and berth changes,
 * equal the ones counted afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../supabase/local/src/db/pglite.ts';
import { openPostgres } from '../../supabase/local/src/db/postgres.ts';
import type { Database, Queryable } from '../../supabase/local/src/db/types.ts';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { preparedPglite, preparedPostgres } from '../../supabase/local/test/harness/stack.ts';
import { asAdmin, beforeSql, harbourSql } from './perf-data.ts';

class Rollback extends Error {}

/**
 * Three years of stays (two back, one ahead) on 60 berths: every size class, state and change
 * the reports follow, about 3,300 orders. The answers are compared row by row, so more berths
 * add time, not cases (150 berths took 110 of this file's 170 s on CI's two cores; issue 46).
 * The benchmark (bench/perf.bench.ts) keeps the large harbour.
 */
const SHAPE = { berths: 60, pastDays: 730, futureDays: 365, slot: 20 };

const REPORTS = [
  'report_occupancy',
  'report_revenue',
  'report_average_stay',
  'report_guests_by_country',
  'report_sale_codes',
  'report_check_in_rate',
];

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows, or the error's code and message when the call fails (both must fail alike). */
async function answer(tx: Queryable, sql: string, params: unknown[]) {
  await tx.query('savepoint probe');
  try {
    const { rows } = await tx.query(sql, params);
    await tx.query('release savepoint probe');
    return { rows };
  } catch (error) {
    await tx.query('rollback to savepoint probe');
    const e = error as { code?: string; message: string };
    return { error: `${e.code} ${e.message}` };
  }
}

/**
 * After the generated data: staff reschedule open bookings (other dates, some to another berth)
 * through public.reschedule_booking, a berth gets longer (another size class), one is archived
 * and one brought back, a block is deleted: each through the tables' triggers. Returns how many
 * reschedules went through (a refused one, e.g. an overlap, is rolled back to its savepoint).
 */
async function laterChanges(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ id: string; shift: number; place: string | null; nights: number }>(
    `select o.id, 1 + abs(hashtext(o.id::text || 'r')) % 9 as shift,
            case when abs(hashtext(o.id::text)) % 3 = 0 then (select m.id from public.places m where m.name = 'M0020') end as place,
            1 + abs(hashtext(o.id::text || 'n')) % 4 as nights
     from public.orders o join public.places p on p.id = o.place_id
     where o.kind = 'overnight' and o.status in ('confirmed', 'unverified') and o.starts_at > now() + interval '2 days'
       and p.name like 'Q%' and abs(hashtext(o.id::text || 's')) % 12 = 0
     order by o.id limit 60`,
  );
  let done = 0;
  for (const r of rows) {
    await tx.query('savepoint move');
    try {
      await tx.query(
        `select public.reschedule_booking($1, a, a + $3::int, $4, false)
         from (select (o.starts_at at time zone 'Europe/Berlin')::date + $2::int as a from public.orders o where o.id = $1) x`,
        [r.id, r.shift, r.nights, r.place],
      );
      await tx.query('release savepoint move');
      done++;
    } catch {
      await tx.query('rollback to savepoint move');
    }
  }
  await tx.exec(`
    update public.places set length = length + 6 where name in ('Q0003', 'Q0004', 'Q0041');
    update public.places set archived = true where name in ('Q0005', 'Q0006');
    update public.places set archived = false where name = 'Q0006';
    delete from public.place_statuses where id in (
      select s.id from public.place_statuses s join public.places p on p.id = s.place_id
      where s.type = 'service' and p.name = 'Q0007');
  `);
  return done;
}

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`perf equivalence on ${engine.name}`, engine.skip))(
    `issue 25: same answers, faster (${engine.name})`,
    { timeout: 300_000 },
    () => {
      let db: Database;
      let rescheduled = 0;
      const rand = random(25);
      const day = (offset: number) => `(current_date + ${Math.round(offset)})`;

      beforeAll(async () => {
        // The migrated, seeded database the other database tests start from (prepared once).
        db =
          engine.name === 'pglite'
            ? await openPglite({ loadDataDir: await preparedPglite('supabase', true) })
            : await openPostgres({ connectionString: await preparedPostgres('supabase', true, 'perf'), max: 2, roundTripTimeoutMs: 0 });
        await db.exec(beforeSql);
        await db.transaction((tx) => tx.exec(harbourSql(SHAPE)));
        rescheduled = await asAdmin(db, (tx) => laterChanges(tx));
        await db.exec('analyze');
      }, 1_200_000);
      afterAll(async () => {
        await db?.close();
      });

      it('the generated data has every kind of change the reports must follow', async () => {
        const {
          rows: [n],
        } = await db.query<Record<string, number>>(
          `select (select count(*)::int from public.orders) as orders,
                (select count(*)::int from public.orders where status = 'cancelled') as cancelled,
                (select count(*)::int from public.orders where kind = 'day') as day_stays,
                (select count(*)::int from public.orders o join public.places p on p.id = o.place_id where p.name like 'M%') as moved,
                (select count(*)::int from public.payments where kind = 'refund') as refunds,
                (select count(*)::int from public.order_extras where removed_at is not null) as removed_extras,
                (select count(*)::int from public.order_extras where returned_at is not null) as returned_deposits,
                (select count(*)::int from public.order_extras where removed_at is null and returned_at is null) as extras`,
        );
        // A stay per generated berth and slot, besides the seed's.
        expect(n.orders).toBeGreaterThan(SHAPE.berths * Math.floor((SHAPE.pastDays + SHAPE.futureDays) / SHAPE.slot));
        for (const k of ['cancelled', 'day_stays', 'moved', 'refunds', 'removed_extras', 'returned_deposits', 'extras'])
          expect(n[k], k).toBeGreaterThan(10);
      });

      it('the report facts the triggers kept equal the facts computed afresh', async () => {
        const kept = (await db.query(`select * from private.order_report_facts order by order_id`)).rows;
        expect(kept.length).toBe(Number((await db.query<{ n: string }>(`select count(*) as n from public.orders`)).rows[0].n));
        // Recomputed in a transaction that is rolled back, so the kept rows stay as they are.
        let fresh: unknown[] = [];
        await db
          .transaction(async (tx) => {
            await tx.query(`select private.refresh_order_report_facts(null)`);
            fresh = (await tx.query(`select * from private.order_report_facts order by order_id`)).rows;
            throw new Rollback();
          })
          .catch((error) => {
            if (!(error instanceof Rollback)) throw error;
          });
        expect(fresh.length).toBe(kept.length);
        expect(fresh).toEqual(kept);
      });

      it('the occupied nights the triggers kept equal the nights counted afresh, after reschedules, moves and berth changes', async () => {
        expect(rescheduled).toBeGreaterThan(10);
        const spans = `select * from private.occupancy_spans order by place_status_id`;
        const nights = `select * from private.occupancy_nights where berths <> 0 order by night, size_class, booked`;
        // The bookings queued their changes; the reports bring the tables up to date first, as here.
        await db.query(`select private.report_flush()`);
        expect((await db.query(`select count(*)::int as n from private.report_pending`)).rows[0]).toEqual({ n: 0 });
        const kept = { spans: (await db.query(spans)).rows, nights: (await db.query(nights)).rows };
        expect(kept.nights.length).toBeGreaterThan(1000);
        expect((await db.query(`select count(*)::int as n from private.occupancy_nights where berths < 0`)).rows[0]).toEqual({ n: 0 });
        let fresh: typeof kept = { spans: [], nights: [] };
        await db
          .transaction(async (tx) => {
            await tx.query(`select private.refresh_occupancy(null)`);
            fresh = { spans: (await tx.query(spans)).rows, nights: (await tx.query(nights)).rows };
            throw new Rollback();
          })
          .catch((error) => {
            if (!(error instanceof Rollback)) throw error;
          });
        expect(fresh.spans.length).toBe(kept.spans.length);
        expect(fresh).toEqual(kept);
      });

      it('the day sums the triggers kept equal the day sums computed afresh from the facts', async () => {
        const days = `select day, kind, sale_code, orders, checked_in, net_cents, vat_cents, gross_cents, paid_cents, code_nights,
                            code_discount_cents, code_net_cents, nights, hours::text, boat_length::text, boat_lengths
                     from private.report_days order by day, kind, sale_code nulls first`;
        await db.query(`select private.report_flush()`);
        const kept = (await db.query(days)).rows;
        expect(kept.length).toBeGreaterThan(700);
        let fresh: unknown[] = [];
        await db
          .transaction(async (tx) => {
            await tx.query(`select private.refresh_report_days(null)`);
            fresh = (await tx.query(days)).rows;
            throw new Rollback();
          })
          .catch((error) => {
            if (!(error instanceof Rollback)) throw error;
          });
        expect(fresh).toEqual(kept);
      });

      it('every report equals the one before, to the cent, over random ranges', async () => {
        let compared = 0;
        await asAdmin(db, async (tx) => {
          for (let i = 0; i < 30; i++) {
            const from = -760 + rand() * 1100;
            const len = i === 0 ? 1100 : i === 1 ? 365 : rand() < 0.2 ? 0 : rand() * 400;
            for (const report of REPORTS) {
              const args = `${day(from)}, ${day(from + len)}`;
              const before = await answer(tx, `select * from perf_before.${report}(${args})`, []);
              const after = await answer(tx, `select * from public.${report}(${args})`, []);
              expect(after, `${report}(${args})`).toEqual(before);
              compared += before.rows?.length ?? 0;
            }
          }
        });
        expect(compared).toBeGreaterThan(500);
      });

      it('search_available_places equals the one before for random stays and boats', async () => {
        let found = 0;
        await db.transaction(async (tx) => {
          for (let i = 0; i < 60; i++) {
            const kind = rand() < 0.25 ? 'day' : 'overnight';
            const arrival = Math.round(-5 + rand() * 380);
            const nights = 1 + Math.floor(rand() * 8);
            const length = (6 + rand() * 16).toFixed(2);
            const width = (2 + rand() * 2.5).toFixed(2);
            const args =
              kind === 'day'
                ? [`'day'`, day(arrival), length, width, 'null', `time '09:00'`, `time '${12 + Math.floor(rand() * 6)}:00'`]
                : [`'overnight'`, day(arrival), length, width, day(arrival + nights), 'null', 'null'];
            const list = args.join(', ');
            const before = await answer(tx, `select * from perf_before.search_available_places(${list})`, []);
            const after = await answer(tx, `select * from private.search_available_places(${list})`, []);
            expect(after, `search(${list})`).toEqual(before);
            found += before.rows?.length ?? 0;
          }
        });
        expect(found).toBeGreaterThan(1000);
      });

      it('calendar_entries equals the one before for random ranges, whole harbour and one berth', async () => {
        const places = (await db.query<{ id: string }>(`select id from public.places order by name`)).rows.map((r) => r.id);
        let entries = 0;
        await db.transaction(async (tx) => {
          for (let i = 0; i < 40; i++) {
            const from = Math.round(-760 + rand() * 1120);
            const to = from + Math.floor(rand() * 45);
            const place = i % 3 === 2 ? places[Math.floor(rand() * places.length)] : null;
            const order = 'order by 1';
            const before = await answer(tx, `select * from perf_before.calendar_entries(${day(from)}, ${day(to)}, $1) ${order}`, [place]);
            const after = await answer(tx, `select * from private.calendar_entries(${day(from)}, ${day(to)}, $1) ${order}`, [place]);
            expect(after, `calendar_entries(${from}, ${to}, ${place})`).toEqual(before);
            entries += before.rows?.length ?? 0;
          }
        });
        expect(entries).toBeGreaterThan(2000);
      });

      it('calendar_entries stays exact through every kind of change, while its kept rows wait for the flush and after it', async () => {
        const places = (await db.query<{ id: string }>(`select id from public.places order by name`)).rows.map((r) => r.id);
        const pending = async (tx: Queryable) =>
          (await tx.query<{ n: number }>(`select count(*)::int as n from private.report_pending where place_status_id is not null`)).rows[0]
            .n;
        /**
         * calendar_entries against perf_before over random ranges (whole harbour and single berths),
         * around today: 24 ranges (16 before the held berths' stays left the generated data, ADR
         * 0054: with fewer stays the same ranges held fewer rows than the 1,000 asked below).
         */
        const compare = async (tx: Queryable, label: string) => {
          let rows = 0;
          for (let i = 0; i < 24; i++) {
            const from = Math.round(-40 + rand() * 120);
            const to = from + Math.floor(rand() * 40);
            const place = i % 4 === 3 ? places[Math.floor(rand() * places.length)] : null;
            const before = await answer(tx, `select * from perf_before.calendar_entries(${day(from)}, ${day(to)}, $1) order by 1`, [place]);
            const after = await answer(tx, `select * from private.calendar_entries(${day(from)}, ${day(to)}, $1) order by 1`, [place]);
            expect(after, `${label}: calendar_entries(${from}, ${to}, ${place})`).toEqual(before);
            rows += before.rows?.length ?? 0;
          }
          return rows;
        };
        /** Runs a call; a refused one (e.g. an overlap) is rolled back to its savepoint. */
        const attempt = async (tx: Queryable, sql: string, params: unknown[] = []) => {
          await tx.query('savepoint change');
          try {
            await tx.query(sql, params);
            await tx.query('release savepoint change');
            return 1;
          } catch {
            await tx.query('rollback to savepoint change');
            return 0;
          }
        };
        await asAdmin(db, async (tx) => {
          await tx.query(`select private.report_flush()`);
          expect(await pending(tx)).toBe(0);
          const kept = await compare(tx, 'flushed');
          expect(kept).toBeGreaterThan(1000);
          // Open bookings in the next weeks, of berths Q (not moved before).
          const { rows: open } = await tx.query<{ id: string; place_id: string }>(
            `select o.id, o.place_id from public.orders o join public.places p on p.id = o.place_id
           where p.name like 'Q%' and o.status in ('confirmed', 'unverified') and o.starts_at between now() and now() + interval '60 days'
           order by o.id limit 48`,
          );
          expect(open.length).toBeGreaterThan(40);
          const ids = (k: number) => open.filter((_, i) => i % 8 === k).map((r) => r.id);
          const done: Record<string, number> = {};
          // Through the booking functions: staff cancel, move to a free berth, reschedule.
          for (const id of ids(0)) done.cancel = (done.cancel ?? 0) + (await attempt(tx, `select public.cancel_booking($1, false)`, [id]));
          // Each to the first M berth free for its whole stay (the generated data is random: a
          // fixed berth was taken for all of them on some runs).
          for (const id of ids(1)) {
            done.move =
              (done.move ?? 0) +
              (await attempt(
                tx,
                `select public.move_booking(o.id, (
               select m.id from public.places m
               where m.name like 'M%' and not m.archived and m.id <> o.place_id
                 and not exists (select 1 from public.place_statuses s
                                 where s.place_id = m.id and not s.cancelled and s.starts_at < o.ends_at and s.ends_at > o.starts_at)
               order by m.name limit 1), false)
             from public.orders o where o.id = $1`,
                [id],
              ));
          }
          // Overnight stays one day later and two nights long, until four have moved (a day stay
          // keeps its window, and the next stay on the berth may hold the new nights: such a
          // reschedule is refused and the next candidate tried).
          const { rows: later } = await tx.query<{ id: string }>(
            `select o.id from public.orders o join public.places p on p.id = o.place_id
           where p.name like 'Q%' and o.kind = 'overnight' and o.status in ('confirmed', 'unverified')
             and o.starts_at between now() + interval '2 days' and now() + interval '60 days' and o.id <> all($1)
           order by o.id limit 40`,
            [open.map((r) => r.id)],
          );
          for (const { id } of [...ids(2).map((id) => ({ id })), ...later]) {
            if ((done.reschedule ?? 0) >= 4) break;
            done.reschedule =
              (done.reschedule ?? 0) +
              (await attempt(
                tx,
                `select public.reschedule_booking($1, a + 1, a + 3, null, false)
             from (select (o.starts_at at time zone 'Europe/Berlin')::date as a from public.orders o where o.id = $1) x`,
                [id],
              ));
          }
          // On the tables, as any other path would: status, expiry (a hold lapses, another is
          // extended), the boat's name and the guest's name edited or removed.
          await tx.query(`update public.orders set status = 'checked_in' where id = any($1)`, [ids(3)]);
          await tx.query(`update public.orders set status = 'unverified', expires_at = now() - interval '1 minute' where id = any($1)`, [
            ids(4).slice(0, 3),
          ]);
          await tx.query(`update public.orders set status = 'unverified', expires_at = now() + interval '1 hour' where id = any($1)`, [
            ids(4).slice(3),
          ]);
          await tx.query(`update public.orders set boat = boat || '{"name": "Neuer Name"}' where id = any($1)`, [ids(5)]);
          await tx.query(`update public.orders set person = person || '{"first_name": "Erika"}' where id = any($1)`, [ids(6).slice(0, 3)]);
          await tx.query(`update public.orders set person = person - 'first_name' - 'last_name', boat = boat - 'name' where id = any($1)`, [
            ids(6).slice(3),
          ]);
          await tx.query(`update public.place_statuses set note = 'Notiz' where order_id = any($1)`, [ids(7)]);
          // Blocks: one added with its reason, one's reason changed, one cancelled, one deleted.
          const block = (
            await tx.query<{ id: string }>(
              `select (public.add_berth_block(p.id, now() + interval '300 days', now() + interval '301 days', 'reserved', 'Regatta')).id
           from public.places p where p.name = 'M0018'`,
            )
          ).rows[0].id;
          const { rows: blocks } = await tx.query<{ id: string }>(
            `select s.id from public.place_statuses s where s.type = 'service' and not s.cancelled and s.starts_at between now() and now() + interval '60 days' order by s.id limit 3`,
          );
          expect(blocks.length).toBe(3);
          await tx.query(`insert into public.berth_blocks (place_status_id, reason) values ($1, 'maintenance')`, [blocks[0].id]);
          await tx.query(`update public.berth_blocks set reason = 'reserved' where place_status_id = any($1)`, [[blocks[0].id, block]]);
          await tx.query(`select public.cancel_berth_block($1)`, [blocks[1].id]);
          await tx.query(`delete from public.place_statuses where id = $1`, [blocks[2].id]);
          expect(done.cancel, 'cancelled').toBeGreaterThan(3);
          expect(done.move, 'moved').toBeGreaterThan(0);
          expect(done.reschedule, 'rescheduled').toBeGreaterThan(3);
          // Before the flush: the changed occupations are read from the live tables.
          expect(await pending(tx)).toBeGreaterThan(40);
          expect(await compare(tx, 'pending')).toBeGreaterThan(400);
          // After it: from the kept rows, which equal the rows computed afresh.
          await tx.query(`select private.report_flush()`);
          expect(await pending(tx)).toBe(0);
          expect(await compare(tx, 'flushed again')).toBeGreaterThan(1000);
          const keptRows = (await tx.query(`select * from private.calendar_occupations order by id`)).rows;
          const fresh = (await tx.query(`select * from private.calendar_occupations_live order by id`)).rows;
          expect(keptRows.length).toBeGreaterThan(5000);
          expect(keptRows).toEqual(fresh);
          throw new Rollback();
        }).catch((error) => {
          if (!(error instanceof Rollback)) throw error;
        });
      });
    },
  );
}
