/**
 * Accounts (issue 10 leftover): the runs that existed in one language only. Check-in in English
 * (a fresh verified customer's stay arriving today, made through the API as other suites do, so
 * the seed stays as it is; a future stay refuses), and registering with an address that already
 * has an account with a password, in German and English: the same code step as for a new
 * address, nothing revealed, the code leads to a new password.
 */
import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personaSession } from '../helpers/personas.ts';
import { apiCustomer, passwordGrant, sessionInto, since } from './account-helpers.ts';
import { apiUrl, berlinDay, readCode, uniqueEmail } from './booking-helpers.ts';

test.setTimeout(90_000);
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

async function rpc<T>(name: string, body: Record<string, unknown>, token: string): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
}

/** The customer books a small boat through the API on the first berth still free (another suite may take one meanwhile). */
async function bookAsCustomer(token: string, boat: string, arrival: string, departure: string): Promise<{ id: string; status: string }> {
  const free = await rpc<{ place_id: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 6, p_boat_width: 2.4 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(0, 10)) {
    const booked = await rpc<{ id: string; status: string }>(
      'create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: boat, length: 6, width: 2.4 },
        p_person: { first_name: 'Eve', last_name: `Early ${run}` },
      },
      token,
    );
    if (booked.status === 200) return booked.data;
    expect(booked.status, JSON.stringify(booked.data)).toBe(409);
  }
  throw new Error('no free berth');
}

test('check-in (en): a verified customer checks in the stay arriving today from the account; a future stay refuses', async ({
  page,
  consoleErrors,
}) => {
  const email = uniqueEmail('checkin-en');
  await apiCustomer(email, 'Harbour123', { locale: 'en', first_name: 'Eve', last_name: `Early ${run}` });
  const { access_token } = (await personaSession({ email, password: 'Harbour123' })) as unknown as { access_token: string };
  const today = await bookAsCustomer(access_token, `Today ${run}`, berlinDay(0), berlinDay(1));
  const later = await bookAsCustomer(access_token, `Later ${run}`, berlinDay(21), berlinDay(22));
  expect([today.status, later.status]).toEqual(['confirmed', 'confirmed']);
  await sessionInto(page, email, 'Harbour123');

  // The future stay: its check-in page names the arrival day and offers no button.
  await page.goto(`/en/account/bookings/${later.id}/check-in`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check-in');
  await expect(page.getByText(/^You can check in on the arrival day, /)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check in now' })).toHaveCount(0);

  // Today's stay: from my bookings to the check-in.
  await page.goto('/en/account/bookings');
  const rows = page.getByTestId('booking');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Later ${run}` }).getByRole('link', { name: 'To check-in' })).toHaveCount(0);
  await rows
    .filter({ hasText: `Today ${run}` })
    .getByRole('link', { name: 'To check-in' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/en/account/bookings/${today.id}/check-in$`));
  await page.getByRole('button', { name: 'Check in now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Welcome' })).toHaveText(
    /^Welcome to the harbour! Checked in on .+, berth .+\.$/,
  );
  await expect(page.getByRole('heading', { name: 'Door code and wifi' })).toBeVisible();
  await expect(page.getByTestId('door-code')).not.toBeEmpty();

  await page.goto('/en/account/bookings');
  await expect(rows.filter({ hasText: `Today ${run}` })).toContainText('Checked in');
  expect(consoleErrors).toEqual([]);
});

/** Clicks a button that requests an e-mail code, waiting and retrying while the shared sign-in bucket is empty (as auth.spec does). */
async function requestCode(page: Page, button: Locator) {
  const busy = page.getByText(/Zu viele Versuche|Too many attempts/);
  for (let attempt = 0; ; attempt++) {
    await button.click();
    await expect(busy.or(page.getByLabel(/6-stelliger Code|6-digit code/))).toBeVisible({ timeout: 10_000 });
    if (!(await busy.isVisible()) || attempt >= 6) return;
    await page.waitForTimeout(6_000);
  }
}

const words = {
  de: {
    email: 'E-Mail',
    first: 'Vorname',
    last: 'Nachname',
    next: 'Weiter',
    code: '6-stelliger Code',
    confirm: 'Bestätigen',
    password: 'Neues Passwort',
    repeat: 'Passwort wiederholen',
    save: 'Passwort speichern',
    account: 'Mein Konto',
  },
  en: {
    email: 'E-mail',
    first: 'First name',
    last: 'Last name',
    next: 'Continue',
    code: '6-digit code',
    confirm: 'Confirm',
    password: 'New password',
    repeat: 'Repeat password',
    save: 'Save password',
    account: 'My account',
  },
};

for (const locale of ['de', 'en'] as const) {
  test(`register (${locale}) with an address that already has an account: the same step as a new address, nothing revealed; the code sets a new password`, async ({
    page,
    consoleErrors,
  }) => {
    const w = words[locale];
    const known = uniqueEmail(`known-${locale}`);
    await apiCustomer(known, 'Before123', { locale, first_name: 'Karl', last_name: 'Konto' });

    /** Fills the registration form, requests the code and returns what the page then says (the address masked). */
    const register = async (email: string) => {
      await page.goto(`/${locale}/auth/register`);
      const form = page.getByRole('form', { name: locale === 'de' ? 'Registrieren' : 'Register' });
      await form.getByLabel(w.email).fill(email);
      await form.getByLabel(w.first).fill('Karl');
      await form.getByLabel(w.last).fill('Konto');
      const t0 = since();
      await requestCode(page, form.getByRole('button', { name: w.next }));
      await expect(page.getByLabel(w.code)).toBeVisible();
      return { t0, text: (await page.locator('main').innerText()).replaceAll(email, '<address>') };
    };
    const fresh = await register(uniqueEmail(`fresh-${locale}`));
    const again = await register(known);
    expect(again.text).toBe(fresh.text);
    expect(again.text).not.toMatch(/bereits|vergeben|already|in use/i);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    await page.getByLabel(w.code).fill(await readCode(known, again.t0));
    await page.getByRole('button', { name: w.confirm }).click();
    await page.getByLabel(w.password).fill('After1234');
    await page.getByLabel(w.repeat).fill('After1234');
    await page.getByRole('button', { name: w.save }).click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/account$`));
    await expect(page.getByRole('heading', { name: w.account })).toBeVisible();
    expect(await passwordGrant(known, 'After1234')).toBe(200);
    expect(await passwordGrant(known, 'Before123')).toBe(400);
    expect(consoleErrors).toEqual([]);
  });
}
