/**
 * Signing the demo harbour's staff in as a person would: password, then the second factor.
 *
 * The seed (supabase/seed.sql) requires two-factor sign-in of admins and harbour staff and gives
 * admin@ and hafen@ a verified TOTP factor with the keys below (published in the README). A
 * password-only session is aal1 and has no staff rights, so every test that acts as staff
 * completes the second step with a code computed from the key, the way an authenticator app would.
 *
 * The stack accepts each code once (RFC 6238 section 5.2; docs/adr/0001-staff-sign-in-second-factor.md):
 * a factor's time steps only move forward, and only the current step and one either side are
 * valid. So a new sign-in takes the next step nobody has used (`unusedTotpCode`, shared by all
 * test processes through a small ledger file), and a staff session that is still alive is reused
 * instead of signing in again (`sessionCache`): many tests sign staff in within one 30-second step.
 *
 * GoTrue's verify deletes the person's other aal1 sessions (InvalidateSessionsWithAALLessThan):
 * two workers signing the same persona in at once can lose the session between password and
 * code. Then the sign-in starts again, a bounded number of times.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { hotp, TOTP_PERIOD, TOTP_SKEW } from '../../src/auth/totp.ts';

/** The demo staff's TOTP keys (base32), as seeded. */
export const DEMO_TOTP_SECRETS: Readonly<Record<string, string>> = {
  'admin@hafen.test': 'IFSG22LOIR2WK43TMVWGI33SMYZDAMRW',
  'hafen@hafen.test': 'JBQWMZLOIR2WK43TMVWGI33SMYZDAMRW',
};

const ATTEMPTS = 5;

// ------------------------------------------------------------------ unused time steps

const LEDGER_DIR = join(tmpdir(), 'supabase-local-totp-steps');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pauseSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `fn` holding `<file>.lock` (created exclusively; one left behind by a killed process expires). */
function locked<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 5_000) rmSync(lock, { force: true });
      } catch {
        // gone meanwhile
      }
      pauseSync(5);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * The code of a TOTP time step not handed out before for this key at this API (`apiUrl`: the
 * stack's URL; its origin scopes the ledger, since each stack keeps its own factors): the current
 * step, or the next one after the last handed out. The stack accepts a step one period ahead, so
 * two sign-ins in one period cost nothing; a third waits until its step is inside the window (at
 * most one period). All test processes share the ledger (a file per key and stack under the
 * temp directory), so two Playwright workers never type the same code.
 */
export async function unusedTotpCode(secret: string, apiUrl = ''): Promise<string> {
  mkdirSync(LEDGER_DIR, { recursive: true });
  const scope = apiUrl ? new URL(apiUrl).origin : '';
  const file = join(LEDGER_DIR, createHash('sha256').update(`${scope}\n${secret}`).digest('hex').slice(0, 32));
  const step = locked(file, () => {
    let last = -1;
    try {
      last = Number(readFileSync(file, 'utf8')) || -1;
    } catch {
      // first use
    }
    const next = Math.max(Math.floor(Date.now() / 1000 / TOTP_PERIOD), last + 1);
    writeFileSync(file, String(next));
    return next;
  });
  const validFrom = (step - TOTP_SKEW) * TOTP_PERIOD * 1000;
  if (Date.now() < validFrom) await pause(validFrom - Date.now() + 50);
  return hotp(secret, step);
}

// ------------------------------------------------------------------ sessions

type Factor = { id: string; factor_type: string; status: string };
type Session = { access_token: string; refresh_token?: string; expires_at?: number; expires_in?: number; user?: { factors?: Factor[] } };

const verifiedTotp = (factors: Factor[] | undefined) => factors?.find((f) => f.factor_type === 'totp' && f.status === 'verified');

/**
 * The staff sessions of this process by stack and e-mail. Reused while the token has 20 minutes
 * left and the stack still knows the session (a sign-out, a password change or a new stack ends
 * it; then the next sign-in is a real one).
 */
const sessionCache = new Map<string, Session>();
const cacheKey = (apiUrl: string, email: string) => `${new URL(apiUrl).origin}\n${email}`;
const fresh = (s: Session | undefined): s is Session & { refresh_token: string } =>
  Boolean(s?.refresh_token) && ((s!.expires_at ?? 0) * 1000 || Date.now() + (s!.expires_in ?? 0) * 1000) - Date.now() > 20 * 60_000;

/**
 * The same sessions shared by all test processes (a file per stack and e-mail beside the
 * ledger). Playwright starts a new worker process after every failed test; signing staff in
 * anew there spent a time step each, and once the ledger ran more than a period ahead of the
 * clock each further sign-in waited longer than a test may take: its timeout was one more
 * failure, one more new worker, one more step. A new process reuses the live session instead.
 */
const sharedFile = (apiUrl: string, email: string) =>
  join(LEDGER_DIR, `session-${createHash('sha256').update(cacheKey(apiUrl, email)).digest('hex').slice(0, 32)}.json`);
function readShared(apiUrl: string, email: string): Session | undefined {
  try {
    return JSON.parse(readFileSync(sharedFile(apiUrl, email), 'utf8')) as Session;
  } catch {
    return undefined;
  }
}
function writeShared(apiUrl: string, email: string, session: Session) {
  mkdirSync(LEDGER_DIR, { recursive: true });
  const file = sharedFile(apiUrl, email);
  const tmp = `${file}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify(session));
  renameSync(tmp, file);
}

/**
 * supabase-js `signInWithPassword` plus, for a demo staff persona, challenge and verify: the
 * client then holds an aal2 session. Same result shape as signInWithPassword.
 */
export async function signInWithPassword(client: SupabaseClient, credentials: { email: string; password: string }) {
  const authUrl = (client.auth as unknown as { url: string }).url;
  const secret = DEMO_TOTP_SECRETS[credentials.email];
  const key = cacheKey(authUrl, credentials.email);
  const cached = secret ? sessionCache.get(key) : undefined;
  if (fresh(cached)) {
    // setSession asks the stack for the user: an ended session answers with an error.
    const reused = await client.auth.setSession({ access_token: cached.access_token, refresh_token: cached.refresh_token });
    if (!reused.error && reused.data.session)
      return { data: { session: reused.data.session, user: reused.data.session.user }, error: null } as Awaited<
        ReturnType<SupabaseClient['auth']['signInWithPassword']>
      >;
    sessionCache.delete(key);
  }
  for (let attempt = 1; ; attempt++) {
    const signedIn = await client.auth.signInWithPassword(credentials);
    const factor = verifiedTotp(signedIn.data.user?.factors as Factor[] | undefined);
    if (signedIn.error || !secret || !factor) return signedIn;
    const verified = await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: await unusedTotpCode(secret, authUrl) });
    if (!verified.error) {
      const { data } = await client.auth.getSession();
      sessionCache.set(key, { ...data.session! });
      return { data: { session: data.session!, user: data.session!.user }, error: null } as typeof signedIn;
    }
    if (attempt >= ATTEMPTS) throw new Error(`second factor of ${credentials.email} failed ${ATTEMPTS} times: ${verified.error.message}`);
  }
}

/**
 * The same over plain HTTP (for helpers that keep the session themselves, e.g. to put it into a
 * browser's storage): the password grant, then POST /factors/{id}/challenge and /verify.
 * Returns the session object GoTrue answers (aal2 for demo staff); a copy of a live one when
 * this process signed the persona in before.
 */
export async function passwordSession<T extends Session>(
  apiUrl: string,
  apikey: string,
  credentials: { email: string; password: string },
): Promise<T> {
  const call = async (path: string, body: unknown, token?: string) =>
    fetch(`${apiUrl}/auth/v1${path}`, {
      method: 'POST',
      headers: { apikey, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const secret = DEMO_TOTP_SECRETS[credentials.email];
  const key = cacheKey(apiUrl, credentials.email);
  // This process's session, else one another test process signed in (readShared).
  for (const cached of secret ? [sessionCache.get(key), readShared(apiUrl, credentials.email)] : []) {
    if (!fresh(cached)) continue;
    const alive = await fetch(`${apiUrl}/auth/v1/user`, { headers: { apikey, authorization: `Bearer ${cached.access_token}` } });
    await alive.arrayBuffer();
    if (alive.status === 200) {
      sessionCache.set(key, structuredClone(cached));
      return structuredClone(cached) as T;
    }
    sessionCache.delete(key);
  }
  for (let attempt = 1; ; attempt++) {
    const res = await call('/token?grant_type=password', credentials);
    if (res.status !== 200) throw new Error(`login of ${credentials.email} failed: ${res.status} ${await res.text()}`);
    const session = (await res.json()) as T;
    const factor = verifiedTotp(session.user?.factors);
    if (!secret || !factor) return session;
    const challenge = await call(`/factors/${factor.id}/challenge`, {}, session.access_token);
    const challengeBody = await challenge.text();
    if (challenge.status === 200) {
      const code = await unusedTotpCode(secret, apiUrl);
      const verify = await call(
        `/factors/${factor.id}/verify`,
        { challenge_id: (JSON.parse(challengeBody) as { id: string }).id, code },
        session.access_token,
      );
      if (verify.status === 200) {
        const verified = (await verify.json()) as T;
        verified.expires_at ??= Math.floor(Date.now() / 1000) + (verified.expires_in ?? 0);
        sessionCache.set(key, structuredClone(verified));
        writeShared(apiUrl, credentials.email, verified);
        return verified;
      }
      if (attempt >= ATTEMPTS) throw new Error(`second factor of ${credentials.email}: ${verify.status} ${await verify.text()}`);
    } else if (attempt >= ATTEMPTS) throw new Error(`second factor of ${credentials.email}: ${challenge.status} ${challengeBody}`);
  }
}
