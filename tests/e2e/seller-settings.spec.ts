/**
 * The harbour's invoice details on the settings page (issue 21): an admin changes phone, tax
 * number, IBAN and BIC (a wrong IBAN check digit and a malformed BIC are refused with a clear
 * message), and a receipt issued afterwards at the desk carries the new details. Each test puts
 * the seeded values back, so the e-invoice tests find the seller they expect.
 */
import { expect, test } from '../helpers/app-test';
import { clientAs } from './admin-content-helpers.ts';

const seeded = { phone: '+49 211 1234560', tax_number: '133/8150/8159', iban: 'DE02120300000000202051', bic: 'BYLADEM1001' };

async function restore() {
  const admin = await clientAs('admin');
  const { error } = await admin.rpc('save_invoice_seller_settings', { p_settings: seeded });
  if (error) throw new Error(error.message);
}

test.describe.configure({ mode: 'serial' });

test.describe('seller settings on new invoices', () => {
  test.use({ persona: 'admin' });
  test.setTimeout(120_000);
  test.afterEach(restore);

  test('de: bad IBAN and BIC refused; new details appear on the next receipt', async ({ page, consoleErrors }) => {
    await page.goto('/account/admin/settings');
    const section = page.getByRole('region', { name: 'Rechnungsangaben des Hafens' });
    await expect(section.getByLabel('IBAN')).toHaveValue(seeded.iban);
    await section.getByLabel('IBAN').fill('DE02 1203 0000 0000 2020 52');
    await section.getByLabel('BIC').fill('BYLA1');
    await section.getByRole('button', { name: 'Rechnungsangaben speichern' }).click();
    await expect(section.getByText('Diese IBAN ist nicht gültig (Prüfziffer oder Länge stimmen nicht)')).toBeVisible();
    await expect(section.getByText('Eine BIC hat 8 oder 11 Zeichen, z. B. BYLADEM1001')).toBeVisible();
    // The database refuses the same IBAN whoever calls.
    const admin = await clientAs('admin');
    const refused = await admin.rpc('save_invoice_seller_settings', { p_settings: { iban: 'DE02120300000000202052' } });
    expect(refused.error?.message).toBe('invoice_invalid_setting');
    expect(refused.error?.hint).toBe('iban');

    await section.getByLabel('IBAN').fill('GB82 WEST 1234 5698 7654 32');
    await section.getByLabel('BIC').fill('WESTGB2L');
    await section.getByLabel('Telefon').fill('+49 211 987654');
    await section.getByLabel('Steuernummer').fill('103/5555/1234');
    await section.getByRole('button', { name: 'Rechnungsangaben speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Gespeichert.');

    await page.goto('/account/admin/desk-sale');
    await page.getByLabel('Menge Eis 2 kg').fill('1');
    await page.getByRole('radio', { name: 'Kartenterminal' }).click();
    await page.getByRole('button', { name: 'Verkaufen und Beleg ausstellen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Beleg RE-\d{4}-\d{5}$/);
    await expect(page.getByTestId('invoice-iban')).toHaveText('GB82WEST12345698765432');
    await expect(page.getByTestId('invoice-bic')).toHaveText('WESTGB2L');
    await expect(page.getByTestId('invoice-phone')).toHaveText('+49 211 987654');
    await expect(page.getByTestId('invoice-tax-number')).toHaveText('103/5555/1234');
    expect(consoleErrors).toEqual([]);
  });

  test('en: the form in English; the new phone on the next receipt', async ({ page }) => {
    await page.goto('/en/account/admin/settings');
    const section = page.getByRole('region', { name: "The harbour's invoice details" });
    await section.getByLabel('IBAN').fill('DE0212030000000020205');
    await section.getByLabel('Country (code)').fill('Germany');
    await section.getByRole('button', { name: 'Save invoice details' }).click();
    await expect(section.getByText('This IBAN is not valid (check digits or length are wrong)')).toBeVisible();
    await expect(section.getByText('Please enter the two-letter country code, e.g. DE')).toBeVisible();
    await section.getByLabel('IBAN').fill(seeded.iban);
    await section.getByLabel('Country (code)').fill('de');
    await section.getByLabel('Phone').fill('+49 211 555000');
    await section.getByRole('button', { name: 'Save invoice details' }).click();
    await expect(section.getByRole('status')).toHaveText('Saved.');

    await page.goto('/en/account/admin/desk-sale');
    await page.getByLabel('Quantity Ice 5 kg').fill('1');
    await page.getByRole('radio', { name: 'Card terminal' }).click();
    await page.getByRole('button', { name: 'Sell and issue receipt' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Receipt RE-\d{4}-\d{5}$/);
    await expect(page.getByTestId('invoice-phone')).toHaveText('+49 211 555000');
    await expect(page.getByTestId('invoice-iban')).toHaveText(seeded.iban);
  });
});
