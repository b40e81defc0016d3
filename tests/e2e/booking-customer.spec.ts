import { expect as baseExpect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import {
  apiUrl,
  berlinDay,
  chooseFirstBerth,
  confirmBooking,
  euro,
  fillBerthData,
  login,
  personaToken,
  quote,
  words,
} from './booking-helpers';

// Whole journeys on a 2-core machine shared with other suites: generous time limits.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

test.describe('booking as a logged-in customer', () => {
  test('a customer books a day stay in English; the price equals quote_booking to the cent', async ({ page }) => {
    await login(page, 'kunde@hafen.test', 'Kunde1234', 'en');
    const day = berlinDay(31);
    await page.goto('/en/start/booking');
    // The boat comes from the profile.
    await expect(page.getByLabel('Boat name', { exact: true })).toHaveValue('Rheinperle');
    await fillBerthData(page, 'en', { kind: 'day', arrival: day, from: '10:00', until: '13:00' });
    const expected = await quote({ p_kind: 'day', p_arrival: day, p_boat_length: 9.4, p_day_start: '10:00', p_day_end: '13:00' });
    expect(expected.gross_cents).toBe(1190); // 10 running metres x EUR 1.00 + 19 % VAT
    const berth = await chooseFirstBerth(page, 'en');
    // Logged in: straight to the summary, the person form filled from the profile.
    await expect(page.getByRole('heading', { name: 'Step 5: Summary' })).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveValue('Klaus');
    await expect(page.getByLabel('Phone (optional)')).toHaveValue('+49 172 5550101');
    await expect(page.getByTestId('price-gross')).toHaveText(euro(expected.gross_cents, 'en'));
    await expect(page.getByText('10:00', { exact: false }).first()).toBeVisible();
    const orderId = await confirmBooking(page, 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your booking');
    await expect(page.getByText('Confirmed', { exact: true })).toBeVisible();
    await expect(page.getByText(berth, { exact: true })).toBeVisible();
    await expect(page.getByText('Day berth', { exact: true })).toBeVisible();
    await expect(page.getByTestId('price-gross')).toHaveText(euro(expected.gross_cents, 'en'));
    // The order keeps the language it was booked in, and its confirmation is in it (Klaus's profile says German).
    const adminToken = await personaToken('admin@hafen.test', 'Admin1234');
    const res = await fetch(`${apiUrl}/rest/v1/outbox?order_id=eq.${orderId}&select=kind,locale,subject`, {
      headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${adminToken}` },
    });
    expect(await res.json()).toEqual([
      { kind: 'booking_confirmation', locale: 'en', subject: baseExpect.stringMatching(/^Your booking at Hafen Düsseldorf/) },
    ]);
  });

  test('another customer books an overnight stay with a sale code; the price equals quote_booking with that code', async ({ page }) => {
    await login(page, 'lisa.meyer@hafen.test', 'Kunde1234', 'de');
    const arrival = berlinDay(34);
    const departure = berlinDay(36);
    await page.goto('/de/start/booking');
    await expect(page.getByLabel('Bootsname', { exact: true })).toHaveValue('Lotte');
    await fillBerthData(page, 'de', { arrival, departure });
    await chooseFirstBerth(page, 'de');
    const token = await personaToken('lisa.meyer@hafen.test', 'Kunde1234');
    const params = { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 7.2 };
    const plain = await quote(params, token);
    const withCode = await quote({ ...params, p_sale_code: 'RHEIN5' }, token);
    expect(withCode.gross_cents).toBeLessThan(plain.gross_cents);
    await expect(page.getByTestId('price-gross')).toHaveText(euro(plain.gross_cents, 'de'));
    await page.getByLabel('Aktionscode (optional)').fill('rhein5');
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await expect(page.getByText('Aktionscode RHEIN5 ist berücksichtigt.')).toBeVisible();
    await expect(page.getByTestId('price-gross')).toHaveText(euro(withCode.gross_cents, 'de'));
    await confirmBooking(page, 'de');
    await expect(page.getByText('Bestätigt', { exact: true })).toBeVisible();
    await expect(page.getByTestId('price-gross')).toHaveText(euro(withCode.gross_cents, 'de'));
    await expect(page.getByText('RHEIN5', { exact: true })).toBeVisible();
  });

  test('a code typed and booked at once is applied first (quote_booking); the second press books at that price', async ({ page }) => {
    // create_booking takes a code only after the session quoted it (20261122003200): the page
    // must quote a typed code before booking with it, also without "Einlösen".
    await login(page, 'anna.schmidt@hafen.test', 'Kunde1234', 'de');
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(43), departure: berlinDay(45) });
    await chooseFirstBerth(page, 'de');
    const plain = await page.getByTestId('price-gross').textContent();
    await page.getByLabel('Aktionscode (optional)').fill('rhein5');
    await page.getByRole('checkbox', { name: words('de').terms }).click();
    await page.getByRole('button', { name: 'Verbindlich buchen' }).click();
    await expect(page.getByText('Aktionscode RHEIN5 ist berücksichtigt.')).toBeVisible();
    await expect(page.getByTestId('price-gross')).not.toHaveText(plain!);
    const discounted = await page.getByTestId('price-gross').textContent();
    await expect(page).toHaveURL(/\/start\/booking(\?|$)/);
    await page.getByRole('button', { name: 'Verbindlich buchen' }).click();
    await expect(page).toHaveURL(/\/start\/booking\/result\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('price-gross')).toHaveText(discounted!);
    await expect(page.getByText('RHEIN5', { exact: true })).toBeVisible();
  });

  test('a wrong sale code is refused with a message', async ({ page }) => {
    await login(page, 'anna.schmidt@hafen.test', 'Kunde1234', 'de');
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(40), departure: berlinDay(41) });
    await chooseFirstBerth(page, 'de');
    await page.getByLabel('Aktionscode (optional)').fill('GIBTSNICHT');
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await expect(page.getByText('Dieser Aktionscode ist nicht gültig.')).toBeVisible();
  });
});
