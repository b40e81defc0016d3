/**
 * Frozen invoice documents (issue 21; supabase/schemas/35b_invoice_documents.sql): staff move an
 * invoiced booking to another berth and find the cancellation invoice and the new invoice on the
 * order page, each rendered from the stored document (the old invoice and its cancellation keep
 * the old berth); the same documents in English; the guest's order page lists them too. Screenshots
 * at 390 and 1280 px go to reports/screenshots/.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { personas } from '../helpers/personas.ts';
import { berlinDay, euro } from './booking-helpers.ts';
import { rest, rpc, staffToken } from './rest-helpers.ts';

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

interface Doc {
  id: string;
  invoice_number: string;
  kind: string;
  refers_to_number: string | null;
  gross_cents: number;
  lines: { description: string }[];
}
const documents = async (orderId: string, token: string) =>
  (
    await rest<Doc[]>(
      `invoices?order_id=eq.${orderId}&select=id,invoice_number,kind,refers_to_number,gross_cents,lines&order=number`,
      token,
    )
  ).data;

/** Staff book a small boat (with a full address, in the seeded customer's account) on a free berth and take the money at the desk. */
async function paidBooking(
  token: string,
  boat: string,
  arrival: string,
  departure: string,
): Promise<{ id: string; place: string; price: number }> {
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
        p_person: {
          first_name: 'Ines',
          last_name: `Beleg ${run}`,
          email: personas.customer.email,
          street: 'Rheinufer 7',
          postal_code: '40213',
          city: 'Düsseldorf',
        },
      },
      token,
    );
    if (res.status !== 200) continue;
    expect((await rpc('record_desk_payment', { p_order_id: res.data.id, p_method: 'cash' }, token)).status).toBe(200);
    return { id: res.data.id, place: place.name, price: res.data.price_cents };
  }
  throw new Error('no free berth');
}

async function moveViaApi(token: string, orderId: string): Promise<string> {
  const targets = await rpc<{ place_id: string; name: string }[]>('order_move_targets', { p_order_id: orderId }, token);
  expect(targets.status, JSON.stringify(targets.data)).toBe(200);
  const target = targets.data[0]!;
  expect((await rpc('move_booking', { p_order_id: orderId, p_place_id: target.place_id }, token)).status).toBe(200);
  return target.name;
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `reports/screenshots/invoice-documents-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe('invoice documents for staff', () => {
  test.use({ persona: 'harbour' });
  // Several pages, two screenshots each and a PDF on a shared machine.
  test.setTimeout(120_000);

  test('staff move an invoiced booking (de): cancellation and new invoice, each from the stored document', async ({
    page,
    consoleErrors,
  }) => {
    const token = await staffToken();
    const order = await paidBooking(token, `Umzug ${run}`, berlinDay(50), berlinDay(52));
    const [first] = await documents(order.id, token);
    expect(first).toMatchObject({ kind: 'invoice', gross_cents: order.price });

    await page.goto(`/account/admin/orders/${order.id}`);
    const list = page.getByRole('list', { name: 'Belege' });
    await expect(list.getByTestId('document-row')).toHaveCount(1);
    await expect(list.getByRole('link', { name: `Rechnung ${first!.invoice_number}` })).toBeVisible();

    // Move through the page's move section.
    const move = page.getByRole('region', { name: 'Umlegen' });
    const select = move.getByLabel('Neuer Liegeplatz');
    await expect(select.locator('option').nth(1)).toBeAttached();
    const target = (
      await select
        .locator('option')
        .evaluateAll((els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent ?? '' })))
    ).find((o) => o.value)!;
    const newPlace = target.text.split(' (')[0]!;
    await select.selectOption(target.value);
    await move.getByRole('button', { name: 'Umlegen' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Umlegen', exact: true }).click();
    await expect(page.getByTestId('order-place')).toHaveText(newPlace);

    // The order page lists all three documents: the old invoice, its cancellation, the new invoice.
    await expect(list.getByTestId('document-row')).toHaveCount(3);
    const docs = await documents(order.id, token);
    expect(docs.map((d) => [d.kind, d.gross_cents, d.refers_to_number])).toEqual([
      ['invoice', order.price, null],
      ['cancellation', -order.price, first!.invoice_number],
      ['invoice', order.price, null],
    ]);
    const [, storno, reissued] = docs;
    const number = (n: string) => Number(n.slice(-5));
    // Each its own, later number (other tests issue numbers meanwhile: gaplessness is pgTAP 350's).
    expect(number(storno!.invoice_number)).toBeGreaterThan(number(first!.invoice_number));
    expect(number(reissued!.invoice_number)).toBeGreaterThan(number(storno!.invoice_number));
    await expect(list.getByTestId('document-row').nth(1)).toContainText(euro(-order.price, 'de'));
    await expect(list.getByTestId('document-row').nth(1)).toContainText(`zu ${first!.invoice_number}`);
    await expect(page.getByTestId('invoice-number')).toHaveText(reissued!.invoice_number);
    expect(await seriousViolations(page)).toEqual([]);

    // The old invoice still shows the old berth.
    await list.getByRole('link', { name: `Rechnung ${first!.invoice_number}` }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rechnung ${first!.invoice_number}`);
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet.getByTestId('invoice-line').first()).toContainText(`Liegegebühr Liegeplatz ${order.place}, Boot 5 m`);
    await expect(sheet.getByLabel('Rechnungsempfänger')).toContainText(`Ines Beleg ${run}`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(order.price, 'de'));
    await page.getByRole('link', { name: 'Zur Buchung' }).click();

    // The cancellation: its own number, negative amounts, referring to the original, the old berth.
    await list.getByRole('link', { name: `Stornorechnung ${storno!.invoice_number}` }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Stornorechnung ${storno!.invoice_number}`);
    await expect(sheet.getByTestId('invoice-title')).toHaveText('Stornorechnung');
    await expect(sheet.getByTestId('invoice-refers-to')).toHaveText(first!.invoice_number);
    await expect(sheet).toContainText(`Diese Stornorechnung hebt den Beleg ${first!.invoice_number} vollständig auf`);
    await expect(sheet.getByTestId('invoice-line').first()).toContainText(`Liegeplatz ${order.place}`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(-order.price, 'de'));
    await expect(sheet).toContainText('zzgl. 19 % USt.');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'cancellation-de');
    // Printing shows the sheet alone.
    await page.emulateMedia({ media: 'print' });
    await expect(sheet.getByTestId('invoice-gross')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Drucken' })).toBeHidden();
    await expect(page.getByRole('banner').first()).toBeHidden();
    // What the printer gets, at A4's CSS width.
    await page.setViewportSize({ width: 794, height: 1123 });
    await page.screenshot({ path: 'reports/screenshots/invoice-documents-cancellation-de-print.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.pdf({ path: 'reports/screenshots/invoice-documents-cancellation-de.pdf', format: 'A4' });
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('link', { name: 'Zur Buchung' }).click();

    // The new invoice names the new berth; "Rechnung drucken" opens it.
    await page.getByRole('link', { name: 'Rechnung drucken' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rechnung ${reissued!.invoice_number}`);
    await expect(sheet.getByTestId('invoice-line').first()).toContainText(`Liegegebühr Liegeplatz ${newPlace}, Boot 5 m`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(order.price, 'de'));
    await shoot(page, 'invoice-de');
    expect(consoleErrors).toEqual([]);
  });

  test('the documents in English', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const order = await paidBooking(token, `Move ${run}`, berlinDay(53), berlinDay(54));
    const newPlace = await moveViaApi(token, order.id);
    const [first, storno, reissued] = await documents(order.id, token);
    expect([first?.kind, storno?.kind, reissued?.kind]).toEqual(['invoice', 'cancellation', 'invoice']);

    await page.goto(`/en/account/admin/orders/${order.id}`);
    const list = page.getByRole('list', { name: 'Documents' });
    await expect(list.getByTestId('document-row')).toHaveCount(3);
    await list.getByRole('link', { name: `Cancellation invoice ${storno!.invoice_number}` }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Cancellation invoice ${storno!.invoice_number}`);
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet).toContainText(`This cancellation invoice cancels document ${first!.invoice_number} in full`);
    await expect(sheet.getByTestId('invoice-line').first()).toContainText(`Berth fee, berth ${order.place}, boat 5 m`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(-order.price, 'en'));
    await expect(sheet).toContainText('plus 19 % VAT');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'cancellation-en');
    await page.goto(`/en/account/admin/orders/${order.id}/documents/${reissued!.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Invoice ${reissued!.invoice_number}`);
    await expect(sheet.getByTestId('invoice-line').first()).toContainText(`Berth fee, berth ${newPlace}, boat 5 m`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(order.price, 'en'));
    // A document of another order is not shown under this one.
    await page.goto(`/en/account/admin/orders/${order.id}/documents/00000000-0000-4000-8000-000000000000`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Document not found');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('invoice documents for the guest', () => {
  test.use({ persona: 'customer' });
  test.setTimeout(90_000);

  test("the guest's order page lists the documents and opens each as stored", async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const order = await paidBooking(token, `Gastbeleg ${run}`, berlinDay(55), berlinDay(56));
    const newPlace = await moveViaApi(token, order.id);
    const [first, storno, reissued] = await documents(order.id, token);

    await page.goto(`/account/bookings/${order.id}`);
    const list = page.getByRole('list', { name: 'Belege' });
    await expect(list.getByTestId('document-row')).toHaveCount(3);
    await expect(list.getByTestId('document-row').nth(1)).toContainText(euro(-order.price, 'de'));
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'guest-order-de');
    await list.getByRole('link', { name: `Rechnung ${first!.invoice_number}` }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rechnung ${first!.invoice_number}`);
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet.getByTestId('invoice-line').first()).toContainText(`Liegeplatz ${order.place}`);
    await page.getByRole('link', { name: 'Zur Buchung' }).click();
    await expect(page.getByRole('list', { name: 'Belege' })).toBeVisible();
    await page.goto(`/order/${order.id}/documents/${reissued!.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rechnung ${reissued!.invoice_number}`);
    await expect(sheet.getByTestId('invoice-line').first()).toContainText(`Liegeplatz ${newPlace}`);
    expect(storno!.refers_to_number).toBe(first!.invoice_number);
    expect(consoleErrors).toEqual([]);
  });
});
