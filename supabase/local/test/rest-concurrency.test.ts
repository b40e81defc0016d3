/**
 * Several supabase-js clients writing through /rest/v1 at once. On Postgres each request has
 * its own connection from the pool and the requests really run in parallel (asserted by
 * timing); on PGlite the database is one shared session, so the stack serialises the
 * requests: the same results must come out, one transaction after the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import type { Stack } from '../src/stack.ts';
import { ALICE, BOB, REST_FIXTURE, client, userToken } from './fixtures/rest-helpers.ts';

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`rest concurrency on ${engine.name}`, engine.skip))(
    `rest concurrency on ${engine.name}`,
    () => {
      let stack: Stack;
      beforeAll(async () => {
        stack = await startTestStack({ engine: engine.name, workdir: REST_FIXTURE });
      });
      afterAll(async () => {
        await stack?.close();
      });

      it('keeps every concurrent insert, each under its own user and RLS', async () => {
        const tokens = [await userToken(stack, ALICE), await userToken(stack, BOB)];
        // 10 clients; each sends its inserts at once (fewer on PGlite, where they queue anyway)
        const each = engine.name === 'postgres' ? 10 : 4;
        const clients = Array.from({ length: 10 }, (_, i) => ({
          owner: i % 2 ? BOB : ALICE,
          sb: client(stack, stack.keys.anonKey, tokens[i % 2]),
        }));
        const results = await Promise.all(
          clients.flatMap(({ sb }, c) =>
            Array.from({ length: each }, (_, n) =>
              sb
                .from('notes')
                .insert({ body: `c${c} n${n}` })
                .select('id, owner_id, body')
                .single(),
            ),
          ),
        );
        expect(results.map((r) => r.status)).toEqual(Array(10 * each).fill(201));
        const ids = new Set(results.map((r) => r.data!.id));
        expect(ids.size).toBe(10 * each);
        for (const [i, r] of results.entries()) expect(r.data!.owner_id).toBe(clients[Math.floor(i / each)].owner);
        const service = client(stack, stack.keys.serviceRoleKey);
        const total = await service.from('notes').select('*', { count: 'exact', head: true });
        expect(total.count).toBe(3 + 10 * each);
        const alices = await client(stack, stack.keys.anonKey, tokens[0])
          .from('notes')
          .select('*', { count: 'exact', head: true })
          .eq('owner_id', ALICE);
        expect(alices.count).toBe(2 + 5 * each);
      });

      it('serialises concurrent updates of one row through row locks', async () => {
        const sb = client(stack, stack.keys.anonKey, await userToken(stack, ALICE));
        const results = await Promise.all(Array.from({ length: 20 }, () => sb.rpc('bump', { k: 'counter' })));
        expect(results.map((r) => r.error)).toEqual(Array(20).fill(null));
        expect(results.map((r) => r.data as number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        const row = await client(stack, stack.keys.serviceRoleKey).from('settings').select('updated').eq('key', 'counter').single();
        expect(row.data).toEqual({ updated: 20 });
      });

      it('lets exactly one of several concurrent inserts of the same key win', async () => {
        const service = client(stack, stack.keys.serviceRoleKey);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => service.from('settings').insert({ key: 'race', value: String(i) })),
        );
        expect(results.filter((r) => r.status === 201)).toHaveLength(1);
        const losers = results.filter((r) => r.status !== 201);
        expect(losers.map((r) => [r.status, r.error?.code])).toEqual(Array(9).fill([409, '23505']));
      });

      // PGlite has no timer to cancel a running statement, so this one runs on Postgres only;
      // rest.test.ts checks current_setting('statement_timeout') per role on both engines.
      if (engine.name === 'postgres')
        it('cancels a request after the role statement_timeout (anon: 3s) on Postgres', async () => {
          const started = performance.now();
          const r = await client(stack, stack.keys.anonKey).rpc('sleepy', { seconds: 5 });
          expect(performance.now() - started).toBeLessThan(4500);
          expect(r.status).toBe(500);
          expect(r.error).toEqual({ code: '57014', details: null, hint: null, message: 'canceling statement due to statement timeout' });
          const service = await client(stack, stack.keys.serviceRoleKey).rpc('sleepy', { seconds: 3.2 });
          expect([service.status, service.data]).toEqual([200, 3.2]);
        });

      it(
        engine.name === 'postgres'
          ? 'runs requests in parallel on Postgres'
          : 'runs requests one after the other on PGlite (one shared session)',
        async () => {
          const sb = client(stack, stack.keys.anonKey);
          const started = performance.now();
          const results = await Promise.all(Array.from({ length: 6 }, () => sb.rpc('sleepy', { seconds: 0.4 })));
          const elapsed = performance.now() - started;
          expect(results.map((r) => r.data)).toEqual(Array(6).fill(0.4));
          if (engine.name === 'postgres') expect(elapsed).toBeLessThan(6 * 400 * 0.6);
          else expect(elapsed).toBeGreaterThanOrEqual(6 * 400 * 0.95);
        },
      );
    },
  );
}
