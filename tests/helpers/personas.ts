/**
 * Log a seeded persona in through the auth API and hand the session to the browser, so tests
 * of later pages need not drive the login form. The session goes where supabase-js keeps it:
 * localStorage["sb-<first label of the API host>-auth-token"] (here sb-127-auth-token).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { passwordSession } from '../../supabase/local/test/harness/demo-staff.ts';
import { E2E_API_URL, E2E_APP_URL } from '../e2e/ports.ts';

/** The demo harbour's logins (supabase/seed.sql). */
export const personas = {
  admin: { email: 'admin@hafen.test', password: 'Admin1234' },
  harbour: { email: 'hafen@hafen.test', password: 'Hafen1234' },
  customer: { email: 'kunde@hafen.test', password: 'Kunde1234' },
  customerEn: { email: 'jan.devries@hafen.test', password: 'Kunde1234' },
  inactive: { email: 'inaktiv@hafen.test', password: 'Kunde1234' },
} as const;
export type PersonaName = keyof typeof personas;

const apiUrl = process.env.E2E_API_URL ?? E2E_API_URL;
const appUrl = process.env.E2E_APP_URL ?? E2E_APP_URL;
export const authStorageKey = `sb-${new URL(apiUrl).hostname.split('.')[0]}-auth-token`;

/**
 * A password-grant session for a persona, in the shape supabase-js stores; demo staff also pass
 * the second factor (their seeded TOTP keys), so the session is aal2 as after the app's login.
 */
export async function personaSession(name: PersonaName | { email: string; password: string }) {
  const credentials = typeof name === 'string' ? personas[name] : name;
  const session = await passwordSession<{ access_token: string; expires_in: number; expires_at?: number }>(
    apiUrl,
    DEMO_ANON_KEY,
    credentials,
  );
  session.expires_at ??= Math.floor(Date.now() / 1000) + session.expires_in;
  return session;
}

/** Playwright storage state with the persona's session, for browser.newContext({ storageState }). */
export async function personaStorageState(name: PersonaName) {
  const session = await personaSession(name);
  return {
    cookies: [],
    origins: [{ origin: new URL(appUrl).origin, localStorage: [{ name: authStorageKey, value: JSON.stringify(session) }] }],
  };
}

/** A new browser context logged in as the persona. */
export async function contextAs(
  browser: Browser,
  name: PersonaName,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  return browser.newContext({ ...options, baseURL: appUrl, storageState: await personaStorageState(name) });
}

/** Logs the persona in on an existing page (stores the session on the app's origin). */
export async function loginAs(page: Page, name: PersonaName) {
  const session = await personaSession(name);
  if (!page.url().startsWith(appUrl)) await page.goto('/manifest.webmanifest');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [authStorageKey, JSON.stringify(session)] as const);
}
