import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { startTestStack } from './harness/stack.ts';
import { createJwt } from '../src/jwt.ts';
import { DEMO_ANON_KEY, DEMO_JWT_SECRET, DEMO_SERVICE_ROLE_KEY } from '../src/keys.ts';
import type { Stack } from '../src/stack.ts';

describe('the API gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startTestStack({ engine: 'pglite', workdir: 'supabase/local/test/fixtures/empty' });
  });
  afterAll(() => stack.close());

  it('answers health', async () => {
    const res = await fetch(`${stack.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', engine: 'pglite' });
  });

  it('answers CORS preflights as Supabase does, reflecting the requested headers', async () => {
    const res = await fetch(`${stack.url}/rest/v1/places`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'apikey, authorization, x-client-info, prefer',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('apikey, authorization, x-client-info, prefer');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(res.headers.get('access-control-expose-headers')).toContain('content-range');
  });

  it('demands a valid apikey where the CLI gateway does', async () => {
    const none = await fetch(`${stack.url}/rest/v1/places`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ message: 'No API key found in request' });
    const wrong = await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ message: 'Invalid API key' });
    // GoTrue's e-mail link endpoint is open (the key is not in an e-mailed link).
    const open = await fetch(`${stack.url}/auth/v1/verify?token=x&type=signup`, { redirect: 'manual' });
    expect(open.status).not.toBe(401);
    const unknown = await fetch(`${stack.url}/nothing/here`, { headers: { apikey: DEMO_ANON_KEY } });
    expect(unknown.status).toBe(404);
  });

  it('uses the Supabase CLI demo keys, signed with the demo secret', async () => {
    const jwt = createJwt(DEMO_JWT_SECRET);
    expect(await jwt.verify(DEMO_ANON_KEY)).toMatchObject({ role: 'anon', iss: 'supabase-demo' });
    expect(await jwt.verify(DEMO_SERVICE_ROLE_KEY)).toMatchObject({ role: 'service_role', iss: 'supabase-demo' });
    expect(stack.keys.anonKey).toBe(DEMO_ANON_KEY);
  });

  it('refuses tokens with another secret, alg none, a tampered payload or an expired date', async () => {
    const jwt = createJwt(DEMO_JWT_SECRET);
    const other = await new SignJWT({ role: 'service_role' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-123'));
    await expect(jwt.verify(other)).rejects.toMatchObject({ reason: 'invalid' });
    const [, payload] = DEMO_ANON_KEY.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    await expect(jwt.verify(none)).rejects.toMatchObject({ reason: 'invalid' });
    const forged = Buffer.from(JSON.stringify({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 })).toString('base64url');
    const [head, , sig] = DEMO_ANON_KEY.split('.');
    await expect(jwt.verify(`${head}.${forged}.${sig}`)).rejects.toMatchObject({ reason: 'invalid' });
    const expired = await jwt.sign({ role: 'authenticated', sub: 'x', exp: Math.floor(Date.now() / 1000) - 10 });
    await expect(jwt.verify(expired)).rejects.toMatchObject({ reason: 'expired' });
  });
});
