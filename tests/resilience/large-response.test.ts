/**
 * Large REST answers (issue 13; the calendar benchmark's month of 1,058 berths ended in
 * "fetch failed" twice): several multi-MB JSON bodies fetched at once arrive complete and
 * valid, also when a keep-alive connection is reused while the stack's event loop is busy.
 *
 * The cause found: Node's HTTP server closes an idle keep-alive socket when its timer fires,
 * and timers run before the event loop reads sockets. A client that sent its next request on
 * the socket just before a long synchronous stretch of the stack (PGlite runs its queries on
 * the main thread; big bodies are parsed there too when the client shares the process) got the
 * socket closed under the request: "other side closed" / ECONNRESET, i.e. `fetch failed`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { fixtureProject, startTestStack } from '../../supabase/local/test/harness/stack.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';

const ROWS = 20_000;
/** Multi-byte text, so a body cut or re-joined at a chunk boundary would show. */
const NOTE = 'Größe ä ö ü ß € Steg '.repeat(8);
const MIGRATION = `
create table public.resilience_rows (id int primary key, name text not null, note text not null, at timestamptz not null);
insert into public.resilience_rows
select g, 'Liegeplatz ' || g, '${NOTE}' || g, timestamptz '2026-01-01 00:00+00' + g * interval '1 minute'
from generate_series(1, ${ROWS}) g;
grant select on public.resilience_rows to anon;
`;

/** Blocks the event loop, as a long PGlite statement or JSON.parse of a big body does. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`large REST answers on ${engine.name}`, engine.skip))(
    `large REST answers on ${engine.name}`,
    { timeout: 120_000 },
    () => {
      let stack: Stack;
      let dir: string;
      const get = (query: string) =>
        fetch(`${stack.url}/rest/v1/resilience_rows?${query}`, {
          headers: { apikey: stack.keys.anonKey },
          signal: AbortSignal.timeout(60_000),
        });

      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'large-response-'));
        fixtureProject(dir, {
          migrations: { '20260101000000_rows.sql': MIGRATION },
          config: `[api]\nmax_rows = ${ROWS * 2}\n`,
        });
        // the server's idle timeout as short as the 5 s it advertises, so the race below can happen
        // (the stack's default keeps sockets 15 s, a margin that makes it rare in the first place)
        stack = await startTestStack({ engine: engine.name, workdir: dir, keepAliveMs: 5_000 });
      }, 180_000);
      afterAll(async () => {
        await stack?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it('answers several multi-MB selects at once, each complete and valid JSON', async () => {
        for (let round = 0; round < 3; round++) {
          const answers = await Promise.all(
            Array.from({ length: 4 }, async () => {
              const res = await get('select=*&order=id');
              const bytes = Buffer.from(await res.arrayBuffer());
              return { status: res.status, length: Number(res.headers.get('content-length')), bytes };
            }),
          );
          for (const a of answers) {
            expect(a.status).toBe(200);
            expect(a.bytes.length).toBe(a.length);
            expect(a.bytes.length).toBeGreaterThan(4 * 1024 * 1024);
            const rows = JSON.parse(a.bytes.toString('utf8')) as { id: number; name: string; note: string; at: string }[];
            expect(rows).toHaveLength(ROWS);
            expect(rows.every((r, i) => r.id === i + 1 && r.note === `${NOTE}${i + 1}` && r.name === `Liegeplatz ${i + 1}`)).toBe(true);
            expect(Date.parse(rows[ROWS - 1].at)).toBe(Date.parse('2026-01-14T21:20:00Z'));
          }
        }
      });

      it('answers a request sent on a reused keep-alive connection while the stack was busy', async () => {
        // The bench's pattern: a response arrives (an I/O callback), the client sends its next
        // request on an idle keep-alive connection and then works synchronously for a while
        // (in the bench: parsing and spreading 2-8 MB, or PGlite answering another request).
        // The server's idle timer (5 s + Node's 1 s buffer) expires meanwhile, and timers run
        // before the request is read. undici keeps the connection 3 s (5 s advertised - 2 s).
        const other = createServer((_req, res) => res.end('other'));
        await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
        try {
          const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
          const first = await get('select=id&id=lte.3&order=id');
          expect(await first.json()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
          await new Promise((r) => setTimeout(r, 1_500));
          await (await fetch(otherUrl)).text(); // what follows runs in an I/O callback
          const second = get('select=id,note&id=lte.500&order=id');
          for (let i = 0; i < 200; i++) await null; // the request is written
          busy(5_500);
          const res = await second;
          expect(res.status).toBe(200);
          const rows = (await res.json()) as { id: number }[];
          expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
        } finally {
          other.closeAllConnections();
          await new Promise((r) => other.close(r));
        }
      });
    },
  );
}
