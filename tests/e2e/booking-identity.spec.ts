import { expect as baseExpect, test } from '../helpers/app-test';
import {
  berlinDay,
  chooseFirstBerth,
  confirmBooking,
  fillBerthData,
  proceedAsGuest,
  readCode,
  uniqueEmail,
  words,
} from './booking-helpers';

// Whole journeys on a 2-core machine shared with other suites: generous time limits.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

test.describe('booking: the identity paths of step 3', () => {
  test('a new customer registers inside the flow (code, then password) and can log in with that password elsewhere', async ({
    page,
    browser,
  }) => {
    const w = words('de');
    const email = uniqueEmail('neu');
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(50), departure: berlinDay(53), length: '10,5', width: '3,6', boat: 'Neuling' });
    await chooseFirstBerth(page, 'de');
    await page.getByRole('radio', { name: /^Neukunde/ }).click();
    const form = page.getByRole('form', { name: 'Neukunde' });
    await form.getByLabel('E-Mail').fill(email);
    await form.getByLabel('Vorname').fill('Nora');
    await form.getByLabel('Nachname').fill('Neu');
    await form.getByLabel('Passwort', { exact: true }).fill('segeln');
    await form.getByLabel('Passwort wiederholen').fill('segeln');
    await form.getByRole('button', { name: 'Weiter' }).click();
    await expect(form.getByText('Das Passwort braucht Klein- und Großbuchstaben und Ziffern')).toBeVisible();
    await form.getByLabel('Passwort', { exact: true }).fill('Segeln2026');
    await form.getByLabel('Passwort wiederholen').fill('Segeln2026');
    const since = new Date(Date.now() - 1000).toISOString();
    await form.getByRole('button', { name: 'Weiter' }).click();
    await page.getByLabel(w.code).fill(await readCode(email, since));
    await page.getByRole('button', { name: w.confirmCode, exact: true }).click();
    await expect(page.getByLabel('Nachname')).toHaveValue('Neu');
    await confirmBooking(page, 'de');
    await expect(page.getByText('Bestätigt', { exact: true })).toBeVisible();

    const other = await browser.newContext();
    const page2 = await other.newPage();
    await page2.goto('/de/auth/login');
    const login = page2.getByRole('form', { name: 'Anmelden' });
    await login.getByLabel('E-Mail').fill(email);
    await login.getByLabel('Passwort').fill('Segeln2026');
    await login.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page2).toHaveURL(/\/de\/account/);
    await other.close();
  });

  test('a customer logs in with the password at step 3 (English), books, and cancels before arrival', async ({ page }) => {
    await page.goto('/en/start/booking');
    await fillBerthData(page, 'en', { arrival: berlinDay(55), departure: berlinDay(57), length: '14,6', width: '4,4', boat: 'Vrijheid' });
    await chooseFirstBerth(page, 'en');
    await page.getByRole('radio', { name: /^Log in/ }).click();
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('E-mail').fill('jan.devries@hafen.test');
    await form.getByLabel('Password').fill('wrong-Password1');
    await form.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(form.getByRole('alert')).toContainText('Please check your e-mail address and password');
    await form.getByLabel('Password').fill('Kunde1234');
    await form.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Step 5: Summary' })).toBeVisible();
    await expect(page.getByLabel('Last name')).toHaveValue('de Vries');
    const id = await confirmBooking(page, 'en');
    await page.goto(`/en/order/${id}`);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel booking' }).click();
    await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
    // The page says plainly what became of it, and the thank-you is gone even on the result page.
    await expect(page.getByTestId('order-outcome')).toContainText(
      /^This booking was cancelled on .+\. The berth is free again\. There is nothing to pay\./,
    );
    await expect(page.getByTestId('order-outcome').getByRole('link', { name: 'New booking' })).toBeVisible();
    await page.goto(`/en/start/booking/result/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your booking');
    await expect(page.getByText('Thank you for your booking')).toHaveCount(0);
    await expect(page.getByTestId('booking-number')).toHaveText(/^Booking number HD-\d{2}-[2-9A-HJKMNP-TV-Z]{4}$/);
  });

  test("'save my data' keeps the person form on this device for the next booking", async ({ page }) => {
    const w = words('de');
    const email = uniqueEmail('merken');
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(47), departure: berlinDay(48), length: '6', width: '2,5', boat: 'Merkur' });
    await chooseFirstBerth(page, 'de');
    await proceedAsGuest(page, 'de', { email, first: 'Mia', last: 'Merken' });
    await page.getByRole('button', { name: w.skip }).click();
    await page.getByLabel('Telefon (optional)').fill('+49 211 555000');
    await page.getByLabel('Ort (optional)').fill('Neuss');
    await page.getByRole('checkbox', { name: 'Meine Daten auf diesem Gerät speichern' }).click();
    await confirmBooking(page, 'de');

    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(47), departure: berlinDay(48), length: '6', width: '2,5', boat: 'Merkur' });
    await chooseFirstBerth(page, 'de');
    // The guest session of the first booking still exists: step 3 starts with the stored data.
    await expect(page.getByRole('form', { name: 'Als Gast buchen' }).getByLabel('E-Mail')).toHaveValue(email);
    await page.getByRole('form', { name: 'Als Gast buchen' }).getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: w.skip }).click();
    await expect(page.getByLabel('Telefon (optional)')).toHaveValue('+49 211 555000');
    await expect(page.getByLabel('Ort (optional)')).toHaveValue('Neuss');
    // The data comes back, but the consent to keep it is asked again, never ticked in advance
    // (DSGVO Art. 7, Art. 25(2); issue 40 item 11).
    await expect(page.getByRole('checkbox', { name: 'Meine Daten auf diesem Gerät speichern' })).not.toBeChecked();
  });
});
