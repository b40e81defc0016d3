/**
 * Accounts (issue 10): registration by e-mail code, login by password and by code, the neutral
 * login failure, and the forgotten password through to a new one, in German and English.
 */
import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, readCode, uniqueEmail } from './booking-helpers';

test.setTimeout(90_000);

const since = () => new Date(Date.now() - 1000).toISOString();

/**
 * Clicks a button that requests an e-mail code. All browser tests share one IP, and the auth
 * server's sign-in bucket (30 burst, sign_in_sign_ups per 5 minutes) can be empty for a moment
 * when many suites log in at once: then the page says so, and a person waits and tries again.
 */
async function requestCode(page: Page, button: Locator) {
  const busy = page.getByText(/Zu viele Versuche|Too many attempts/);
  for (let attempt = 0; ; attempt++) {
    await button.click();
    await expect(busy.or(page.getByLabel(/6-stelliger Code|6-digit code/))).toBeVisible({ timeout: 10_000 });
    if (!(await busy.isVisible()) || attempt >= 6) return;
    await page.waitForTimeout(6_000);
  }
}

/** A customer made through the auth API (code login + password), as registration leaves one. */
async function apiCustomer(email: string, password: string) {
  const headers = { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' };
  const t0 = since();
  const otp = await fetch(`${apiUrl}/auth/v1/otp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, create_user: true, data: { locale: 'en', first_name: 'Ada', last_name: 'Test' } }),
  });
  expect(otp.status).toBe(200);
  const token = await readCode(email, t0);
  const verify = await fetch(`${apiUrl}/auth/v1/verify`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'email', email, token }),
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

async function passwordGrant(email: string, password: string) {
  const res = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

test('register (de): code from the mail, password rules, account; log out and log in with the password', async ({ page }) => {
  const email = uniqueEmail('register-de');
  await page.goto('/auth/register');
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(page.getByText('E-Mail wird benötigt')).toBeVisible();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Vorname').fill('Erika');
  await page.getByLabel('Nachname').fill('Muster');
  const t0 = since();
  await requestCode(page, page.getByRole('button', { name: 'Weiter' }));
  await page.getByLabel('6-stelliger Code').fill(await readCode(email, t0));
  await page.getByRole('button', { name: 'Bestätigen' }).click();

  const save = page.getByRole('button', { name: 'Passwort speichern' });
  await save.click();
  await expect(page.getByText('Passwort wird benötigt')).toBeVisible();
  await page.getByLabel('Neues Passwort').fill('abc');
  await save.click();
  await expect(page.getByText('Passwort muss mindestens 6 Zeichen haben')).toBeVisible();
  await page.getByLabel('Neues Passwort').fill('abcdefg');
  await save.click();
  await expect(page.getByText('Das Passwort braucht Klein- und Großbuchstaben und Ziffern')).toBeVisible();
  await page.getByLabel('Neues Passwort').fill('Segel2026');
  await page.getByLabel('Passwort wiederholen').fill('Segel2027');
  await save.click();
  await expect(page.getByText('Die Passwörter stimmen nicht überein')).toBeVisible();
  await page.getByLabel('Passwort wiederholen').fill('Segel2026');
  await save.click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Mein Konto' })).toBeVisible();

  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/start$/);
  await page.goto('/auth/login');
  const form = page.getByRole('form', { name: 'Anmelden' });
  await form.getByLabel('E-Mail').fill(email);
  await form.getByLabel('Passwort').fill('Segel2026');
  await form.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test('register (en): skip the code, log in by code later; an address with an account reveals nothing', async ({ page }) => {
  const email = uniqueEmail('register-en');
  await page.goto('/en/auth/register');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('First name').fill('Jan');
  await page.getByLabel('Last name').fill('Vries');
  await requestCode(page, page.getByRole('button', { name: 'Continue' }));
  await page.getByRole('link', { name: 'Skip, confirm later' }).click();
  await expect(page).toHaveURL(/\/en\/auth\/login/);

  await page.getByRole('button', { name: 'Log in with an e-mail code instead' }).click();
  await page.getByLabel('E-mail').fill(email);
  const t0 = since();
  await requestCode(page, page.getByRole('button', { name: 'Send code' }));
  await page.getByLabel('6-digit code').fill(await readCode(email, t0));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  await expect(page.getByRole('heading', { name: 'My account' })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/en\/start$/);

  // Registering again with the same address: the same code step, no 'already in use'.
  await page.goto('/en/auth/register');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('First name').fill('Jan');
  await page.getByLabel('Last name').fill('Vries');
  const t1 = since();
  await requestCode(page, page.getByRole('button', { name: 'Continue' }));
  await page.getByLabel('6-digit code').fill(await readCode(email, t1));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByLabel('New password').fill('Harbour9');
  await page.getByLabel('Repeat password').fill('Harbour9');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page).toHaveURL(/\/en\/account$/);
  expect(await passwordGrant(email, 'Harbour9')).toBe(200);
});

test('a failed login says the same for an unknown address and a wrong password', async ({ page }) => {
  await page.goto('/auth/login');
  const form = page.getByRole('form', { name: 'Anmelden' });
  const message = 'Anmeldung fehlgeschlagen. Bitte prüfen Sie E-Mail-Adresse und Passwort.';
  await form.getByLabel('E-Mail').fill(uniqueEmail('nobody'));
  await form.getByLabel('Passwort').fill('Whatever1');
  await form.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toHaveText(message);
  await form.getByLabel('E-Mail').fill('kunde@hafen.test');
  await form.getByLabel('Passwort').fill('Wrong12345');
  await form.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toHaveText(message);
  await expect(page).toHaveURL(/\/auth\/login/);
});

test('forgotten password (en): reset e-mail, code, the rules, a new password', async ({ page }) => {
  const email = uniqueEmail('reset-en');
  await apiCustomer(email, 'Before123');
  await page.goto('/en/auth/password-forgotten');
  await page.getByLabel('E-mail').fill(email);
  const t0 = since();
  await page.getByRole('button', { name: 'Send link and code' }).click();
  await expect(page.getByRole('status')).toContainText('Reset password');
  await page.getByRole('link', { name: 'Enter the code' }).click();
  await expect(page).toHaveURL(/\/en\/auth\/reset-password/);
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await page.getByLabel('6-digit code').fill(await readCode(email, t0));
  await page.getByRole('button', { name: 'Confirm' }).click();
  const save = page.getByRole('button', { name: 'Save password' });
  await save.click();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('New password').fill('short');
  await save.click();
  await expect(page.getByText('Password must have at least 6 characters')).toBeVisible();
  await page.getByLabel('New password').fill('alllowercase1');
  await save.click();
  await expect(page.getByText('The password needs lower and upper case letters and digits')).toBeVisible();
  await page.getByLabel('New password').fill('After1234');
  await page.getByLabel('Repeat password').fill('After12345');
  await save.click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await page.getByLabel('Repeat password').fill('After1234');
  await save.click();
  await expect(page).toHaveURL(/\/en\/account$/);
  expect(await passwordGrant(email, 'After1234')).toBe(200);
  expect(await passwordGrant(email, 'Before123')).toBe(400);
});

test('forgotten password (de): the neutral notice, code, a new password', async ({ page }) => {
  const email = uniqueEmail('reset-de');
  await apiCustomer(email, 'Vorher123');
  await page.goto('/de/auth/password-forgotten');
  await page.getByRole('button', { name: 'Link und Code senden' }).click();
  await expect(page.getByText('E-Mail wird benötigt')).toBeVisible();
  await page.getByLabel('E-Mail').fill(email);
  const t0 = since();
  await page.getByRole('button', { name: 'Link und Code senden' }).click();
  await expect(page.getByRole('status')).toContainText(`Falls ein Konto zu ${email} besteht`);
  await page.getByRole('link', { name: 'Code eingeben' }).click();
  await expect(page).toHaveURL(/\/de\/auth\/reset-password/);
  await page.getByLabel('6-stelliger Code').fill('12');
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByText('Der Code hat 6 Ziffern')).toBeVisible();
  await page.getByLabel('6-stelliger Code').fill(await readCode(email, t0));
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await page.getByLabel('Neues Passwort').fill('Nachher123');
  await page.getByLabel('Passwort wiederholen').fill('Nachher123');
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page).toHaveURL(/\/de\/account$/);
  expect(await passwordGrant(email, 'Nachher123')).toBe(200);
  expect(await passwordGrant(email, 'Vorher123')).toBe(400);
});
