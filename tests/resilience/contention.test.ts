/**
 * Contention on Postgres (issue 13, item 2): 200 booking attempts at once through the local
 * stack's HTTP API (supabase-js rpc('create_booking') as the app calls it), 100 guests with
 * anonymous sessions and 20 signed-in customers with 5 attempts each, over 20 berths and
 * overlapping periods. No two accepted bookings may overlap on a berth (checked in SQL), every
 * refusal must be the 409 23P01 'berth_no_longer_available' the app shows as "no longer
 * available", and every acceptance has its order, its reservation row and one confirmation
 * mail queued. PGlite is one session (requests queue), so the race is real only on Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { startTestStack } from '../../supabase/local/test/harness/stack.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import {
  NO_LONGER_AVAILABLE,
  PROJECT,
  berlinDay,
  book,
  brokenInvariants,
  createBerths,
  createCustomers,
  customer,
  guest,
  prng,
  runSeed,
  type Attempt,
} from './support.ts';

const postgres = engines().find((e) => e.name === 'postgres')!;
const BERTHS = 20;
const GUESTS = 100;
const CUSTOMERS = 20;
const PER_CUSTOMER = 5;

describe.skipIf(postgres.skip && skipBecause('booking contention on postgres', postgres.skip))(
  'booking contention on postgres',
  { timeout: 120_000 },
  () => {
    let stack: Stack;
    let berths: string[];
    const seed = runSeed();

    beforeAll(async () => {
      stack = await startTestStack({ engine: 'postgres', workdir: PROJECT, seed: false });
      berths = await createBerths(stack.db, 'C', BERTHS);
    });
    afterAll(async () => {
      await stack?.close();
    });

    it(`${GUESTS + CUSTOMERS * PER_CUSTOMER} concurrent attempts over ${BERTHS} berths: no overlap, clean refusals, whole acceptances`, async () => {
      console.log(`contention seed ${seed} (RESILIENCE_SEED=${seed} repeats it)`);
      const rnd = prng(seed);
      const anon = stack.keys.anonKey;
      const emails = await createCustomers(stack.db, 'contention', CUSTOMERS);
      // Sign everybody in first (sessions as the app has them before "Verbindlich buchen").
      const guests = await Promise.all(Array.from({ length: GUESTS }, (_, i) => guest(stack.url, anon, i)));
      const customers = await Promise.all(emails.map((e, i) => customer(stack.url, anon, e, i)));
      const callers: { sb: SupabaseClient; who: string }[] = [
        ...guests.map((sb, i) => ({ sb, who: `guest${i}` })),
        ...customers.flatMap((sb, i) => Array.from({ length: PER_CUSTOMER }, () => ({ sb, who: `customer${i}` }))),
      ];
      // Periods: arrivals within a 10-day window, 1-4 nights: most attempts overlap another.
      const attempts: (Attempt & { sb: SupabaseClient; who: string })[] = callers.map((c) => {
        const start = rnd.int(20, 29);
        return {
          ...c,
          placeId: rnd.pick(berths),
          arrival: berlinDay(start),
          departure: berlinDay(start + rnd.int(1, 4)),
          boatLength: rnd.pick([6, 8.5, 9.99, 12]),
        };
      });
      for (let i = attempts.length - 1; i > 0; i--) {
        const j = rnd.int(0, i);
        [attempts[i], attempts[j]] = [attempts[j], attempts[i]];
      }

      const started = performance.now();
      const results = await Promise.all(attempts.map(async (a) => ({ a, r: await book(a.sb, a, a.who) })));
      const seconds = (performance.now() - started) / 1000;

      const accepted = results.filter(({ r }) => r.status === 200);
      const refused = results.filter(({ r }) => r.status !== 200);
      console.log(`contention: ${accepted.length} accepted, ${refused.length} refused in ${seconds.toFixed(1)} s`);
      expect(accepted.length + refused.length).toBe(attempts.length);
      // Every refusal is the one the booking page maps to "no longer available".
      for (const { r } of refused)
        expect({ status: r.status, code: r.error?.code, message: r.error?.message }).toEqual(NO_LONGER_AVAILABLE);
      // Both sides of the race happened: some won, some lost.
      expect(accepted.length).toBeGreaterThanOrEqual(BERTHS);
      expect(refused.length).toBeGreaterThan(0);

      // Accepted bookings of one berth never overlap (also as seen by the callers).
      const byBerth = new Map<string, { from: string; to: string }[]>();
      for (const { a } of accepted) byBerth.set(a.placeId, [...(byBerth.get(a.placeId) ?? []), { from: a.arrival, to: a.departure }]);
      for (const stays of byBerth.values()) {
        stays.sort((x, y) => x.from.localeCompare(y.from));
        for (let i = 1; i < stays.length; i++) expect(stays[i].from >= stays[i - 1].to).toBe(true);
      }

      // Every acceptance is whole in the database: its order, one live reservation with the same
      // berth and times, one confirmation mail; nothing else was written.
      const ids = accepted.map(({ r }) => (r.data as { id: string }).id);
      const { rows } = await stack.db.query<{ id: string; statuses: number; mails: number; place_id: string }>(
        `select o.id, o.place_id,
              (select count(*)::int from public.place_statuses s where s.order_id = o.id and not s.cancelled
                 and s.type = 'reservation' and s.starts_at = o.starts_at and s.ends_at = o.ends_at and s.place_id = o.place_id) as statuses,
              (select count(*)::int from public.outbox m where m.order_id = o.id) as mails
       from public.orders o`,
      );
      expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      for (const row of rows)
        expect({ id: row.id, statuses: row.statuses, mails: row.mails }).toEqual({ id: row.id, statuses: 1, mails: 1 });
      const live = await stack.db.query<{ n: number }>(`select count(*)::int as n from public.place_statuses`);
      expect(live.rows[0].n).toBe(ids.length);
      expect(await brokenInvariants(stack.db)).toEqual({});
    });
  },
);
