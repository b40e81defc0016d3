/**
 * The staff side of online payment (issue 20): the payments panel on the order desk records a
 * cash payment (amount in cents, checked), refunds part and then all of an online payment
 * through Stripe (the ledger follows the refund events), and warns when an order was paid
 * twice; the admin sets how each kind of order is paid.
 */
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe.ts';
import { personas } from '../helpers/personas.ts';
import { clientAs } from './admin-content-helpers.ts';
import { berlinDay, chooseFirstBerth, confirmBooking, euro, fillBerthData, personaToken } from './booking-helpers.ts';
import { bookViaApi, cards, payViaApi, paymentStatus, rest, rpc, waitForMail } from './payment-helpers.ts';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

const staffToken = () => personaToken(personas.harbour.email, personas.harbour.password);
const customerToken = () => personaToken(personas.customer.email, personas.customer.password);

/** Staff book a walk-in (paid at the desk by default) on the first free berth. */
async function walkIn(token: string, boat: string, day: number): Promise<{ id: string; price_cents: number }> {
  const free = await rpc<{ place_id: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: berlinDay(day), p_departure: berlinDay(day + 2), p_boat_length: 5, p_boat_width: 2 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(0, 10)) {
    const res = await rpc<{ id: string; price_cents: number }>(
      'staff_create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: berlinDay(day),
        p_departure: berlinDay(day + 2),
        p_boat: { name: boat, length: 5, width: 2 },
        p_person: { first_name: 'Walter', last_name: `Walk-in ${run}` },
      },
      token,
    );
    if (res.status === 200) return res.data;
  }
  throw new Error('no free berth');
}

const panel = (page: Page, name: 'Zahlungen' | 'Payments') => page.getByRole('region', { name, exact: true });

/** Cents as the amount field shows and takes them: 12,50 (de) / 12.50 (en). */
const field = (cents: number, locale: 'de' | 'en') =>
  locale === 'de' ? (cents / 100).toFixed(2).replace('.', ',') : (cents / 100).toFixed(2);

test.describe('payments panel', () => {
  test.use({ persona: 'harbour' });

  test('staff record a cash payment at the desk: amount checked, defaults to what is outstanding, the order is paid (de)', async ({
    page,
    consoleErrors,
  }) => {
    const order = await walkIn(await staffToken(), `Bar ${run}`, 70);
    await page.goto(`/de/account/admin/orders/${order.id}`);
    const payments = panel(page, 'Zahlungen');
    await expect(payments.getByTestId('outstanding')).toHaveText(euro(order.price_cents, 'de'));
    await expect(payments).toContainText('Noch keine Zahlungen erfasst.');

    // Part first, in cash.
    await payments.getByRole('button', { name: 'Zahlung erfassen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Zahlung erfassen' });
    await expect(dialog.getByLabel('Betrag (€)')).toHaveValue(field(order.price_cents, 'de'));
    await dialog.getByRole('radio', { name: 'Bar' }).click();
    await dialog.getByLabel('Betrag (€)').fill('zehn');
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(dialog.getByText('Betrag in Euro, z. B. 12,50')).toBeVisible();
    await dialog.getByLabel('Betrag (€)').fill(field(order.price_cents + 1, 'de'));
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(dialog.getByText(`Höchstens der offene Betrag von ${euro(order.price_cents, 'de')}.`)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Betrag (€)').fill('10');
    await dialog.getByLabel('Notiz (optional)').fill('Anzahlung am Steg');
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(payments.getByRole('status')).toHaveText(`Zahlung von ${euro(1000, 'de')} (Bar) erfasst.`);
    await expect(payments.getByTestId('outstanding')).toHaveText(euro(order.price_cents - 1000, 'de'));
    const history = payments.getByRole('list', { name: 'Zahlungsverlauf' });
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history.getByRole('listitem')).toContainText('Zahlung · Bar');
    await expect(history.getByRole('listitem')).toContainText('erfasst von Heinz Poller');
    await expect(history.getByRole('listitem')).toContainText('Anzahlung am Steg');
    await expect(page.getByTestId('payment-status')).toHaveText('Offen');

    // The rest: the dialog suggests exactly what is still outstanding.
    await payments.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(dialog.getByLabel('Betrag (€)')).toHaveValue(field(order.price_cents - 1000, 'de'));
    await dialog.getByRole('radio', { name: 'Bar' }).click();
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
    await expect(payments.getByTestId('outstanding')).toHaveText(euro(0, 'de'));
    await expect(payments.getByRole('button', { name: 'Zahlung erfassen' })).toHaveCount(0);
    await expect(page.getByTestId('invoice-number')).toBeVisible();
    const ledger = await rest<{ kind: string; method: string; amount_cents: number }[]>(
      `rest/v1/payments?order_id=eq.${order.id}&select=kind,method,amount_cents&order=recorded_at`,
      await staffToken(),
    );
    expect(ledger.data).toEqual([
      { kind: 'payment', method: 'cash', amount_cents: 1000 },
      { kind: 'payment', method: 'cash', amount_cents: order.price_cents - 1000 },
    ]);
    expect(consoleErrors).toEqual([]);
  });

  test('staff refund part, then all, of an online payment through Stripe: partially refunded, then refunded (en)', async ({
    page,
    consoleErrors,
  }) => {
    const customer = await customerToken();
    const order = await bookViaApi(customer, { boat: `Refund ${run}`, day: 72, nights: 2, last: `Refund ${run}` });
    await payViaApi(order.id, customer);
    await page.goto(`/en/account/admin/orders/${order.id}`);
    const payments = panel(page, 'Payments');
    const history = payments.getByRole('list', { name: 'Payment history' });
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history.getByRole('listitem')).toContainText('Payment · Online (card)');
    await expect(history.getByRole('listitem')).toContainText('recorded by Stripe (automatic)');
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');

    // Part: 10.00 back to the card.
    await payments.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    await expect(dialog.getByRole('radio', { name: /Online through Stripe/ })).toBeChecked();
    await expect(dialog.getByLabel('Amount (€)')).toHaveValue(field(order.price_cents, 'en'));
    await dialog.getByLabel('Amount (€)').fill(field(order.price_cents + 1, 'en'));
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(dialog.getByText(`At most ${euro(order.price_cents, 'en')} can be refunded online.`)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Amount (€)').fill('10.00');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(dialog).toHaveCount(0);
    // "Requested" until Stripe's refund event is in the ledger (it may already be).
    await expect(payments.getByRole('status')).toHaveText(
      /^(Refund requested\. It appears in the payment history as soon as Stripe confirms it\.|The refund has gone through and is recorded in the payment history\.)$/,
    );
    await expect(payments.getByRole('status')).toHaveText('The refund has gone through and is recorded in the payment history.');
    await expect(history.getByRole('listitem')).toHaveCount(2);
    const refundRow = history.locator('li[data-kind="refund"]');
    await expect(refundRow).toContainText('Refund · Online (card)');
    await expect(refundRow).toContainText(`for the payment of`);
    await expect(refundRow).toContainText(euro(-1000, 'en'));
    await expect(page.getByTestId('payment-status')).toHaveText('Partially refunded');
    await expect(payments.getByTestId('refunded-total')).toHaveText(euro(1000, 'en'));
    expect(await paymentStatus(order.id, customer)).toBe('partially_refunded');

    // The rest: the dialog suggests what is left; the booking is cancelled, its berth freed.
    await payments.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(dialog.getByLabel('Amount (€)')).toHaveValue(field(order.price_cents - 1000, 'en'));
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(page.getByTestId('payment-status')).toHaveText('Refunded');
    await expect(history.locator('li[data-kind="refund"]')).toHaveCount(2);
    await expect(page.getByText('Cancelled', { exact: true }).first()).toBeVisible();
    await expect(payments.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
    expect(await paymentStatus(order.id, customer)).toBe('refunded');
    expect(consoleErrors).toEqual([]);
  });

  test("a refund the guest's bank does not take (Stripe's card 4000 0000 0000 5126): booked back in the ledger, named in the history, the guest is told; staff refund again (de)", async ({
    page,
    consoleErrors,
  }) => {
    const customer = await customerToken();
    const order = await bookViaApi(customer, { boat: `Rückläufer ${run}`, day: 74, last: `Rückläufer ${run}` });
    await payViaApi(order.id, customer, cards.refundFails);
    const since = new Date().toISOString();
    await page.goto(`/account/admin/orders/${order.id}`);
    const payments = panel(page, 'Zahlungen');
    const history = payments.getByRole('list', { name: 'Zahlungsverlauf' });
    await expect(history.getByRole('listitem')).toHaveCount(1);

    await payments.getByRole('button', { name: 'Erstatten', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Erstatten' });
    await dialog.getByLabel('Betrag (€)').fill('10,00');
    await dialog.getByRole('button', { name: 'Erstattung anfordern' }).click();
    await expect(payments.getByRole('status')).toHaveText('Die Erstattung ist eingegangen und im Zahlungsverlauf erfasst.');
    await expect(page.getByTestId('payment-status')).toHaveText('Teilweise erstattet');
    const refundMail = await waitForMail(personas.customer.email, since, /^Erstattung von 10,00 €: Buchung /);
    // (mail text is wrapped: compare with single spaces)
    expect(refundMail.text?.replace(/\s+/g, ' ')).toContain('10,00 € auf die Karte erstattet');

    // Two seconds later Stripe reports the refund failed: the ledger books it back (live, no reload).
    const reversal = history.locator('li[data-kind="refund-failed"]');
    await expect(reversal).toHaveCount(1);
    await expect(reversal).toContainText('Erstattung fehlgeschlagen · Online (Karte)');
    await expect(reversal).toContainText('Die Bank des Gastes hat die Erstattung vom');
    await expect(reversal).toContainText('Bitte auf anderem Weg erstatten');
    await expect(reversal).toContainText(euro(1000, 'de'));
    await expect(reversal).not.toContainText('reversal');
    await expect(history.locator('li[data-kind="refund"]')).toContainText('Fehlgeschlagen, zurückgebucht am');
    await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
    expect(await paymentStatus(order.id, customer)).toBe('paid');
    await page.reload();
    await expect(page.getByRole('region', { name: 'Verlauf' })).toContainText(
      `Erstattung fehlgeschlagen, zurückgebucht: ${euro(1000, 'de')} (Online (Karte))`,
    );

    // The harbour team's overview lists it under money to pay back.
    await page.goto('/account/admin/overview');
    const owed = page.getByRole('region', { name: 'Geld zurückzuzahlen' });
    const entry = owed.getByRole('listitem').filter({ has: page.locator(`a[href$="/account/admin/orders/${order.id}"]`) });
    await expect(entry).toContainText(`Erstattung fehlgeschlagen: ${euro(1000, 'de')}`);
    await entry.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/account/admin/orders/${order.id}$`));

    // The guest learns the money did not arrive and that the office pays it back another way.
    const failedMail = await waitForMail(personas.customer.email, since, /^Erstattung von 10,00 € fehlgeschlagen: Buchung /);
    expect(failedMail.text?.replace(/\s+/g, ' ')).toContain(
      'die Erstattung von 10,00 € auf die Karte, mit der Sie bezahlt haben, ist leider fehlgeschlagen',
    );
    expect(failedMail.text?.replace(/\s+/g, ' ')).toContain('Das Hafenbüro meldet sich bei Ihnen und zahlt es auf anderem Weg zurück');

    // Staff pay it back at the desk instead: refunded again, for good.
    await payments.getByRole('button', { name: 'Erstatten', exact: true }).click();
    await expect(dialog).toContainText(`Für Zahlungen am Hafenbüro und was Stripe nicht erstatten konnte; höchstens ${euro(1000, 'de')}.`);
    // The card is likely gone: the transfer comes first, with what Stripe could not refund.
    await expect(dialog.getByRole('radio', { name: /Überweisung/ })).toBeChecked();
    await expect(dialog.getByLabel('Betrag (€)')).toHaveValue('10,00');
    await dialog.getByRole('button', { name: 'Erstattung erfassen' }).click();
    await expect(page.getByTestId('payment-status')).toHaveText('Teilweise erstattet');
    await expect(history.locator('li[data-kind="refund"]')).toHaveCount(2);
    expect(await paymentStatus(order.id, customer)).toBe('partially_refunded');
    await page.goto('/account/admin/overview');
    await expect(owed).toBeVisible();
    await expect(owed.locator(`a[href$="/account/admin/orders/${order.id}"]`)).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('a failed refund tried on the card again: Stripe makes a new refund (not the failed one replayed); failed twice, the money is owed once (en)', async ({
    page,
    consoleErrors,
  }) => {
    const customer = await customerToken();
    const order = await bookViaApi(customer, { boat: `Retry ${run}`, day: 77, last: `Retry ${run}` });
    await payViaApi(order.id, customer, cards.refundFails);
    await page.goto(`/en/account/admin/orders/${order.id}`);
    const payments = panel(page, 'Payments');
    const history = payments.getByRole('list', { name: 'Payment history' });
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    const refundOnline = async () => {
      await payments.getByRole('button', { name: 'Refund', exact: true }).click();
      await dialog.getByRole('radio', { name: /Online through Stripe/ }).click();
      await dialog.getByLabel('Amount (€)').fill('10.00');
      await dialog.getByRole('button', { name: 'Request refund' }).click();
      await expect(dialog).toHaveCount(0);
    };
    await refundOnline();
    await expect(history.locator('li[data-kind="refund-failed"]')).toHaveCount(1);

    // The card again, the same 10 €: a second refund reaches the ledger (and fails as well).
    await refundOnline();
    await expect(history.locator('li[data-kind="refund"]')).toHaveCount(2);
    await expect(history.locator('li[data-kind="refund-failed"]')).toHaveCount(2);
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');
    // Both attempts were the same money: the desk may pay 10 €, not 20.
    await payments.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(dialog).toContainText(`For payments at the harbour office and what Stripe could not refund; at most ${euro(1000, 'en')}.`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.goto('/en/account/admin/overview');
    const entry = page
      .getByRole('region', { name: 'Money to pay back' })
      .getByRole('listitem')
      .filter({ has: page.locator(`a[href$="/account/admin/orders/${order.id}"]`) });
    await expect(entry).toContainText(`Refund failed: ${euro(1000, 'en')}`);
    expect(consoleErrors).toEqual([]);
  });

  test('a refund whose answer is lost, clicked again once it is in the ledger, is made once; a new refund of the same amount is made (en)', async ({
    page,
    consoleErrors,
  }) => {
    const customer = await customerToken();
    const order = await bookViaApi(customer, { boat: `Twice ${run}`, day: 79, nights: 2, last: `Twice ${run}` });
    await payViaApi(order.id, customer);
    const staff = await staffToken();
    const refunds = async () =>
      (
        await rest<{ provider_refund_id: string }[]>(
          `rest/v1/payments?order_id=eq.${order.id}&kind=eq.refund&select=provider_refund_id`,
          staff,
        )
      ).data;
    // The first request reaches refund-payment and Stripe, but its answer never reaches the
    // browser (a timeout): it is cut off once the refund is in the ledger.
    const sent: { idempotency_key: string; amount_cents: number }[] = [];
    let cutOff = true;
    await page.route('**/functions/v1/refund-payment', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent.push(route.request().postDataJSON() as { idempotency_key: string; amount_cents: number });
      if (!cutOff) return route.continue();
      cutOff = false;
      const response = await route.fetch();
      expect(response.status()).toBe(200);
      await expect.poll(async () => (await refunds()).length).toBe(1);
      await route.abort('timedout');
    });
    await page.goto(`/en/account/admin/orders/${order.id}`);
    const payments = panel(page, 'Payments');
    const history = payments.getByRole('list', { name: 'Payment history' });
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    await payments.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByLabel('Amount (€)').fill('10.00');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'No answer from the server. Please try again: payments and refunds are recorded only once.',
    );
    // The desk worker clicks again: the same refund, not a second one.
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(history.locator('li[data-kind="refund"]')).toHaveCount(1);
    expect(sent).toHaveLength(2);
    expect(sent[1].idempotency_key).toBe(sent[0].idempotency_key);
    // Given the webhook time to record a second refund, had one been made: still one.
    await page.waitForTimeout(3000);
    expect(await refunds()).toHaveLength(1);
    await expect(payments.getByTestId('refunded-total')).toHaveText(euro(1000, 'en'));

    // Another refund of 10.00, confirmed anew: a new key, a second refund.
    await page.reload();
    await payments.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByLabel('Amount (€)').fill('10.00');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(history.locator('li[data-kind="refund"]')).toHaveCount(2);
    expect(sent).toHaveLength(3);
    expect(sent[2].idempotency_key).not.toBe(sent[0].idempotency_key);
    await expect(payments.getByTestId('refunded-total')).toHaveText(euro(2000, 'en'));
    // The cut-off answer is the browser's only complaint.
    expect(consoleErrors.filter((e) => !e.includes('/functions/v1/refund-payment') && !e.includes('ERR_TIMED_OUT'))).toEqual([]);
  });

  test('a desk payment whose answer is lost, clicked again, is recorded once (de)', async ({ page, consoleErrors }) => {
    const customer = await customerToken();
    const order = await bookViaApi(customer, { boat: `Kasse ${run}`, day: 83, nights: 2, last: `Kasse ${run}` });
    const staff = await staffToken();
    const ledger = async () =>
      (await rest<{ id: string }[]>(`rest/v1/payments?order_id=eq.${order.id}&kind=eq.payment&select=id`, staff)).data;
    // The first request reaches the database, but its answer never reaches the browser.
    const keys: string[] = [];
    let cutOff = true;
    await page.route('**/rest/v1/rpc/record_desk_payment', async (route) => {
      keys.push((route.request().postDataJSON() as { p_request_key: string }).p_request_key);
      if (!cutOff) return route.continue();
      cutOff = false;
      const response = await route.fetch();
      expect(response.status()).toBe(200);
      await route.abort('timedout');
    });
    await page.goto(`/account/admin/orders/${order.id}`);
    const payments = panel(page, 'Zahlungen');
    const dialog = page.getByRole('dialog', { name: 'Zahlung erfassen' });
    await payments.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await dialog.getByLabel('Betrag (€)').fill('10,00');
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Keine Antwort vom Server. Bitte noch einmal versuchen: Zahlungen und Erstattungen werden dabei nur einmal gebucht.',
    );
    expect(await ledger()).toHaveLength(1);
    // The desk worker clicks again: the same payment comes back, no second one.
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(dialog).toHaveCount(0);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await ledger()).toHaveLength(1);
    await expect(payments.getByRole('list', { name: 'Zahlungsverlauf' }).locator('li[data-kind="payment"]')).toHaveCount(1);
    expect(consoleErrors.filter((e) => !e.includes('/rest/v1/rpc/record_desk_payment') && !e.includes('ERR_TIMED_OUT'))).toEqual([]);
  });

  test('an order paid twice (at the desk, then online in a checkout opened before) is flagged; refunding the double amount clears it (de)', async ({
    page,
    consoleErrors,
  }) => {
    const customer = await customerToken();
    const order = await bookViaApi(customer, { boat: `Doppelt ${run}`, day: 75, last: `Doppelt ${run}` });
    // The guest opens the checkout; meanwhile the guest pays at the desk.
    const started = await rest<{ url: string }>('functions/v1/create-checkout', customer, { method: 'POST', body: { order_id: order.id } });
    expect(started.status, JSON.stringify(started.data)).toBe(200);
    await page.goto(`/de/account/admin/orders/${order.id}`);
    const payments = panel(page, 'Zahlungen');
    await payments.getByRole('button', { name: 'Zahlung erfassen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Zahlung erfassen' });
    await dialog.getByRole('radio', { name: 'Kartenterminal' }).click();
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
    await expect(payments.getByTestId('overpaid-warning')).toHaveCount(0);

    // …and then completes the checkout that was still open.
    const paid = await fetch(started.data.url, {
      method: 'POST',
      body: new URLSearchParams({ number: '4242424242424242', exp: '12/34', cvc: '123', name: 'Klaus Kunde' }),
      redirect: 'manual',
    });
    expect(paid.status).toBeGreaterThanOrEqual(300);
    await expect
      .poll(
        async () =>
          (await rest<unknown[]>(`rest/v1/payments?order_id=eq.${order.id}&kind=eq.payment&select=id`, await staffToken())).data.length,
        { timeout: 30_000 },
      )
      .toBe(2);
    await page.goto(`/de/account/admin/orders/${order.id}`);
    await expect(payments.getByTestId('overpaid-warning')).toHaveText(
      `Achtung: Diese Buchung wurde doppelt bezahlt – es ist ${euro(order.price_cents, 'de')} mehr eingegangen als der Preis. Bitte den zu viel gezahlten Betrag erstatten.`,
    );
    expect(await seriousViolations(page)).toEqual([]);

    await payments.getByRole('button', { name: 'Erstatten', exact: true }).click();
    const refund = page.getByRole('dialog', { name: 'Erstatten' });
    await expect(refund.getByRole('radio', { name: /Online über Stripe/ })).toBeChecked();
    await expect(refund.getByLabel('Betrag (€)')).toHaveValue(field(order.price_cents, 'de'));
    await refund.getByRole('button', { name: 'Erstattung anfordern' }).click();
    await expect(payments.getByRole('status')).toHaveText('Die Erstattung ist eingegangen und im Zahlungsverlauf erfasst.');
    await expect(payments.getByTestId('overpaid-warning')).toHaveCount(0);
    // The ledger now holds a refund: the database calls that partially refunded; the stay stays booked.
    await expect(page.getByTestId('payment-status')).toHaveText('Teilweise erstattet');
    await expect(page.getByText('Bestätigt', { exact: true }).first()).toBeVisible();
    await expect(payments.getByTestId('outstanding')).toHaveText(euro(0, 'de'));
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('payment modes', () => {
  test.use({ persona: 'admin' });
  // Both tests change how fair berths are paid: one after the other.
  test.describe.configure({ mode: 'serial' });

  test('an admin sets how fair berths are paid; everyone who books reads it (de, en)', async ({ page, consoleErrors }) => {
    const customer = await clientAs('customer');
    await page.goto('/de/account/admin/settings');
    const section = page.getByRole('region', { name: 'Zahlungsweise' });
    const fair = section.getByRole('radiogroup', { name: 'Messe-Liegeplatz' });
    await expect(fair.getByRole('radio', { name: /Online oder im Hafenbüro/ })).toBeChecked();
    await expect(
      section.getByRole('radiogroup', { name: 'Walk-in (vom Hafenteam gebucht)' }).getByRole('radio', { name: /Nur im Hafenbüro/ }),
    ).toBeChecked();
    expect(await seriousViolations(page)).toEqual([]);
    await fair.getByRole('radio', { name: /Online vorab/ }).click();
    await section.getByRole('button', { name: 'Zahlungseinstellungen speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Gespeichert.');
    expect((await customer.rpc('payment_mode_for', { p_kind: 'fair' })).data).toBe('online_required');

    // In English the stored choice shows; put it back for the other suites.
    await page.goto('/en/account/admin/settings');
    const en = page.getByRole('region', { name: 'How bookings are paid' });
    const fairEn = en.getByRole('radiogroup', { name: 'Fair berth' });
    await expect(fairEn.getByRole('radio', { name: /Online in advance/ })).toBeChecked();
    await fairEn.getByRole('radio', { name: /Online or at the harbour office/ }).click();
    await en.getByRole('button', { name: 'Save payment settings' }).click();
    await expect(en.getByRole('status')).toHaveText('Saved.');
    expect((await customer.rpc('payment_mode_for', { p_kind: 'fair' })).data).toBe('online_optional');
    expect(consoleErrors).toEqual([]);
  });

  test('fair berths must be paid online within 30 minutes: the booking form says so, the order names its deadline (en), and it is set back (de)', async ({
    page,
    consoleErrors,
  }) => {
    const customer = await clientAs('customer');
    await page.goto('/en/account/admin/settings');
    const section = page.getByRole('region', { name: 'How bookings are paid' });
    await section
      .getByRole('radiogroup', { name: 'Fair berth' })
      .getByRole('radio', { name: /Online in advance/ })
      .click();
    const hold = section.getByLabel('Hold time until online payment (minutes)');
    await expect(hold).toHaveValue('60');
    await hold.fill('10');
    await section.getByRole('button', { name: 'Save payment settings' }).click();
    await expect(section.getByText('Between 15 minutes and 24 hours (1440 minutes)')).toBeVisible();
    await hold.fill('30');
    await section.getByRole('button', { name: 'Save payment settings' }).click();
    await expect(section.getByRole('status')).toHaveText('Saved.');
    expect((await customer.rpc('payment_terms', { p_kind: 'fair' })).data).toEqual({ mode: 'online_required', hold_minutes: 30 });

    try {
      // A fair stay (the seeded boot Düsseldorf), booked through the form: the summary says how it is paid.
      const { data: fairs } = await customer.from('fair_periods').select('starts_on').order('starts_on').limit(1);
      const arrival = fairs![0].starts_on as string;
      const departure = new Date(Date.parse(`${arrival}T12:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
      await page.goto('/en/start/booking');
      await page.getByRole('radio', { name: /^Fair berth/ }).click();
      await fillBerthData(page, 'en', { arrival, departure, length: '6.5', width: '2.4', boat: `Messe ${run}` });
      await chooseFirstBerth(page, 'en');
      await expect(page.getByTestId('payment-terms')).toHaveText(
        'Payment is online, right after booking. Please pay within 30 minutes; otherwise the booking lapses and the berth is released.',
      );
      await page.getByLabel('First name').fill('Anna');
      await page.getByLabel('Last name').fill('Admin');
      const booked = Date.now();
      await confirmBooking(page, 'en');
      // The deadline: 30 minutes after booking, in Berlin time.
      const deadline = page.getByTestId('payment-deadline');
      await expect(deadline).toContainText('Please pay by ');
      const shown = /(\d{1,2}):(\d{2})/.exec((await deadline.textContent()) ?? '');
      const expected = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).formatToParts(new Date(booked + 30 * 60_000));
      const hhmm = (parts: Intl.DateTimeFormatPart[]) =>
        `${parts.find((p) => p.type === 'hour')!.value}:${parts.find((p) => p.type === 'minute')!.value}`;
      expect([
        hhmm(expected),
        hhmm(
          new Intl.DateTimeFormat('en-GB', {
            timeZone: 'Europe/Berlin',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          }).formatToParts(new Date(booked + 31 * 60_000)),
        ),
      ]).toContain(`${shown![1].padStart(2, '0')}:${shown![2]}`);
      await expect(page.getByRole('button', { name: 'Pay online now' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // Cancel it again: the fair berths stay free for the other suites.
      await page.getByRole('button', { name: 'Cancel booking' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel booking' }).click();
      await expect(page.getByText('Cancelled', { exact: true }).first()).toBeVisible();
    } finally {
      // Back to the defaults, in German.
      await page.goto('/de/account/admin/settings');
      const de = page.getByRole('region', { name: 'Zahlungsweise' });
      await de
        .getByRole('radiogroup', { name: 'Messe-Liegeplatz' })
        .getByRole('radio', { name: /Online oder im Hafenbüro/ })
        .click();
      await de.getByLabel('Haltezeit bis zur Online-Zahlung (Minuten)').fill('60');
      await de.getByRole('button', { name: 'Zahlungseinstellungen speichern' }).click();
      await expect(de.getByRole('status')).toHaveText('Gespeichert.');
    }
    expect((await customer.rpc('payment_terms', { p_kind: 'fair' })).data).toEqual({ mode: 'online_optional', hold_minutes: 60 });
    expect(consoleErrors).toEqual([]);
  });
});
