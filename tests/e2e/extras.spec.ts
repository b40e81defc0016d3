/**
 * Extras (issue 21 item 3; supabase/schemas/55_extras.sql): staff sell extras at the desk without
 * a booking and print the stored receipt (a Kleinbetragsrechnung; cash lands in the cash book);
 * staff add an extra to an invoiced booking on its order page and find it on the new invoice
 * (the old one cancelled); a deposit shows as a 0 % line; admins keep the catalogue and bad input
 * is refused in the form. German and English. Screenshots at 390 and 1280 px go to
 * reports/screenshots/.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { berlinDay, euro } from './booking-helpers.ts';
import { rest, rpc, staffToken } from './rest-helpers.ts';

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

interface Doc {
  id: string;
  invoice_number: string;
  kind: string;
  gross_cents: number;
  desk_sale_id: string | null;
}
const documents = async (orderId: string, token: string) =>
  (await rest<Doc[]>(`invoices?order_id=eq.${orderId}&select=id,invoice_number,kind,gross_cents,desk_sale_id&order=number`, token)).data;

/** Staff book a small boat (full address) on a free berth and take the money at the desk. */
async function paidBooking(token: string, boat: string, arrival: string, departure: string): Promise<{ id: string; price: number }> {
  const free = await rpc<{ place_id: string; name: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 5, p_boat_width: 2 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(0, 10)) {
    const res = await rpc<{ id: string; price_cents: number }>(
      'staff_create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: boat, length: 5, width: 2 },
        p_person: { first_name: 'Erik', last_name: `Extra ${run}`, street: 'Rheinufer 9', postal_code: '40213', city: 'Düsseldorf' },
      },
      token,
    );
    if (res.status !== 200) continue;
    expect((await rpc('record_desk_payment', { p_order_id: res.data.id, p_method: 'cash' }, token)).status).toBe(200);
    return { id: res.data.id, price: res.data.price_cents };
  }
  throw new Error('no free berth');
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `reports/screenshots/extras-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe('extras for the harbour team', () => {
  test.use({ persona: 'harbour' });
  test.setTimeout(120_000);

  test('staff sell ice and a washing machine load at the desk (de) and print the receipt', async ({ page, consoleErrors }) => {
    await page.goto('/account/admin/desk-sale');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verkauf am Hafenbüro');
    // Deposits are not sold at the desk.
    await expect(page.getByTestId('desk-item')).toHaveCount(4, { timeout: 20_000 });
    // Nothing typed: the form says so, nothing is sold.
    await page.getByRole('button', { name: 'Verkaufen und Beleg ausstellen' }).click();
    await expect(page.getByText('Bitte bei mindestens einem Extra eine Menge eintragen.')).toBeVisible();
    await page.getByLabel('Menge Eis 2 kg').fill('abc');
    await page.getByRole('button', { name: 'Verkaufen und Beleg ausstellen' }).click();
    await expect(page.getByText('Eine ganze Zahl von 0 bis 99.')).toBeVisible();
    await page.getByLabel('Menge Eis 2 kg').fill('2');
    await page.getByLabel('Menge Waschmaschine').fill('1');
    await expect(page.getByTestId('desk-total')).toHaveText(euro(1100, 'de'));
    await page.getByRole('radio', { name: 'Bar' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'desk-sale-de');
    await page.getByRole('button', { name: 'Verkaufen und Beleg ausstellen' }).click();

    // The receipt as stored: its number, the lines, VAT per rate out of the gross prices, no buyer.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Beleg RE-\d{4}-\d{5}$/);
    const number = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('Beleg ', '');
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet.getByTestId('invoice-number')).toHaveText(number);
    await expect(sheet.getByTestId('invoice-line')).toHaveCount(2);
    // In the catalogue's order.
    await expect(sheet.getByTestId('invoice-line').nth(0)).toContainText('Waschmaschine');
    await expect(sheet.getByTestId('invoice-line').nth(0)).toContainText('1 Waschgang');
    await expect(sheet.getByTestId('invoice-line').nth(1)).toContainText('Eis 2 kg');
    await expect(sheet.getByTestId('invoice-line').nth(1)).toContainText('2 Stück');
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(1100, 'de'));
    await expect(sheet.getByTestId('invoice-vat')).toHaveText(euro(119, 'de'));
    await expect(sheet.getByTestId('invoice-small-amount')).toContainText('Kleinbetragsrechnung');
    await expect(sheet).toContainText('zzgl. 7 % USt.');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'receipt-de');
    // Printing shows the sheet alone.
    await page.emulateMedia({ media: 'print' });
    await expect(sheet.getByTestId('invoice-gross')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Drucken' })).toBeHidden();
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.screenshot({ path: 'reports/screenshots/extras-receipt-de-print.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ media: 'screen' });

    // The cash sale is in the cash book, under its receipt number.
    const token = await staffToken();
    const receipt = (
      await rest<Doc[]>(`invoices?invoice_number=eq.${number}&select=id,invoice_number,kind,gross_cents,desk_sale_id`, token)
    ).data[0]!;
    expect(receipt).toMatchObject({ kind: 'invoice', gross_cents: 1100 });
    const entries = (
      await rest<{ amount_cents: number; source_kind: string; reason: string }[]>(
        `cash_book_entries?source_id=eq.${receipt.desk_sale_id}&select=amount_cents,source_kind,reason`,
        token,
      )
    ).data;
    expect(entries).toEqual([{ amount_cents: 1100, source_kind: 'desk_sale', reason: `Barverkauf ${number}` }]);
    // The page lists it among the recent receipts.
    await page.getByRole('link', { name: 'Neuer Verkauf' }).click();
    await expect(page.getByRole('list', { name: 'Letzte Belege' }).getByRole('link', { name: number })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('a desk sale in English, by card', async ({ page, consoleErrors }) => {
    await page.goto('/en/account/admin/desk-sale');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Desk sale');
    // Issue 40 item 13: at 1280 px a "from" price's field sits right of its item, under its
    // visible label (it was placed left of the item's name).
    await page.setViewportSize({ width: 1280, height: 900 });
    const lift = page.getByTestId('desk-item').filter({ hasText: 'Boat lift' });
    const name = await lift.getByText('Boat lift', { exact: true }).boundingBox();
    const label = await lift.getByText('Price (€)', { exact: true }).boundingBox();
    const field = await lift.getByRole('textbox', { name: 'Price per Day for Boat lift' }).boundingBox();
    expect(field!.x).toBeGreaterThanOrEqual(name!.x + name!.width);
    expect(label!.y + label!.height).toBeLessThanOrEqual(field!.y);
    expect(Math.abs(label!.x - field!.x)).toBeLessThan(2);
    await page.getByLabel('Quantity Ice 5 kg').fill('1');
    await page.getByRole('radio', { name: 'Card terminal' }).click();
    await page.getByRole('button', { name: 'Sell and issue receipt' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Receipt RE-\d{4}-\d{5}$/);
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet.getByTestId('invoice-line')).toContainText('Ice 5 kg');
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(500, 'en'));
    await expect(sheet).toContainText('plus 7 % VAT');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'receipt-en');
    expect(consoleErrors).toEqual([]);
  });

  test('staff add a washing machine load to an invoiced booking (de) and see it on the new invoice', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const order = await paidBooking(token, `Wasch ${run}`, berlinDay(60), berlinDay(61));
    const [first] = await documents(order.id, token);

    await page.goto(`/account/admin/orders/${order.id}`);
    const section = page.getByRole('region', { name: 'Extras' });
    // The section loads after the order (a shared machine can be slow).
    await expect(section.getByText('Noch keine Extras an dieser Buchung.')).toBeVisible({ timeout: 20_000 });
    await expect(section.getByRole('option', { name: 'Waschmaschine – 5,00 € / Waschgang' })).toBeAttached({ timeout: 20_000 });
    const form = section.getByRole('form', { name: 'Extra hinzufügen' });
    // Bad input is refused in the form.
    await form.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(form.getByText('Pflichtfeld')).toBeVisible();
    await form.getByLabel('Extra').selectOption({ label: 'Waschmaschine – 5,00 € / Waschgang' });
    await form.getByLabel('Menge').fill('100');
    await form.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(form.getByText('Eine ganze Zahl von 1 bis 99.')).toBeVisible();
    await form.getByLabel('Menge').fill('2');
    await form.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(section.getByRole('status')).toHaveText('2 × Waschmaschine hinzugefügt.');
    await expect(section.getByTestId('order-extra')).toHaveCount(1);
    await expect(section.getByTestId('order-extra')).toContainText('2 Waschgänge · Waschmaschine');
    await expect(section.getByTestId('order-extra')).toContainText(euro(1000, 'de'));

    // The invoice was cancelled and reissued with the extra.
    const list = page.getByRole('list', { name: 'Belege' });
    await expect(list.getByTestId('document-row')).toHaveCount(3);
    const docs = await documents(order.id, token);
    expect(docs.map((d) => [d.kind, d.gross_cents])).toEqual([
      ['invoice', order.price],
      ['cancellation', -order.price],
      ['invoice', order.price + 1000],
    ]);
    // The guest owes the extra.
    await expect(page.getByTestId('outstanding')).toHaveText(euro(1000, 'de'));
    expect(await seriousViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'order-de');

    await page.getByRole('link', { name: 'Rechnung drucken' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rechnung ${docs[2]!.invoice_number}`);
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet.getByTestId('invoice-line').nth(2)).toContainText('Waschmaschine');
    await expect(sheet.getByTestId('invoice-line').nth(2)).toContainText('2 Waschgänge');
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(order.price + 1000, 'de'));
    expect(docs[2]!.invoice_number).not.toBe(first!.invoice_number);
    await shoot(page, 'invoice-de');
    expect(consoleErrors).toEqual([]);
  });

  test('a cooler deposit in English: a 0 % line on the invoice', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const order = await paidBooking(token, `Cooler ${run}`, berlinDay(62), berlinDay(63));
    await page.goto(`/en/account/admin/orders/${order.id}`);
    const section = page.getByRole('region', { name: 'Extras' });
    const form = section.getByRole('form', { name: 'Add extra' });
    await expect(form.getByRole('option', { name: 'Cooler deposit – €20.00 / pc.' })).toBeAttached({ timeout: 20_000 });
    await form.getByLabel('Extra').selectOption({ label: 'Cooler deposit – €20.00 / pc.' });
    await form.getByRole('button', { name: 'Add' }).click();
    await expect(section.getByRole('status')).toHaveText('1 × Cooler deposit added.');
    await expect(section.getByTestId('order-extra')).toContainText('deposit, 0 % VAT');
    await expect(page.getByRole('list', { name: 'Documents' }).getByTestId('document-row')).toHaveCount(3);
    await page.getByRole('link', { name: 'Print invoice' }).click();
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet.getByTestId('invoice-line').nth(2)).toContainText('Cooler deposit (deposit, not taxable)');
    await expect(sheet.getByTestId('invoice-line').nth(2)).toContainText('0 %');
    await expect(sheet).toContainText(`plus 0 % VAT on ${euro(2000, 'en')}`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(order.price + 2000, 'en'));
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'deposit-invoice-en');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('the catalogue for admins', () => {
  test.use({ persona: 'admin' });
  test.setTimeout(90_000);

  test('admins see the price list and the form checks their input (de, en)', async ({ page, consoleErrors }) => {
    await page.goto('/account/admin/extras');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Preise und Extras');
    // The berth tariffs of the one price list (issue 40), gross with their rate; the form checks the price.
    const tariffs = page.getByRole('list', { name: 'Liegeplatz-Tarife' });
    await expect(tariffs.getByTestId('tariff-entry').filter({ hasText: 'Übernachtung, pro laufendem Meter' })).toContainText(
      '2,38 € pro Meter und Nacht · inkl. 19 % USt.',
    );
    await expect(tariffs.getByTestId('tariff-entry').filter({ hasText: 'Nebenkosten' })).toContainText(
      '11,90 € pro Nacht · inkl. 19 % USt.',
    );
    await tariffs.getByRole('button', { name: 'Übernachtung, pro laufendem Meter und Nacht bearbeiten' }).click();
    const tariffDialog = page.getByRole('dialog');
    await tariffDialog.getByLabel('Preis brutto (€)').fill('0');
    await tariffDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(tariffDialog.getByText('Betrag in Euro von 0,01 bis 1.000, z. B. 2,38')).toBeVisible();
    await tariffDialog.getByRole('button', { name: 'Abbrechen' }).click();
    const list = page.getByRole('list', { name: 'Katalog' });
    await expect(list.getByTestId('catalogue-entry').filter({ hasText: 'Waschmaschine' })).toContainText('5,00 € / Waschgang');
    await expect(list.getByTestId('catalogue-entry').filter({ hasText: 'Bootskran' })).toContainText('ab 100,00 € / Tag');
    await expect(list.getByTestId('catalogue-entry').filter({ hasText: 'Kühlbox-Pfand' })).toContainText('Pfand, 0 % USt.');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'catalogue-de');
    await page.getByRole('button', { name: 'Neues Extra' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Code').fill('Bad Code');
    await dialog.getByLabel('Preis brutto (€)').fill('12,345');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('2–40 Zeichen: Kleinbuchstaben, Ziffern, Unterstrich.')).toBeVisible();
    await expect(dialog.getByText('Betrag in Euro, z. B. 12,50 (höchstens 10.000 €)')).toBeVisible();
    await expect(dialog.getByText('Pflichtfeld').first()).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: 'reports/screenshots/extras-catalogue-form-de-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();

    await page.goto('/en/account/admin/extras');
    await expect(
      page.getByRole('list', { name: 'Catalogue' }).getByTestId('catalogue-entry').filter({ hasText: 'Ice 2 kg' }),
    ).toContainText('€3.00 / pc. · incl. 7 % VAT');
    await shoot(page, 'catalogue-en');
    expect(consoleErrors).toEqual([]);
  });
});
