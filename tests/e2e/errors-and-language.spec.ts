import { expect, test } from '../helpers/app-test';

test.describe('404 page', () => {
  for (const [url, title, text] of [
    ['/no-such-page', '404 Nicht gefunden', 'Diese Seite konnte nicht gefunden werden'],
    ['/de/service/no-such-topic', '404 Nicht gefunden', 'Diese Seite konnte nicht gefunden werden'],
    ['/en/no-such-page', '404 Not Found', 'This page could not be found'],
    ['/en/start/prices/extra', '404 Not Found', 'This page could not be found'],
    ['/fr/start', '404 Nicht gefunden', 'Diese Seite konnte nicht gefunden werden'],
    ['/xx', '404 Nicht gefunden', 'Diese Seite konnte nicht gefunden werden'],
  ] as const) {
    test(`${url} shows '${title}'`, async ({ page, consoleErrors }) => {
      // The server answers 404 (the browser logs that for the page itself; nothing else may be logged).
      expect((await page.goto(url))?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page.getByText(text)).toBeVisible();
      // The shell stays usable: the bottom navigation leads back.
      await expect(page.getByRole('navigation', { name: url.startsWith('/en') ? 'Main navigation' : 'Hauptnavigation' })).toBeVisible();
      expect(
        consoleErrors.filter(
          (e) =>
            !(
              e.startsWith('Failed to load resource: the server responded with a status of 404') &&
              e.endsWith(`@ ${new URL(page.url()).href}`)
            ),
        ),
      ).toEqual([]);
    });
  }
});

test.describe('language', () => {
  test('the switch keeps the page, persists in local storage and a 365-day cookie, and survives a reload', async ({ page, context }) => {
    await page.goto('/service/lift');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bootskran');
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boat lift');
    await expect(page).toHaveURL(/\/service\/lift$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
    const cookie = (await context.cookies()).find((c) => c.name === 'locale');
    expect(cookie?.value).toBe('en');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365.01);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boat lift');
    // A locale prefix in the URL wins over the stored choice.
    await page.goto('/de/service/lift');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bootskran');
  });

  test('on a prefixed URL the switch swaps the prefix and keeps the query', async ({ page }) => {
    await page.goto('/de/auth/login?from=%2Faccount%2Fprofile');
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/en\/auth\/login\?from=%2Faccount%2Fprofile$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
    await page.getByRole('button', { name: 'Deutsch' }).click();
    await expect(page).toHaveURL(/\/de\/auth\/login\?from=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden');
  });
});

test('optional ids: /start/booking/result without an id goes to the booking', async ({ page }) => {
  await page.goto('/en/start/booking/result');
  await expect(page).toHaveURL(/\/en\/start\/booking$/);
  await page.goto('/start/booking/result/4b0f7c1e-0000-4000-8000-000000000001');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihre Buchung');
});

test('PWA: manifest, icons and /sw.js are served', async ({ request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest.theme_color).toBe('#0584bc');
  expect(manifest.start_url).toBe('/start');
  for (const icon of manifest.icons as { src: string }[]) expect((await request.get(icon.src)).status()).toBe(200);
  const sw = await request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(await sw.text()).toContain('index.html');
});
