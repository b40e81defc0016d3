import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStack } from './harness/stack.ts';
import type { Stack } from '../src/stack.ts';

/**
 * A request answered before its body was read (a refused token, a missing key, a function that
 * says 401 at once, a body over a limit) must not break the connection it came on: a client
 * with keep-alive sends its next request on the same socket, as browsers and Node's Agent do.
 * The gateway drops the unread rest, as nginx (Kong) does (docs/adr/0002-refused-request-connection.md).
 */

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  port: number | undefined;
}

function send(agent: Agent, url: URL, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent,
        headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            body: Buffer.concat(chunks).toString('utf8'),
            port: req.socket?.localPort,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a request refused before its body was read', () => {
  let stack: Stack;
  let dir: string;
  let url: URL;
  const megabyte = Buffer.alloc(1 << 20, 'a');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'refused-request-'));
    const workdir = join(dir, 'supabase');
    // A function that refuses a caller who is not signed in without reading the body, as
    // invoice-pdf does for the anon key (the gateway lets the key through as the bearer).
    mkdirSync(join(workdir, 'functions/guarded'), { recursive: true });
    writeFileSync(
      join(workdir, 'functions/guarded/index.ts'),
      `Deno.serve(async (req) => {
  if (!req.headers.get('x-signed-in')) {
    return new Response(JSON.stringify({ code: 'not_signed_in' }), { status: 401, headers: { 'content-type': 'application/json' } });
  }
  return new Response(String((await req.arrayBuffer()).byteLength));
});
`,
    );
    stack = await startTestStack({ engine: 'pglite', workdir });
    url = new URL(stack.url);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cases: { name: string; path: string; headers: () => Record<string, string>; status: number; body?: Buffer }[] = [
    {
      name: 'a function answering 401 at once (invoice-pdf without a user)',
      path: '/functions/v1/guarded',
      headers: () => ({ apikey: stack.keys.anonKey }),
      status: 401,
    },
    { name: 'the gateway refusing a function call without a token', path: '/functions/v1/guarded', headers: () => ({}), status: 401 },
    { name: 'the gateway refusing a call without an apikey', path: '/rest/v1/places', headers: () => ({}), status: 401 },
    { name: 'a path no route serves', path: '/nothing/here', headers: () => ({}), status: 404 },
    {
      name: 'auth refusing a body over its 1 MB limit (413)',
      path: '/auth/v1/signup',
      headers: () => ({ apikey: stack.keys.anonKey, 'content-type': 'application/json' }),
      status: 413,
      body: Buffer.alloc((1 << 20) + 4096, ' '),
    },
  ];

  for (const c of cases) {
    it(`${c.name}: the next request on the same keep-alive socket is answered`, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await send(agent, url, 'POST', c.path, c.headers(), c.body ?? megabyte);
        expect(refused.status).toBe(c.status);
        const next = await send(agent, url, 'GET', '/health');
        expect(next).toMatchObject({ status: 200, body: JSON.stringify({ status: 'ok', engine: 'pglite' }) });
        // Either the socket served both, or the refusal said it would close (then a new one is fine).
        expect(next.port === refused.port || refused.connection === 'close').toBe(true);
        // And a third, to be sure the connection is in a clean state.
        expect((await send(agent, url, 'GET', '/health')).status).toBe(200);
      } finally {
        agent.destroy();
      }
    });
  }

  it('the function still gets the whole body when it reads it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ok = await send(agent, url, 'POST', '/functions/v1/guarded', { apikey: stack.keys.anonKey, 'x-signed-in': '1' }, megabyte);
      expect(ok).toMatchObject({ status: 200, body: String(megabyte.length) });
      expect((await send(agent, url, 'GET', '/health')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});
