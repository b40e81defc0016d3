import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createClient, type AuthWeakPasswordError, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { authProject } from './fixtures/auth/project.ts';
import { clock } from '../src/auth/index.ts';
import { loadMailTemplates } from '../src/auth/mails.ts';
import { loadConfig } from '../src/config.ts';
import type { Stack } from '../src/stack.ts';

const HOOK_SQL = readFileSync(join(import.meta.dirname, 'fixtures/auth/hook.sql'), 'utf8');
const PASSWORD = 'Hafen2026';
let counter = 0;
const address = (tag: string) => `${tag}-${Date.now().toString(36)}-${counter++}@hafen.test`;

function client(stack: Stack, key = stack.keys.anonKey): SupabaseClient {
  return createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

interface Mail {
  subject: string;
  html: string;
  to: string[];
  date: string;
}

async function latestMail(stack: Stack, to: string, since?: string): Promise<Mail> {
  const q = new URLSearchParams({ to, wait: '5000' });
  if (since) q.set('since', since);
  const res = await fetch(`${stack.mailUrl}/api/messages/latest?${q}`);
  if (res.status !== 200) throw new Error(`no mail for ${to}`);
  return (await res.json()) as Mail;
}

const codeOf = (mail: Mail) => {
  const m = /<p id="code"[^>]*>(\d+)<\/p>/.exec(mail.html);
  if (!m) throw new Error(`no code in mail "${mail.subject}"`);
  return m[1];
};

async function mailCount(stack: Stack, to: string) {
  const res = await fetch(`${stack.mailUrl}/api/messages?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as Mail[]).length;
}

/** Raw request to the auth API (for what supabase-js does not expose). */
async function raw(stack: Stack, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url}/auth/v1${path}`, {
    method,
    headers: { apikey: stack.keys.anonKey, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON the API answers, read field by field
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, body: json };
}

/** A confirmed user with a password, made through the public API (otp code, then password). */
async function confirmedUser(stack: Stack, email = address('kunde'), data: Record<string, unknown> = {}) {
  const sb = client(stack);
  const since = new Date().toISOString();
  const { error } = await sb.auth.signInWithOtp({ email, options: { shouldCreateUser: true, data } });
  expect(error).toBeNull();
  const code = codeOf(await latestMail(stack, email, since));
  const verified = await sb.auth.verifyOtp({ email, token: code, type: 'email' });
  expect(verified.error).toBeNull();
  const updated = await sb.auth.updateUser({ password: PASSWORD });
  expect(updated.error).toBeNull();
  return { email, sb, user: updated.data.user! };
}

afterAll(() => {
  clock.offsetMs = 0;
});

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`auth on ${engine.name}`, engine.skip))(`auth on ${engine.name}`, () => {
    let stack: Stack;
    let project: ReturnType<typeof authProject>;

    beforeAll(async () => {
      project = authProject();
      stack = await startTestStack({ engine: engine.name, workdir: project.workdir });
    });
    afterAll(async () => {
      await stack?.close();
      project?.remove();
    });

    it('answers health and settings as GoTrue does', async () => {
      const health = await raw(stack, 'GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body.name).toBe('GoTrue');
      const settings = await raw(stack, 'GET', '/settings');
      expect(settings.body).toMatchObject({
        external: { email: true, anonymous_users: true, phone: false, google: false },
        disable_signup: false,
        mailer_autoconfirm: false,
      });
      expect((await raw(stack, 'GET', '/.well-known/jwks.json')).body).toEqual({ keys: [] });
    });

    it('guest path: anonymous session -> e-mail code -> verify -> password -> password login', async () => {
      const sb = client(stack);
      const anon = await sb.auth.signInAnonymously({ options: { data: { locale: 'de' } } });
      expect(anon.error).toBeNull();
      expect(anon.data.user!.is_anonymous).toBe(true);
      expect(anon.data.session!.refresh_token).toMatch(/^[A-Za-z0-9]{12}$/);
      const anonClaims = decodeJwt(anon.data.session!.access_token);
      expect(anonClaims).toMatchObject({ role: 'authenticated', aud: 'authenticated', is_anonymous: true, email: '', aal: 'aal1' });
      expect(anonClaims.amr).toEqual([{ method: 'anonymous', timestamp: expect.any(Number) }]);

      const email = address('gast');
      const since = new Date().toISOString();
      const otp = await sb.auth.signInWithOtp({
        email,
        options: { shouldCreateUser: true, data: { locale: 'de', first_name: 'Greta', last_name: 'Kahn' } },
      });
      expect(otp.error).toBeNull();
      const mail = await latestMail(stack, email, since);
      expect(mail.subject).toBe('Ihr Code für den Hafen Düsseldorf');
      expect(mail.html).toContain('Hallo Greta');
      const code = codeOf(mail);
      expect(code).toMatch(/^\d{6}$/);

      // The code is stored hashed as GoTrue stores it: sha224 hex of e-mail + code.
      const stored = await stack.db.query<{ confirmation_token: string; token_hash: string }>(
        `select u.confirmation_token, t.token_hash from auth.users u join auth.one_time_tokens t on t.user_id = u.id where u.email = $1`,
        [email],
      );
      const expected = createHash('sha224')
        .update(email + code)
        .digest('hex');
      expect(stored.rows).toEqual([{ confirmation_token: expected, token_hash: expected }]);

      const verified = await sb.auth.verifyOtp({ email, token: code, type: 'email' });
      expect(verified.error).toBeNull();
      const user = verified.data.user!;
      expect(user).toMatchObject({ email, is_anonymous: false, role: 'authenticated', aud: 'authenticated' });
      expect(user.id).not.toBe(anon.data.user!.id);
      expect(user.email_confirmed_at).toBeTruthy();
      expect(user.user_metadata).toMatchObject({ locale: 'de', first_name: 'Greta', email_verified: true });
      expect(user.app_metadata).toEqual({ provider: 'email', providers: ['email'] });
      expect(user.identities).toHaveLength(1);
      expect(user.identities![0]).toMatchObject({
        provider: 'email',
        user_id: user.id,
        identity_data: { email, email_verified: true, sub: user.id },
      });

      const claims = decodeJwt(verified.data.session!.access_token);
      expect(decodeProtectedHeader(verified.data.session!.access_token)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      expect(Object.keys(claims)).toEqual([
        'iss',
        'sub',
        'aud',
        'exp',
        'iat',
        'email',
        'phone',
        'app_metadata',
        'user_metadata',
        'role',
        'aal',
        'amr',
        'session_id',
        'is_anonymous',
      ]);
      expect(claims).toMatchObject({
        iss: `${stack.url}/auth/v1`,
        sub: user.id,
        email,
        phone: '',
        role: 'authenticated',
        is_anonymous: false,
        aal: 'aal1',
      });
      expect(claims.exp! - claims.iat!).toBe(3600);
      expect(claims.amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);

      const set = await sb.auth.updateUser({ password: PASSWORD });
      expect(set.error).toBeNull();
      const other = client(stack);
      const login = await other.auth.signInWithPassword({ email, password: PASSWORD });
      expect(login.error).toBeNull();
      expect(login.data.user!.id).toBe(user.id);
      expect(decodeJwt(login.data.session!.access_token).amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
      const me = await other.auth.getUser();
      expect(me.data.user!.email).toBe(email);

      // The database work happened as GoTrue's role, in GoTrue's tables.
      const rows = await stack.db.query<{ pw: string; sessions: string }>(
        `select encrypted_password as pw, (select count(*) from auth.sessions s where s.user_id = u.id)::text as sessions from auth.users u where id = $1`,
        [user.id],
      );
      expect(rows.rows[0].pw).toMatch(/^\$2[aby]\$10\$/);
      expect(Number(rows.rows[0].sessions)).toBeGreaterThanOrEqual(2);
    });

    it('signInWithOtp answers a new and an existing address identically', async () => {
      const existing = await confirmedUser(stack);
      const fresh = address('neu');
      const sb = client(stack);
      const since = new Date().toISOString();
      const a = await raw(stack, 'POST', '/otp', { email: existing.email, create_user: true, data: { locale: 'de' } });
      const b = await raw(stack, 'POST', '/otp', { email: fresh, create_user: true, data: { locale: 'de' } });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body).toEqual(b.body);
      expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort());
      clock.offsetMs += 2_000; // past max_frequency (1s) for both addresses
      const r1 = await sb.auth.signInWithOtp({ email: existing.email });
      const r2 = await sb.auth.signInWithOtp({ email: fresh });
      expect(r1).toEqual(r2);
      // The mails read alike too: same subject, same text apart from the code and the address.
      const m1 = await latestMail(stack, existing.email, since);
      const m2 = await latestMail(stack, fresh, since);
      expect(m1.subject).toBe(m2.subject);
      const strip = (m: Mail, email: string) => m.html.replace(codeOf(m), 'CODE').replaceAll(email, 'EMAIL');
      expect(strip(m1, existing.email)).toBe(strip(m2, fresh));
      // Both codes sign in.
      expect((await client(stack).auth.verifyOtp({ email: existing.email, token: codeOf(m1), type: 'email' })).error).toBeNull();
      expect((await client(stack).auth.verifyOtp({ email: fresh, token: codeOf(m2), type: 'email' })).error).toBeNull();
    });

    it('refuses wrong and expired codes, and voids a code after too many wrong attempts', async () => {
      const email = address('code');
      const sb = client(stack);
      let since = new Date().toISOString();
      await sb.auth.signInWithOtp({ email });
      const code = codeOf(await latestMail(stack, email, since));
      const wrong = code === '000000' ? '111111' : '000000';
      const bad = await sb.auth.verifyOtp({ email, token: wrong, type: 'email' });
      expect(bad.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
      // The right code still works after one mistake... but expires after otp_expiry (1 hour).
      clock.offsetMs += 3601_000;
      const late = await sb.auth.verifyOtp({ email, token: code, type: 'email' });
      expect(late.error).toMatchObject({ status: 403, code: 'otp_expired' });

      since = new Date().toISOString();
      await sb.auth.signInWithOtp({ email });
      const fresh = codeOf(await latestMail(stack, email, since));
      const other = fresh === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const r = await sb.auth.verifyOtp({ email, token: other, type: 'email' });
        expect(r.error?.code).toBe('otp_expired');
      }
      const afterLockout = await sb.auth.verifyOtp({ email, token: fresh, type: 'email' });
      expect(afterLockout.error).toMatchObject({ status: 403, code: 'otp_expired' });
      // A new code works again.
      clock.offsetMs += 2_000;
      since = new Date().toISOString();
      await sb.auth.signInWithOtp({ email });
      const again = codeOf(await latestMail(stack, email, since));
      expect((await sb.auth.verifyOtp({ email, token: again, type: 'email' })).error).toBeNull();
    });

    it('signUp with e-mail and password: confirmation code, email_not_confirmed before, session after', async () => {
      const email = address('signup');
      const sb = client(stack);
      const since = new Date().toISOString();
      const { data, error } = await sb.auth.signUp({ email, password: PASSWORD, options: { data: { locale: 'en' } } });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user).toMatchObject({ email, is_anonymous: false, user_metadata: { locale: 'en' } });
      expect(data.user!.confirmation_sent_at).toBeTruthy();
      const early = await client(stack).auth.signInWithPassword({ email, password: PASSWORD });
      expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });
      const mail = await latestMail(stack, email, since);
      expect(mail.subject).toBe('Your code for Hafen Düsseldorf');
      expect(mail.html).toContain('<html lang="en">');
      expect(mail.html).toContain('here is your code');
      const verified = await sb.auth.verifyOtp({ email, token: codeOf(mail), type: 'signup' });
      expect(verified.error).toBeNull();
      expect(verified.data.session!.access_token).toBeTruthy();
      const login = await client(stack).auth.signInWithPassword({ email, password: PASSWORD });
      expect(login.error).toBeNull();

      // Signing up again with a registered address does not reveal it: a user-shaped answer, no session.
      const before = await mailCount(stack, email);
      const again = await client(stack).auth.signUp({ email, password: 'Other2026x' });
      expect(again.error).toBeNull();
      expect(again.data.session).toBeNull();
      expect(again.data.user!.id).not.toBe(login.data.user!.id);
      expect(await mailCount(stack, email)).toBe(before);
      const wrong = await client(stack).auth.signInWithPassword({ email, password: 'Wrong2026x' });
      expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
      const nobody = await client(stack).auth.signInWithPassword({ email: address('nobody'), password: PASSWORD });
      expect(nobody.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    });

    it('refuses weak passwords with reasons', async () => {
      const sb = client(stack);
      const short = await sb.auth.signUp({ email: address('weak'), password: 'abc' });
      expect(short.error).toMatchObject({ name: 'AuthWeakPasswordError', status: 422, code: 'weak_password' });
      expect((short.error as AuthWeakPasswordError).reasons).toEqual(['length', 'characters']);
      expect(short.error!.message).toContain('Password should be at least 8 characters.');
      const noDigit = await sb.auth.signUp({ email: address('weak'), password: 'abcdefghIJ' });
      expect((noDigit.error as AuthWeakPasswordError).reasons).toEqual(['characters']);
      expect(noDigit.error!.message).toBe(
        'Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
      );
      const { sb: signedIn } = await confirmedUser(stack);
      const update = await signedIn.auth.updateUser({ password: 'short' });
      expect(update.error).toMatchObject({ status: 422, code: 'weak_password' });
      expect((update.error as AuthWeakPasswordError).reasons).toEqual(['length', 'characters']);
      const same = await signedIn.auth.updateUser({ password: PASSWORD });
      expect(same.error).toMatchObject({ status: 422, code: 'same_password' });
      const raw422 = await raw(stack, 'POST', '/signup', { email: address('weak'), password: '1' });
      expect(raw422.body).toEqual({
        code: 'weak_password',
        message:
          'Password should be at least 8 characters. Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
        weak_password: { reasons: ['length', 'characters'] },
      });
    });

    it('rotates refresh tokens and revokes the family when an old token is reused', async () => {
      const { email } = await confirmedUser(stack);
      const sb = client(stack);
      const login = await sb.auth.signInWithPassword({ email, password: PASSWORD });
      const first = login.data.session!.refresh_token;
      const r1 = await sb.auth.refreshSession({ refresh_token: first });
      expect(r1.error).toBeNull();
      const second = r1.data.session!.refresh_token;
      expect(second).not.toBe(first);
      expect(decodeJwt(r1.data.session!.access_token).session_id).toBe(decodeJwt(login.data.session!.access_token).session_id);
      // The client lost the answer: reusing the direct parent hands back the active token.
      const lost = await client(stack).auth.refreshSession({ refresh_token: first });
      expect(lost.data.session!.refresh_token).toBe(second);
      const r2 = await client(stack).auth.refreshSession({ refresh_token: second });
      const third = r2.data.session!.refresh_token;
      expect(third).not.toBe(second);
      // Within the reuse interval an old token is tolerated; after it, reuse revokes the family.
      clock.offsetMs += 11_000;
      const reuse = await client(stack).auth.refreshSession({ refresh_token: first });
      expect(reuse.error).toMatchObject({
        status: 400,
        code: 'refresh_token_already_used',
        message: 'Invalid Refresh Token: Already Used',
      });
      clock.offsetMs += 11_000;
      const current = await client(stack).auth.refreshSession({ refresh_token: third });
      expect(current.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
      const unknown = await client(stack).auth.refreshSession({ refresh_token: 'notarealtoken' });
      expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    });

    it('refuses expired, forged, alg:none and tampered access tokens', async () => {
      const { sb } = await confirmedUser(stack);
      const good = (await sb.auth.getSession()).data.session!.access_token;
      const claims = decodeJwt(good);
      const secret = new TextEncoder().encode(stack.keys.jwtSecret);
      const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(secret);
      const wrongSecret = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode('x'.repeat(40)));
      const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
      const [h, , s] = good.split('.');
      const tampered = `${h}.${b64({ ...claims, role: 'service_role' })}.${s}`;
      for (const token of [expired, wrongSecret, none, tampered, 'garbage']) {
        const { data, error } = await sb.auth.getUser(token);
        expect(data.user).toBeNull();
        expect(error).toMatchObject({ status: 403, code: 'bad_jwt' });
        const r = await raw(stack, 'GET', '/user', undefined, { authorization: `Bearer ${token}` });
        expect(r.status).toBe(403);
        expect(r.headers.get('x-supabase-api-version')).toBe('2024-01-01');
        expect(r.body).toEqual({ code: 'bad_jwt', message: expect.stringMatching(/^invalid JWT: unable to parse or verify signature, /) });
      }
      expect((await sb.auth.getUser(good)).error).toBeNull();
      // Without the version header GoTrue answers in its legacy shape.
      const legacy = await raw(stack, 'GET', '/user', undefined, { authorization: `Bearer ${expired}`, 'x-supabase-api-version': '' });
      expect(legacy.body).toMatchObject({ code: 403, error_code: 'bad_jwt', msg: expect.any(String) });
      expect(legacy.headers.get('x-supabase-api-version')).toBeNull();
    });

    it('changes the e-mail of an anonymous user by code and makes them permanent', async () => {
      const sb = client(stack);
      const anon = await sb.auth.signInAnonymously();
      const email = address('wechsel');
      const pending = await sb.auth.updateUser({ email, data: { locale: 'en' } });
      expect(pending.error).toBeNull();
      expect(pending.data.user).toMatchObject({ new_email: email, is_anonymous: true, email: '' });
      const mail = await latestMail(stack, email);
      expect(mail.subject).toBe('Confirm your new e-mail address');
      expect(mail.html).toContain(email);
      const refused = await sb.auth.updateUser({ password: PASSWORD });
      expect(refused.error).toMatchObject({ status: 422, code: 'validation_failed' });
      const verified = await sb.auth.verifyOtp({ email, token: codeOf(mail), type: 'email_change' });
      expect(verified.error).toBeNull();
      expect(verified.data.user).toMatchObject({ id: anon.data.user!.id, email, is_anonymous: false });
      expect(verified.data.user!.identities![0]).toMatchObject({ provider: 'email', identity_data: { email, email_verified: true } });
      expect(decodeJwt(verified.data.session!.access_token).is_anonymous).toBe(false);
      const pw = await sb.auth.updateUser({ password: PASSWORD });
      expect(pw.error).toBeNull();
      expect((await client(stack).auth.signInWithPassword({ email, password: PASSWORD })).data.user!.id).toBe(anon.data.user!.id);
      // An address that belongs to someone else cannot be taken.
      const taken = await client(stack);
      await taken.auth.signInAnonymously();
      const dup = await taken.auth.updateUser({ email });
      expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });
    });

    it('changes the e-mail of a permanent user with two codes (secure change)', async () => {
      const { email, sb } = await confirmedUser(stack);
      const next = address('neu');
      const since = new Date().toISOString();
      expect((await sb.auth.updateUser({ email: next })).error).toBeNull();
      const toNew = await latestMail(stack, next, since);
      const toOld = await latestMail(stack, email, since);
      const half = await sb.auth.verifyOtp({ email: next, token: codeOf(toNew), type: 'email_change' });
      expect(half.error).toBeNull();
      expect(half.data.session).toBeNull();
      const done = await sb.auth.verifyOtp({ email, token: codeOf(toOld), type: 'email_change' });
      expect(done.error).toBeNull();
      expect(done.data.user!.email).toBe(next);
    });

    it('password reset by code, password change signs out the other sessions', async () => {
      const { email } = await confirmedUser(stack);
      const other = client(stack);
      await other.auth.signInWithPassword({ email, password: PASSWORD });
      const sb = client(stack);
      const since = new Date().toISOString();
      expect((await sb.auth.resetPasswordForEmail(email)).error).toBeNull();
      expect((await sb.auth.resetPasswordForEmail(address('unbekannt'))).error).toBeNull();
      const mail = await latestMail(stack, email, since);
      expect(mail.subject).toBe('Passwort zurücksetzen für den Hafen Düsseldorf');
      const rec = await sb.auth.verifyOtp({ email, token: codeOf(mail), type: 'recovery' });
      expect(rec.error).toBeNull();
      expect((await sb.auth.updateUser({ password: 'Neues2026pw' })).error).toBeNull();
      expect((await client(stack).auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe('invalid_credentials');
      expect((await client(stack).auth.signInWithPassword({ email, password: 'Neues2026pw' })).error).toBeNull();
      const stale = await other.auth.getUser();
      expect(stale.error).toMatchObject({ name: 'AuthSessionMissingError' });
      expect((await sb.auth.getUser()).error).toBeNull();
    });

    it('verifies by token hash: POST verifyOtp({ token_hash }) and the e-mail link GET /verify', async () => {
      const email = address('link');
      let since = new Date().toISOString();
      await client(stack).auth.signUp({ email, password: PASSWORD });
      const hash = createHash('sha224')
        .update(email + codeOf(await latestMail(stack, email, since)))
        .digest('hex');
      const link = await raw(
        stack,
        'GET',
        `/verify?token=${hash}&type=signup&redirect_to=${encodeURIComponent('http://localhost:3000/willkommen')}`,
        undefined,
        { apikey: '' },
      );
      expect(link.status).toBe(303);
      const location = new URL(link.headers.get('location')!);
      expect(location.origin + location.pathname).toBe('http://localhost:3000/willkommen');
      const fragment = new URLSearchParams(location.hash.slice(1));
      expect(fragment.get('type')).toBe('signup');
      expect(decodeJwt(fragment.get('access_token')!).email).toBe(email);
      const again = await raw(
        stack,
        'GET',
        `/verify?token=${hash}&type=signup&redirect_to=${encodeURIComponent('https://evil.example/')}`,
        undefined,
        { apikey: '' },
      );
      const failed = new URL(again.headers.get('location')!);
      expect(failed.origin).toBe('http://localhost:3000');
      expect(new URLSearchParams(failed.hash.slice(1)).get('error_code')).toBe('otp_expired');

      const sb = client(stack);
      since = new Date().toISOString();
      clock.offsetMs += 2_000;
      await sb.auth.signInWithOtp({ email });
      const magic = createHash('sha224')
        .update(email + codeOf(await latestMail(stack, email, since)))
        .digest('hex');
      const viaHash = await sb.auth.verifyOtp({ token_hash: magic, type: 'magiclink' });
      expect(viaHash.error).toBeNull();
      expect(viaHash.data.user!.email).toBe(email);
    });

    it('resends the signup code; the old code stops working', async () => {
      const email = address('resend');
      const sb = client(stack);
      let since = new Date().toISOString();
      await sb.auth.signUp({ email, password: PASSWORD });
      const old = codeOf(await latestMail(stack, email, since));
      const tooSoon = await sb.auth.resend({ email, type: 'signup' });
      expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
      clock.offsetMs += 2_000;
      since = new Date().toISOString();
      expect((await sb.auth.resend({ email, type: 'signup' })).error).toBeNull();
      const fresh = codeOf(await latestMail(stack, email, since));
      if (fresh !== old) expect((await sb.auth.verifyOtp({ email, token: old, type: 'signup' })).error?.code).toBe('otp_expired');
      expect((await sb.auth.verifyOtp({ email, token: fresh, type: 'signup' })).error).toBeNull();
    });

    it('logout scopes: others, local, global', async () => {
      const { email } = await confirmedUser(stack);
      const a = client(stack);
      const b = client(stack);
      const c = client(stack);
      for (const x of [a, b, c]) expect((await x.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
      const bRefresh = (await b.auth.getSession()).data.session!.refresh_token;
      expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
      expect((await client(stack).auth.refreshSession({ refresh_token: bRefresh })).error?.code).toBe('refresh_token_not_found');
      expect((await a.auth.getUser()).error).toBeNull();
      const aToken = (await a.auth.getSession()).data.session!.access_token;
      expect((await a.auth.signOut({ scope: 'local' })).error).toBeNull();
      const gone = await raw(stack, 'GET', '/user', undefined, { authorization: `Bearer ${aToken}` });
      expect(gone.body).toMatchObject({ code: 'session_not_found' });
      const d = client(stack);
      const e = client(stack);
      await d.auth.signInWithPassword({ email, password: PASSWORD });
      await e.auth.signInWithPassword({ email, password: PASSWORD });
      const eToken = (await e.auth.getSession()).data.session!.access_token;
      expect((await d.auth.signOut()).error).toBeNull();
      expect((await raw(stack, 'GET', '/user', undefined, { authorization: `Bearer ${eToken}` })).status).toBe(403);
      const count = await stack.db.query<{ n: string }>(
        `select count(*)::text as n from auth.sessions s join auth.users u on u.id = s.user_id where u.email = $1`,
        [email],
      );
      expect(count.rows[0].n).toBe('0');
    });

    it('admin generateLink: every link type as GoTrue answers it, verifiable through /verify, no mail sent', async () => {
      const anonLink = await client(stack).auth.admin.generateLink({ type: 'magiclink', email: address('gl-anon') });
      expect(anonLink.error).toMatchObject({ status: 403, code: 'not_admin' });
      const admin = client(stack, stack.keys.serviceRoleKey).auth.admin;
      const follow = async (actionLink: string) => {
        const res = await fetch(actionLink, { redirect: 'manual' });
        expect(res.status).toBe(303);
        const location = new URL(res.headers.get('location')!);
        return { location, fragment: new URLSearchParams(location.hash.slice(1)) };
      };
      const sha = (email: string, otp: string) =>
        createHash('sha224')
          .update(email + otp)
          .digest('hex');

      // signup: a new, unconfirmed user; the link confirms it and signs in.
      const signupEmail = address('gl-signup');
      const signup = await admin.generateLink({
        type: 'signup',
        email: signupEmail,
        password: PASSWORD,
        options: { data: { locale: 'de' }, redirectTo: 'http://localhost:3000/willkommen' },
      });
      expect(signup.error).toBeNull();
      const props = signup.data.properties!;
      expect(Object.keys(props).sort()).toEqual(['action_link', 'email_otp', 'hashed_token', 'redirect_to', 'verification_type']);
      expect(props).toMatchObject({ verification_type: 'signup', redirect_to: 'http://localhost:3000/willkommen' });
      expect(props.email_otp).toMatch(/^\d{6}$/);
      expect(props.hashed_token).toBe(sha(signupEmail, props.email_otp));
      expect(props.action_link).toBe(
        `${stack.url}/auth/v1/verify?token=${props.hashed_token}&type=signup&redirect_to=${encodeURIComponent('http://localhost:3000/willkommen')}`,
      );
      expect(signup.data.user).toMatchObject({ email: signupEmail, user_metadata: { locale: 'de' } });
      expect(signup.data.user!.email_confirmed_at).toBeUndefined();
      expect(signup.data.user!.confirmation_sent_at).toBeTruthy();
      expect(signup.data.user!.identities).toHaveLength(1);
      const confirmed = await follow(props.action_link);
      expect(confirmed.location.origin + confirmed.location.pathname).toBe('http://localhost:3000/willkommen');
      expect(confirmed.fragment.get('type')).toBe('signup');
      expect(decodeJwt(confirmed.fragment.get('access_token')!).email).toBe(signupEmail);
      expect((await admin.generateLink({ type: 'signup', email: signupEmail, password: PASSWORD })).error).toMatchObject({
        status: 422,
        code: 'email_exists',
      });
      // The password given to the signup link is the user's.
      expect((await client(stack).auth.signInWithPassword({ email: signupEmail, password: PASSWORD })).error).toBeNull();

      // magiclink for an existing user; the code works through verifyOtp as well.
      const magic = await admin.generateLink({ type: 'magiclink', email: signupEmail });
      expect(magic.error).toBeNull();
      expect(magic.data.properties!.verification_type).toBe('magiclink');
      expect(magic.data.properties!.redirect_to).toBe('http://localhost:3000');
      expect(magic.data.properties!.action_link).toContain('&type=magiclink&');
      const viaCode = await client(stack).auth.verifyOtp({
        email: signupEmail,
        token: magic.data.properties!.email_otp,
        type: 'magiclink',
      });
      expect(viaCode.error).toBeNull();
      expect(viaCode.data.user!.email).toBe(signupEmail);

      // magiclink for an unknown address: GoTrue makes it a signup link with a random password.
      const newcomer = address('gl-magic');
      const magicNew = await admin.generateLink({ type: 'magiclink', email: newcomer });
      expect(magicNew.error).toBeNull();
      expect(magicNew.data.properties!.verification_type).toBe('signup');
      expect(magicNew.data.properties!.action_link).toContain('&type=signup&');
      expect((await follow(magicNew.data.properties!.action_link)).fragment.get('type')).toBe('signup');

      // invite: a new user with invited_at; the link signs in.
      const invitee = address('gl-invite');
      const invite = await admin.generateLink({ type: 'invite', email: invitee, options: { data: { first_name: 'Ina' } } });
      expect(invite.error).toBeNull();
      expect(invite.data.user).toMatchObject({ email: invitee, user_metadata: { first_name: 'Ina' } });
      expect(invite.data.user!.invited_at).toBeTruthy();
      const invited = await follow(invite.data.properties!.action_link);
      expect(invited.fragment.get('type')).toBe('invite');
      expect(decodeJwt(invited.fragment.get('access_token')!).email).toBe(invitee);

      // recovery: only for an existing user.
      expect((await admin.generateLink({ type: 'recovery', email: address('gl-nobody') })).error).toMatchObject({
        status: 404,
        code: 'user_not_found',
        message: 'User with this email not found',
      });
      const recovery = await admin.generateLink({ type: 'recovery', email: invitee });
      expect(recovery.error).toBeNull();
      expect((await follow(recovery.data.properties!.action_link)).fragment.get('type')).toBe('recovery');

      // email_change_current and email_change_new (secure change on: both links are needed).
      const changed = address('gl-changed');
      const current = await admin.generateLink({ type: 'email_change_current', email: signupEmail, newEmail: changed });
      expect(current.error).toBeNull();
      expect(current.data.user!.new_email).toBe(changed);
      const next = await admin.generateLink({ type: 'email_change_new', email: signupEmail, newEmail: changed });
      expect(next.error).toBeNull();
      expect(next.data.properties!.action_link).toContain(`token=${sha(changed, next.data.properties!.email_otp)}&type=email_change&`);
      expect((await follow(current.data.properties!.action_link)).fragment.get('message')).toBe(
        'Confirmation link accepted. Please proceed to confirm link sent to the other email',
      );
      const done = await follow(next.data.properties!.action_link);
      expect(decodeJwt(done.fragment.get('access_token')!).email).toBe(changed);
      expect((await admin.generateLink({ type: 'email_change_new', email: changed, newEmail: invitee })).error).toMatchObject({
        status: 422,
        code: 'email_exists',
      });

      expect((await admin.generateLink({ type: 'phone_change' as 'signup', email: changed, password: PASSWORD })).error).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message: 'Invalid email action link type requested: phone_change',
      });
      // GoTrue's generate_link never sends: the admin delivers the link itself.
      for (const to of [signupEmail, newcomer, invitee, changed]) expect(await mailCount(stack, to)).toBe(0);
    });

    it("without the caller's own bearer token GoTrue names it; an API key as bearer lacks the sub claim", async () => {
      // The gateway passes a bare apikey on as Kong does (no "Bearer "): GoTrue finds no bearer token.
      const bare = await raw(stack, 'GET', '/user');
      expect(bare.status).toBe(401);
      expect(bare.body).toEqual({ code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' });
      const adminBare = await raw(stack, 'GET', '/admin/users', undefined, { apikey: stack.keys.serviceRoleKey });
      expect(adminBare.status).toBe(401);
      expect(adminBare.body.code).toBe('no_authorization');
      // supabase-js without a session sends its key as the bearer token: GoTrue's "missing sub claim".
      const anonBearer = await raw(stack, 'GET', '/user', undefined, { authorization: `Bearer ${stack.keys.anonKey}` });
      expect(anonBearer.status).toBe(403);
      expect(anonBearer.body).toEqual({ code: 'bad_jwt', message: 'invalid claim: missing sub claim' });
      const enroll = await client(stack).auth.mfa.enroll({ factorType: 'totp' });
      expect(enroll.error).toMatchObject({ status: 403, code: 'bad_jwt', message: 'invalid claim: missing sub claim' });
      // The service role key as bearer still opens the admin API.
      const admin = await raw(stack, 'GET', '/admin/users?per_page=1', undefined, { authorization: `Bearer ${stack.keys.serviceRoleKey}` });
      expect(admin.status).toBe(200);
    });

    it('SSO, identity linking, the OAuth server and passkeys: 404 in GoTrue shape naming what the stack lacks', async () => {
      const notProvided = (code: string, feature: string) => ({
        status: 404,
        code,
        message: expect.stringContaining(`: the local stack does not provide ${feature}`),
      });
      const sso = await client(stack).auth.signInWithSSO({ domain: 'hafen.test' });
      expect(sso.error).toMatchObject(notProvided('saml_provider_disabled', 'SSO (SAML 2.0)'));
      expect(sso.error!.message).toBe('SAML 2.0 is disabled: the local stack does not provide SSO (SAML 2.0)');

      const { sb } = await confirmedUser(stack);
      const link = await sb.auth.linkIdentity({ provider: 'github', options: { skipBrowserRedirect: true } });
      expect(link.error).toMatchObject(notProvided('manual_linking_disabled', 'identity linking'));
      const token = (await sb.auth.getSession()).data.session!.access_token;
      const unlink = await raw(stack, 'DELETE', `/user/identities/${crypto.randomUUID()}`, undefined, {
        authorization: `Bearer ${token}`,
      });
      expect(unlink.status).toBe(404);
      expect(unlink.body).toMatchObject({ code: 'manual_linking_disabled' });
      // As in GoTrue, the caller is authenticated first.
      expect((await raw(stack, 'GET', '/user/identities/authorize?provider=github')).body.code).toBe('no_authorization');

      expect((await client(stack).auth.admin.oauth.listClients()).error).toMatchObject({ status: 403, code: 'not_admin' });
      const admin = client(stack, stack.keys.serviceRoleKey).auth.admin;
      expect((await admin.oauth.listClients()).error).toMatchObject(notProvided('feature_disabled', 'the OAuth 2.1 server (clients)'));
      expect((await admin.oauth.createClient({ client_name: 'x', redirect_uris: ['http://localhost:3000'] })).error).toMatchObject(
        notProvided('feature_disabled', 'the OAuth 2.1 server (clients)'),
      );
      const wellKnown = await raw(stack, 'GET', '/.well-known/oauth-authorization-server');
      expect(wellKnown.status).toBe(404);
      expect(wellKnown.body).toMatchObject({ code: 'feature_disabled', message: expect.stringContaining('OAuth server is disabled') });
      expect((await raw(stack, 'GET', '/oauth/authorize?client_id=x')).body.code).toBe('feature_disabled');
      const ssoAdmin = await raw(stack, 'GET', '/admin/sso/providers', undefined, {
        authorization: `Bearer ${stack.keys.serviceRoleKey}`,
      });
      expect(ssoAdmin.body).toMatchObject({ code: 'saml_provider_disabled' });
      const passkeys = await raw(stack, 'POST', '/passkeys/authentication/options', {});
      expect(passkeys.body).toMatchObject({ code: 'passkey_disabled', message: expect.stringContaining('passkeys (WebAuthn)') });
      // Paths GoTrue does not have still answer its plain 404; the legacy shape without the version header.
      const unknown = await raw(stack, 'GET', '/nirgends', undefined, { 'x-supabase-api-version': '' });
      expect(unknown.body).toMatchObject({ code: 404, error_code: 'not_found' });
      const legacy = await raw(stack, 'GET', '/sso/saml/metadata', undefined, { 'x-supabase-api-version': '' });
      expect(legacy.body).toMatchObject({ code: 404, error_code: 'saml_provider_disabled' });
    });

    it('admin users API: service role only, CRUD and paging', async () => {
      const anonAdmin = await client(stack).auth.admin.listUsers();
      expect(anonAdmin.error).toMatchObject({ status: 403, code: 'not_admin' });
      const admin = client(stack, stack.keys.serviceRoleKey).auth.admin;
      const emails = [address('admin-a'), address('admin-b'), address('admin-c')];
      const ids: string[] = [];
      for (const email of emails) {
        const { data, error } = await admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { locale: 'de' } });
        expect(error).toBeNull();
        expect(data.user).toMatchObject({
          email,
          user_metadata: { locale: 'de', email_verified: true },
          app_metadata: { provider: 'email' },
        });
        ids.push(data.user!.id);
      }
      const dup = await admin.createUser({ email: emails[0], password: PASSWORD });
      expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' });
      const page1 = await admin.listUsers({ page: 1, perPage: 2 });
      expect(page1.error).toBeNull();
      expect(page1.data.users).toHaveLength(2);
      expect(page1.data.users.map((u) => u.id)).toEqual([ids[2], ids[1]]);
      expect(page1.data).toMatchObject({ nextPage: 2, total: expect.any(Number) });
      const page2 = await admin.listUsers({ page: 2, perPage: 2 });
      expect(page2.data.users[0].id).toBe(ids[0]);
      const got = await admin.getUserById(ids[1]);
      expect(got.data.user!.email).toBe(emails[1]);
      const upd = await admin.updateUserById(ids[1], {
        user_metadata: { first_name: 'Hein' },
        app_metadata: { harbour: true },
        ban_duration: '1h',
      });
      expect(upd.error).toBeNull();
      expect(upd.data.user).toMatchObject({ user_metadata: { first_name: 'Hein', locale: 'de' }, app_metadata: { harbour: true } });
      expect(upd.data.user!.banned_until).toBeTruthy();
      const banned = await client(stack).auth.signInWithPassword({ email: emails[1], password: PASSWORD });
      expect(banned.error).toMatchObject({ code: 'user_banned' });
      expect((await admin.deleteUser(ids[1])).error).toBeNull();
      expect((await admin.getUserById(ids[1])).error).toMatchObject({ status: 404, code: 'user_not_found' });
      // Invitation: the invite mail carries a code; verifying it signs the invited user in.
      const invitee = address('einladung');
      const anonInvite = await client(stack).auth.admin.inviteUserByEmail(invitee);
      expect(anonInvite.error).toMatchObject({ status: 403, code: 'not_admin' });
      const inv = await admin.inviteUserByEmail(invitee, { data: { locale: 'en' } });
      expect(inv.error).toBeNull();
      expect(inv.data.user!.invited_at).toBeTruthy();
      const invMail = await latestMail(stack, invitee);
      expect(invMail.html).toContain('accept the invitation');
      expect(invMail.html).toContain(`${stack.url}/auth/v1/verify?token=`);
      const accepted = await client(stack).auth.verifyOtp({ email: invitee, token: codeOf(invMail), type: 'invite' });
      expect(accepted.error).toBeNull();
      expect(accepted.data.user!.email_confirmed_at).toBeTruthy();
      const notUuid = await raw(stack, 'GET', '/admin/users/not-a-uuid', undefined, {
        authorization: `Bearer ${stack.keys.serviceRoleKey}`,
      });
      expect(notUuid.status).toBe(404);
      expect((await client(stack).auth.signInWithPassword({ email: emails[0], password: PASSWORD })).error).toBeNull();
    });

    it('answers bad input with 4xx, never 500', async () => {
      const service = { authorization: `Bearer ${stack.keys.serviceRoleKey}` };
      const cases: [string, string, unknown?, Record<string, string>?][] = [
        ['POST', '/signup', '{not json'],
        ['POST', '/signup', [1, 2]],
        ['POST', '/signup', { email: 42, password: PASSWORD }],
        ['POST', '/signup', { email: 'not-an-address', password: PASSWORD }],
        ['POST', '/signup', { email: address('x'), password: 'A1b' + 'x'.repeat(80) }],
        ['POST', '/signup', { email: address('x'), password: PASSWORD, data: 'nope' }],
        ['POST', '/signup', { data: { note: 'a\u0000b' } }],
        ['POST', '/token?grant_type=password', { email: ['a'], password: 1 }],
        ['POST', '/token?grant_type=nope', {}],
        ['POST', '/token?grant_type=refresh_token', {}],
        ['POST', '/otp', {}],
        ['POST', '/otp', { email: 'x@', create_user: 'yes' }],
        ['POST', '/verify', { type: 'email', email: 'a@b.de' }],
        ['POST', '/verify', { type: 'bogus', email: 'a@b.de', token: '123456' }],
        ['POST', '/verify', { type: 'email', token_hash: 'abc' }],
        ['GET', '/verify?type=signup&token=abc'],
        ['POST', '/recover', { email: null }],
        ['POST', '/resend', { type: 'signup' }],
        ['GET', '/user'],
        ['PUT', '/user', { data: 1 }, { authorization: 'Bearer x.y.z' }],
        ['POST', '/logout?scope=everything'],
        ['GET', '/admin/users?page=-1', undefined, service],
        ['GET', '/admin/users?per_page=abc', undefined, service],
        ['PUT', '/admin/users/00000000-0000-0000-0000-000000000001', { email: 'a@b.de' }, service],
        ['POST', '/admin/users', { email: 'x@y.de', ban_duration: 'forever' }, service],
        ['POST', '/admin/users', { email: 'x@y.de', id: 'nope' }, service],
        ['DELETE', '/admin/users/zzz', undefined, service],
        ['GET', '/nothing-here'],
        ['DELETE', '/signup'],
      ];
      for (const [method, path, body, headers] of cases) {
        const r = await raw(stack, method, path, body, headers);
        expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(300);
        expect(r.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
      }
    });
  });

  describe.skipIf(engine.skip && skipBecause(`auth limits and hook on ${engine.name}`, engine.skip))(
    `auth limits and hook on ${engine.name}`,
    () => {
      const cleanups: (() => unknown)[] = [];
      afterAll(async () => {
        for (const fn of cleanups.reverse()) await fn();
      });
      const start = async (options: Parameters<typeof authProject>[0]) => {
        const project = authProject(options);
        cleanups.push(project.remove);
        const stack = await startTestStack({ engine: engine.name, workdir: project.workdir });
        cleanups.push(() => stack.close());
        return stack;
      };

      it('rate limits trip and reset: anonymous sign-ins, sign-ins per IP, e-mails per hour and per address', async () => {
        const stack = await start({ rateLimit: { anonymous_users: 3, email_sent: 2, token_refresh: 30 }, email: { max_frequency: '60s' } });
        const sb = () => client(stack);
        for (let i = 0; i < 3; i++) expect((await sb().auth.signInAnonymously()).error).toBeNull();
        const fourth = await sb().auth.signInAnonymously();
        expect(fourth.error).toMatchObject({ status: 429, code: 'over_request_rate_limit', message: 'Request rate limit reached' });
        // Sign-in attempts per IP: a burst of 30, then refused. Each attempt costs a bcrypt
        // comparison (an unknown address too), so the bucket refills meanwhile (30 per 5 minutes).
        let refused: { code?: string; status?: number } | null = null;
        let attempts = 0;
        const began = Date.now();
        for (; attempts < 60 && !refused; attempts++) {
          const r = await sb().auth.signInWithPassword({ email: address('niemand'), password: PASSWORD });
          if (r.error?.code !== 'invalid_credentials') refused = r.error;
        }
        expect(refused).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
        expect(attempts).toBeLessThanOrEqual(31 + Math.ceil(((Date.now() - began) / 1000) * 0.1));
        // Per address: one code per max_frequency.
        const email = address('limit');
        expect((await sb().auth.signInWithOtp({ email })).error).toBeNull();
        const again = await sb().auth.signInWithOtp({ email });
        expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
        expect(again.error!.message).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
        // The project's e-mails per hour (2): the third address is refused.
        expect((await sb().auth.signInWithOtp({ email: address('limit') })).error).toBeNull();
        const third = await sb().auth.signInWithOtp({ email: address('limit') });
        expect(third.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' });
        // An hour later everything is open again.
        clock.offsetMs += 3_600_000;
        expect((await sb().auth.signInAnonymously()).error).toBeNull();
        expect((await sb().auth.signInWithOtp({ email })).error).toBeNull();
        expect((await sb().auth.signInWithPassword({ email: address('niemand'), password: PASSWORD })).error?.code).toBe(
          'invalid_credentials',
        );
      }, 180_000);

      it('honours config: anonymous sign-ins off, confirmations off, jwt_expiry, otp_length, secure password change, signups off', async () => {
        const stack = await start({
          auth: { enable_anonymous_sign_ins: false, jwt_expiry: 600 },
          email: { enable_confirmations: false, otp_length: 8, secure_password_change: true },
        });
        const off = await client(stack).auth.signInAnonymously();
        expect(off.error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' });
        const email = address('auto');
        const signup = await client(stack).auth.signUp({ email, password: PASSWORD });
        expect(signup.error).toBeNull();
        expect(signup.data.session).not.toBeNull();
        expect(signup.data.user!.email_confirmed_at).toBeTruthy();
        const claims = decodeJwt(signup.data.session!.access_token);
        expect(claims.exp! - claims.iat!).toBe(600);
        expect(signup.data.session!.expires_in).toBe(600);
        const again = await client(stack).auth.signUp({ email, password: PASSWORD });
        expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' });
        // otp_length 8: the e-mail code has eight digits and signs in.
        const since = new Date().toISOString();
        clock.offsetMs += 2_000;
        expect((await client(stack).auth.signInWithOtp({ email })).error).toBeNull();
        const code = codeOf(await latestMail(stack, email, since));
        expect(code).toMatch(/^\d{8}$/);
        expect((await client(stack).auth.verifyOtp({ email, token: code, type: 'email' })).error).toBeNull();
        // secure_password_change: a session older than a day needs a reauthentication code.
        const sb = client(stack);
        await sb.auth.signInWithPassword({ email, password: PASSWORD });
        clock.offsetMs += 25 * 3_600_000;
        expect((await sb.auth.refreshSession()).error).toBeNull();
        const needsCode = await sb.auth.updateUser({ password: 'Zweites2026pw' });
        expect(needsCode.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
        const reauthSince = new Date().toISOString();
        expect((await sb.auth.reauthenticate()).error).toBeNull();
        const nonceMail = await latestMail(stack, email, reauthSince);
        expect(nonceMail.subject).toBe('Sicherheitscode');
        const changed = await sb.auth.updateUser({ password: 'Zweites2026pw', nonce: codeOf(nonceMail) });
        expect(changed.error).toBeNull();
        expect((await client(stack).auth.signInWithPassword({ email, password: 'Zweites2026pw' })).error).toBeNull();
        const closed = await start({ auth: { enable_signup: false } });
        const refused = await client(closed).auth.signUp({ email: address('zu'), password: PASSWORD });
        expect(refused.error).toMatchObject({ status: 422, code: 'signup_disabled' });
      });

      it('calls the custom access-token hook as supabase_auth_admin and uses its claims; a hook error refuses sign-in', async () => {
        const stack = await start({
          hook: 'pg-functions://postgres/public/custom_access_token_hook',
          email: { enable_confirmations: false },
          migrations: { '20260101000000_hook.sql': HOOK_SQL },
        });
        const email = address('hook');
        const signup = await client(stack).auth.signUp({ email, password: PASSWORD });
        expect(signup.error).toBeNull();
        await stack.db.query(`insert into public.harbour_roles (user_id, role) values ($1, 'harbor')`, [signup.data.user!.id]);
        const sb = client(stack);
        const login = await sb.auth.signInWithPassword({ email, password: PASSWORD });
        expect(login.error).toBeNull();
        const claims = decodeJwt(login.data.session!.access_token);
        expect(claims).toMatchObject({
          harbour_role: 'harbor',
          auth_method: 'password',
          db_role: 'supabase_auth_admin',
          app_metadata: { hooked: true, provider: 'email' },
        });
        expect(Object.keys(claims)).toEqual(Object.keys(claims).sort());
        const refreshed = await sb.auth.refreshSession();
        expect(decodeJwt(refreshed.data.session!.access_token)).toMatchObject({ harbour_role: 'harbor', auth_method: 'token_refresh' });
        const anon = await client(stack).auth.signInAnonymously();
        expect(decodeJwt(anon.data.session!.access_token)).toMatchObject({ harbour_role: 'guest', auth_method: 'anonymous' });

        const blocked = address('x').replace('@hafen.test', '@blocked.test');
        expect(
          (
            await client(stack, stack.keys.serviceRoleKey).auth.admin.createUser({
              email: blocked,
              password: PASSWORD,
              email_confirm: true,
            })
          ).error,
        ).toBeNull();
        const refused = await client(stack).auth.signInWithPassword({ email: blocked, password: PASSWORD });
        expect(refused.error).toMatchObject({ status: 403, message: 'Dieses Konto ist gesperrt.' });
        const sessions = await stack.db.query<{ n: string }>(
          `select count(*)::text as n from auth.sessions s join auth.users u on u.id = s.user_id where u.email = $1`,
          [blocked],
        );
        expect(sessions.rows[0].n).toBe('0');
        const broken = address('x').replace('@hafen.test', '@broken.test');
        await client(stack, stack.keys.serviceRoleKey).auth.admin.createUser({ email: broken, password: PASSWORD, email_confirm: true });
        const failed = await raw(stack, 'POST', '/token?grant_type=password', { email: broken, password: PASSWORD });
        expect(failed.status).toBe(500);
        expect(failed.body).toEqual({
          code: 'unexpected_failure',
          message: 'Error running hook URI: pg-functions://postgres/public/custom_access_token_hook',
        });
      });

      it('refuses to start on a config.toml setting it does not honour, naming the key', async () => {
        const webauthn = authProject({ extra: '[auth.mfa.web_authn]\nenroll_enabled = true\nverify_enabled = true\n' });
        cleanups.push(webauthn.remove);
        await expect(startTestStack({ engine: engine.name, workdir: webauthn.workdir })).rejects.toThrow(
          /the local stack does not provide what these settings turn on; turn them off to start it: \[auth\.mfa\.web_authn\] enroll_enabled; \[auth\.mfa\.web_authn\] verify_enabled$/,
        );
        const refused: [string, RegExp][] = [
          ['[auth.mfa.phone]\nenroll_enabled = true\n', /\[auth\.mfa\.phone\] enroll_enabled/],
          ['[auth.oauth_server]\nenabled = true\n', /\[auth\.oauth_server\] enabled \(the OAuth 2\.1 server\)/],
          ['[auth.external.github]\nenabled = true\nclient_id = "x"\n', /\[auth\.external\.github\] enabled/],
          ['[auth.sms.twilio]\nenabled = true\n', /\[auth\.sms\.twilio\] enabled/],
          [
            '[auth.hook.before_user_created]\nenabled = true\nuri = "pg-functions://postgres/public/f"\n',
            /\[auth\.hook\.before_user_created\] enabled/,
          ],
          ['[auth.captcha]\nenabled = true\nprovider = "hcaptcha"\n', /\[auth\.captcha\] enabled/],
          ['[auth.email.smtp]\nhost = "smtp.example.test"\n', /\[auth\.email\.smtp\]/],
          ['[auth.sessions]\ntimebox = "24h"\n', /\[auth\.sessions\] timebox/],
          ['[auth.third_party.clerk]\nenabled = true\n', /\[auth\.third_party\.clerk\] enabled/],
        ];
        for (const [extra, message] of refused) {
          const project = authProject({ extra });
          cleanups.push(project.remove);
          expect(() => loadConfig(project.workdir)).toThrow(message);
        }
        const manual = authProject({ auth: { enable_manual_linking: true } });
        cleanups.push(manual.remove);
        expect(() => loadConfig(manual.workdir)).toThrow(/\[auth\] enable_manual_linking/);
        // The same sections switched off, as the CLI's own config.toml template writes them, start.
        const off = authProject({
          auth: { enable_manual_linking: false },
          extra:
            '[auth.mfa.phone]\nenroll_enabled = false\nverify_enabled = false\n\n[auth.oauth_server]\nenabled = false\n\n' +
            '[auth.sms]\nenable_signup = false\n\n[auth.sms.twilio]\nenabled = false\n\n[auth.external.apple]\nenabled = false\n\n' +
            '[auth.web3.solana]\nenabled = false\n\n[auth.third_party.firebase]\nenabled = false\n',
        });
        cleanups.push(off.remove);
        expect(loadConfig(off.workdir).auth.mfa.totp.enrollEnabled).toBe(true);
      });

      it('refuses to start on template syntax outside the supported subset', async () => {
        const project = authProject({ templates: { magic_link: '<p>{{ .Tokn }}</p>' } });
        cleanups.push(project.remove);
        await expect(startTestStack({ engine: engine.name, workdir: project.workdir })).rejects.toThrow(
          /magic_link\.html:1: unknown field \.Tokn/,
        );
        for (const bad of [
          '<p>{{ range .Data }}x{{ end }}</p>',
          '<p>\n{{ if eq .Data.locale "en" }}en</p>',
          '<p>{{ .Token | html }}</p>',
          '{{ template "x" }}',
          '<p>{{ .Token </p>',
        ]) {
          const other = authProject({ templates: { recovery: bad } });
          cleanups.push(other.remove);
          expect(() => loadMailTemplates(loadConfig(other.workdir), other.workdir)).toThrow(/recovery\.html:\d+: /);
        }
      });
    },
  );
}
