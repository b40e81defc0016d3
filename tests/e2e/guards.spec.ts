import { expect, test } from '../helpers/app-test';

test.describe('guards for visitors who are not logged in', () => {
  for (const [url, login] of [
    ['/account', '/auth/login?from=%2Faccount'],
    ['/account/bookings', '/auth/login?from=%2Faccount%2Fbookings'],
    ['/en/account/profile', '/en/auth/login?from=%2Fen%2Faccount%2Fprofile'],
    ['/de/account/admin/overview', '/de/auth/login?from=%2Fde%2Faccount%2Fadmin%2Foverview'],
  ] as const) {
    test(`${url} -> ${login}`, async ({ page }) => {
      await page.goto(url);
      await expect(page).toHaveURL(new RegExp(`${login.replace(/[?]/g, '\\?')}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(url.startsWith('/en') ? 'Log in' : 'Anmelden');
    });
  }

  test('no drawer button for visitors', async ({ page }) => {
    await page.goto('/start');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menü öffnen' })).toHaveCount(0);
  });
});

test.describe('a logged-in customer', () => {
  test.use({ persona: 'customer' });

  test('sees the account, is sent from /auth to /account (not from reset-password), gets 404 in the back office and no drawer', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mein Konto');
    await expect(page.getByText('Angemeldet als kunde@hafen.test')).toBeVisible();
    await page.goto('/en/auth/login');
    await expect(page).toHaveURL(/\/en\/account$/);
    await page.goto('/auth/register');
    await expect(page).toHaveURL(/\/account$/);
    await page.goto('/auth/reset-password');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Neues Passwort');
    await page.goto('/account/admin/overview');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
    await expect(page.getByRole('button', { name: 'Menü öffnen' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('staff', () => {
  test.describe('admin', () => {
    test.use({ persona: 'admin' });
    test('gets the drawer with the harbour-team block and the admin block', async ({ page }) => {
      await page.goto('/account/admin/overview');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Übersicht');
      await page.getByRole('button', { name: 'Menü öffnen' }).click();
      const team = page.getByRole('navigation', { name: 'Hafenteam' });
      for (const name of ['Übersicht', 'Kalender', 'Bestellungen', 'Neue Buchung', 'Posteingang', 'Hafenplan', 'Arbeitsstunden']) {
        await expect(team.getByRole('link', { name, exact: true })).toBeVisible();
      }
      const admin = page.getByRole('navigation', { name: 'Admin' });
      for (const name of ['Liegeplätze', 'News', 'Benutzer', 'Codes', 'Einstellungen', 'Berichte']) {
        await expect(admin.getByRole('link', { name, exact: true })).toBeVisible();
      }
    });
  });

  test.describe('harbour staff', () => {
    test.use({ persona: 'harbour' });
    test('gets the harbour-team block only', async ({ page }) => {
      await page.goto('/en/start');
      await page.getByRole('button', { name: 'Open menu' }).click();
      const team = page.getByRole('navigation', { name: 'Harbour team' });
      for (const name of ['Overview', 'Calendar', 'Orders', 'New booking', 'Inbox', 'Harbour map', 'Working hours'])
        await expect(team.getByRole('link', { name, exact: true })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
      await team.getByRole('link', { name: 'Overview' }).click();
      await expect(page).toHaveURL(/\/en\/account\/admin\/overview$/);
    });
  });
});

test.describe('login form', () => {
  test("honours an internal 'from' and ignores an external one", async ({ page }) => {
    await page.goto('/service/wifi');
    await page.goto('/auth/login?from=%2Fservice%2Fwifi');
    const form = page.getByRole('form', { name: 'Anmelden' });
    await form.getByLabel('E-Mail').fill('kunde@hafen.test');
    await form.getByLabel('Passwort').fill('falsch');
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page.getByText('Anmeldung fehlgeschlagen. Bitte prüfen Sie E-Mail-Adresse und Passwort.')).toBeVisible();
    await form.getByLabel('Passwort').fill('Kunde1234');
    await form.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL(/\/service\/wifi$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('WLAN');

    await page.evaluate(() => localStorage.clear());
    await page.goto('/en/auth/login?from=https%3A%2F%2Fevil.example%2F');
    const en = page.getByRole('form', { name: 'Log in' });
    await en.getByLabel('E-mail').fill('kunde@hafen.test');
    await en.getByLabel('Password').fill('Kunde1234');
    await en.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/en\/account$/);
  });
});

test("after login the profile's language applies when this device has no choice yet", async ({ page }) => {
  await page.goto('/auth/login');
  const form = page.getByRole('form', { name: 'Anmelden' });
  await form.getByLabel('E-Mail').fill('jan.devries@hafen.test');
  await form.getByLabel('Passwort').fill('Kunde1234');
  await form.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
});
