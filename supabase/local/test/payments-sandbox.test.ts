import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Stripe from 'stripe';
import { chromium } from '@playwright/test';
import { seriousViolations } from '../../../tests/helpers/axe.ts';
import { skipBecause } from './harness/engines.ts';
import {
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_SECRET,
  WEBHOOK_PATH,
  startPaymentSandbox,
  stripeEnvironment,
  type PaymentSandbox,
} from '../src/payments/index.ts';
import { API_VERSION } from '../src/payments/objects.ts';
import { parseParams } from '../src/payments/params.ts';
import type { Delivery } from '../src/payments/state.ts';
import { startTestStack } from './harness/stack.ts';

/**
 * The payment sandbox against the official `stripe` SDK: the API subset and its errors, the
 * hosted page paid by submitting its form over HTTP as a browser does, and the webhook events
 * verified with `stripe.webhooks.constructEvent`.
 */

const MINUTE = 60;
const root = resolve(import.meta.dirname, '../../..');
const stripeVersion = (JSON.parse(readFileSync(join(root, 'node_modules/stripe/package.json'), 'utf8')) as { version: string }).version;

/** A webhook endpoint on a free port that records what arrives and answers with `status(type)`. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string; event: Stripe.Event }[] = [];
  let status: (event: Stripe.Event, attempt: number) => number = () => 200;
  const attempts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const event = JSON.parse(body) as Stripe.Event;
      const n = (attempts.get(event.id) ?? 0) + 1;
      attempts.set(event.id, n);
      received.push({ headers: req.headers, body, event });
      res.writeHead(status(event, n)).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer(fn: typeof status) {
      status = fn;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function until<T>(fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The page's payment form as a browser sees it: its action and the names of its inputs. */
function formOf(html: string, field: string) {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => f[2].includes(`name="${field}"`));
  if (!form) throw new Error(`no form with ${field} on the page`);
  const inputs = [...form[2].matchAll(/<input[^>]*name="([^"]+)"[^>]*>/g)].map((m) => ({
    name: m[1],
    value: /value="([^"]*)"/.exec(m[0])?.[1] ?? '',
  }));
  const labels = [...form[2].matchAll(/<label for="([^"]+)">/g)].map((m) => m[1]);
  return { action: form[1], inputs, labels };
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('payment sandbox (Stripe API subset, hosted page, webhooks)', () => {
  let sandbox: PaymentSandbox;
  let stripe: Stripe;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let clock = Date.now();

  beforeAll(async () => {
    receiver = await startReceiver();
    sandbox = await startPaymentSandbox({
      host: '127.0.0.1',
      port: 0,
      merchantName: 'Hafen Düsseldorf',
      now: () => clock,
      webhookUrl: receiver.url,
      retryDelaysMs: [100, 200, 300],
    });
    stripe = new Stripe(SANDBOX_SECRET_KEY, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
  });

  afterAll(async () => {
    await sandbox?.close();
    await receiver?.close();
  });

  afterEach(() => receiver.answer(() => 200));

  const params = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams => ({
    mode: 'payment',
    line_items: [
      { price_data: { currency: 'eur', unit_amount: 4200, product_data: { name: 'Liegeplatz A12, 2 Nächte' } }, quantity: 1 },
      { price_data: { currency: 'eur', unit_amount: 350, product_data: { name: 'Strom' } }, quantity: 2 },
    ],
    customer_email: 'kunde@hafen.test',
    client_reference_id: 'order-1',
    locale: 'de',
    metadata: { order_id: 'order-1', booking_reference: 'HD-123' },
    payment_intent_data: { metadata: { order_id: 'order-1' } },
    success_url: 'http://127.0.0.1:3000/de/orders/1?payment=success&session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:3000/de/orders/1?payment=cancelled',
    expires_at: Math.floor(clock / 1000) + 30 * MINUTE,
    ...overrides,
  });

  /** Fills the page's form with a card and submits it (no redirects followed, as a test can read them). */
  async function pay(
    session: Stripe.Checkout.Session,
    card: { number: string; exp?: string; cvc?: string; name?: string; email?: string },
    lang = 'de',
  ) {
    const page = await fetch(session.url!, { headers: { 'accept-language': lang } });
    expect(page.status).toBe(200);
    const form = formOf(await page.text(), 'number');
    const values: Record<string, string> = {
      number: card.number,
      exp: card.exp ?? '12 / 34',
      cvc: card.cvc ?? '123',
      name: card.name ?? 'Kim Kunde',
      email: card.email ?? '',
    };
    const body = new URLSearchParams(form.inputs.map((i): [string, string] => [i.name, values[i.name] ?? i.value]));
    return fetch(new URL(form.action, session.url!), { method: 'POST', body, redirect: 'manual', headers: { 'accept-language': lang } });
  }

  const eventsFor = (id: string) => receiver.received.filter((r) => JSON.stringify(r.event.data.object).includes(id));
  const verified = (r: { headers: IncomingHttpHeaders; body: string }) =>
    stripe.webhooks.constructEvent(r.body, r.headers['stripe-signature'] as string, SANDBOX_WEBHOOK_SECRET);

  it('creates and retrieves a Checkout Session in Stripe’s shape', async () => {
    const created = await stripe.checkout.sessions.create(params());
    expect(created.id).toMatch(/^cs_test_[A-Za-z0-9]{58}$/);
    expect(created).toMatchObject({
      object: 'checkout.session',
      amount_subtotal: 4900,
      amount_total: 4900,
      currency: 'eur',
      client_reference_id: 'order-1',
      customer_email: 'kunde@hafen.test',
      customer_details: { email: 'kunde@hafen.test' },
      livemode: false,
      locale: 'de',
      metadata: { order_id: 'order-1', booking_reference: 'HD-123' },
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: params().success_url,
      cancel_url: params().cancel_url,
      url: `${sandbox.url}/pay/${created.id}`,
      expires_at: Math.floor(clock / 1000) + 30 * MINUTE,
    });
    const again = await stripe.checkout.sessions.retrieve(created.id);
    expect(again).toEqual(created);
    expect(created.lastResponse.requestId).toMatch(/^req_/);
    // Without expires_at a session lives 24 hours, as at Stripe.
    const plain = await stripe.checkout.sessions.create(params({ expires_at: undefined }));
    expect(plain.expires_at).toBe(Math.floor(clock / 1000) + 24 * 3600);
    expect(API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('parses bracket notation into nested objects and lists', () => {
    expect(
      parseParams(
        'line_items[0][price_data][unit_amount]=1200&line_items[0][quantity]=1&metadata[order_id]=o1&expand[]=payment_intent&payment_intent_data[metadata][order_id]=o1',
      ),
    ).toEqual({
      line_items: [{ price_data: { unit_amount: '1200' }, quantity: '1' }],
      metadata: { order_id: 'o1' },
      expand: ['payment_intent'],
      payment_intent_data: { metadata: { order_id: 'o1' } },
    });
  });

  it('refuses bad parameters with Stripe’s errors (400 invalid_request_error with param, 404 resource_missing, 401)', async () => {
    const refused = async (p: Stripe.Checkout.SessionCreateParams) => {
      const error = await stripe.checkout.sessions.create(p).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      return error as Stripe.errors.StripeInvalidRequestError;
    };
    const noMode = await refused({ ...params(), mode: undefined });
    expect(noMode).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      code: 'parameter_missing',
      param: 'mode',
      message: 'Missing required param: mode.',
    });
    expect((await refused(params({ line_items: undefined }))).param).toBe('line_items');
    const noAmount = await refused(params({ line_items: [{ price_data: { currency: 'eur', product_data: { name: 'x' } }, quantity: 1 }] }));
    expect(noAmount).toMatchObject({ code: 'parameter_missing', param: 'line_items[0][price_data][unit_amount]' });
    const badQuantity = await refused(
      params({ line_items: [{ price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'x' } }, quantity: 0 }] }),
    );
    expect(badQuantity.param).toBe('line_items[0][quantity]');
    expect(
      (
        await refused(
          params({ line_items: [{ price_data: { currency: 'eur', unit_amount: 10, product_data: { name: 'x' } }, quantity: 1 }] }),
        )
      ).code,
    ).toBe('amount_too_small');
    expect(await refused(params({ customer_email: 'not-an-address' }))).toMatchObject({ code: 'email_invalid', param: 'customer_email' });
    expect(await refused(params({ success_url: 'javascript:alert(1)' }))).toMatchObject({ code: 'url_invalid', param: 'success_url' });
    expect((await refused(params({ locale: 'xx' as Stripe.Checkout.SessionCreateParams.Locale }))).param).toBe('locale');
    const soon = await refused(params({ expires_at: Math.floor(clock / 1000) + 10 * MINUTE }));
    expect(soon).toMatchObject({
      param: 'expires_at',
      message: 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
    });
    expect((await refused(params({ expires_at: Math.floor(clock / 1000) + 25 * 3600 }))).param).toBe('expires_at');
    const unknown = await refused({ ...params(), colour: 'blue' } as Stripe.Checkout.SessionCreateParams);
    expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
    const price = await stripe.checkout.sessions
      .create(params({ line_items: [{ price: 'price_nope', quantity: 1 }] }))
      .catch((e: Stripe.errors.StripeError) => e);
    expect(price).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'line_items[0][price]' });

    const missing = await stripe.checkout.sessions.retrieve('cs_test_nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such checkout.session: 'cs_test_nope'" });
    expect(await stripe.paymentIntents.retrieve('pi_nope').catch((e: Stripe.errors.StripeError) => e.code)).toBe('resource_missing');

    // Malformed bodies are the caller's error, never a 500.
    for (const body of [
      'a[b=1',
      'metadata[0]=x',
      'line_items=abc&mode=payment',
      'mode=payment&line_items[0]=x',
      'mode[x]=1',
      'expand[0][x]=1',
      'mode=payment&mode[a]=1',
      '%%%',
    ]) {
      const res = await fetch(`${sandbox.url}/v1/checkout/sessions`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${SANDBOX_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: { type: string } }).error.type, body).toBe('invalid_request_error');
    }
    const emptyForm = await fetch(`${sandbox.url}/pay/${(await stripe.checkout.sessions.create(params())).id}`, {
      method: 'POST',
      body: '',
    });
    expect(emptyForm.status).toBe(400);

    const wrongKey = new Stripe('sk_test_someone_elses_key', {
      host: '127.0.0.1',
      port: sandbox.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const unauthorized = await wrongKey.checkout.sessions.create(params()).catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((unauthorized as Stripe.errors.StripeError).statusCode).toBe(401);
    const noKey = await fetch(`${sandbox.url}/v1/checkout/sessions/cs_test_x`);
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('honours Idempotency-Key: the same request gets the same answer, another request with that key an idempotency_error', async () => {
    const key = `idem-${Date.now()}`;
    const first = await stripe.checkout.sessions.create(params(), { idempotencyKey: key });
    const second = await stripe.checkout.sessions.create(params(), { idempotencyKey: key });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = await stripe.checkout.sessions
      .create(params({ client_reference_id: 'order-2' }), { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((other as Stripe.errors.StripeError).statusCode).toBe(400);
    // A request refused by validation is not remembered (Stripe saves only requests that ran).
    const key2 = `idem-bad-${Date.now()}`;
    await expect(stripe.checkout.sessions.create(params({ customer_email: 'bad' }), { idempotencyKey: key2 })).rejects.toThrow(
      /Invalid email/,
    );
    const ok = await stripe.checkout.sessions.create(params(), { idempotencyKey: key2 });
    expect(ok.status).toBe('open');
  });

  it('pays with 4242 4242 4242 4242 through the page: redirect to success_url, session paid, signed events', async () => {
    const session = await stripe.checkout.sessions.create(
      params({
        submit_type: 'book',
        payment_intent_data: { metadata: { order_id: 'order-1' }, description: 'Buchung HD-123', receipt_email: 'kunde@hafen.test' },
      }),
    );
    expect(session.submit_type).toBe('book');
    const page = await (await fetch(session.url!)).text();
    // German page (the session's locale): merchant, amount in German format, labelled fields, back link.
    expect(page).toContain('lang="de"');
    expect(page).toContain('Hafen Düsseldorf');
    expect(text(page)).toContain('49,00 €');
    expect(page).toContain(`href="${params().cancel_url}"`);
    const form = formOf(page, 'number');
    expect(form.labels).toEqual(expect.arrayContaining(['number', 'exp', 'cvc', 'name']));
    expect(form.inputs.map((i) => i.name)).not.toContain('email'); // customer_email is given

    const res = await pay(session, { number: '4242 4242 4242 4242' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:3000/de/orders/1?payment=success&session_id=${session.id}`);

    const paid = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent', 'payment_intent.latest_charge'] });
    expect(paid).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      url: null,
      customer_details: { email: 'kunde@hafen.test', name: 'Kim Kunde' },
    });
    const intent = paid.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 4900,
      amount_received: 4900,
      currency: 'eur',
      metadata: { order_id: 'order-1' },
      description: 'Buchung HD-123',
      receipt_email: 'kunde@hafen.test',
      last_payment_error: null,
    });
    expect(intent.id).toMatch(/^pi_/);
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: 'charge',
      status: 'succeeded',
      paid: true,
      amount: 4900,
      amount_refunded: 0,
      refunded: false,
      payment_intent: intent.id,
    });
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 });

    const events = await until(() => {
      const list = eventsFor(session.id)
        .concat(eventsFor(intent.id))
        .filter((r) => ['checkout.session.completed', 'payment_intent.succeeded'].includes(r.event.type));
      return list.length >= 2 ? list : undefined;
    });
    for (const r of events) {
      const event = verified(r);
      expect(event).toMatchObject({
        object: 'event',
        api_version: Stripe.API_VERSION,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
      expect(event.id).toMatch(/^evt_/);
      expect(r.headers['content-type']).toContain('application/json');
    }
    // The events can be fetched back from the API, as a webhook handler may do.
    expect(await stripe.events.retrieve(events[0].event.id)).toMatchObject({ id: events[0].event.id, type: events[0].event.type });
    expect(await stripe.events.retrieve('evt_nope').catch((e: Stripe.errors.StripeError) => e.code)).toBe('resource_missing');
    const completed = events.find((r) => r.event.type === 'checkout.session.completed')!.event.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({
      id: session.id,
      payment_status: 'paid',
      status: 'complete',
      payment_intent: intent.id,
      client_reference_id: 'order-1',
      metadata: { order_id: 'order-1' },
    });

    // The page now says it is paid, and nothing is paid twice.
    expect(text(await (await fetch(session.url ?? `${sandbox.url}/pay/${session.id}`)).text())).toContain(
      'Diese Zahlung ist abgeschlossen',
    );
    const again = await fetch(`${sandbox.url}/pay/${session.id}`, {
      method: 'POST',
      body: new URLSearchParams({ number: '4242424242424242', exp: '12/34', cvc: '123', name: 'X' }),
      redirect: 'manual',
    });
    expect(again.status).toBe(409);
    expect((await stripe.paymentIntents.retrieve(intent.id)).latest_charge).toBe(charge.id);
  });

  it('declines 4000 0000 0000 0002 on the page (de and en), keeps the session open and sends payment_intent.payment_failed', async () => {
    const session = await stripe.checkout.sessions.create(params({ locale: 'en', customer_email: undefined }));
    const declined = await pay(session, { number: '4000 0000 0000 0002', email: 'gast@hafen.test' }, 'en');
    expect(declined.status).toBe(402);
    const html = await declined.text();
    expect(html).toContain('lang="en"');
    expect(text(html)).toContain('Your card was declined.');
    expect(html).toContain('value="gast@hafen.test"'); // what was typed is kept, the card number is not
    expect(html).not.toContain('4000 0000 0000 0002');

    const open = await stripe.checkout.sessions.retrieve(session.id);
    expect(open).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    const intent = await stripe.paymentIntents.retrieve(open.payment_intent as string);
    expect(intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    const failedCharge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(failedCharge).toMatchObject({ status: 'failed', paid: false, failure_code: 'card_declined' });
    const failed = await until(() => eventsFor(intent.id).find((r) => r.event.type === 'payment_intent.payment_failed'));
    expect(verified(failed).type).toBe('payment_intent.payment_failed');

    const de = await stripe.checkout.sessions.create(params());
    expect(text(await (await pay(de, { number: '4000000000000002' })).text())).toContain('Ihre Karte wurde abgelehnt.');
    // locale auto follows the browser's language.
    const auto = await stripe.checkout.sessions.create(params({ locale: 'auto' }));
    expect(await (await fetch(auto.url!, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' } })).text()).toContain('lang="de"');
    expect(await (await fetch(auto.url!, { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).text()).toContain('lang="en"');

    // Another card then pays the same session.
    const ok = await pay(session, { number: '4242424242424242', email: 'gast@hafen.test' }, 'en');
    expect(ok.status).toBe(303);
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    expect(paid).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      payment_intent: intent.id,
      customer_details: { email: 'gast@hafen.test' },
    });
  });

  it('asks 4000 0025 0000 3155 for 3-D Secure: fail returns to the page with a message, complete pays', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const first = await pay(session, { number: '4000 0025 0000 3155' });
    expect(first.status).toBe(303);
    const authUrl = new URL(first.headers.get('location')!, session.url!);
    expect(authUrl.pathname).toBe(`/pay/${session.id}/authenticate`);
    const authPage = await (await fetch(authUrl)).text();
    expect(authPage).toMatch(/Authentifizierung abschließen/);
    // Two forms, one per button: complete and fail.
    const buttons = [
      ...authPage.matchAll(/<form method="post" action="([^"]+)"><input type="hidden" name="outcome" value="(complete|fail)">/g),
    ];
    expect(buttons.map((f) => f[2]).sort()).toEqual(['complete', 'fail']);
    const failAction = buttons.find((f) => f[2] === 'fail')![1];
    expect(
      (await stripe.paymentIntents.retrieve((await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string)).status,
    ).toBe('requires_action');

    const failed = await fetch(new URL(failAction, session.url!), {
      method: 'POST',
      body: new URLSearchParams({ outcome: 'fail' }),
      redirect: 'manual',
    });
    expect(failed.status).toBe(303);
    const back = await (await fetch(new URL(failed.headers.get('location')!, session.url!))).text();
    expect(text(back)).toContain('Wir konnten Ihre Zahlungsmethode nicht authentifizieren.');
    expect(formOf(back, 'number').action).toBe(`/pay/${session.id}`);
    const open = await stripe.checkout.sessions.retrieve(session.id);
    expect(open.status).toBe('open');
    const intent = await stripe.paymentIntents.retrieve(open.payment_intent as string);
    expect(intent).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });
    await until(() => eventsFor(intent.id).find((r) => r.event.type === 'payment_intent.payment_failed'));

    const second = await pay(session, { number: '4000002500003155' });
    const done = await fetch(new URL(second.headers.get('location')!, session.url!), {
      method: 'POST',
      body: new URLSearchParams({ outcome: 'complete' }),
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toContain(`session_id=${session.id}`);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
    // The authentication page of a paid session leads back to the (paid) checkout page.
    const after = await fetch(authUrl, { redirect: 'manual' });
    expect(after.status).toBe(303);
  });

  it('refuses an invalid card number, an incomplete CVC and a past expiry date on the page without charging', async () => {
    const session = await stripe.checkout.sessions.create(params({ locale: 'en' }));
    const luhn = await pay(session, { number: '4242 4242 4242 4241' });
    expect(luhn.status).toBe(400);
    const html = await luhn.text();
    expect(text(html)).toContain('Your card number is invalid.');
    expect(html).toMatch(/id="number" [^>]*aria-invalid="true" aria-describedby="number-error"/);
    const past = await pay(session, { number: '4242424242424242', exp: '01 / 20', cvc: '1' });
    const pastText = text(await past.text());
    expect(pastText).toContain("Your card's expiration date is in the past.");
    expect(pastText).toContain("Your card's security code is incomplete.");
    const de = await stripe.checkout.sessions.create(params());
    expect(text(await (await pay(de, { number: '1234 5678 9012 3456' })).text())).toContain('Ihre Kartennummer ist ungültig.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_intent).toBeNull();
  });

  it('expires a session by API and when expires_at passes, with checkout.session.expired; its page says so', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const expired = await stripe.checkout.sessions.expire(session.id, {}, { idempotencyKey: `expire-${session.id}` });
    expect(expired).toMatchObject({ status: 'expired', payment_status: 'unpaid', url: null });
    const event = await until(() => eventsFor(session.id).find((r) => r.event.type === 'checkout.session.expired'));
    expect(verified(event).request).toMatchObject({ idempotency_key: `expire-${session.id}` });
    expect(verified(event).request?.id).toMatch(/^req_/);
    const again = await stripe.checkout.sessions.expire(session.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const page = await fetch(`${sandbox.url}/pay/${session.id}`);
    expect(text(await page.text())).toContain('Diese Bezahlsitzung ist abgelaufen.');
    const late = await fetch(`${sandbox.url}/pay/${session.id}`, {
      method: 'POST',
      body: new URLSearchParams({ number: '4242424242424242', exp: '12/34', cvc: '123', name: 'X' }),
      redirect: 'manual',
    });
    expect(late.status).toBe(409);

    const timed = await stripe.checkout.sessions.create(params());
    clock += 31 * MINUTE * 1000;
    try {
      expect(await stripe.checkout.sessions.retrieve(timed.id)).toMatchObject({ status: 'expired', url: null });
      const timedEvent = await until(() => eventsFor(timed.id).find((r) => r.event.type === 'checkout.session.expired'));
      expect(verified(timedEvent).request).toEqual({ id: null, idempotency_key: null });
    } finally {
      clock -= 31 * MINUTE * 1000;
    }
  });

  it('refunds part, then the rest, then refuses more; the charge follows and refund.created and charge.refunded are sent', async () => {
    const session = await stripe.checkout.sessions.create(params());
    expect((await pay(session, { number: '4242424242424242' })).status).toBe(303);
    const intentId = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;

    const part = await stripe.refunds.create({ payment_intent: intentId, amount: 1000 }, { idempotencyKey: `refund-${intentId}-1` });
    expect(part).toMatchObject({ object: 'refund', amount: 1000, currency: 'eur', payment_intent: intentId, status: 'succeeded' });
    expect(part.id).toMatch(/^re_/);
    const replay = await stripe.refunds.create({ payment_intent: intentId, amount: 1000 }, { idempotencyKey: `refund-${intentId}-1` });
    expect(replay.id).toBe(part.id);
    const charge = await stripe.charges.retrieve(part.charge as string);
    expect(charge).toMatchObject({ amount_refunded: 1000, refunded: false });

    // One cent above what is left is too much.
    const tooMuch = await stripe.refunds.create({ payment_intent: intentId, amount: 3901 }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({
      statusCode: 400,
      code: 'amount_too_large',
      param: 'amount',
      message: 'Refund amount (€39.01) is greater than unrefunded amount on charge (€39.00)',
    });

    const rest = await stripe.refunds.create({ payment_intent: intentId });
    expect(rest.amount).toBe(3900);
    expect(await stripe.refunds.retrieve(rest.id)).toEqual(rest);
    expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ amount_refunded: 4900, refunded: true });
    const again = await stripe.refunds.create({ payment_intent: intentId, amount: 1 }).catch((e: unknown) => e);
    expect(again).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });

    const events = await until(() => {
      const list = eventsFor(charge.id).filter((r) => ['refund.created', 'charge.refunded'].includes(r.event.type));
      return list.length >= 4 ? list : undefined;
    });
    const types = events.map((r) => verified(r).type).sort();
    expect(types).toEqual(['charge.refunded', 'charge.refunded', 'refund.created', 'refund.created']);
    const lastCharge = events
      .filter((r) => r.event.type === 'charge.refunded')
      .map((r) => r.event.data.object as Stripe.Charge)
      .find((c) => c.refunded);
    expect(lastCharge).toMatchObject({ amount_refunded: 4900, refunded: true, payment_intent: intentId });

    const unpaid = await stripe.checkout.sessions.create(params());
    expect((await pay(unpaid, { number: '4000000000000002' })).status).toBe(402);
    const unpaidIntent = (await stripe.checkout.sessions.retrieve(unpaid.id)).payment_intent as string;
    expect(await stripe.refunds.create({ payment_intent: unpaidIntent }).catch((e: Stripe.errors.StripeError) => e.code)).toBe(
      'charge_not_refundable',
    );
    expect(await stripe.refunds.create({ payment_intent: 'pi_nope' }).catch((e: Stripe.errors.StripeError) => e.statusCode)).toBe(404);
    expect(await stripe.refunds.create({}).catch((e: Stripe.errors.StripeError) => e.statusCode)).toBe(400);
  });

  it('answers a request whose Idempotency-Key is still running with 409 idempotency_key_in_use, as Stripe does: five refunds at once with one key make one refund', async () => {
    // Stripe runs a refund for a while; this sandbox runs each keyed request 300 ms.
    const slow = await startPaymentSandbox({ host: '127.0.0.1', port: 0, merchantName: 'Hafen', now: () => clock, idempotentRunMs: 300 });
    try {
      const api = new Stripe(SANDBOX_SECRET_KEY, { host: '127.0.0.1', port: slow.port, protocol: 'http', maxNetworkRetries: 0 });
      const session = await api.checkout.sessions.create(params());
      expect((await pay(session, { number: '4242424242424242' })).status).toBe(303);
      const intentId = (await api.checkout.sessions.retrieve(session.id)).payment_intent as string;
      const key = `refund-${intentId}-once`;
      const five = await Promise.allSettled(
        Array.from({ length: 5 }, () => api.refunds.create({ payment_intent: intentId, amount: 1000 }, { idempotencyKey: key })),
      );
      const made = five.filter((r) => r.status === 'fulfilled').map((r) => r.value);
      expect(made).toHaveLength(1);
      for (const r of five.filter((r) => r.status === 'rejected')) {
        // stripe-node makes every 409 a StripeAPIError (and retries it when allowed to).
        expect(r.reason).toMatchObject({ statusCode: 409, code: 'idempotency_key_in_use', type: 'StripeAPIError' });
      }
      // Nothing was saved for the refused ones: their retry gets the refund that was made.
      const retried = await api.refunds.create({ payment_intent: intentId, amount: 1000 }, { idempotencyKey: key });
      expect(retried.id).toBe(made[0].id);
      expect(retried.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect((await api.charges.retrieve(made[0].charge as string)).amount_refunded).toBe(1000);
    } finally {
      await slow.close();
    }
  });

  it('a refund of 4000 0000 0000 5126 succeeds, then fails two seconds later: the charge has the amount back, and refund.updated, refund.failed and charge.refund.updated are sent', async () => {
    const failing = await stripe.checkout.sessions.create(params());
    expect((await pay(failing, { number: '4000000000005126' })).status).toBe(303);
    const fine = await stripe.checkout.sessions.create(params());
    expect((await pay(fine, { number: '4242424242424242' })).status).toBe(303);
    const intentOf = async (s: Stripe.Checkout.Session) => (await stripe.checkout.sessions.retrieve(s.id)).payment_intent as string;

    const refund = await stripe.refunds.create({ payment_intent: await intentOf(failing), amount: 1500 });
    const kept = await stripe.refunds.create({ payment_intent: await intentOf(fine), amount: 1500 });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 1500 });
    expect(await stripe.charges.retrieve(refund.charge as string)).toMatchObject({ amount_refunded: 1500 });
    // Not before its time.
    clock += 1000;
    try {
      await stripe.checkout.sessions.retrieve(failing.id);
      expect((await stripe.refunds.retrieve(refund.id)).status).toBe('succeeded');
      clock += 1000;
      await stripe.checkout.sessions.retrieve(failing.id);
      expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
        status: 'failed',
        failure_reason: 'unknown',
        failure_balance_transaction: expect.stringMatching(/^txn_/),
      });
      expect(await stripe.charges.retrieve(refund.charge as string)).toMatchObject({ amount_refunded: 0, refunded: false });
      // Another card's refund stays succeeded.
      expect((await stripe.refunds.retrieve(kept.id)).status).toBe('succeeded');
      expect(await stripe.charges.retrieve(kept.charge as string)).toMatchObject({ amount_refunded: 1500 });
    } finally {
      clock -= 2000;
    }

    const sent = await until(() => {
      const list = eventsFor(refund.id).filter((r) => ['refund.updated', 'refund.failed', 'charge.refund.updated'].includes(r.event.type));
      return list.length >= 3 ? list : undefined;
    });
    const byType = new Map(sent.map((r) => [verified(r).type, verified(r)]));
    expect([...byType.keys()].sort()).toEqual(['charge.refund.updated', 'refund.failed', 'refund.updated']);
    for (const event of byType.values())
      expect(event.data.object).toMatchObject({ id: refund.id, object: 'refund', status: 'failed', amount: 1500 });
    expect(byType.get('refund.updated')!.data.previous_attributes).toMatchObject({ status: 'succeeded' });
    expect(eventsFor(kept.id).filter((r) => r.event.type !== 'refund.created' && r.event.type !== 'charge.refunded')).toEqual([]);
  });

  it('retries a delivery the endpoint answered with 500, bounded in count, without holding up other events', async () => {
    const failing = await stripe.checkout.sessions.create(params());
    const broken = await stripe.checkout.sessions.create(params());
    receiver.answer((event, attempt) => {
      const id = (event.data.object as { id: string }).id;
      if (id === failing.id) return attempt <= 2 ? 500 : 200;
      if (id === broken.id) return 500;
      return 200;
    });
    await stripe.checkout.sessions.expire(broken.id);
    await stripe.checkout.sessions.expire(failing.id);
    const other = await stripe.checkout.sessions.create(params());
    await stripe.checkout.sessions.expire(other.id);

    const deliveries = async () =>
      (
        (await (await fetch(`${sandbox.url}/__sandbox/events?type=checkout.session.expired`)).json()) as {
          data: (Delivery & { event: Stripe.Event })[];
        }
      ).data;
    const byObject = (list: (Delivery & { event: Stripe.Event })[], id: string) =>
      list.find((d) => (d.event.data.object as { id: string }).id === id);
    // The other event arrives at once, while the broken one is still being retried.
    const first = await until(async () => {
      const list = await deliveries();
      return byObject(list, other.id)?.status === 'delivered' ? list : undefined;
    });
    expect(byObject(first, broken.id)?.status).toBe('pending');

    const settled = await until(async () => {
      const list = await deliveries();
      return byObject(list, broken.id)?.status === 'failed' && byObject(list, failing.id)?.status === 'delivered' ? list : undefined;
    });
    expect(byObject(settled, failing.id)!.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(byObject(settled, broken.id)!.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500]);
    // Every attempt carried a valid signature.
    for (const r of receiver.received.filter((x) => (x.event.data.object as { id: string }).id === failing.id))
      expect(verified(r).id).toBeTruthy();
  });

  it('hands Stripe’s settings to edge functions unless functions/.env has a real key', () => {
    expect(stripeEnvironment({}, 54331)).toEqual({
      STRIPE_SECRET_KEY: 'sk_test_local_sandbox',
      STRIPE_WEBHOOK_SECRET: 'whsec_local_sandbox',
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: '54331',
      STRIPE_API_PROTOCOL: 'http',
    });
    expect(stripeEnvironment({ STRIPE_SECRET_KEY: 'sk_test_real' }, 54331)).toEqual({});
  });
});

describe('payment sandbox state', () => {
  it('keeps sessions in a JSON file across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payments-state-'));
    try {
      const stateFile = join(dir, 'payments', 'state.json');
      const first = await startPaymentSandbox({ host: '127.0.0.1', port: 0, merchantName: 'Hafen', stateFile });
      const stripe1 = new Stripe(SANDBOX_SECRET_KEY, { host: '127.0.0.1', port: first.port, protocol: 'http', maxNetworkRetries: 0 });
      const session = await stripe1.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price_data: { currency: 'eur', unit_amount: 1500, product_data: { name: 'Tagesgast' } }, quantity: 1 }],
        success_url: 'http://127.0.0.1:3000/ok',
      });
      await first.close();
      const second = await startPaymentSandbox({ host: '127.0.0.1', port: 0, merchantName: 'Hafen', stateFile });
      try {
        const stripe2 = new Stripe(SANDBOX_SECRET_KEY, { host: '127.0.0.1', port: second.port, protocol: 'http', maxNetworkRetries: 0 });
        expect(await stripe2.checkout.sessions.retrieve(session.id)).toMatchObject({ id: session.id, status: 'open', amount_total: 1500 });
        const page = await fetch(`${second.url}/pay/${session.id}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('Tagesgast');
      } finally {
        await second.close();
      }
      // A damaged file is moved aside with a warning; the sandbox starts empty.
      writeFileSync(stateFile, '{"version": 1, "sessions": {');
      const warnings: string[] = [];
      const third = await startPaymentSandbox({
        host: '127.0.0.1',
        port: 0,
        merchantName: 'Hafen',
        stateFile,
        log: { info() {}, error() {}, warn: (m) => warnings.push(m) },
      });
      try {
        expect(warnings.join('\n')).toMatch(/could not be read .*moved to .*unreadable-/);
        expect((await fetch(`${third.url}/pay/${session.id}`)).status).toBe(404);
      } finally {
        await third.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('payment sandbox in the local stack', () => {
  it('starts with the stack; a Deno function with the stripe SDK (fetch client, SubtleCrypto) verifies its events; functions get its keys and SITE_URL', async () => {
    // Inside the checkout (.data is ignored), so Deno finds the stripe package in node_modules
    // as the project's functions do (--node-modules-dir=manual).
    mkdirSync(join(root, '.data'), { recursive: true });
    const dir = mkdtempSync(join(root, '.data', 'payments-stack-'));
    const workdir = join(dir, 'supabase');
    cpSync(resolve(import.meta.dirname, 'fixtures/functions'), workdir, { recursive: true });
    const fn = join(workdir, 'functions/stripe-webhook');
    mkdirSync(fn, { recursive: true });
    writeFileSync(join(fn, 'deno.json'), JSON.stringify({ imports: { stripe: `npm:stripe@${stripeVersion}` } }));
    // A stand-in for the app's webhook function, set up as the contract's _shared/stripe.ts does:
    // it verifies the signature and reads the session back through the API.
    writeFileSync(
      join(fn, 'index.ts'),
      `// @ts-nocheck
import Stripe from 'stripe';
const stripe = new Stripe(Deno.env.get('STRIPE_SECRET_KEY'), {
  httpClient: Stripe.createFetchHttpClient(),
  host: Deno.env.get('STRIPE_API_HOST'),
  port: Number(Deno.env.get('STRIPE_API_PORT')),
  protocol: Deno.env.get('STRIPE_API_PROTOCOL'),
  maxNetworkRetries: 0,
});
const crypto = Stripe.createSubtleCryptoProvider();
Deno.serve(async (req) => {
  const body = await req.text();
  let event;
  try {
    event = await stripe.webhooks.constructEventAsync(body, req.headers.get('stripe-signature') ?? '', Deno.env.get('STRIPE_WEBHOOK_SECRET'), 300, crypto);
  } catch (error) {
    return Response.json({ error: String(error.message) }, { status: 400 });
  }
  const session = await stripe.checkout.sessions.retrieve(event.data.object.id);
  return Response.json({ event: event.id, status: session.status });
});
`,
    );
    appendFileSync(join(workdir, 'config.toml'), '\n[functions.stripe-webhook]\nverify_jwt = false\n');
    const stack = await startTestStack({ engine: 'pglite', workdir, siteUrl: 'http://127.0.0.1:3999' });
    try {
      expect(stack.paymentsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const stripe = new Stripe(SANDBOX_SECRET_KEY, {
        host: '127.0.0.1',
        port: Number(new URL(stack.paymentsUrl).port),
        protocol: 'http',
        maxNetworkRetries: 0,
      });
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price_data: { currency: 'eur', unit_amount: 1500, product_data: { name: 'Tagesgast' } }, quantity: 1 }],
      });
      expect(session.url).toBe(`${stack.paymentsUrl}/pay/${session.id}`);
      await stripe.checkout.sessions.expire(session.id);
      const delivered = await until(async () => {
        const list = (
          (await (await fetch(`${stack.paymentsUrl}/__sandbox/events`)).json()) as { data: (Delivery & { endpoint: string })[] }
        ).data;
        return list.find((d) => d.status === 'delivered');
      }, 60_000);
      expect(delivered.endpoint).toBe(`${stack.url}${WEBHOOK_PATH}`);
      expect(delivered.attempts.at(-1)?.status).toBe(200);
      // The function refuses a forged event (the check the deliveries passed is a real one).
      const forged = await fetch(`${stack.url}${WEBHOOK_PATH}`, {
        method: 'POST',
        body: '{"id":"evt_x"}',
        headers: { 'stripe-signature': 't=1,v1=00' },
      });
      expect(forged.status).toBe(400);

      const echo = await fetch(`${stack.url}/functions/v1/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.keys.anonKey}` },
      });
      const { env } = (await echo.json()) as { env: Record<string, string | null> };
      expect(env).toMatchObject({
        SITE_URL: 'http://127.0.0.1:3999',
        STRIPE_SECRET_KEY: SANDBOX_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: SANDBOX_WEBHOOK_SECRET,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: new URL(stack.paymentsUrl).port,
        STRIPE_API_PROTOCOL: 'http',
      });
    } finally {
      await stack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const noChromium = existsSync(chromiumPath) ? '' : `no Chromium at ${chromiumPath} (apt-get install chromium)`;

describe.skipIf(noChromium && skipBecause('payment sandbox page in Chromium', noChromium))('payment sandbox page in Chromium', () => {
  it('is usable at 390 px and 1280 px in de and en without serious axe violations, and pays after 3-D Secure', async () => {
    const sandbox = await startPaymentSandbox({ host: '127.0.0.1', port: 0, merchantName: 'Hafen Düsseldorf' });
    const browser = await chromium.launch({ executablePath: chromiumPath });
    try {
      const stripe = new Stripe(SANDBOX_SECRET_KEY, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
      const create = (locale: 'de' | 'en', email?: string) =>
        stripe.checkout.sessions.create({
          mode: 'payment',
          locale,
          customer_email: email,
          line_items: [
            { price_data: { currency: 'eur', unit_amount: 12345, product_data: { name: 'Liegeplatz A12, 2 Nächte' } }, quantity: 1 },
          ],
          success_url: 'http://127.0.0.1:9/done?session_id={CHECKOUT_SESSION_ID}',
          cancel_url: 'http://127.0.0.1:9/back',
        });

      const de = await create('de', 'kunde@hafen.test');
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.route('http://127.0.0.1:9/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>ok</title><p>ok</p>' }),
      );
      await page.goto(de.url!);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expect.poll(() => page.getByText('123,45 €').first().isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: /Zurück/ }).getAttribute('href')).toBe('http://127.0.0.1:9/back');

      const fill = async (number: string) => {
        await page.getByLabel('Kartennummer').fill(number);
        await page.getByLabel('Ablaufdatum (MM / JJ)').fill('12 / 34');
        await page.getByLabel('Prüfnummer (CVC)').fill('123');
        await page.getByLabel('Name auf der Karte').fill('Kim Kunde');
        await page.getByRole('button', { name: 'Bezahlen 123,45 €' }).click();
      };
      await fill('4000 0000 0000 0002');
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Ihre Karte wurde abgelehnt.');
      expect(await seriousViolations(page)).toEqual([]);
      await fill('4242 4242 4242 4241');
      await expect.poll(() => page.getByText('Ihre Kartennummer ist ungültig.').isVisible()).toBe(true);
      expect(await page.getByLabel('Kartennummer').getAttribute('aria-invalid')).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);

      await fill('4000 0025 0000 3155');
      await page.waitForURL(/\/authenticate$/);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Authentifizierung abschließen' }).click();
      await page.waitForURL(`http://127.0.0.1:9/done?session_id=${de.id}`);
      expect(await stripe.checkout.sessions.retrieve(de.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
      await page.goto(`${sandbox.url}/pay/${de.id}`);
      await expect.poll(() => page.getByRole('status').textContent()).toBe('Diese Zahlung ist abgeschlossen. Vielen Dank!');

      const en = await create('en');
      const wide = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await wide.goto(en.url!);
      expect(await seriousViolations(wide)).toEqual([]);
      expect(await wide.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
      await expect.poll(() => wide.getByText('€123.45').first().isVisible()).toBe(true);
      await expect.poll(() => wide.getByLabel('Email').isVisible()).toBe(true);
    } finally {
      await browser.close();
      await sandbox.close();
    }
  }, 60_000);
});
