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
