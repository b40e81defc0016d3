/**
 * Guests pay online (issue 20), end to end against the local stack's payment sandbox, the
 * edge functions create-checkout and stripe-webhook and the ledger: pay after booking with
 * 4242 and get the receipt; a declined card, then paying again; 3-D Secure; an abandoned
 * checkout (back link, then the session expires) leaves the order payable; the return page
 * waits calmly for a payment that comes after the redirect.
 */
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe.ts';
import { personas } from '../helpers/personas.ts';
import {
  berlinDay,
  chooseFirstBerth,
  confirmBooking,
  euro,
  fillBerthData,
  login,
  personaToken,
  proceedAsGuest,
  quote,
  readCode,
  uniqueEmail,
  words,
} from './booking-helpers.ts';
import {
  bookViaApi,
  cards,
  payOnSandbox,
  payViaApi,
  paymentStatus,
  sandboxText,
  waitForMail,
  withoutDeclineStatus,
} from './payment-helpers.ts';

// Whole journeys on a 2-core machine shared with other suites: generous time limits.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** A customer's order (booked through the API), its page, "pay online now": on the sandbox's checkout page. */
async function onCheckoutPage(page: Page, who: 'customer' | 'customerEn', boat: string, day: number) {
  const locale = who === 'customerEn' ? 'en' : 'de';
  const { email, password } = personas[who];
  const token = await personaToken(email, password);
  const order = await bookViaApi(token, { boat: `${boat} ${run}`, day, last: `${boat} ${run}` });
  await login(page, email, password, locale);
  await page.goto(`/${locale}/order/${order.id}`);
  await page
    .getByRole('region', { name: locale === 'en' ? 'Pay online' : 'Online bezahlen' })
    .getByRole('button', { name: locale === 'en' ? 'Pay online now' : 'Jetzt online bezahlen' })
    .click();
  await expect(page).toHaveURL(/\/pay\/cs_\w+$/);
  return { order, token, checkout: page.url() };
}

test('a guest books, pays with 4242 on the checkout page and sees the order paid and the receipt e-mail (de)', async ({
  page,
  consoleErrors,
}) => {
  const w = words('de');
  const email = uniqueEmail('zahlt');
  // Days no other spec books (see berlinDay): the guest takes the first free berth and confirms
  // seconds later, when a spec booking "a free berth" on the same days could have taken it.
  const arrival = berlinDay(200);
  const departure = berlinDay(202);
  await page.goto('/de/start/booking');
  await fillBerthData(page, 'de', { arrival, departure, length: '7,5', width: '2,5', boat: `Zahlemann ${run}` });
  const expected = await quote({ p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 7.5 });
  await chooseFirstBerth(page, 'de');
  const since = await proceedAsGuest(page, 'de', { email, first: 'Greta', last: 'Gast' });
  await page.getByLabel(w.code).fill(await readCode(email, since));
  await page.getByRole('button', { name: w.confirmCode, exact: true }).click();
  const id = await confirmBooking(page, 'de');

  // The confirmation offers paying online (the default mode: online or at the desk).
  const box = page.getByRole('region', { name: 'Online bezahlen' });
  await expect(box).toContainText(
    `Sie können jetzt online mit Karte bezahlen (${euro(expected.gross_cents, 'de')}) oder später im Hafenbüro.`,
  );
  await expect(page.getByTestId('payment-status')).toHaveText('Zahlung offen'); // how to pay: the panel above (once)
  expect(await seriousViolations(page)).toEqual([]);
  const paidSince = new Date().toISOString();
  await box.getByRole('button', { name: 'Jetzt online bezahlen' }).click();

  // The sandbox's hosted page, in German, for the stored price to the cent.
  await expect(page).toHaveURL(/\/pay\/cs_[A-Za-z0-9_]+$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('button', { name: `Bezahlen ${euro(expected.gross_cents, 'de')}` })).toBeVisible();
  await payOnSandbox(page, 'de', cards.success);

  // Back on the order page: confirming until the webhook's payment is in, then paid.
  await expect(page).toHaveURL(new RegExp(`/de/order/${id}\\?payment=success&session_id=cs_`));
  await expect(page.getByTestId('payment-paid')).toHaveText('Bezahlt – vielen Dank! Ihre Zahlung ist eingegangen.');
  await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
  await expect(page.getByRole('button', { name: 'Jetzt online bezahlen' })).toHaveCount(0);
  const payments = page.getByRole('list', { name: 'Zahlungen' });
  await expect(payments.getByRole('listitem')).toHaveCount(1);
  await expect(payments.getByRole('listitem')).toContainText('Zahlung, Online (Karte)');
  await expect(payments.getByRole('listitem')).toContainText(euro(expected.gross_cents, 'de'));
  await expect(payments.getByRole('listitem')).toContainText(/\d{1,2}\. \w+\.? \d{4}, \d{2}:\d{2} Uhr/);
  expect(await seriousViolations(page)).toEqual([]);

  // The receipt e-mail, in German, with the amount.
  const receipt = await waitForMail(email, paidSince, /^Zahlung erhalten/);
  // (The app's amounts have a no-break space before €, the e-mail a plain one.)
  expect(`${receipt.text ?? ''} ${receipt.html ?? ''}`.replace(/\u00a0/g, ' ')).toContain(
    euro(expected.gross_cents, 'de').replace(/\u00a0/g, ' '),
  );
  expect(consoleErrors).toEqual([]);
});

test('a declined card shows the message on the checkout page; paying again with 4242 succeeds (en)', async ({ page, consoleErrors }) => {
  const { order, token, checkout } = await onCheckoutPage(page, 'customerEn', 'Declined', 63);

  await payOnSandbox(page, 'en', cards.declined, 'Jan de Vries');
  await expect(page.getByRole('alert')).toHaveText(sandboxText('en').declined);
  expect(page.url()).toContain('/pay/cs_');
  expect(await paymentStatus(order.id, token)).toBe('pending');

  // The session stays open: the same page takes the good card.
  expect(page.url().split('?')[0]).toBe(checkout);
  await payOnSandbox(page, 'en', cards.success, 'Jan de Vries');
  await expect(page).toHaveURL(new RegExp(`/en/order/${order.id}\\?payment=success`));
  await expect(page.getByTestId('payment-status')).toHaveText('Paid');
  await expect(page.getByTestId('payment-paid')).toHaveText('Paid – thank you! Your payment has been received.');
  await expect(page.getByRole('list', { name: 'Payments' }).getByRole('listitem')).toContainText(euro(order.price_cents, 'en'));
  expect(withoutDeclineStatus(consoleErrors)).toEqual([]);
});

test('a card that asks for 3-D Secure completes after the authentication (en)', async ({ page, consoleErrors }) => {
  const { order } = await onCheckoutPage(page, 'customerEn', 'Secure', 65);
  await payOnSandbox(page, 'en', cards.threeDSecure, 'Jan de Vries');
  await expect(page.getByRole('heading', { name: '3-D Secure: confirm the payment' })).toBeVisible();
  await page.getByRole('button', { name: sandboxText('en').authComplete }).click();
  await expect(page).toHaveURL(new RegExp(`/en/order/${order.id}\\?payment=success`));
  await expect(page.getByTestId('payment-status')).toHaveText('Paid');
  expect(consoleErrors).toEqual([]);
});

test('an abandoned checkout leaves the order payable: back from the page, then the session expires; paying later works (de)', async ({
  page,
  consoleErrors,
}) => {
  const { order, checkout: first } = await onCheckoutPage(page, 'customer', 'Abbruch', 67);

  // "Back" on the checkout page: nothing charged, paying is offered again.
  await page.getByRole('link', { name: sandboxText('de').back }).click();
  await expect(page).toHaveURL(new RegExp(`/de/order/${order.id}\\?payment=cancelled$`));
  await expect(page.getByRole('region', { name: 'Online bezahlen' }).getByRole('status')).toHaveText(
    'Die Zahlung wurde abgebrochen. Es wurde nichts abgebucht. Sie können jederzeit erneut bezahlen.',
  );
  await expect(page.getByTestId('payment-status')).toHaveText('Zahlung offen'); // how to pay: the panel above (once)
  expect(await seriousViolations(page)).toEqual([]);
  // A second try while the session is open gets the same page: never a second charge.
  await page.getByRole('button', { name: 'Jetzt online bezahlen' }).click();
  await expect(page).toHaveURL(first);

  // Stripe expires an abandoned session (30 minutes); the order stays payable with a new one.
  const session = new URL(first).pathname.split('/').pop()!;
  const expired = await fetch(`${new URL(first).origin}/v1/checkout/sessions/${session}/expire`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_local_sandbox' },
  });
  expect(expired.status, await expired.clone().text()).toBe(200);
  await page.goto(first);
  await expect(page.getByRole('alert')).toContainText('abgelaufen');
  await page.goto(`/de/order/${order.id}`);
  await page.getByRole('button', { name: 'Jetzt online bezahlen' }).click();
  await expect(page).toHaveURL(/\/pay\/cs_/);
  expect(page.url()).not.toBe(first);
  await payOnSandbox(page, 'de', cards.success, 'Klaus Kunde');
  await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
  expect(consoleErrors).toEqual([]);
});

test('the return page waits for a payment that arrives after the redirect, calmly after 30 s (en)', async ({ page, consoleErrors }) => {
  const token = await personaToken(personas.customerEn.email, personas.customerEn.password);
  const order = await bookViaApi(token, { boat: `Slow ${run}`, day: 69, last: `Slow ${run}` });
  await login(page, personas.customerEn.email, personas.customerEn.password, 'en');
  await page.clock.install();
  // Back from Checkout before Stripe's event: nothing in the ledger yet.
  await page.goto(`/en/order/${order.id}?payment=success&session_id=cs_test_slow`);
  const box = page.getByRole('region', { name: 'Pay online' });
  await expect(box.getByTestId('payment-confirming')).toContainText('Confirming the payment …');
  await expect(page.getByRole('button', { name: 'Pay online now' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.clock.fastForward('00:31');
  await expect(box.getByTestId('payment-confirming')).toContainText('The confirmation is taking longer than usual.');

  // The payment arrives (the webhook): the page turns to paid by itself.
  await payViaApi(order.id, token);
  await expect(page.getByTestId('payment-paid')).toHaveText('Paid – thank you! Your payment has been received.');
  await expect(page.getByTestId('payment-status')).toHaveText('Paid');
  expect(consoleErrors).toEqual([]);
});
