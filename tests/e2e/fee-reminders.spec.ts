/**
 * Overdue long-term fees (issue 42 item 5, docs/adr/0051-fee-reminders-and-door-code.md), on the
 * demo data of supabase/seeds/440_fee_reminders.sql: Otto Offen's instalment fell due 30 days
 * before the day of seeding (past the 14-day grace period), the first reminder went out 27 days
 * ago. The rule is the database's (pgTAP 440 moves the clock through every day of it); here the
 * holder's page and the office's list show it.
 */
import { test, expect } from '../helpers/app-test';
import { sessionInto } from './account-helpers';

const OTTO = { email: 'otto.offen@hafen.test', password: 'Kunde1234' };

test('de: a holder with a fee overdue past the grace period reads why instead of the door code', async ({ page, consoleErrors }) => {
  await sessionInto(page, OTTO.email, OTTO.password);
  await page.goto('/de/service/door-code');
  await expect(page.getByRole('heading', { level: 1, name: 'Türcode' })).toBeVisible();
  const notice = page.getByTestId('fee-access-hold');
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('heading', { name: 'Türcode und WLAN sind gesperrt' })).toBeVisible();
  await expect(notice).toContainText('seit mehr als 14 Tagen überfällig');
  await expect(notice).toContainText('684,00');
  await expect(notice).toContainText('seit 30 Tagen überfällig');
  await expect(notice).toContainText('IBAN DE02120300000000202051');
  await expect(page.getByTestId('access-codes')).toHaveCount(0);
  await expect(page.getByText('Ihre Zugangsdaten')).toHaveCount(0);
  // the wifi page says the same
  await page.goto('/de/service/wifi');
  await expect(page.getByTestId('fee-access-hold')).toContainText('Türcode und WLAN sind gesperrt');
  expect(consoleErrors).toEqual([]);
});

test.describe('the harbour office (en)', () => {
  test.use({ persona: 'harbour' });

  test('see the overdue fee with its reminder stage, days overdue and the withheld door code', async ({ page, consoleErrors }) => {
    await page.goto('/en/account/admin/fees');
    const section = page.getByTestId('overdue-fees');
    await expect(section.getByRole('heading', { name: 'Overdue berth fees' })).toBeVisible();
    const row = section.locator('tr[data-fee="LV-DEMO-0044"]');
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('rowheader')).toHaveText('Otto Offen');
    await expect(row).toContainText('instalment 2 of 2');
    await expect(row).toContainText('30');
    await expect(row).toContainText('€684.00');
    await expect(row).toContainText(/1st reminder \(/);
    await expect(row).toContainText('blocked');
    expect(consoleErrors).toEqual([]);
  });
});
