/**
 * Faults (issue 13, item 3), part one: the local stack is SIGKILLed in the middle of a burst of
 * bookings, on PGlite (its data directory) and on Postgres. After a restart every booking whose
 * HTTP 200 reached the caller is there exactly once and whole (order + live reservation), no
 * order or status row is half-written, and the restarted stack books again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { engines, freshPostgresDatabase, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { spawnAndWait, type ChildStack } from '../../supabase/local/test/harness/child.ts';
import { startStack, type Stack } from '../../supabase/local/src/stack.ts';
import { openPglite } from '../../supabase/local/src/db/pglite.ts';
import { preparedPglite } from '../../supabase/local/test/harness/stack.ts';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { PROJECT, berlinDay, book, brokenInvariants, customer, guest } from './support.ts';

const ACKS_BEFORE_KILL = 15;
const IN_FLIGHT = 8;
const FIRST_DAY = 400; // far beyond the seed's orders

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`SIGKILL during bookings on ${engine.name}`, engine.skip))(
    `SIGKILL during a burst of bookings on ${engine.name}`,
    { timeout: 200_000 },
    () => {
      it('keeps every acknowledged booking exactly once and whole, and books again after a restart', async () => {
        const t0 = performance.now();
        const lap = (what: string) => console.log(`${engine.name}: ${what} after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        const dataDir = mkdtempSync(join(tmpdir(), 'hafen-crash-'));
        cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
        const databaseUrl = engine.name === 'postgres' ? await freshPostgresDatabase('crash') : '';
        if (engine.name === 'pglite') {
          // Start the child from the cached, migrated and seeded database (no cold initdb).
          const db = await openPglite({ dataDir: join(dataDir, 'pglite'), loadDataDir: await preparedPglite(PROJECT, true) });
          await db.close();
        }
        const args = [
          'supabase/local/src/cli.ts',
          'start',
          '--workdir',
          PROJECT,
          '--data-dir',
          dataDir,
          '--port',
          '0',
          '--mail-port',
          '0',
          '--smtp-port',
          '0',
        ];
        const child: ChildStack & { match: RegExpExecArray } = await spawnAndWait(args, /API URL: (http:\/\/\S+)/, {
          DATABASE_URL: databaseUrl,
        });
        cleanup.push(async () => {
          child.process.kill('SIGKILL');
          await child.exited;
        });
        const url = child.match[1];
        lap('child stack ready');

        // Callers as the app has them: two seeded customers and a dozen guests (3 open orders each).
        const customers = [
          await customer(url, DEMO_ANON_KEY, 'kunde@hafen.test', 1),
          await customer(url, DEMO_ANON_KEY, 'anna.schmidt@hafen.test', 2),
        ];
        const guests = await Promise.all(Array.from({ length: 12 }, (_, i) => guest(url, DEMO_ANON_KEY, i)));
        const callers: { sb: SupabaseClient; who: string }[] = [
          ...guests.flatMap((sb, i) => [0, 1, 2].map(() => ({ sb, who: `guest${i}` }))),
          ...Array.from({ length: 200 }, (_, i) => ({ sb: customers[i % 2], who: `customer${i % 2}` })),
        ];
        // Free berths for a 1-night stay; stays on following nights never overlap each other.
        const free = await customers[0].rpc('search_available_places', {
          p_kind: 'overnight',
          p_arrival: berlinDay(FIRST_DAY),
          p_departure: berlinDay(FIRST_DAY + 1),
          p_boat_length: 8,
          p_boat_width: 3.1,
        });
        expect(free.error).toBeNull();
        const berths = (free.data as { place_id: string }[]).map((p) => p.place_id);
        expect(berths.length).toBeGreaterThan(10);
        const slots = Array.from({ length: 6 }, (_, night) => berths.map((placeId) => ({ placeId, night }))).flat();

        const acked: { id: string; placeId: string; night: number }[] = [];
        let sent = 0;
        let failed = 0;
        let killedAt = -1;
        const worker = async () => {
          while (killedAt < 0 && slots.length > 0) {
            const slot = slots.shift()!;
            const caller = callers[sent++];
            const r = await book(
              caller.sb,
              {
                placeId: slot.placeId,
                arrival: berlinDay(FIRST_DAY + slot.night),
                departure: berlinDay(FIRST_DAY + slot.night + 1),
                boatLength: 8,
              },
              caller.who,
            );
            if (r.status === 200) {
              acked.push({ id: (r.data as { id: string }).id, ...slot });
              if (acked.length === ACKS_BEFORE_KILL && killedAt < 0) {
                killedAt = sent;
                child.process.kill('SIGKILL');
              }
            } else {
              // Before the kill nothing may fail; after it, the connection error of a dead server.
              if (killedAt < 0) throw new Error(`booking refused before the kill: ${r.status} ${JSON.stringify(r.error)}`);
              failed++;
            }
          }
        };
        lap('callers signed in');
        await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
        await child.exited;
        console.log(`${engine.name}: ${acked.length} acknowledged, ${failed} cut off by the SIGKILL (${sent} sent)`);
        expect(acked.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
        expect(failed).toBeGreaterThan(0);

        // Restart on the same data (the stack takes over the dead one's lock on PGlite).
        const stack: Stack = await startStack({
          workdir: PROJECT,
          ...(databaseUrl ? { databaseUrl } : { dataDir }),
          port: 0,
          mailPort: 0,
          smtpPort: 0,
        });
        cleanup.push(() => stack.close());
        lap('restarted');
        if (engine.name === 'pglite') expect(stack.recoveredLockFrom).toBe(child.process.pid);
        const { rows } = await stack.db.query<{ id: string; n: number; statuses: number }>(
          `select o.id, count(*) over (partition by o.place_id, o.starts_at)::int as n,
                  (select count(*)::int from public.place_statuses s where s.order_id = o.id and not s.cancelled
                     and s.place_id = o.place_id and s.starts_at = o.starts_at and s.ends_at = o.ends_at) as statuses
           from public.orders o where o.starts_at >= $1::date`,
          [berlinDay(FIRST_DAY)],
        );
        const stored = new Map(rows.map((r) => [r.id, r]));
        console.log(`${engine.name} after restart: ${rows.length} orders stored for ${acked.length} acknowledged`);
        for (const a of acked) expect(stored.get(a.id), `acknowledged booking ${a.id}`).toEqual({ id: a.id, n: 1, statuses: 1 });
        // Orders that committed while their answer was cut off are whole too (checked for all).
        expect(await brokenInvariants(stack.db)).toEqual({});
        const orphans = await stack.db.query(
          `select s.id from public.place_statuses s left join public.orders o on o.id = s.order_id
           where s.type = 'reservation' and s.starts_at >= $1::date and (o.id is null or o.status not in ('unverified', 'confirmed'))`,
          [berlinDay(FIRST_DAY)],
        );
        expect(orphans.rows).toEqual([]);

        // The restarted stack serves bookings again.
        const again = await customer(stack.url, stack.keys.anonKey, 'kunde@hafen.test', 3);
        const next = slots[0] ?? { placeId: berths[0], night: 10 };
        const r = await book(
          again,
          {
            placeId: next.placeId,
            arrival: berlinDay(FIRST_DAY + next.night),
            departure: berlinDay(FIRST_DAY + next.night + 1),
            boatLength: 8,
          },
          'after',
        );
        expect(r.status).toBe(200);
      });
    },
  );
}
