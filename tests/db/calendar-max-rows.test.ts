/**
 * The staff calendar past max_rows (issue 13 follow-up): every REST answer is capped at
 * config.toml's max_rows = 1,000 (as on hosted Supabase), silently. With 1,058 berths and over
 * 2,000 occupations in a month, one request gets 1,000 of each (the cap is real), and the
 * calendar's query function (`loadCalendar`, run as harbour staff through supabase-js against the
 * local stack) still returns every berth and every occupation, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '@supabase/supabase-js';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { startTestStack } from '../../supabase/local/test/harness/stack.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import type { Database } from '@/lib/database.types';
import {
  berlinMidnight,
  blocksFor,
  calendarEntries,
  calendarPlaces,
  calendarRange,
  groupByPlace,
  loadCalendar,
  PLACE_BLOCK,
} from '@/features/harbour/calendar/api/calendar';
import { createBerths } from '../resilience/support.ts';
import { signInWithPassword } from '../../supabase/local/test/harness/demo-staff.ts';

/** A month far from the seed's bookings: 30 days, as the month view asks for. */
const { from: FROM, to: TO } = calendarRange('2030-02-01', 'month');
/** Blocks per berth in the month: 1,058 berths x 2 = 2,116 occupations. */
const DAYS = ['2030-02-05', '2030-02-20'];

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`calendar past max_rows on ${engine.name}`, engine.skip))(
    `calendar past max_rows on ${engine.name}`,
    { timeout: 120_000 },
    () => {
      let stack: Stack;
      const staff = () => {
        const sb = createClient<Database>(stack.url, stack.keys.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
        });
        return signInWithPassword(sb, { email: 'hafen@hafen.test', password: 'Hafen1234' }).then(({ error }) => {
          if (error) throw new Error(error.message);
          return sb;
        });
      };

      beforeAll(async () => {
        stack = await startTestStack({ engine: engine.name, workdir: 'supabase' });
        await createBerths(stack.db, 'MAX', 1000);
        // Service blocks, as add_berth_block writes them (bulk, through the database as the other
        // suites set up data): one per berth on each of DAYS, 08:00-18:00 Berlin.
        await stack.db.query(
          `insert into public.place_statuses (place_id, type, starts_at, ends_at, note)
         select p.id, 'service', (d::date + time '08:00') at time zone 'Europe/Berlin',
                (d::date + time '18:00') at time zone 'Europe/Berlin', 'max_rows ' || p.name
         from public.places p cross join unnest($1::text[]) d
         where not p.archived`,
          [DAYS],
        );
      }, 240_000);
      afterAll(async () => {
        await stack?.close();
      });

      it('one request is cut at 1,000 rows; the calendar query returns every berth and occupation', async () => {
        const expectedPlaces = (await stack.db.query<{ id: string }>(`select id from public.places where not archived`)).rows.map(
          (r) => r.id,
        );
        const expectedEntries = (
          await stack.db.query<{ id: string; place_id: string }>(
            `select id, place_id from private.calendar_entries($1::date, $2::date, null)`,
            [FROM, TO],
          )
        ).rows;
        expect(expectedPlaces.length).toBeGreaterThan(1000);
        expect(expectedEntries.length).toBeGreaterThanOrEqual(expectedPlaces.length * DAYS.length);

        const sb = await staff();
        // The cap: a single request of each list answers 1,000 rows, no error.
        const rawPlaces = await sb.from('places').select('id').eq('archived', false).order('name');
        expect(rawPlaces.error).toBeNull();
        expect(rawPlaces.data).toHaveLength(1000);
        const rawEntries = await sb.rpc('calendar_entries', { p_from: FROM, p_to: TO });
        expect(rawEntries.error).toBeNull();
        expect(rawEntries.data).toHaveLength(1000);

        // The calendar's query function: all of them.
        const data = await loadCalendar(sb, FROM, TO);
        expect(data.days).toHaveLength(30);
        expect(data.places.map((p) => p.id).sort()).toEqual([...expectedPlaces].sort());
        const shown = new Map<string, string>();
        for (const [placeId, list] of Object.entries(data.byPlace)) for (const e of list) shown.set(e.id, placeId);
        expect(shown.size).toBe(expectedEntries.length);
        for (const e of expectedEntries) expect(shown.get(e.id), e.id).toBe(e.place_id);
        // Every berth is taken on both block days (the staff must not see a free berth there).
        for (const id of expectedPlaces) {
          for (const day of DAYS) {
            // The block lies inside the Berlin day: it overlaps [midnight, next midnight).
            const dayStart = berlinMidnight(day);
            const dayEnd = berlinMidnight(new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
            const covered = data.byPlace[id]?.some(
              (e) => e.type === 'service' && Date.parse(e.starts_at) < dayEnd && (e.ends_at === null || Date.parse(e.ends_at) > dayStart),
            );
            expect(covered, `${id} ${day}`).toBe(true);
          }
        }
      });

      it("the timeline's blocks of berths (calendar_entries with p_place_ids) add up to the same calendar", async () => {
        const sb = await staff();
        const all = await loadCalendar(sb, FROM, TO);
        const places = await calendarPlaces(sb);
        const names = new Map(places.map((p) => [p.id, p.name]));
        // The blocks of every row, as the page asks for them while scrolling to the end.
        const blocks = blocksFor(0, places.length - 1, places.length);
        expect(blocks).toHaveLength(Math.ceil(places.length / PLACE_BLOCK));
        const merged: typeof all.byPlace = {};
        for (const b of blocks) {
          const ids = places.slice(b * PLACE_BLOCK, (b + 1) * PLACE_BLOCK).map((p) => p.id);
          const rows = await calendarEntries(sb, FROM, TO, ids);
          // A block is one answer (under max_rows) and holds only its berths.
          expect(rows.length).toBeLessThan(1000);
          for (const r of rows) expect(ids).toContain(r.place_id);
          Object.assign(merged, groupByPlace(rows, names));
        }
        expect(merged).toEqual(all.byPlace);
        // Too many berths in one call: a clear refusal, not a 500.
        const tooMany = await sb.rpc('calendar_entries', { p_from: FROM, p_to: TO, p_place_ids: places.slice(0, 501).map((p) => p.id) });
        expect(tooMany.error?.message).toBe('too_many_places');
        expect(tooMany.status).toBe(400);
      });
    },
  );
}
