/**
 * Accounts (issue 10): the account overview's next booking, my bookings (newest start first),
 * a booking's page and check-in inside the account area, for the seeded customers.
 */
import { test, expect } from '../helpers/app-test';
const berlinDate = (iso: string | number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
/** Today + offset days in Berlin (no per-run shift: the seed's stays are relative to today). */
const berlinDay = (offset: number) => berlinDate(Date.now() + offset * 86_400_000);

test.describe('seeded customer (de)', () => {
  test.use({ persona: 'customer' });

  test('account shows the next booking; my bookings newest start first; check-in today, a future booking refuses', async ({ page }) => {
    await page.goto('/de/account');
    const next = page.getByRole('region', { name: 'Nächste Buchung' });
    await expect(next.getByTestId('booking')).toHaveCount(1);
    await expect(next.getByTestId('booking')).toContainText('Liegeplatz B05');

    await page.goto('/de/account/bookings');
    const rows = page.getByTestId('booking');
    await expect(rows.first()).toBeVisible();
    const starts = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-starts-at') ?? ''));
    expect(starts.length).toBeGreaterThanOrEqual(3);
    expect([...starts].sort((a, b) => new Date(b).getTime() - new Date(a).getTime())).toEqual(starts);
    await expect(rows.filter({ hasText: 'Liegeplatz B06' })).toHaveCount(1);

    // The seeded B05 stay 21 days ahead: its page, and its check-in refuses until the arrival day.
    const future = starts.findIndex((s) => berlinDate(s) === berlinDay(21));
    expect(future).toBeGreaterThanOrEqual(0);
    await rows.nth(future).getByRole('link', { name: 'Details' }).click();
    await expect(page).toHaveURL(/\/de\/account\/bookings\/[0-9a-f-]{36}$/);
    await expect(page.getByText('B05').first()).toBeVisible();
    await page.goto(`${page.url()}/check-in`);
    await expect(page.getByText(/Einchecken können Sie am Anreisetag, /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Jetzt einchecken' })).toHaveCount(0);

    // Today's seeded B05 stay: check in from the account area.
    await page.goto('/de/account/bookings');
    const today = starts.findIndex((s) => berlinDate(s) === berlinDay(0));
    expect(today).toBeGreaterThanOrEqual(0);
    const row = page.getByTestId('booking').nth(today);
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
    const starts = await page.getByTestId('booking').evaluateAll((els) => els.map((e) => e.getAttribute('data-starts-at') ?? ''));
    expect(starts.length).toBeGreaterThanOrEqual(3);
    expect([...starts].sort((a, b) => new Date(b).getTime() - new Date(a).getTime())).toEqual(starts);
  });
});
