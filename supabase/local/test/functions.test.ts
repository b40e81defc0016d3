import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { withRequest } from '../src/db/request.ts';
import { parseSchedule } from '../src/functions/scheduler.ts';
import type { Stack } from '../src/stack.ts';

const fixture = resolve(import.meta.dirname, 'fixtures/functions');
const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};

async function until<T>(fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('cron schedule syntax', () => {
  it('reads five-field cron, names and seconds like pg_cron (UTC)', () => {
    const at = (iso: string) => new Date(iso);
    const every5 = parseSchedule('*/5 * * * *') as { matches(d: Date): boolean };
    expect(every5.matches(at('2026-01-01T10:05:00Z'))).toBe(true);
    expect(every5.matches(at('2026-01-01T10:06:00Z'))).toBe(false);
    const weekdays = parseSchedule('30 7 * * mon-fri') as { matches(d: Date): boolean };
    expect(weekdays.matches(at('2026-01-05T07:30:00Z'))).toBe(true); // Monday
    expect(weekdays.matches(at('2026-01-04T07:30:00Z'))).toBe(false); // Sunday
    const daily = parseSchedule('@daily') as { matches(d: Date): boolean };
    expect(daily.matches(at('2026-03-01T00:00:00Z'))).toBe(true);
    expect(daily.matches(at('2026-03-01T00:01:00Z'))).toBe(false);
    expect(parseSchedule('10 seconds')).toEqual({ everySeconds: 10 });
    expect(() => parseSchedule('every minute')).toThrow();
  });
});

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`edge functions on ${engine.name}`, engine.skip))(`edge functions on ${engine.name}`, () => {
    let stack: Stack;
    let dir: string;
    let anon: SupabaseClient;
    let user: SupabaseClient;
    let userToken: string;
    const userId = randomUUID();

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hafen-functions-test-'));
      const workdir = join(dir, 'supabase');
      cpSync(fixture, workdir, { recursive: true });
      // Secrets as `supabase functions serve` reads them (written here: .env files are not committed).
      writeFileSync(
        join(workdir, 'functions/.env'),
        '# local secrets\nMY_SECRET=s3cret\nQUOTED="two words"\nSUPABASE_URL=http://must-not-override\n',
      );
      stack = await startTestStack({ engine: engine.name, workdir });
      anon = createClient(stack.url, stack.keys.anonKey, options);
      userToken = await stack.context.jwt.sign({ sub: userId, role: 'authenticated', aud: 'authenticated' }, 3600);
      user = createClient(stack.url, stack.keys.anonKey, { ...options, accessToken: async () => userToken });
    }, 60_000);

    afterAll(async () => {
      await stack?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('runs a function with the caller’s JWT, method, headers, query, body and the serve environment', async () => {
      const { data, error } = await user.functions.invoke('echo?lang=de', {
        body: { hello: 'Hafen' },
        headers: { 'x-custom': 'yes' },
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({
        method: 'POST',
        path: '/echo',
        query: { lang: 'de' },
        authorization: `Bearer ${userToken}`,
        custom: 'yes',
        body: JSON.stringify({ hello: 'Hafen' }),
      });
      expect(data.env).toEqual({
        SUPABASE_URL: stack.url,
        SUPABASE_ANON_KEY: stack.keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: stack.keys.serviceRoleKey,
        SUPABASE_DB_URL: engine.name === 'postgres' ? stack.context.databaseUrl : null,
        MY_SECRET: 's3cret',
        QUOTED: 'two words',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(stack.smtpPort),
        SITE_URL: stack.config.auth.siteUrl,
        STRIPE_SECRET_KEY: 'sk_test_local_sandbox',
        STRIPE_WEBHOOK_SECRET: 'whsec_local_sandbox',
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: new URL(stack.paymentsUrl).port,
        STRIPE_API_PROTOCOL: 'http',
      });
      // As on hosted, the function's own headers decide CORS (echo sets none).
      const direct = await fetch(`${stack.url}/functions/v1/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${userToken}`, origin: 'http://localhost:5173' },
      });
      expect(direct.status).toBe(200);
      expect(direct.headers.get('access-control-allow-origin')).toBeNull();
      const get = await anon.functions.invoke('echo/sub/path', { method: 'GET' });
      expect(get.data).toMatchObject({ method: 'GET', path: '/echo/sub/path', authorization: `Bearer ${stack.keys.anonKey}`, body: '' });
    });

    it('answers 404 for an unknown function and 401 without a valid JWT (verify_jwt)', async () => {
      const missing = await fetch(`${stack.url}/functions/v1/nope`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.keys.anonKey}` },
      });
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe('Function not found');
      const { error } = await anon.functions.invoke('nope');
      expect(error).toBeInstanceOf(FunctionsHttpError);
      expect((error as FunctionsHttpError).context.status).toBe(404);
      const noAuth = await fetch(`${stack.url}/functions/v1/echo`, { method: 'POST' });
      expect(noAuth.status).toBe(401);
      expect(await noAuth.json()).toEqual({ msg: 'Error: Missing authorization header' });
      const badAuth = await fetch(`${stack.url}/functions/v1/echo`, { method: 'POST', headers: { authorization: 'Bearer not.a.jwt' } });
      expect(badAuth.status).toBe(401);
      expect(await badAuth.json()).toEqual({ msg: 'Invalid JWT' });
      // verify_jwt = false in config.toml: reachable without a token.
      const open = await fetch(`${stack.url}/functions/v1/tick`, { method: 'GET' });
      expect(open.status).toBe(200);
    });

    it('a crashing function answers 500 for that call and the next call works', async () => {
      const first = await user.functions.invoke('crash', { body: { mode: 'ok' } });
      expect(first.error).toBeNull();
      const thrown = await user.functions.invoke('crash', { body: { mode: 'throw' } });
      expect((thrown.error as FunctionsHttpError).context.status).toBe(500);
      const same = await user.functions.invoke('crash', { body: { mode: 'ok' } });
      expect(same.data.pid).toBe(first.data.pid);
      const exited = await user.functions.invoke('crash', { body: { mode: 'exit' } });
      expect(exited.error).toBeInstanceOf(FunctionsHttpError);
      const res = (exited.error as FunctionsHttpError).context as Response;
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
      const after = await user.functions.invoke('crash', { body: { mode: 'ok' } });
      expect(after.error).toBeNull();
      expect(after.data.pid).not.toBe(first.data.pid);
      // The stack itself is unharmed.
      expect((await fetch(`${stack.url}/health`)).status).toBe(200);
    });

    it('a function that fails to boot answers 503 BOOT_ERROR, every time', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${stack.url}/functions/v1/broken`, {
          method: 'POST',
          headers: { authorization: `Bearer ${stack.keys.anonKey}` },
        });
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' });
      }
    });

    it('delivers SMTP from a function to the local mail catcher', async () => {
      const to = `guest-${randomUUID().slice(0, 8)}@example.com`;
      const { data, error } = await user.functions.invoke('mail', { body: { to, subject: 'Buchung bestätigt', text: 'Liegeplatz 7' } });
      expect(error).toBeNull();
      expect(data.reply).toMatch(/^250/);
      const message = await stack.context.mailer.store.waitFor(to, undefined, 5000);
      expect(message).toMatchObject({ to: [to], subject: 'Buchung bestätigt' });
      expect(message!.text).toContain('Liegeplatz 7');
    });

    it('parallel first calls of a function wait for its one process to serve', async () => {
      const folder = join(dir, 'supabase/functions/cold');
      mkdirSync(folder);
      writeFileSync(join(folder, 'index.ts'), 'Deno.serve(() => Response.json({ pid: Deno.pid }));\n');
      const answers = await Promise.all([1, 2, 3].map(() => user.functions.invoke('cold')));
      expect(answers.map((a) => a.error)).toEqual([null, null, null]);
      expect(new Set(answers.map((a) => a.data.pid)).size).toBe(1);
    });

    it('serves a new or edited function without a restart, as `functions serve` does', async () => {
      const folder = join(dir, 'supabase/functions/hot');
      mkdirSync(folder);
      const write = (version: number) =>
        writeFileSync(join(folder, 'index.ts'), `Deno.serve(() => Response.json({ version: ${version} }));\n`);
      write(1);
      expect((await user.functions.invoke('hot')).data).toEqual({ version: 1 });
      write(2);
      const second = await until(async () => {
        const { data } = await user.functions.invoke('hot');
        return data?.version === 2 ? data : undefined;
      }, 10_000);
      expect(second).toEqual({ version: 2 });
    });

    it('cron and net are usable by postgres only, as on hosted Supabase', async () => {
      for (const role of ['anon', 'authenticated'] as const) {
        for (const statement of [
          `select net.http_post('http://127.0.0.1:9/')`,
          `select cron.schedule('x', '1 seconds', 'select 1')`,
          `select * from cron.job`,
        ]) {
          await expect(
            withRequest(stack.db, { role, claims: { role } }, (tx) => tx.query(statement)),
            `${role}: ${statement}`,
          ).rejects.toMatchObject({ code: '42501' });
        }
      }
      await expect(
        stack.db.transaction(async (tx) => {
          await tx.query(`select set_config('role', 'postgres', true)`);
          await tx.query(`select cron.schedule('bad', 'every minute', 'select 1')`);
        }),
      ).rejects.toMatchObject({ message: 'invalid schedule: every minute' });
    });

    it('vault keeps secrets for jobs (postgres only), as supabase_vault does', async () => {
      const asPostgres = <T>(fn: (tx: import('../src/db/types.ts').Queryable) => Promise<T>) =>
        stack.db.transaction(async (tx) => {
          await tx.query(`select set_config('role', 'postgres', true)`);
          return fn(tx);
        });
      const name = `project_url_${randomUUID().slice(0, 8)}`;
      const id = await asPostgres(
        async (tx) => (await tx.query<{ id: string }>(`select vault.create_secret($1, $2) as id`, [stack.url, name])).rows[0].id,
      );
      const read = await asPostgres((tx) => tx.query(`select decrypted_secret from vault.decrypted_secrets where name = $1`, [name]));
      expect(read.rows).toEqual([{ decrypted_secret: stack.url }]);
      await asPostgres((tx) => tx.query(`select vault.update_secret($1, 'changed')`, [id]));
      const changed = await asPostgres((tx) => tx.query(`select decrypted_secret from vault.decrypted_secrets where id = $1`, [id]));
      expect(changed.rows).toEqual([{ decrypted_secret: 'changed' }]);
      for (const role of ['anon', 'authenticated', 'service_role'] as const) {
        await expect(
          withRequest(stack.db, { role, claims: { role } }, (tx) => tx.query(`select * from vault.decrypted_secrets`)),
        ).rejects.toMatchObject({ code: '42501' });
      }
    });

    it('a cron job calling net.http_post reaches a function on its schedule', async () => {
      const command = `select net.http_post(
          url := '${stack.url}/functions/v1/tick',
          body := '{"from": "cron"}'::jsonb,
          headers := '{"Content-Type": "application/json", "Authorization": "Bearer ${stack.keys.serviceRoleKey}"}'::jsonb)`;
      const jobId = await stack.db.transaction(async (tx) => {
        await tx.query(`select set_config('role', 'postgres', true)`);
        const { rows } = await tx.query<{ id: string }>(`select cron.schedule('tick-every-second', '1 seconds', $1) as id`, [command]);
        return rows[0].id;
      });
      const started = Date.now();
      const replies = await until(async () => {
        const { rows } = await stack.db.query<{ status_code: number; content: string }>(
          `select status_code, content from net._http_response where content like '%"from":"cron"%' order by created`,
        );
        return rows.length >= 2 ? rows : undefined;
      }, 15_000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(replies[0].status_code).toBe(200);
      expect(JSON.parse(replies[0].content)).toMatchObject({
        body: { from: 'cron' },
        authorization: `Bearer ${stack.keys.serviceRoleKey}`,
      });
      const runs = await stack.db.query<{ status: string; username: string }>(
        `select status, username from cron.job_run_details where jobid = $1`,
        [jobId],
      );
      expect(runs.rows.length).toBeGreaterThanOrEqual(2);
      expect(runs.rows[0]).toEqual({ status: 'succeeded', username: 'postgres' });
      await stack.db.transaction(async (tx) => {
        await tx.query(`select set_config('role', 'postgres', true)`);
        await tx.query(`select cron.unschedule('tick-every-second')`);
      });
      expect((await stack.db.query(`select 1 from cron.job where jobname = 'tick-every-second'`)).rows).toEqual([]);
    });

    it('a trigger calling net.http_post is sent promptly after commit', async () => {
      await stack.db.query(
        `insert into public.settings (key, value) values ('functions_url', $1) on conflict (key) do update set value = excluded.value`,
        [`${stack.url}/functions/v1`],
      );
      const marker = randomUUID();
      const t0 = Date.now();
      await stack.db.query(`insert into public.outbox (payload) values ($1)`, [{ marker }]);
      const reply = await until(async () => {
        const { rows } = await stack.db.query<{ status_code: number; content: string }>(
          `select status_code, content from net._http_response where content like $1`,
          [`%${marker}%`],
        );
        return rows[0];
      }, 5000);
      const elapsed = Date.now() - t0;
      expect(reply.status_code).toBe(200);
      expect(JSON.parse(reply.content).body).toMatchObject({ payload: { marker } });
      expect(elapsed).toBeLessThan(900);
    });
  });
}
