import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { decodeJwt } from 'jose';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { authProject } from './fixtures/auth/project.ts';
import { clock } from '../src/auth/index.ts';
import { base32Decode, hotp, otpauthUri, totpCode, totpValid } from '../src/auth/totp.ts';
import type { Stack } from '../src/stack.ts';

/** GoTrue's MFA (internal/api/mfa.go) as supabase-js' auth.mfa.* and auth.admin.mfa.* call it. */

const PASSWORD = 'Hafen2026';
let counter = 0;
const address = (tag: string) => `${tag}-${Date.now().toString(36)}-${counter++}@hafen.test`;

function client(stack: Stack, key = stack.keys.anonKey): SupabaseClient {
  return createClient(stack.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

async function raw(stack: Stack, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${stack.url}/auth/v1${path}`, {
    method,
    headers: {
      apikey: stack.keys.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON the API answers, read field by field
  const json: any = text ? JSON.parse(text) : undefined;
  return { status: res.status, body: json };
}

afterAll(() => {
  clock.offsetMs = 0;
});

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vectors (8 digits) and the 6-digit window with one step of skew', () => {
    // RFC 6238 appendix B: secret "12345678901234567890" (ASCII).
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(base32Decode(secret).toString()).toBe('12345678901234567890');
    expect(hotp(secret, Math.floor(59 / 30), 8)).toBe('94287082');
    expect(hotp(secret, Math.floor(1111111109 / 30), 8)).toBe('07081804');
    expect(hotp(secret, Math.floor(2000000000 / 30), 8)).toBe('69279037');
    const at = 1_700_000_000_000;
    expect(totpValid(totpCode(secret, at), secret, at)).toBe(true);
    expect(totpValid(totpCode(secret, at - 30_000), secret, at)).toBe(true);
    expect(totpValid(totpCode(secret, at + 30_000), secret, at)).toBe(true);
    expect(totpValid(totpCode(secret, at - 60_000), secret, at)).toBe(false);
    expect(totpValid('12345', secret, at)).toBe(false);
  });

  it('writes the otpauth URI as pquerna/otp does (query sorted by key)', () => {
    expect(otpauthUri('localhost:3000', 'a@b.test', 'ABC')).toBe(
      'otpauth://totp/localhost:3000:a@b.test?algorithm=SHA1&digits=6&issuer=localhost%3A3000&period=30&secret=ABC',
    );
  });
});

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`auth mfa on ${engine.name}`, engine.skip))(`auth mfa on ${engine.name}`, () => {
    let stack: Stack;
    let project: ReturnType<typeof authProject>;
    let admin: SupabaseClient;

    beforeAll(async () => {
      // GoTrue's limit (15 a minute) is the subject of its own test, on a stack of its own.
      project = authProject({ rateLimit: { mfa_challenge_and_verify: 100000 } });
      stack = await startTestStack({ engine: engine.name, workdir: project.workdir });
      admin = client(stack, stack.keys.serviceRoleKey);
    });
    afterAll(async () => {
      await stack?.close();
      project?.remove();
    });

    async function signedIn() {
      const email = address('staff');
      const created = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
      expect(created.error).toBeNull();
      const sb = client(stack);
      const login = await sb.auth.signInWithPassword({ email, password: PASSWORD });
      expect(login.error).toBeNull();
      return { sb, email, user: created.data.user!, session: login.data.session! };
    }

    /** Enrolled and verified: the client then holds an aal2 session. */
    async function enrolled() {
      const s = await signedIn();
      const enroll = await s.sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' });
      expect(enroll.error).toBeNull();
      const secret = enroll.data!.totp.secret;
      const verify = await s.sb.auth.mfa.challengeAndVerify({ factorId: enroll.data!.id, code: totpCode(secret) });
      expect(verify.error).toBeNull();
      return { ...s, factorId: enroll.data!.id, secret, aal2: verify.data! };
    }

    it('enrols a TOTP factor: id, type, friendly name, QR code as SVG, secret and otpauth URI', async () => {
      const { sb, email } = await signedIn();
      const { data, error } = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' });
      expect(error).toBeNull();
      expect(data).toMatchObject({ type: 'totp', friendly_name: 'Telefon' });
      expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(data!.totp.uri).toBe(
        `otpauth://totp/localhost:3000:${email}?algorithm=SHA1&digits=6&issuer=localhost%3A3000&period=30&secret=${data!.totp.secret}`,
      );
      // auth-js prefixes GoTrue's SVG text for an <img src>.
      expect(data!.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<?xml')).toBe(true);
      expect(data!.totp.qr_code).toContain('<svg');
      expect(data!.totp.qr_code).not.toContain('#');
      // Unverified factors are listed under all, not under totp.
      const list = await sb.auth.mfa.listFactors();
      expect(list.data!.all.map((f) => f.status)).toEqual(['unverified']);
      expect(list.data!.totp).toEqual([]);
      const issuer = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Zweites', issuer: 'Hafen' });
      expect(issuer.data!.totp.uri).toContain('otpauth://totp/Hafen:');
    });

    it('challenge + verify raise the session to aal2 with the amr entry; a refresh keeps the level', async () => {
      const { sb, session, factorId, aal2 } = await enrolled();
      expect(decodeJwt(session.access_token)).toMatchObject({ aal: 'aal1' });
      const claims = decodeJwt(aal2.access_token);
      expect(claims.aal).toBe('aal2');
      expect(claims.session_id).toBe(decodeJwt(session.access_token).session_id);
      const amr = claims.amr as { method: string; timestamp: number }[];
      expect(amr.map((a) => a.method).sort()).toEqual(['password', 'totp']);
      expect(amr[0].timestamp).toBeGreaterThanOrEqual(amr[1].timestamp);
      expect(aal2).toMatchObject({
        token_type: 'bearer',
        expires_in: expect.any(Number),
        refresh_token: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      });
      expect(aal2.refresh_token).not.toBe(session.refresh_token);
      expect(aal2.user.factors).toEqual([
        expect.objectContaining({ id: factorId, status: 'verified', factor_type: 'totp', friendly_name: 'Telefon' }),
      ]);
      const level = await sb.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
      expect((await sb.auth.mfa.listFactors()).data!.totp.map((f) => f.id)).toEqual([factorId]);
      const refreshed = await sb.auth.refreshSession();
      expect(refreshed.error).toBeNull();
      expect(decodeJwt(refreshed.data.session!.access_token)).toMatchObject({ aal: 'aal2' });
      // The aal1 refresh token from before verify was swapped out.
      const old = await client(stack).auth.refreshSession({ refresh_token: session.refresh_token });
      expect(old.data.session === null || decodeJwt(old.data.session.access_token).aal === 'aal2').toBe(true);
    });

    it('a new password login of a user with a factor is aal1 with nextLevel aal2', async () => {
      const { email } = await enrolled();
      const sb = client(stack);
      const login = await sb.auth.signInWithPassword({ email, password: PASSWORD });
      expect(decodeJwt(login.data.session!.access_token).aal).toBe('aal1');
      const level = await sb.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    });

    it("answers wrong codes, unknown factors and challenges with GoTrue's errors", async () => {
      const { sb, session, user } = await signedIn();
      const token = session.access_token;
      const enroll = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' });
      const factorId = enroll.data!.id;
      const challenge = await sb.auth.mfa.challenge({ factorId });
      expect(challenge.error).toBeNull();
      expect(challenge.data).toMatchObject({ type: 'totp', id: expect.any(String) });
      expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000 + 250);
      const secret = enroll.data!.totp.secret;
      const wrong = (totpCode(secret).charCodeAt(0) % 10 === 9 ? '0' : String(Number(totpCode(secret)[0]) + 1)) + totpCode(secret).slice(1);

      const bad = await raw(stack, 'POST', `/factors/${factorId}/verify`, token, { challenge_id: challenge.data!.id, code: wrong });
      expect(bad).toEqual({ status: 422, body: { code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' } });
      const viaClient = await sb.auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code: wrong });
      expect(viaClient.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });

      const empty = await raw(stack, 'POST', `/factors/${factorId}/verify`, token, { challenge_id: challenge.data!.id, code: '' });
      expect(empty).toEqual({ status: 400, body: { code: 'validation_failed', message: 'Code needs to be non-empty' } });
      const noChallenge = await raw(stack, 'POST', `/factors/${factorId}/verify`, token, {
        challenge_id: crypto.randomUUID(),
        code: '123456',
      });
      expect(noChallenge).toEqual({
        status: 422,
        body: { code: 'mfa_factor_not_found', message: 'MFA factor with the provided challenge ID not found' },
      });
      const unknown = await raw(stack, 'POST', `/factors/${crypto.randomUUID()}/challenge`, token, {});
      expect(unknown).toEqual({ status: 404, body: { code: 'mfa_factor_not_found', message: 'Factor not found' } });
      const notUuid = await raw(stack, 'POST', `/factors/abc/challenge`, token, {});
      expect(notUuid).toEqual({ status: 404, body: { code: 'validation_failed', message: 'factor_id must be an UUID' } });
      const badType = await raw(stack, 'POST', '/factors', token, { factor_type: 'sms' });
      expect(badType).toEqual({
        status: 400,
        body: { code: 'validation_failed', message: 'factor_type needs to be totp, phone, or webauthn' },
      });
      const phone = await raw(stack, 'POST', '/factors', token, { factor_type: 'phone', phone: '+491701234567' });
      expect(phone).toEqual({ status: 422, body: { code: 'mfa_phone_enroll_not_enabled', message: 'MFA enroll is disabled for Phone' } });
      const sameName = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' });
      expect(sameName.error).toMatchObject({
        status: 422,
        code: 'mfa_factor_name_conflict',
        message: 'A factor with the friendly name "Telefon" for this user already exists',
      });
      const anonymous = await client(stack).auth.signInAnonymously();
      const anon = await raw(stack, 'POST', '/factors', anonymous.data.session!.access_token, { factor_type: 'totp' });
      expect(anon).toEqual({
        status: 403,
        body: { code: 'no_authorization', message: 'Anonymous user not allowed to perform these actions' },
      });
      // Another user's factor is not found for this one.
      const other = await signedIn();
      const foreign = await raw(stack, 'POST', `/factors/${factorId}/challenge`, other.session.access_token, {});
      expect(foreign.body.code).toBe('mfa_factor_not_found');

      // A challenge is verified once; a used one answers as GoTrue's validateChallenge does.
      const fresh = await sb.auth.mfa.challenge({ factorId });
      const ok = await raw(stack, 'POST', `/factors/${factorId}/verify`, token, { challenge_id: fresh.data!.id, code: totpCode(secret) });
      expect(ok.status).toBe(200);
      const again = await raw(stack, 'POST', `/factors/${factorId}/verify`, ok.body.access_token, {
        challenge_id: fresh.data!.id,
        code: totpCode(secret),
      });
      expect(again).toEqual({
        status: 422,
        body: { code: 'mfa_ip_address_mismatch', message: 'Challenge and verify IP addresses mismatch.' },
      });
      expect(user.id).toBe(ok.body.user.id);
    });

    it('expires a challenge after 300 seconds (mfa_challenge_expired)', async () => {
      const { sb, session } = await signedIn();
      const enroll = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' });
      const challenge = await sb.auth.mfa.challenge({ factorId: enroll.data!.id });
      clock.offsetMs = 301_000;
      try {
        const late = await raw(stack, 'POST', `/factors/${enroll.data!.id}/verify`, session.access_token, {
          challenge_id: challenge.data!.id,
          code: totpCode(enroll.data!.totp.secret, clock.now()),
        });
        expect(late).toEqual({
          status: 422,
          body: {
            code: 'mfa_challenge_expired',
            message: `MFA challenge ${challenge.data!.id} has expired, verify against another challenge or create a new challenge.`,
          },
        });
      } finally {
        clock.offsetMs = 0;
      }
    });

    it('unenrol of a verified factor needs aal2 (insufficient_aal); enrolling a second one too', async () => {
      const { email, factorId, aal2 } = await enrolled();
      const sb = client(stack);
      await sb.auth.signInWithPassword({ email, password: PASSWORD });
      const refused = await sb.auth.mfa.unenroll({ factorId });
      expect(refused.error).toMatchObject({ status: 422, code: 'insufficient_aal', message: 'AAL2 required to unenroll verified factor' });
      const second = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Zweites' });
      expect(second.error).toMatchObject({ status: 403, code: 'insufficient_aal', message: 'AAL2 required to enroll a new factor' });
      const removed = await raw(stack, 'DELETE', `/factors/${factorId}`, aal2.access_token);
      expect(removed).toEqual({ status: 200, body: { id: factorId } });
      // The session is aal1 again: its next token says so.
      const refreshed = await client(stack).auth.refreshSession({ refresh_token: aal2.refresh_token });
      expect(decodeJwt(refreshed.data.session!.access_token)).toMatchObject({ aal: 'aal1' });
      expect(refreshed.data.session!.user.factors ?? []).toEqual([]);
    });

    it('a password alone changes neither password nor e-mail of a user with a verified factor (insufficient_aal, 401)', async () => {
      const { email, aal2 } = await enrolled();
      // A password-only login (say with a stolen password) is aal1.
      const thief = client(stack);
      const login = await thief.auth.signInWithPassword({ email, password: PASSWORD });
      expect(decodeJwt(login.data.session!.access_token).aal).toBe('aal1');
      const token = login.data.session!.access_token;
      const refusal = {
        status: 401,
        body: { code: 'insufficient_aal', message: 'AAL2 session is required to update email or password when MFA is enabled.' },
      };
      expect(await raw(stack, 'PUT', '/user', token, { password: 'Gestohlen2026' })).toEqual(refusal);
      expect(await raw(stack, 'PUT', '/user', token, { email: address('thief') })).toEqual(refusal);
      const viaClient = await thief.auth.updateUser({ password: 'Gestohlen2026' });
      expect(viaClient.error).toMatchObject({ status: 401, code: 'insufficient_aal' });
      // The old password still signs in; the new one does not.
      expect((await client(stack).auth.signInWithPassword({ email, password: 'Gestohlen2026' })).error).not.toBeNull();
      expect((await client(stack).auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
      // What GoTrue lets through at aal1: metadata, the same address, an empty password (no change).
      expect((await raw(stack, 'PUT', '/user', token, { data: { locale: 'en' } })).status).toBe(200);
      expect((await raw(stack, 'PUT', '/user', token, { email })).status).toBe(200);
      // With the second factor (aal2) the change goes through.
      const changed = await raw(stack, 'PUT', '/user', aal2.access_token, { password: 'Neu2026Hafen' });
      expect(changed.status).toBe(200);
      expect((await client(stack).auth.signInWithPassword({ email, password: 'Neu2026Hafen' })).error).toBeNull();
    });

    it('a user without a verified factor changes the password at aal1 as before', async () => {
      const { sb, email } = await signedIn();
      // An unverified factor does not count (GoTrue's HasMFAEnabled: verified factors only).
      expect((await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' })).error).toBeNull();
      expect((await sb.auth.updateUser({ password: 'Anders2026' })).error).toBeNull();
      expect((await client(stack).auth.signInWithPassword({ email, password: 'Anders2026' })).error).toBeNull();
    });

    it('accepts a TOTP code once: a second sign-in with the same code is refused, a newer step passes (RFC 6238 5.2)', async () => {
      const { email, factorId, secret } = await enrolled();
      const passwordOnly = async () => {
        const sb = client(stack);
        const login = await sb.auth.signInWithPassword({ email, password: PASSWORD });
        expect(login.error).toBeNull();
        return { sb, token: login.data.session!.access_token };
      };
      const verify = async (who: { sb: SupabaseClient; token: string }, code: string) => {
        const challenge = await who.sb.auth.mfa.challenge({ factorId });
        expect(challenge.error).toBeNull();
        return raw(stack, 'POST', `/factors/${factorId}/verify`, who.token, { challenge_id: challenge.data!.id, code });
      };
      // The enrolment accepted the current step: its code does not sign in again.
      const replayed = await verify(await passwordOnly(), totpCode(secret));
      expect(replayed).toEqual({ status: 422, body: { code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' } });
      // The next step (inside GoTrue's one step of skew) is new: accepted once, then refused.
      const next = totpCode(secret, Date.now() + 30_000);
      const first = await verify(await passwordOnly(), next);
      expect(first.status).toBe(200);
      expect(decodeJwt(first.body.access_token).aal).toBe('aal2');
      const second = await verify(await passwordOnly(), next);
      expect(second).toEqual({ status: 422, body: { code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' } });
      // supabase-js' challengeAndVerify goes the same way.
      const viaClient = await (await passwordOnly()).sb.auth.mfa.challengeAndVerify({ factorId, code: next });
      expect(viaClient.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
      // The step is kept in the database (a restart does not forget it).
      const kept = await stack.db.query<{ step: string }>(`select last_totp_step::text as step from auth.mfa_factors where id = $1`, [
        factorId,
      ]);
      expect(hotp(secret, Number(kept.rows[0].step))).toBe(next);
      // Two steps on (the clock moved), a fresh code passes again.
      clock.offsetMs = 60_000;
      try {
        const later = await verify(await passwordOnly(), totpCode(secret, clock.now()));
        expect(later.status).toBe(200);
      } finally {
        clock.offsetMs = 0;
      }
    });

    it("admin lists and deletes a user's factors; the user's sessions fall back to aal1", async () => {
      const { user, factorId, aal2 } = await enrolled();
      const listed = await admin.auth.admin.mfa.listFactors({ userId: user.id });
      expect(listed.error).toBeNull();
      expect(listed.data!.factors).toEqual([
        expect.objectContaining({ id: factorId, status: 'verified', factor_type: 'totp', friendly_name: 'Telefon' }),
      ]);
      const notAdmin = await raw(stack, 'GET', `/admin/users/${user.id}/factors`, aal2.access_token);
      expect(notAdmin).toEqual({ status: 403, body: { code: 'not_admin', message: 'User not allowed' } });
      const missing = await admin.auth.admin.mfa.deleteFactor({ userId: user.id, id: crypto.randomUUID() });
      expect(missing.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
      const deleted = await admin.auth.admin.mfa.deleteFactor({ userId: user.id, id: factorId });
      expect(deleted.error).toBeNull();
      // auth-js hands the deleted factor on wrapped once more ({ data: factor, error: null }).
      expect(deleted.data).toMatchObject({ data: { id: factorId, factor_type: 'totp', status: 'verified' } });
      expect((await admin.auth.admin.mfa.listFactors({ userId: user.id })).data!.factors).toEqual([]);
      const refreshed = await client(stack).auth.refreshSession({ refresh_token: aal2.refresh_token });
      expect(decodeJwt(refreshed.data.session!.access_token)).toMatchObject({ aal: 'aal1' });
    });
  });

  describe.skipIf(engine.skip && skipBecause(`auth mfa rate limit on ${engine.name}`, engine.skip))(
    `auth mfa rate limit on ${engine.name}`,
    () => {
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

      it('rate-limits challenge and verify per address (burst 30, then 429)', async () => {
        const email = address('staff');
        await client(stack, stack.keys.serviceRoleKey).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
        const sb = client(stack);
        const session = (await sb.auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
        const enroll = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' });
        const path = `/factors/${enroll.data!.id}/verify`;
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++) {
          statuses.push(
            (await raw(stack, 'POST', path, session.access_token, { challenge_id: crypto.randomUUID(), code: '000000' })).status,
          );
        }
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9);
        const limited = await raw(stack, 'POST', path, session.access_token, { challenge_id: crypto.randomUUID(), code: '000000' });
        expect(limited).toEqual({ status: 429, body: { code: 'over_request_rate_limit', message: 'Request rate limit reached' } });
      });
    },
  );

  describe.skipIf(engine.skip && skipBecause(`auth mfa rate limit on ${engine.name}`, engine.skip))(
    `auth mfa rate limit on ${engine.name}`,
    () => {
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

      it('rate-limits challenge and verify per address (burst 30, then 429)', async () => {
        const email = address('staff');
        await client(stack, stack.keys.serviceRoleKey).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
        const sb = client(stack);
        const session = (await sb.auth.signInWithPassword({ email, password: PASSWORD })).data.session!;
        const enroll = await sb.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Telefon' });
        const path = `/factors/${enroll.data!.id}/verify`;
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++) {
          statuses.push(
            (await raw(stack, 'POST', path, session.access_token, { challenge_id: crypto.randomUUID(), code: '000000' })).status,
          );
        }
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9);
        const limited = await raw(stack, 'POST', path, session.access_token, { challenge_id: crypto.randomUUID(), code: '000000' });
        expect(limited).toEqual({ status: 429, body: { code: 'over_request_rate_limit', message: 'Request rate limit reached' } });
      });
    },
  );
}
