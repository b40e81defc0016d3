/**
 * The cancellation policy and the money a cancellation owes (issue 40 item 1, ADR 0010): a guest
 * who cancels a booking paid online sees in the dialog what comes back and how, and the money goes
 * back to the card once (a retried refund request makes no second refund); money owed at the desk
 * (a late cancellation paid in cash keeps half) is listed on the staff overview and marked on the
 * order until the desk pays it back; a refunded order's invoice line says what became of its
 * invoice (item 12).
 */
import { expect as baseExpect, test } from '../helpers/app-test';
import { personas } from '../helpers/personas.ts';
import { euro, login, personaToken } from './booking-helpers.ts';
import { bookViaApi, payViaApi, paymentStatus, rest, rpc } from './payment-helpers.ts';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

const customerToken = () => personaToken(personas.customer.email, personas.customer.password);
const staffToken = () => personaToken(personas.harbour.email, personas.harbour.password);

const refunds = async (orderId: string, token: string) =>
  (await rest<{ amount_cents: number }[]>(`rest/v1/payments?order_id=eq.${orderId}&kind=eq.refund&select=amount_cents`, token)).data;

test('a guest cancels a booking paid online: the dialog says how much goes back to the card; it is refunded once, however often it is asked (en)', async ({
  page,
  consoleErrors,
}) => {
  const token = await customerToken();
  // Five weeks ahead: inside the free window (48 hours before arrival).
  const order = await bookViaApi(token, { boat: `Storno ${run}`, day: 36, last: `Storno ${run}` });
  await payViaApi(order.id, token);
  await login(page, personas.customer.email, personas.customer.password, 'en');
  await page.goto(`/en/order/${order.id}`);
  await page.getByRole('button', { name: 'Cancel booking' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Cancel this booking?' });
  await expect(dialog.getByTestId('cancel-refund-amount')).toHaveText(`You get ${euro(order.price_cents, 'en')} back.`);
  await expect(dialog.getByTestId('cancel-refund-card')).toContainText(
    `${euro(order.price_cents, 'en')} goes back automatically to the card you paid with`,
  );
  await expect(dialog).toContainText('You cancel free of charge');
  await dialog.getByRole('button', { name: 'Cancel and start the refund' }).click();
  await expect(page.getByTestId('order-outcome')).toContainText('This booking was cancelled');
  await expect.poll(() => paymentStatus(order.id, token), { timeout: 30_000 }).toBe('refunded');
  await page.reload();
  await expect(page.getByTestId('order-outcome')).toContainText('The amount paid has been refunded.');
  expect(await refunds(order.id, token)).toEqual([{ amount_cents: order.price_cents }]);

  // The guest's page asks again (a retry after a lost answer): the same request, no second refund.
  for (let i = 0; i < 2; i++) {
    const again = await rest<{ refund_id: string | null }>('functions/v1/refund-payment', token, {
      method: 'POST',
      body: { cancellation_of: order.id },
    });
    expect(again.status, JSON.stringify(again.data)).toBe(200);
    expect(again.data.refund_id).toMatch(/^re_/);
  }
  await page.waitForTimeout(1_000);
  expect(await refunds(order.id, token)).toEqual([{ amount_cents: order.price_cents }]);
  expect(consoleErrors).toEqual([]);
});

test.describe('money owed at the desk', () => {
  test.use({ persona: 'harbour' });

  test('a late cancellation paid in cash: half kept, half listed on the overview and marked on the order until the desk pays it back (de)', async ({
    page,
    consoleErrors,
  }) => {
    const customer = await customerToken();
    const staff = await staffToken();
    // Tomorrow: within 48 hours of arrival, so the policy keeps half.
    const order = await bookViaApi(customer, { boat: `Spät ${run}`, day: 1, last: `Spät ${run}` });
    const paid = await rpc('record_desk_payment', { p_order_id: order.id, p_method: 'cash' }, staff);
    expect(paid.status, JSON.stringify(paid.data)).toBe(200);
    const quote = await rpc<{ kept_cents: number; back_desk_cents: number; back_card_cents: number }>(
      'cancellation_quote',
      { p_order_id: order.id },
      customer,
    );
    const kept = Math.round(order.price_cents / 2);
    expect(quote.data).toMatchObject({ kept_cents: kept, back_desk_cents: order.price_cents - kept, back_card_cents: 0 });
    const cancelled = await rpc('cancel_booking', { p_order_id: order.id }, customer);
    expect(cancelled.status, JSON.stringify(cancelled.data)).toBe(200);
    const number = (await rest<{ booking_number: string }[]>(`rest/v1/orders?id=eq.${order.id}&select=booking_number`, staff)).data[0]!
      .booking_number;

    await page.goto('/de/account/admin/overview');
    const owed = page.getByRole('region', { name: 'Geld zurückzuzahlen' });
    const item = owed.getByRole('listitem').filter({ hasText: number });
    await expect(item.getByTestId('money-owed')).toHaveText(`Dem Gast zurückzuzahlen: ${euro(order.price_cents - kept, 'de')}`);
    await item.getByRole('link', { name: number }).click();
    await expect(page.getByTestId('overpaid-warning')).toHaveText(
      `Erstattung fällig: Dem Gast stehen nach der Stornierung (oder dem Verfall) dieser Buchung ${euro(order.price_cents - kept, 'de')} zu. Bitte erstatten.`,
    );

    // The desk pays it back: the mark goes, the overview no longer lists it.
    const back = await rpc(
      'record_desk_refund',
      { p_order_id: order.id, p_method: 'cash', p_amount_cents: order.price_cents - kept },
      staff,
    );
    expect(back.status, JSON.stringify(back.data)).toBe(200);
    await page.reload();
    await expect(page.getByTestId('payment-status')).toBeVisible();
    await expect(page.getByTestId('overpaid-warning')).toHaveCount(0);
    // The kept share's invoice is the one in force; refunded in full as goodwill, the line says what became of it.
    await expect(page.getByTestId('invoice-number')).toBeVisible();
    const rest2 = await rpc('record_desk_refund', { p_order_id: order.id, p_method: 'cash', p_amount_cents: kept }, staff);
    expect(rest2.status, JSON.stringify(rest2.data)).toBe(200);
    await page.goto(`/de/account/admin/orders/${order.id}`);
    await expect(page.getByTestId('invoice-state')).toHaveText(
      /^RE-\d{4}-\d{5} storniert durch Stornorechnung RE-\d{4}-\d{5}; der Betrag wurde erstattet$/,
    );
    await page.goto('/de/account/admin/overview');
    await expect(page.getByRole('region', { name: 'Geld zurückzuzahlen' })).not.toContainText(number);
    expect(consoleErrors).toEqual([]);
  });
});
