/**
 * Cancelling a desk sale and returning deposits (issue 21, session 11; supabase/schemas/56_deposits.sql, 57_desk_sales.sql):
 * staff sell an extra at the desk, cancel it with a reason and see the Stornorechnung (its own
 * number, negative amounts, referring to the receipt, PDF from invoice-pdf) and the money going
 * back: cash as a refund entry in the cash book, card beside it. A deposit taken back mails the
 * guest in their language what went back, how and when (mail catcher); a deposit paid online
 * goes back to the guest's card through Stripe (refund-payment), and the dialog says so; when
 * that refund did not happen (Stripe not reached after the deposit was taken back), the order
 * page says so and staff request it again. German and English.
 */
import type { Page } from '@playwright/test';
import { expect, journeyIn, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { personas } from '../helpers/personas.ts';
import { berlinDay, euro, personaToken, uniqueEmail } from './booking-helpers.ts';
import { rest, rpc, staffToken } from './rest-helpers.ts';
import { bookViaApi, cards, payViaApi, waitForMail } from './payment-helpers.ts';

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

const extraId = async (token: string, code: string) =>
  (await rest<{ id: string }[]>(`extras?code=eq.${code}&select=id`, token)).data[0]!.id;

interface Doc {
  id: string;
  invoice_number: string;
  kind: string;
  gross_cents: number;
  desk_sale_id: string;
  refers_to_number: string | null;
}
const docByNumber = async (token: string, number: string) =>
  (await rest<Doc[]>(`invoices?invoice_number=eq.${number}&select=id,invoice_number,kind,gross_cents,desk_sale_id,refers_to_number`, token))
    .data[0]!;

/** Sells on the desk-sale page and answers the receipt's number. */
async function sell(page: Page, locale: 'de' | 'en', quantities: Record<string, string>, method: string): Promise<string> {
  await page.goto(locale === 'en' ? '/en/account/admin/desk-sale' : '/account/admin/desk-sale');
  await expect(page.getByTestId('desk-item')).toHaveCount(4, { timeout: 20_000 });
  for (const [label, q] of Object.entries(quantities)) await page.getByLabel(label).fill(q);
  await page.getByRole('radio', { name: method }).click();
  await page.getByRole('button', { name: locale === 'en' ? 'Sell and issue receipt' : 'Verkaufen und Beleg ausstellen' }).click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(locale === 'en' ? /^Receipt RE-\d{4}-\d{5}$/ : /^Beleg RE-\d{4}-\d{5}$/);
  return (await heading.textContent())!.replace(/^(Beleg|Receipt) /, '');
}

/** A booking by staff with the guest's e-mail and language, a cooler deposit on it, all paid in cash. */
async function bookingWithDeposit(token: string, email: string, locale: 'de' | 'en', day: number): Promise<string> {
  const arrival = berlinDay(day);
  const departure = berlinDay(day + 1);
  const free = await rpc<{ place_id: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 5, p_boat_width: 2 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(0, 10)) {
    const res = await rpc<{ id: string }>(
      'staff_create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: `Pfand ${run}`, length: 5, width: 2 },
        p_person: { first_name: 'Petra', last_name: `Pfand ${run}`, email, locale },
      },
      token,
    );
    if (res.status !== 200) continue;
    expect(
      (await rpc('add_order_extra', { p_order_id: res.data.id, p_extra_id: await extraId(token, 'cooler_deposit'), p_quantity: 1 }, token))
        .status,
    ).toBe(200);
    expect((await rpc('record_desk_payment', { p_order_id: res.data.id, p_method: 'cash' }, token)).status).toBe(200);
    return res.data.id;
  }
  throw new Error('no free berth');
}

test.describe('desk sale cancellation and deposit returns', () => {
  test.use({ persona: 'harbour' });
  test.setTimeout(150_000);

  test('German: a cash sale cancelled, the Stornorechnung shown and printed, the refund in the cash book', async ({
    page,
    consoleErrors,
  }) => {
    const number = await sell(page, 'de', { 'Menge Eis 2 kg': '2', 'Menge Waschmaschine': '1' }, 'Bar');
    const token = await staffToken();
    const receipt = await docByNumber(token, number);

    await page.getByRole('button', { name: 'Verkauf stornieren' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Verkauf stornieren?' });
    await expect(dialog).toContainText(`${euro(1100, 'de')} gehen zurück: bar aus der Kasse`);
    // A reason is required.
    await dialog.getByRole('button', { name: 'Stornorechnung ausstellen' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Bitte einen Grund für die Stornierung angeben.');
    await dialog.getByLabel('Grund').fill('Falscher Artikel');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Stornorechnung ausstellen' }).click();

    // The Stornorechnung: its own number, negative amounts, referring to the receipt.
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^Stornorechnung RE-\d{4}-\d{5}$/);
    const stornoNumber = (await heading.textContent())!.replace('Stornorechnung ', '');
    expect(stornoNumber).not.toBe(number);
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet).toHaveAttribute('data-kind', 'cancellation');
    await expect(sheet).toContainText(`hebt den Beleg ${number} vollständig auf`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(-1100, 'de'));
    await expect(sheet.getByTestId('invoice-vat')).toHaveText(euro(-119, 'de'));
    const storno = await docByNumber(token, stornoNumber);
    expect(storno).toMatchObject({
      kind: 'cancellation',
      gross_cents: -1100,
      desk_sale_id: receipt.desk_sale_id,
      refers_to_number: number,
    });
    expect(Number(stornoNumber.slice(-5))).toBeGreaterThan(Number(number.slice(-5)));
    // Its PDF, rendered by invoice-pdf.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF herunterladen' }).click();
    expect((await download).suggestedFilename()).toMatch(new RegExp(`${stornoNumber}.*\\.pdf$`));
    await page.screenshot({ path: 'reports/screenshots/desk-storno-de-1280.png', fullPage: true });

    // The receipt is unchanged and says it was cancelled; it cannot be cancelled twice.
    await page.getByRole('link', { name: `Zum Beleg ${number}` }).click();
    await expect(heading).toHaveText(`Beleg ${number}`);
    await expect(page.locator('#invoice-sheet').getByTestId('invoice-gross')).toHaveText(euro(1100, 'de'));
    await expect(page.getByTestId('desk-sale-cancelled')).toContainText('(Falscher Artikel)');
    await expect(page.getByTestId('desk-sale-cancelled')).toContainText(`Stornorechnung ${stornoNumber}`);
    await expect(page.getByRole('button', { name: 'Verkauf stornieren' })).toHaveCount(0);
    expect((await rpc('cancel_desk_sale', { p_receipt_id: receipt.id, p_reason: 'nochmal' }, token)).data).toMatchObject({
      message: 'desk_sale_cancelled',
    });
    expect((await docByNumber(token, number)).gross_cents).toBe(1100);

    // The cash went out of the till: a refund entry in the cash book, on the open day (today, or
    // the next day when today's Kassenbericht is already closed, e.g. by another spec).
    const booked = (
      await rest<{ business_day: string }[]>(
        'cash_book_entries?select=business_day&source_kind=eq.desk_sale_cancel&amount_cents=eq.-1100&order=entry_no.desc&limit=1',
        token,
      )
    ).data;
    expect(booked).toHaveLength(1);
    await page.goto(`/account/admin/cash?day=${booked[0]!.business_day}`);
    const entry = page.getByTestId('cash-entry').filter({ hasText: `Storno Barverkauf ${number} (${stornoNumber}): Falscher Artikel` });
    await expect(entry).toHaveAttribute('data-kind', 'refund', { timeout: 20_000 });
    await expect(entry).toContainText(euro(1100, 'de'));
    const entries = (
      await rest<{ amount_cents: number; balance_cents: number }[]>(
        'cash_book_entries?select=amount_cents,balance_cents&order=entry_no',
        token,
      )
    ).data;
    expect(entries.at(-1)!.balance_cents).toBe(entries.reduce((s, e) => s + e.amount_cents, 0));
    expect(consoleErrors).toEqual([]);
  });

  test('English: a card sale cancelled, the refund listed beside the cash book', async ({ page, consoleErrors }) => {
    const number = await sell(page, 'en', { 'Quantity Ice 5 kg': '1' }, 'Card terminal');
    await page.getByRole('button', { name: 'Cancel sale' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this sale?' });
    await expect(dialog).toContainText('to the card at the card terminal (listed beside the cash book)');
    await dialog.getByLabel('Reason').fill('Guest changed their mind');
    await dialog.getByRole('button', { name: 'Issue the cancellation invoice' }).click();
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^Cancellation invoice RE-\d{4}-\d{5}$/);
    const stornoNumber = (await heading.textContent())!.replace('Cancellation invoice ', '');
    await expect(page.locator('#invoice-sheet').getByTestId('invoice-gross')).toHaveText(euro(-500, 'en'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: 'reports/screenshots/desk-storno-en-1280.png', fullPage: true });
    // Recent receipts list both.
    await page.getByRole('link', { name: 'New sale' }).click();
    const recent = page.getByRole('list', { name: 'Recent receipts' });
    await expect(recent.getByRole('link', { name: number, exact: true })).toBeVisible();
    await expect(recent.getByRole('link', { name: `Cancellation invoice ${stornoNumber}` })).toBeVisible();

    // Not in the till: beside the book, under the card terminal, as a refund.
    await page.goto('/en/account/admin/cash');
    const card = page.getByTestId('others-card_terminal');
    const sale = card.getByTestId('other-payment').filter({ hasText: `Desk sale ${number}` });
    const refund = card.getByTestId('other-payment').filter({ hasText: `Desk sale ${stornoNumber}` });
    await expect(sale).toContainText(euro(500, 'en'), { timeout: 20_000 });
    await expect(refund).toContainText('Refund');
    await expect(refund).toContainText(euro(-500, 'en'));
    await expect(page.getByTestId('cash-entry').filter({ hasText: number })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  for (const locale of ['de', 'en'] as const) {
    if (journeyIn(locale, 'en'))
      test(`a deposit returned in cash mails the guest (${locale})`, async ({ page, consoleErrors }) => {
        const token = await staffToken();
        const email = uniqueEmail(`pfand-${locale}`);
        const orderId = await bookingWithDeposit(token, email, locale, locale === 'de' ? 70 : 71);
        const since = new Date(Date.now() - 2_000).toISOString();
        await page.goto(locale === 'en' ? `/en/account/admin/orders/${orderId}` : `/account/admin/orders/${orderId}`);
        const section = page.getByRole('region', { name: 'Extras' });
        await section.getByRole('button', { name: locale === 'en' ? 'Return deposit' : 'Pfand zurück' }).click({ timeout: 20_000 });
        const dialog = page.getByRole('alertdialog');
        await expect(dialog).toContainText(
          locale === 'en' ? 'The guest gets an e-mail about it.' : 'Der Gast bekommt eine E-Mail darüber.',
        );
        // Paid at the desk: no card refund offered.
        await expect(dialog.getByTestId('deposit-online-note')).toHaveCount(0);
        await dialog.getByRole('button', { name: locale === 'en' ? 'Pay back in cash' : 'Bar zurückzahlen' }).click();
        await expect(section.getByRole('status')).toHaveText(locale === 'en' ? 'Deposit returned.' : 'Pfand zurückgegeben.');
        const mail = await waitForMail(
          email,
          since,
          locale === 'en' ? /^Deposit returned: EUR 20\.00, booking / : /^Pfand zurückgegeben: 20,00 €, Buchung /,
        );
        expect(mail.text).toContain(
          locale === 'en'
            ? 'you have returned 1 × Cooler deposit. Your deposit of EUR 20.00 goes back to you:'
            : 'Sie haben 1 × Kühlbox-Pfand zurückgegeben. Ihr Pfand von 20,00 € geht an Sie zurück:',
        );
        expect(mail.text).toContain(
          locale === 'en' ? 'it was paid out to you in cash at the harbour office.' : 'Es wurde Ihnen im Hafenbüro bar ausgezahlt.',
        );
        expect(mail.text).toMatch(
          locale === 'en' ? /Returned on: \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/ : /Zurückgegeben am: \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} Uhr/,
        );
        expect(consoleErrors).toEqual([]);
      });
  }

  test('a deposit paid online goes back to the card through Stripe (de)', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const order = await bookViaApi(customer, { boat: `Karte ${run}`, day: 72, last: `Karte ${run}` });
    expect(
      (await rpc('add_order_extra', { p_order_id: order.id, p_extra_id: await extraId(token, 'cooler_deposit'), p_quantity: 1 }, token))
        .status,
    ).toBe(200);
    await payViaApi(order.id, customer);
    const since = new Date(Date.now() - 2_000).toISOString();

    await page.goto(`/account/admin/orders/${order.id}`);
    const section = page.getByRole('region', { name: 'Extras' });
    await section.getByRole('button', { name: 'Pfand zurück' }).click({ timeout: 20_000 });
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByTestId('deposit-online-note')).toContainText(
      'geht als Erstattung über Stripe auf die Karte des Gastes zurück',
    );
    await expect(dialog.getByTestId('deposit-online-note')).toContainText('5 bis 10 Tagen');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Auf die Karte erstatten (Stripe)' }).click();
    await expect(section.getByRole('status')).toHaveText('Pfand zurückgegeben: wird über Stripe auf die Karte erstattet.');

    // Stripe's refund event lands in the ledger as a deposit return; the stay stays paid.
    await expect
      .poll(
        async () =>
          (
            await rest<{ method: string; amount_cents: number; deposit_return: boolean }[]>(
              `payments?order_id=eq.${order.id}&kind=eq.refund&select=method,amount_cents,deposit_return`,
              token,
            )
          ).data,
        { timeout: 30_000 },
      )
      .toEqual([{ method: 'online', amount_cents: 2000, deposit_return: true }]);
    expect(
      (await rest<{ payment_status: string }[]>(`orders?id=eq.${order.id}&select=payment_status`, token)).data[0]!.payment_status,
    ).toBe('paid');
    const mail = await waitForMail(personas.customer.email, since, /^Pfand zurückgegeben: 20,00 €/);
    expect(mail.text).toContain('Wir erstatten es auf die Karte, mit der Sie online bezahlt haben (Stripe).');
    // One mail about it: no generic refund notice besides.
    const kinds = (
      await rest<{ kind: string }[]>(`outbox?order_id=eq.${order.id}&kind=in.(refund_notice,deposit_return)&select=kind`, token)
    ).data;
    expect(kinds).toEqual([{ kind: 'deposit_return' }]);
    expect(consoleErrors).toEqual([]);
  });

  test("a deposit refund the guest's bank does not take is paid back by transfer from the order page (de, en)", async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    const token = await staffToken();
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const order = await bookViaApi(customer, { boat: `Bank ${run}`, day: 76, last: `Bank ${run}` });
    const added = await rpc<{ id: string }>(
      'add_order_extra',
      { p_order_id: order.id, p_extra_id: await extraId(token, 'cooler_deposit'), p_quantity: 1 },
      token,
    );
    expect(added.status).toBe(200);
    // Stripe's test card whose refunds succeed, then fail two seconds later.
    await payViaApi(order.id, customer, cards.refundFails);

    await page.goto(`/account/admin/orders/${order.id}`);
    const section = page.getByRole('region', { name: 'Extras' });
    await section.getByRole('button', { name: 'Pfand zurück' }).click({ timeout: 20_000 });
    await page.getByRole('alertdialog').getByRole('button', { name: 'Auf die Karte erstatten (Stripe)' }).click();
    await expect(section.getByRole('status')).toHaveText('Pfand zurückgegeben: wird über Stripe auf die Karte erstattet.');
    // The refund lands, then fails and is booked back: the deposit row and the payments say so (live).
    const due = section.getByTestId('deposit-refund-due');
    await expect(due).toHaveText(
      'Die Bank des Gastes hat die Erstattung von 20,00 € auf die Karte nicht angenommen. Bitte per Überweisung oder bar zurückzahlen.',
      { timeout: 30_000 },
    );
    await expect(page.locator('[data-kind=refund-failed]')).toContainText(
      'Bitte unter „Extras“ mit „Anders zurückzahlen“ per Überweisung oder bar zurückzahlen.',
    );
    await section.screenshot({ path: 'reports/screenshots/deposit-refund-failed-de-390.png' });

    await page.goto(`/en/account/admin/orders/${order.id}`);
    await expect(due).toHaveText(
      "The guest's bank did not accept the refund of €20.00 to the card. Please pay it back by transfer or in cash.",
      { timeout: 20_000 },
    );
    expect(await seriousViolations(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await section.screenshot({ path: `reports/screenshots/deposit-refund-failed-en-${width}.png` });
    }
    const since = new Date(Date.now() - 2_000).toISOString();
    await section.getByRole('button', { name: 'Pay back another way' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Pay the deposit back another way?' });
    await expect(dialog).toContainText('Cooler deposit (€20.00) goes back by transfer or in cash.');
    await dialog.screenshot({ path: 'reports/screenshots/deposit-repay-dialog-en-1280.png' });
    await dialog.getByRole('button', { name: 'By bank transfer' }).click();
    await expect(section.getByRole('status')).toHaveText('Deposit paid back by transfer.');
    await expect(due).toHaveCount(0);
    await expect(section.getByRole('button', { name: 'Pay back another way' })).toHaveCount(0);

    // The ledger: a deposit return by transfer naming the deposit; the stay stays paid.
    const refunds = await rest<{ method: string; amount_cents: number; deposit_return: boolean; order_extra_id: string | null }[]>(
      `payments?order_id=eq.${order.id}&kind=eq.refund&select=method,amount_cents,deposit_return,order_extra_id&order=recorded_at`,
      token,
    );
    expect(refunds.data).toEqual([
      { method: 'online', amount_cents: 2000, deposit_return: true, order_extra_id: added.data.id },
      { method: 'bank_transfer', amount_cents: 2000, deposit_return: true, order_extra_id: added.data.id },
    ]);
    expect(
      (await rest<{ payment_status: string }[]>(`orders?id=eq.${order.id}&select=payment_status`, token)).data[0]!.payment_status,
    ).toBe('paid');
    const mail = await waitForMail(personas.customer.email, since, /^Pfand zurückgegeben: 20,00 €/);
    expect(mail.text).toContain('Wir überweisen es Ihnen.');
    expect(consoleErrors).toEqual([]);
  });

  test('a deposit refund Stripe did not make is requested again from the order page (en)', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const order = await bookViaApi(customer, { boat: `Retry ${run}`, day: 73, last: `Retry ${run}` });
    const added = await rpc<{ id: string }>(
      'add_order_extra',
      { p_order_id: order.id, p_extra_id: await extraId(token, 'cooler_deposit'), p_quantity: 1 },
      token,
    );
    expect(added.status).toBe(200);
    await payViaApi(order.id, customer);
    // refund-payment's first step, as when Stripe then could not be reached: the deposit is taken
    // back (no longer billed, the guest mailed), its money still held.
    const first = await rpc<{ back_cents: number; attempt: number; retry: boolean }>(
      'prepare_deposit_refund',
      { p_order_extra_id: added.data.id },
      token,
    );
    expect(first.status, JSON.stringify(first.data)).toBe(200);
    expect(first.data).toMatchObject({ back_cents: 2000, attempt: 0, retry: false });

    await page.goto(`/en/account/admin/orders/${order.id}`);
    const section = page.getByRole('region', { name: 'Extras' });
    const due = section.getByTestId('deposit-refund-due');
    await expect(due).toHaveText('Stripe has not yet confirmed the refund of €20.00 to the card.', { timeout: 20_000 });
    await expect(section.getByTestId('order-extra')).toContainText('returned');
    // Taken back once: no second "Return deposit" for it.
    await expect(section.getByRole('button', { name: 'Return deposit' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await section.screenshot({ path: `reports/screenshots/deposit-refund-due-en-${width}.png` });
    }
    await section.getByRole('button', { name: 'Request the refund again' }).click();
    await expect(section.getByRole('status')).toHaveText('Refund requested from Stripe again.');

    // Stripe's refund event lands in the ledger as this deposit's return; the note goes (live).
    await expect
      .poll(
        async () =>
          (
            await rest<{ method: string; amount_cents: number; deposit_return: boolean; order_extra_id: string }[]>(
              `payments?order_id=eq.${order.id}&kind=eq.refund&select=method,amount_cents,deposit_return,order_extra_id`,
              token,
            )
          ).data,
        { timeout: 30_000 },
      )
      .toEqual([{ method: 'online', amount_cents: 2000, deposit_return: true, order_extra_id: added.data.id }]);
    await expect(due).toHaveCount(0, { timeout: 20_000 });
    await expect(section.getByRole('button', { name: 'Request the refund again' })).toHaveCount(0);
    // A further request is refused by the database: it went back once.
    const again = await rpc<{ message: string }>('prepare_deposit_refund', { p_order_extra_id: added.data.id }, token);
    expect(again.status).toBe(400);
    expect(again.data.message).toBe('order_extra_closed');
    // The guest was mailed once, when the deposit was taken back.
    const kinds = (
      await rest<{ kind: string }[]>(`outbox?order_id=eq.${order.id}&kind=in.(refund_notice,deposit_return)&select=kind`, token)
    ).data;
    expect(kinds).toEqual([{ kind: 'deposit_return' }]);
    expect(consoleErrors).toEqual([]);
  });
});
