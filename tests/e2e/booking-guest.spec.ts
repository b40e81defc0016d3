import { expect as baseExpect, test } from '../helpers/app-test';
import {
  berlinDay,
  chooseFirstBerth,
  confirmBooking,
  euro,
  fillBerthData,
  login,
  proceedAsGuest,
  quote,
  readCode,
  uniqueEmail,
  words,
} from './booking-helpers';

// Whole journeys on a 2-core machine shared with other suites: generous time limits.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

test.describe('booking as a guest', () => {
  test('a guest books an overnight stay end to end in German, with the code from the mail catcher', async ({ page }) => {
    const w = words('de');
    const email = uniqueEmail('gast');
    const arrival = berlinDay(30);
    const departure = berlinDay(32);
    await page.goto('/de/start/booking');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Liegeplatz buchen');
    await expect(page.getByRole('navigation', { name: 'Buchungsschritte' }).locator('[aria-current="step"]')).toContainText(
      'Liegeplatzdaten',
    );

    await fillBerthData(page, 'de', { arrival, departure, length: '8,4', width: '2,9', boat: 'Seeschwalbe' });
    await expect(page.getByRole('navigation', { name: 'Buchungsschritte' }).locator('[aria-current="step"]')).toContainText(
      'Ihr Liegeplatz',
    );
    // Smallest fitting first, each with dimensions, features and the price of quote_booking.
    const expected = await quote({ p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 8.4 });
    const first = page.getByRole('list', { name: w.results }).getByRole('listitem').first();
    await expect(first).toContainText('m lang');
    await expect(first.getByRole('list', { name: 'Ausstattung' })).toContainText('Strom');
    await expect(first.getByTestId('place-price')).toHaveText(euro(expected.gross_cents, 'de'));
    const berth = await chooseFirstBerth(page, 'de');

    const since = await proceedAsGuest(page, 'de', { email, first: 'Greta', last: 'Gast' });
    await expect(page.getByText('verfällt nach 24 Stunden')).toBeVisible();
    await page.getByLabel(w.code).fill(await readCode(email, since));
    await page.getByRole('button', { name: w.confirmCode, exact: true }).click();

    // Step 5: the person form carries step 3's data; the breakdown is quote_booking's.
    await expect(page.getByLabel('Vorname')).toHaveValue('Greta');
    await expect(page.getByLabel('E-Mail')).toHaveValue(email);
    await expect(page.getByTestId('price-gross')).toHaveText(euro(expected.gross_cents, 'de'));
    await expect(page.getByText('MwSt. 19 %')).toBeVisible();
    await page.getByLabel('Ort (optional)').fill('Köln');
    const id = await confirmBooking(page, 'de');

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vielen Dank für Ihre Buchung');
    await expect(page.getByText('Bestätigt', { exact: true })).toBeVisible();
    await expect(page.getByText(berth, { exact: true })).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText('Zahlung offen'); // how to pay: the panel above (once)
    await expect(page.getByTestId('price-gross')).toHaveText(euro(expected.gross_cents, 'de'));
    // The order page shows the same order to its owner.
    await page.goto(`/de/order/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihre Buchung');
    await expect(page.getByRole('button', { name: 'Buchung stornieren' })).toBeVisible();
  });
});

test.describe('a guest who skips the code', () => {
  test('books unverified, confirms with the code on the result page, and later finds the order by code in another browser context', async ({
    page,
    browser,
  }) => {
    const w = words('de');
    const email = uniqueEmail('spaeter');
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(38), departure: berlinDay(39), length: '6,5', width: '2,6', boat: 'Libelle' });
    await chooseFirstBerth(page, 'de');
    const sent = await proceedAsGuest(page, 'de', { email, first: 'Sven', last: 'Später' });
    await expect(page.getByText('verfällt nach 24 Stunden')).toBeVisible();
    await page.getByRole('button', { name: w.skip }).click();
    // Consent is never ticked in advance (issue 40 item 11).
    await expect(page.getByRole('checkbox', { name: 'Meine Daten auf diesem Gerät speichern' })).not.toBeChecked();
    const id = await confirmBooking(page, 'de');
    // The result page asks for the e-mailed code right there, says when the booking lapses and
    // offers no payment before it is confirmed (issue 40 item 9).
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bitte bestätigen Sie Ihre Buchung');
    await expect(page.getByText('Unbestätigt', { exact: true })).toBeVisible();
    await expect(page.getByText(/^Unbestätigt: Die Buchung verfällt am .*, wenn Sie sie nicht vorher bestätigen/)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Online bezahlen' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Code senden' })).toHaveCount(0);
    await page.getByLabel(w.code).fill(await readCode(email, sent));
    await page.getByRole('button', { name: w.confirmCode, exact: true }).click();
    await expect(page.getByText('Bestätigt', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vielen Dank für Ihre Buchung');

    // Another device: nothing to see until the person logs in by code.
    const other = await browser.newContext();
    const page2 = await other.newPage();
    await page2.goto(`/de/order/${id}`);
    await expect(page2.getByText('Diese Buchung ist hier nicht zu sehen.', { exact: false })).toBeVisible();
    const since = new Date(Date.now() - 1000).toISOString();
    await page2.getByLabel('E-Mail').fill(email);
    await page2.getByRole('button', { name: 'Code senden' }).click();
    await page2.getByLabel(w.code).fill(await readCode(email, since));
    await page2.getByRole('button', { name: w.confirmCode, exact: true }).click();
    await expect(page2.getByText('Bestätigt', { exact: true })).toBeVisible();
    await expect(page2.getByText(email, { exact: false }).first()).toBeVisible();
    await other.close();
  });
});

test.describe('check-in', () => {
  test('an unverified guest cannot check in; after verifying by code they check in on the arrival day and see the door code and wifi', async ({
    page,
  }) => {
    const w = words('de');
    const email = uniqueEmail('ankunft');
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(0), departure: berlinDay(1), length: '12,2', width: '3,7', boat: 'Heute da' });
    await chooseFirstBerth(page, 'de');
    await proceedAsGuest(page, 'de', { email, first: 'Hanna', last: 'Heute' });
    await page.getByRole('button', { name: w.skip }).click();
    const id = await confirmBooking(page, 'de');
    // The order offers the check-in on the arrival day.
    await expect(page.getByRole('link', { name: 'Einchecken' })).toHaveAttribute('href', `/de/order/${id}/check-in`);
    await page.goto(`/de/order/${id}/check-in`);
    await expect(page.getByText('Zum Einchecken brauchen wir Ihre bestätigte E-Mail-Adresse.', { exact: false })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Jetzt einchecken' })).toHaveCount(0);
    await expect(page.getByTestId('door-code')).toHaveCount(0);

    const since = new Date(Date.now() - 1000).toISOString();
    await page.getByRole('button', { name: 'Code senden' }).click();
    await page.getByLabel(w.code).fill(await readCode(email, since));
    await page.getByRole('button', { name: w.confirmCode, exact: true }).click();
    await page.getByRole('button', { name: 'Jetzt einchecken' }).click();
    await expect(page.getByTestId('door-code')).toHaveText('4711#');
    await expect(page.getByTestId('wifi-password')).toHaveText('Rheinblick2026');
  });

  test('/order/check-in without an id lists the own orders arriving today', async ({ page }) => {
    // The seed: Klaus Kunde arrives today on B05.
    await login(page, 'kunde@hafen.test', 'Kunde1234', 'de');
    await page.goto('/de/order/check-in');
    const item = page.getByRole('listitem').filter({ hasText: 'Liegeplatz B05, Anreise' });
    await expect(item).toBeVisible();
    await expect(item.getByRole('link', { name: 'Zum Check-in' })).toHaveAttribute('href', /\/de\/order\/[0-9a-f-]{36}\/check-in$/);
  });

  test('check-in before the arrival day says when', async ({ page }) => {
    await login(page, 'kunde@hafen.test', 'Kunde1234', 'de');
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(44), departure: berlinDay(45) });
    await chooseFirstBerth(page, 'de');
    const id = await confirmBooking(page, 'de');
    await page.goto(`/de/order/${id}/check-in`);
    await expect(page.getByText(/Einchecken können Sie am Anreisetag, /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Jetzt einchecken' })).toHaveCount(0);
  });
});
