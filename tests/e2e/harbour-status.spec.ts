/**
 * The harbour status from the Rhine gauge (issue 43 item 1, docs/adr/0053) on the start page and
 * the service page, in de and en: the gauge sandbox plays a rise over mark II with a forecast,
 * the stack's gauge job records it (run now through the test server's control), and both pages
 * say the harbour is closed, with the level and its time; the service page adds what mark II
 * means and the forecast days. On a normal day (open) only the service page shows the status; a
 * staff override shows with its reason until it is ended.
 * Afterwards the river is set back, so the other tests see an open harbour.
 */
import { expect, test } from '../helpers/app-test';
import { calmRiver, river } from './gauge-helpers.ts';
import { rpc, staffToken } from './rest-helpers.ts';

test.describe.configure({ mode: 'serial' });

test.afterAll(async () => {
  await calmRiver();
});

test('a rise over mark II shows the harbour closed on the start and service pages, de and en', async ({ page, consoleErrors }) => {
  await river({
    level_cm: 905,
    trend: 1,
    forecast: [
      { hours: 26, level_cm: 930 },
      { hours: 50, level_cm: 760 },
    ],
    offline: false,
  });

  await page.goto('/de/start');
  const start = page.getByRole('region', { name: 'Hafenstatus' });
  await expect(start.getByText('Hafen geschlossen')).toBeVisible();
  await expect(page.getByTestId('harbour-status-level')).toHaveText(/^Pegel Düsseldorf: 9,05 m, gemessen \d\d\.\d\d\.\d{4}, \d\d:\d\d\.$/);
  await expect(page.getByTestId('harbour-status-forecast')).toHaveCount(0);

  await page.goto('/en/start');
  await expect(page.getByRole('region', { name: 'Harbour status' }).getByText('Harbour closed')).toBeVisible();
  await expect(page.getByTestId('harbour-status-level')).toHaveText(
    /^Düsseldorf gauge: 9\.05 m, measured \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d\.$/,
  );

  await page.goto('/en/service');
  const service = page.getByRole('region', { name: 'Harbour status' });
  await expect(service.getByText('Harbour closed')).toBeVisible();
  await expect(service).toContainText('High water above mark II: shipping on the Rhine is stopped.');
  const days = page.getByTestId('harbour-status-forecast').getByRole('listitem');
  await expect(days).toHaveCount(2);
  await expect(days.nth(0)).toHaveText(/: closed \(up to 9\.30 m\)$/);
  await expect(days.nth(1)).toHaveText(/: restricted \(up to 7\.60 m\)$/);

  await page.goto('/de/service');
  await expect(page.getByTestId('harbour-status-forecast').getByRole('listitem').nth(1)).toHaveText(
    /: eingeschränkt \(höchstens 7,60 m\)$/,
  );
  expect(consoleErrors).toEqual([]);
});

test('below mark I the harbour is open: the service page says so, the start page shows no warning', async ({ page }) => {
  await river({ level_cm: 412, trend: 0, forecast: null, offline: false });
  await page.goto('/de/service');
  await expect(page.getByRole('region', { name: 'Hafenstatus' }).getByText('Hafen offen')).toBeVisible();
  await expect(page.getByTestId('harbour-status-level')).toHaveText(/^Pegel Düsseldorf: 4,12 m, gemessen /);
  await page.goto('/de/start');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Willkommen im Hafen Düsseldorf');
  await expect(page.getByRole('link', { name: 'Jetzt buchen' })).toBeVisible();
  await expect(page.getByTestId('harbour-status')).toHaveCount(0);
});

test('a staff override with a reason shows on the start page until staff end it', async ({ page }) => {
  const token = await staffToken();
  const set = await rpc('set_harbour_status_override', { p_status: 'closed', p_reason: 'Driftwood at the entrance' }, token);
  expect(set.status).toBe(200);
  try {
    await page.goto('/en/start');
    const status = page.getByRole('region', { name: 'Harbour status' });
    await expect(status.getByText('Harbour closed')).toBeVisible();
    await expect(status).toContainText('Set by the harbour: Driftwood at the entrance');
    await expect(page.getByTestId('harbour-status-level')).toHaveText(/^Düsseldorf gauge: 4\.12 m, measured /);
  } finally {
    expect((await rpc<boolean>('end_harbour_status_override', {}, token)).data).toBe(true);
  }
  await page.goto('/en/start');
  await expect(page.getByRole('link', { name: 'Book now' })).toBeVisible();
  await expect(page.getByTestId('harbour-status')).toHaveCount(0);
});
