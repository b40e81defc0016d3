/**
 * Helpers of the account browser tests: a fresh customer made through the auth API (code login
 * + password, as registration leaves one), its session handed to the page, password grants.
 */
import { expect, type Page } from '@playwright/test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { authStorageKey, personaSession } from '../helpers/personas.ts';
import { apiUrl, readCode } from './booking-helpers.ts';

const headers = { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' };
export const since = () => new Date(Date.now() - 1000).toISOString();

export async function apiCustomer(email: string, password: string, data: { locale: 'de' | 'en'; first_name: string; last_name: string }) {
  const t0 = since();
  const otp = await fetch(`${apiUrl}/auth/v1/otp`, { method: 'POST', headers, body: JSON.stringify({ email, create_user: true, data }) });
  expect(otp.status).toBe(200);
  const verify = await fetch(`${apiUrl}/auth/v1/verify`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'email', email, token: await readCode(email, t0) }),
  });
  expect(verify.status).toBe(200);
  const { access_token } = (await verify.json()) as { access_token: string };
  const put = await fetch(`${apiUrl}/auth/v1/user`, {
    method: 'PUT',
    headers: { ...headers, authorization: `Bearer ${access_token}` },
    body: JSON.stringify({ password }),
  });
  expect(put.status).toBe(200);
}

/** Puts a password session of `email` into the page's supabase-js storage. */
export async function sessionInto(page: Page, email: string, password: string) {
  const session = await personaSession({ email, password });
  await page.goto('/manifest.webmanifest');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [authStorageKey, JSON.stringify(session)] as const);
}

export async function passwordGrant(email: string, password: string): Promise<number> {
  const res = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

/** The newest mail to `to` after `since` (waits up to 15 s), or null. */
export async function latestMail(to: string, after: string): Promise<{ subject: string; text?: string; html?: string } | null> {
  const { mailUrl } = await import('./booking-helpers.ts');
  const res = await fetch(`${mailUrl}/api/messages/latest?to=${encodeURIComponent(to)}&since=${encodeURIComponent(after)}&wait=15000`);
  return res.status === 200 ? ((await res.json()) as { subject: string }) : null;
}

/** A 1x1 PNG. */
export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
