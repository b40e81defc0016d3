import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../src/stack.ts';
import { summarise, type BenchRow } from './types.ts';

const PASSWORD = 'Hafen2026';

/**
 * Password sign-ins per second (bcrypt cost 10, as GoTrue) and refresh-token grants per
 * second through the gateway on PGlite, sequential and 4 in flight. Each run is a batch of
 * requests; the figure is that batch's rate. Rate limits are raised so they do not interfere.
 */
export async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'hafen-bench-auth-'));
  const workdir = join(root, 'supabase');
  mkdirSync(workdir, { recursive: true });
  writeFileSync(
    join(workdir, 'config.toml'),
    [
      '[auth]',
      'enable_anonymous_sign_ins = true',
      '[auth.rate_limit]',
      'email_sent = 1000000',
      'anonymous_users = 1000000',
      'token_refresh = 100000000',
      'sign_in_sign_ups = 1000000',
      'token_verifications = 1000000',
    ].join('\n'),
  );
  const stack = await startStack({ workdir, inMemory: true, port: 0, mailPort: 0, smtpPort: 0, seed: false });
  try {
    const headers = { apikey: stack.keys.anonKey, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' };
    const post = async (path: string, body: unknown, auth?: string) => {
      const res = await fetch(`${stack.url}/auth/v1${path}`, {
        method: 'POST',
        headers: auth ? { ...headers, authorization: `Bearer ${auth}` } : headers,
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const emails: string[] = [];
    for (let i = 0; i < 4; i++) {
      const email = `bench-${i}@hafen.test`;
      await post('/admin/users', { email, password: PASSWORD, email_confirm: true }, stack.keys.serviceRoleKey);
      emails.push(email);
    }
    const signIn = (i: number) => post('/token?grant_type=password', { email: emails[i % emails.length], password: PASSWORD });

    const batch = async (size: number, parallel: number, op: (i: number) => Promise<unknown>) => {
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (next < size) await op(next++);
        }),
      );
      return size / ((performance.now() - started) / 1000);
    };

    await batch(4, 1, signIn); // warm-up
    const signSeq: number[] = [];
    const signPar: number[] = [];
    for (let r = 0; r < 7; r++) signSeq.push(await batch(10, 1, signIn));
    for (let r = 0; r < 7; r++) signPar.push(await batch(12, 4, signIn));

    // Refreshes: each worker keeps its own session and rotates its token.
    const tokens = await Promise.all(emails.map(async (_, i) => (await signIn(i)).refresh_token as string));
    const refresh = async (i: number) => {
      const slot = i % tokens.length;
      const session = await post('/token?grant_type=refresh_token', { refresh_token: tokens[slot] });
      tokens[slot] = session.refresh_token as string;
    };
    const refreshSeq: number[] = [];
    const refreshPar: number[] = [];
    await batch(10, 1, (i) => refresh(0 * i));
    for (let r = 0; r < 7; r++) refreshSeq.push(await batch(40, 1, () => refresh(0)));
    for (let r = 0; r < 7; r++) {
      let k = 0;
      refreshPar.push(await batch(40, 4, () => refresh(k++ % 4)));
    }
    return [
      summarise('password sign-ins, sequential', 'ops/s', signSeq, 'PGlite, bcrypt cost 10, batch of 10'),
      summarise('password sign-ins, 4 in flight', 'ops/s', signPar, 'PGlite, bcrypt cost 10, batch of 12'),
      summarise('token refreshes, sequential', 'ops/s', refreshSeq, 'PGlite, rotation on, batch of 40'),
      summarise('token refreshes, 4 in flight', 'ops/s', refreshPar, 'PGlite, rotation on, 4 sessions, batch of 40'),
    ];
  } finally {
    await stack.close();
    rmSync(root, { recursive: true, force: true });
  }
}
