/**
 * Refunds on the staff order page (issue 11 leftover; docs/adr/0030-payments-ledger.md; since issue 20
 * in the payments panel): "Erstatten" for paid orders only, in a dialog that asks cash or transfer
 * and the amount (a desk refund of what was paid at the desk, a row in the payments ledger); a full refund cancels the open
 * booking and frees its berth, the history records both, a cancellation invoice cancels the
 * invoice (issue 21). A customer never sees the button and the API refuses the refund.
 */
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { personas } from '../helpers/personas.ts';
import { berlinDay, euro, personaToken } from './booking-helpers.ts';
import { rest, rpc, staffToken } from './rest-helpers.ts';

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** Staff book a small boat on the first free berth (a berth taken meanwhile: the next one), optionally paid. */
async function bookViaApi(
  token: string,
  opts: { boat: string; arrival: string; departure: string; email?: string; paid?: boolean },
): Promise<{ id: string; place: string; price: number }> {
  const { boat, arrival, departure } = opts;
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
        p_person: { first_name: 'Rita', last_name: `Refund ${run}`, ...(opts.email ? { email: opts.email } : {}) },
      },
      token,
    );
    if (res.status !== 200) continue;
    if (opts.paid) expect((await rpc('record_desk_payment', { p_order_id: res.data.id, p_method: 'cash' }, token)).status).toBe(200);
    return { id: res.data.id, place: place.name, price: res.data.price_cents };
  }
  throw new Error('no free berth');
}

test.describe('refund on the order page', () => {
  test.use({ persona: 'harbour' });

  test('staff refund a paid booking (de): asked first, the booking is cancelled, the berth freed, history and invoice say so', async ({
    page,
    consoleErrors,
  }) => {
    const token = await staffToken();
    const pending = await bookViaApi(token, { boat: `Offen ${run}`, arrival: berlinDay(40), departure: berlinDay(42) });
    const paid = await bookViaApi(token, { boat: `Erstattung ${run}`, arrival: berlinDay(40), departure: berlinDay(42), paid: true });

    // An unpaid order offers recording a payment and no refund.
    await page.goto(`/account/admin/orders/${pending.id}`);
    await expect(page.getByRole('button', { name: 'Zahlung erfassen' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Erstatten' })).toHaveCount(0);

    await page.goto(`/account/admin/orders/${paid.id}`);
    await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
    await expect(page.getByRole('button', { name: 'Zahlung erfassen' })).toHaveCount(0);
    const payments = page.getByRole('region', { name: 'Zahlungen', exact: true });
    const refund = payments.getByRole('button', { name: 'Erstatten' });
    await refund.click();
    const dialog = page.getByRole('dialog', { name: 'Erstatten' });
    await expect(dialog).toContainText(`Eine vollständige Erstattung storniert die Buchung und gibt Liegeplatz ${paid.place} wieder frei.`);
    await expect(dialog.getByLabel('Betrag (€)')).toHaveValue((paid.price / 100).toFixed(2).replace('.', ','));
    expect(await seriousViolations(page)).toEqual([]);
    // Cancelling the dialog changes nothing.
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
    expect((await rest<{ payment_status: string }[]>(`orders?id=eq.${paid.id}&select=payment_status`, token)).data).toEqual([
      { payment_status: 'paid' },
    ]);

    await refund.click();
    await dialog.getByRole('radio', { name: /^Überweisung/ }).click();
    await dialog.getByRole('button', { name: 'Erstattung erfassen' }).click();
    await expect(dialog).toBeHidden();
    await expect(payments.getByRole('status')).toHaveText(`Erstattung von ${euro(paid.price, 'de')} (Überweisung) erfasst.`);
    await expect(page.getByTestId('payment-status')).toHaveText('Erstattet');
    await expect(page.getByText('Storniert', { exact: true })).toBeVisible();
    await expect(refund).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Stornieren' })).toHaveCount(0);
    const history = page.getByRole('region', { name: 'Verlauf' });
    await expect(history).toContainText('Status: Bestätigt → Storniert');
    await expect(history).toContainText('Zahlung: Bezahlt → Erstattet');
    await expect(history).toContainText(`Erstattung erfasst: ${euro(paid.price, 'de')} (Überweisung)`);

    // The database holds the same: refunded and cancelled, the berth free again.
    const order = await rest<{ status: string; payment_status: string; price_cents: number }[]>(
      `orders?id=eq.${paid.id}&select=status,payment_status,price_cents`,
      token,
    );
    expect(order.data).toEqual([{ status: 'cancelled', payment_status: 'refunded', price_cents: paid.price }]);
    const statuses = await rest<{ cancelled: boolean }[]>(`place_statuses?order_id=eq.${paid.id}&select=cancelled`, token);
    expect(statuses.data).toEqual([{ cancelled: true }]);
    const events = await rest<{ event: string; from_value: string; to_value: string }[]>(
      `order_events?order_id=eq.${paid.id}&select=event,from_value,to_value&order=id`,
      token,
    );
    expect(events.data.slice(-3)).toEqual([
      { event: 'refund_recorded', from_value: 'bank_transfer', to_value: String(paid.price) },
      { event: 'status', from_value: 'confirmed', to_value: 'cancelled' },
      { event: 'payment', from_value: 'paid', to_value: 'refunded' },
    ]);
    const ledger = await rest<{ kind: string; method: string; amount_cents: number }[]>(
      `payments?order_id=eq.${paid.id}&select=kind,method,amount_cents&order=recorded_at`,
      token,
    );
    expect(ledger.data).toEqual([
      { kind: 'payment', method: 'cash', amount_cents: paid.price },
      { kind: 'refund', method: 'bank_transfer', amount_cents: paid.price },
    ]);

    // The invoice stays as issued; the full refund issued its cancellation invoice (issue 21).
    await expect(page.getByRole('link', { name: 'Rechnung drucken' })).toHaveCount(0);
    const documents = page.getByRole('list', { name: 'Belege' });
    await expect(documents.getByTestId('document-row')).toHaveCount(2);
    await documents.getByRole('link', { name: /^Stornorechnung RE-/ }).click();
    await expect(page.locator('#invoice-sheet')).toContainText('Diese Stornorechnung hebt den Beleg');
    await expect(page.locator('#invoice-sheet').getByTestId('invoice-gross')).toHaveText(euro(-paid.price, 'de'));
    expect(consoleErrors).toEqual([]);
  });

  test('refund in English; a cancelled paid booking is refunded without a second cancellation', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const paid = await bookViaApi(token, { boat: `Refund ${run}`, arrival: berlinDay(43), departure: berlinDay(44), paid: true });
    expect((await rpc('cancel_booking', { p_order_id: paid.id }, token)).status).toBe(200);
    await page.goto(`/en/account/admin/orders/${paid.id}`);
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    await expect(dialog).toContainText(`Paid (less refunds): ${euro(paid.price, 'en')}.`);
    await expect(dialog).not.toContainText('cancels the booking');
    await expect(dialog.getByRole('radio', { name: /^Cash/ })).toBeChecked();
    await dialog.getByRole('button', { name: 'Record refund' }).click();
    await expect(page.getByRole('region', { name: 'Payments', exact: true }).getByRole('status')).toHaveText(
      `Refund of ${euro(paid.price, 'en')} (Cash) recorded.`,
    );
    await expect(page.getByTestId('payment-status')).toHaveText('Refunded');
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Payment: Paid → Refunded');
    await expect(page.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
    // Cancelling the paid booking issued the cancellation invoice; the refund adds no document.
    const documents = page.getByRole('list', { name: 'Documents' });
    await expect(documents.getByTestId('document-row')).toHaveCount(2);
    await documents.getByRole('link', { name: /^Cancellation invoice RE-/ }).click();
    await expect(page.locator('#invoice-sheet')).toContainText('This cancellation invoice cancels document');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('refund is staff only', () => {
  test.use({ persona: 'customer' });

  test('a customer sees no refund button on the own paid booking and the API refuses the refund', async ({ page }) => {
    const token = await staffToken();
    // A paid booking in the seeded customer's account (staff book with the account's address).
    const paid = await bookViaApi(token, {
      boat: `Kunde ${run}`,
      arrival: berlinDay(45),
      departure: berlinDay(46),
      email: personas.customer.email,
      paid: true,
    });
    await page.goto(`/account/bookings/${paid.id}`);
    await expect(page.getByText(`Kunde ${run}`).first()).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
    await expect(page.getByRole('button', { name: 'Erstatten' })).toHaveCount(0);
    await page.goto(`/account/admin/orders/${paid.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
    await expect(page.getByRole('button', { name: 'Erstatten' })).toHaveCount(0);

    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const res = await rpc<{ message: string }>(
      'record_desk_refund',
      { p_order_id: paid.id, p_method: 'cash', p_amount_cents: paid.price },
      customer,
    );
    expect(res.status).toBe(403);
    expect(res.data.message).toBe('staff_only');
    const order = await rest<{ status: string; payment_status: string }[]>(
      `orders?id=eq.${paid.id}&select=status,payment_status`,
      customer,
    );
    expect(order.data).toEqual([{ status: 'confirmed', payment_status: 'paid' }]);
  });
});
