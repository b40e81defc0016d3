/**
 * Accounts (issue 10): the account overview's next booking, my bookings (newest start first),
 * a booking's page and check-in inside the account area, for the seeded customers.
 */
import { test, expect } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { authStorageKey, personaSession } from '../helpers/personas';
import { apiUrl, calendarDay, readCode, uniqueEmail } from './booking-helpers';
const berlinDate = (iso: string | number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

test.describe('seeded customer (de)', () => {
  test.use({ persona: 'customer' });

  test('account shows the next booking; my bookings current and upcoming first by arrival; check-in today, a future booking refuses', async ({
    page,
  }) => {
    await page.goto('/de/account');
    const next = page.getByRole('region', { name: 'Nächste Buchung' });
    await expect(next.getByTestId('booking')).toHaveCount(1);
    await expect(next.getByTestId('booking')).toContainText('Liegeplatz B05');

    await page.goto('/de/account/bookings');
    const rows = page.getByTestId('booking');
    await expect(rows.first()).toBeVisible();
    const starts = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-starts-at') ?? ''));
    expect(starts.length).toBeGreaterThanOrEqual(3);
    // Current and upcoming stays first, by arrival (issue 40 item 13): today's B05 stay above the
    // one 21 days ahead, everything up to that one ascending; past ones after them.
    const todayRow = starts.findIndex((s) => berlinDate(s) === calendarDay(0));
    const aheadRow = starts.findIndex((s) => berlinDate(s) === calendarDay(21));
    expect(todayRow).toBeGreaterThanOrEqual(0);
    expect(todayRow).toBeLessThan(aheadRow);
    const upcoming = starts.slice(0, aheadRow + 1);
    expect([...upcoming].sort()).toEqual(upcoming);
    await expect(rows.filter({ hasText: 'Liegeplatz B06' })).toHaveCount(1);

    // The seeded B05 stay 21 days ahead: its page, and its check-in refuses until the arrival day.
    const future = starts.find((s) => berlinDate(s) === calendarDay(21));
    expect(future).toBeTruthy();
    await page
      .locator(`[data-testid="booking"][data-starts-at="${future}"]`)
      .filter({ hasText: 'Liegeplatz B05' })
      .getByRole('link', { name: 'Details' })
      .click();
    await expect(page).toHaveURL(/\/de\/account\/bookings\/[0-9a-f-]{36}$/);
    await expect(page.getByText('B05').first()).toBeVisible();
    await page.goto(`${page.url()}/check-in`);
    await expect(page.getByText(/Einchecken können Sie am Anreisetag, /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Jetzt einchecken' })).toHaveCount(0);

    // Today's seeded B05 stay: check in from the account area.
    await page.goto('/de/account/bookings');
    const b05 = page.getByTestId('booking').filter({ hasText: 'Liegeplatz B05' });
    await expect(b05.first()).toBeVisible();
    const b05Starts = await b05.evaluateAll((els) => els.map((e) => e.getAttribute('data-starts-at') ?? ''));
    const today = b05Starts.findIndex((s) => berlinDate(s) === calendarDay(0));
    expect(today).toBeGreaterThanOrEqual(0);
    const row = b05.nth(today);
    await expect(row).toContainText('Liegeplatz B05');
    const checkInLink = row.getByRole('link', { name: 'Zum Check-in' });
    if (await checkInLink.count()) {
      await checkInLink.click();
      await expect(page).toHaveURL(/\/de\/account\/bookings\/[0-9a-f-]{36}\/check-in$/);
      await page.getByRole('button', { name: 'Jetzt einchecken' }).click();
    } else {
      // A reused server where this stay is already checked in.
      await row.getByRole('link', { name: 'Details' }).click();
      await page.goto(`${page.url()}/check-in`);
    }
    await expect(page.getByText(/Willkommen im Hafen! Eingecheckt am/)).toBeVisible();
  });
});

test.describe('seeded customer (en)', () => {
  test.use({ persona: 'customerEn' });

  test('account and my bookings in English', async ({ page }) => {
    await page.goto('/en/account');
    const next = page.getByRole('region', { name: 'Next booking' });
    await expect(next.getByTestId('booking')).toContainText('Berth D03');
    await page.goto('/en/account/bookings');
    await expect(page.getByRole('heading', { name: 'My bookings' })).toBeVisible();
    // The heading shows while the list still loads: wait for the rows (the seed gives Jan three
    // stays; other suites may add bookings of his but never take any away).
    const rows = page.getByTestId('booking');
    await expect(rows.first()).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const starts = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-starts-at') ?? ''));
    // Current and upcoming first, by arrival, then the past ones (issue 40 item 13): his D03 stay
    // (arrived yesterday, still running) heads the list, the one that ended 113 days ago follows
    // every current and upcoming stay (his fair stay among them), which ascend.
    const runningRow = starts.findIndex((s) => berlinDate(s) === calendarDay(-1));
    const pastRow = starts.findIndex((s) => berlinDate(s) === calendarDay(-120));
    expect(runningRow).toBe(0);
    expect(pastRow).toBeGreaterThan(1);
    expect([...starts.slice(0, pastRow)].sort()).toEqual(starts.slice(0, pastRow));
  });
});

test.describe('profile', () => {
  test('edit person and boat data and the preferred language; the phone is validated (de)', async ({ page }) => {
    // A fresh customer (code login + password through the auth API), so seeded data stays as it is.
    const email = uniqueEmail('profile');
    const headers = { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' };
    const t0 = new Date(Date.now() - 1000).toISOString();
    expect(
      (
        await fetch(`${apiUrl}/auth/v1/otp`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email, create_user: true, data: { locale: 'de', first_name: 'Pia', last_name: 'Probe' } }),
        })
      ).status,
    ).toBe(200);
    const verify = await fetch(`${apiUrl}/auth/v1/verify`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'email', email, token: await readCode(email, t0) }),
    });
    const { access_token } = (await verify.json()) as { access_token: string };
    expect(
      (
        await fetch(`${apiUrl}/auth/v1/user`, {
          method: 'PUT',
          headers: { ...headers, authorization: `Bearer ${access_token}` },
          body: JSON.stringify({ password: 'Profil123' }),
        })
      ).status,
    ).toBe(200);
    const session = await personaSession({ email, password: 'Profil123' });
    await page.goto('/manifest.webmanifest');
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [authStorageKey, JSON.stringify(session)] as const);

    await page.goto('/de/account/profile');
    await expect(page.getByLabel('Vorname')).toHaveValue('Pia');
    await page.getByLabel('Telefon').fill('abc');
    await page.getByLabel('Bootslänge (m)').fill('99');
    await page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(page.getByText('Telefonnummer ist nicht gültig')).toBeVisible();
    await expect(page.getByText('Bitte eine Zahl zwischen 1 und 60 Metern mit höchstens einer Nachkommastelle')).toBeVisible();
    await page.getByLabel('Telefon').fill('+49 211 123456');
    await page.getByLabel('Bootsname').fill('Seestern');
    await page.getByLabel('Bootslänge (m)').fill('8,5');
    await page.getByLabel('Bootsbreite (m)').fill('2.9');
    await page.getByLabel('Bevorzugte Sprache').selectOption('en');
    await page.getByRole('button', { name: 'Speichern', exact: true }).click();
    // The preferred language applies at once: the page moves to /en and stays there.
    await expect(page).toHaveURL(/\/en\/account\/profile$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile and boat data');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');

    await page.reload();
    await expect(page.getByLabel('Boat name')).toHaveValue('Seestern');
    await expect(page.getByLabel('Boat length (m)')).toHaveValue('8.5');
    await expect(page.getByLabel('Boat width (m)')).toHaveValue('2.9');
    await expect(page.getByLabel('Phone', { exact: true })).toHaveValue('+49 211 123456');
    await expect(page.getByLabel('Preferred language')).toHaveValue('en');
  });
});
