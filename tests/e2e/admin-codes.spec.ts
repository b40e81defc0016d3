import { expect as baseExpect, test } from '../helpers/app-test';
import { personas } from '../helpers/personas.ts';
import {
  berlinDay,
  chooseFirstBerth,
  confirmBooking,
  euro,
  fillBerthData,
  personaToken,
  proceedAsGuest,
  quote,
  uniqueEmail,
  words,
} from './booking-helpers.ts';
import { clientAs } from './admin-content-helpers.ts';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

test.describe('sale codes', () => {
  test('an admin creates a code through the confirmation dialog; a guest then books with it at the price quote_booking gives, to the cent', async ({
    page,
    browser,
  }) => {
    const code = `HAFEN${Date.now().toString(36).toUpperCase()}`;
    const admin = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const adminPage = await admin.newPage();
    const { loginAs } = await import('../helpers/personas.ts');
    await loginAs(adminPage, 'admin');
    await adminPage.goto('/de/account/admin/sale-codes');
    await expect(adminPage.getByRole('table', { name: 'Codes' }).getByRole('columnheader')).toHaveText([
      'Code',
      'Art',
      'Nebenkosten pro Nacht',
      'Aktionen',
    ]);
    await adminPage.getByRole('link', { name: 'Code erstellen' }).click();
    await expect(adminPage.getByRole('heading', { level: 1 })).toHaveText('Code erstellen');

    // Bad input: clear messages, nothing sent.
    await adminPage.getByLabel('Code', { exact: true }).fill('mit leer');
    await adminPage.getByLabel('Nebenkosten pro Nacht (Euro)').fill('-3');
    await adminPage.getByRole('button', { name: 'Speichern' }).click();
    await expect(adminPage.getByText('Nur Buchstaben A–Z, Ziffern, - und _')).toBeVisible();
    await expect(adminPage.getByText('Bitte einen Betrag zwischen 0 und 1000 Euro angeben, z. B. 5,00')).toBeVisible();
    // A code that exists already (in other case) is refused by the database, said in German.
    await adminPage.getByLabel('Code', { exact: true }).fill('rhein5');
    await adminPage.getByLabel('Nebenkosten pro Nacht (Euro)').fill('2,5');
    await adminPage.getByRole('button', { name: 'Speichern' }).click();
    await adminPage.getByRole('alertdialog', { name: 'Code erstellen' }).getByRole('button', { name: 'Erstellen' }).click();
    await expect(adminPage.getByText('Diesen Code gibt es schon (Groß- und Kleinschreibung zählt nicht).')).toBeVisible();

    await adminPage.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
    await expect(adminPage.getByText('Nebenkosten 2,50 € statt 10,00 € pro Nacht')).toBeVisible();
    await adminPage.getByRole('button', { name: 'Speichern' }).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Code erstellen' });
    await expect(dialog).toContainText(`Möchten Sie den Code ${code} wirklich erstellen?`);
    await dialog.getByRole('button', { name: 'Erstellen' }).click();
    await expect(adminPage).toHaveURL(/\/de\/account\/admin\/sale-codes$/);
    const row = adminPage.getByRole('row').filter({ hasText: code });
    await expect(row).toContainText('2,50 €');

    // A guest books with the code.
    const w = words('de');
    const arrival = berlinDay(57);
    const departure = berlinDay(60);
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival, departure, length: '7,3', width: '2,5', boat: 'Rabatta' });
    await chooseFirstBerth(page, 'de');
    await proceedAsGuest(page, 'de', { email: uniqueEmail('code'), first: 'Carla', last: 'Code' });
    await page.getByRole('button', { name: w.skip }).click();
    const token = await personaToken(personas.admin.email, personas.admin.password);
    const full = await quote({ p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 7.3 }, token);
    const reduced = await quote(
      { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 7.3, p_sale_code: code },
      token,
    );
    expect(reduced.sale_code).toBe(code);
    // 3 nights at the code's 2,50 € a night instead of the list's additional costs, both with VAT
    // (a code's value is a gross price per night: ADR 0011).
    expect(full.gross_cents - reduced.gross_cents).toBe(3 * (full.additional_costs_per_night_gross_cents - 250));
    await expect(page.getByTestId('price-gross')).toHaveText(euro(full.gross_cents, 'de'));
    await page.getByLabel('Aktionscode (optional)').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await expect(page.getByText(`Aktionscode ${code} ist berücksichtigt.`)).toBeVisible();
    await expect(page.getByTestId('price-gross')).toHaveText(euro(reduced.gross_cents, 'de'));
    const id = await confirmBooking(page, 'de');
    await expect(page.getByTestId('price-gross')).toHaveText(euro(reduced.gross_cents, 'de'));

    const db = await clientAs('admin');
    const { data: order } = await db.from('orders').select('sale_code, price_cents').eq('id', id).single();
    expect(order).toEqual({ sale_code: code, price_cents: reduced.gross_cents });
    await admin.close();
  });

  test.describe('as admin', () => {
    test.use({ persona: 'admin' });

    test("an admin edits a code's value and deletes it after a confirmation; sale-codes/edit without an id is the create form", async ({
      page,
      consoleErrors,
    }) => {
      const db = await clientAs('admin');
      const code = `EDIT${Date.now().toString(36).toUpperCase()}`;
      const { data: created } = await db.from('sale_codes').insert({ code, value: 500 }).select('id').single();
      await page.goto('/de/account/admin/sale-codes');
      const row = page.getByRole('row').filter({ hasText: code });
      await row.getByRole('link', { name: `${code} bearbeiten` }).click();
      await expect(page).toHaveURL(new RegExp(`/de/account/admin/sale-codes/${created!.id}/edit$`));
      await expect(page.getByLabel('Nebenkosten pro Nacht (Euro)')).toHaveValue('5,00');
      await page.getByLabel('Nebenkosten pro Nacht (Euro)').fill('0');
      await page.getByRole('button', { name: 'Speichern' }).click();
      await expect(page).toHaveURL(/\/de\/account\/admin\/sale-codes$/);
      await expect(row).toContainText('0,00 €');
      expect((await db.from('sale_codes').select('value').eq('id', created!.id).single()).data).toEqual({ value: 0 });

      await row.getByRole('button', { name: `${code} löschen` }).click();
      await page.getByRole('alertdialog', { name: 'Code löschen' }).getByRole('button', { name: 'Löschen' }).click();
      // The dialog closes once the database has answered (while it is open the table is hidden
      // from the accessibility tree, so the row "disappears" at once: not the state to wait for).
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await expect(page.getByText(`Der Code ${code} wurde gelöscht.`)).toBeVisible();
      await expect(row).toHaveCount(0);
      expect((await db.from('sale_codes').select('id').eq('id', created!.id)).data).toEqual([]);

      await page.goto('/en/account/admin/sale-codes/edit');
      await expect(page).toHaveURL(/\/en\/account\/admin\/sale-codes\/create$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create code');
      expect(consoleErrors).toEqual([]);
    });
  });
});
