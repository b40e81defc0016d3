import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import Stripe from 'stripe';
import { chromium } from '@playwright/test';
import { seriousViolations } from '../../../tests/helpers/axe.ts';
import { skipBecause } from './harness/engines.ts';
import { SANDBOX_SECRET_KEY, SANDBOX_WEBHOOK_SECRET, startPaymentSandbox, type PaymentSandbox } from '../src/payments/index.ts';

/**
 * SEPA Direct Debit in the payment sandbox, over real HTTP with the official `stripe` SDK: a
 * mandate through Checkout in setup mode (the hosted page's form submitted as a browser does),
 * off-session PaymentIntents with Stripe's test IBANs (processing, then succeeded, failed or
 * disputed), the signed webhooks and their payloads, Idempotency-Key, and the invalid IBAN.
 * The pending period runs on the sandbox's clock, which the tests move.
 */

const PENDING_MS = 5_000;
const IBAN = {
  succeeds: 'DE89370400440532013000',
  fails: 'DE62370400440532013001',
  disputed: 'DE35370400440532013002',
  delayed: 'DE08370400440532013003',
  insufficient: 'DE65370400440002222227',
};

async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string; event: Stripe.Event }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, event: JSON.parse(body) as Stripe.Event });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function until<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('payment sandbox: SEPA Direct Debit', () => {
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
      retryDelaysMs: [100, 200],
      sepaPendingMs: PENDING_MS,
    });
    stripe = new Stripe(SANDBOX_SECRET_KEY, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
  });

  afterAll(async () => {
    await sandbox?.close();
    await receiver?.close();
  });

  /** The events about one object (by id anywhere in its payload), verified as the app's webhook verifies them. */
  const eventsFor = (id: string) =>
    receiver.received
      .filter((r) => JSON.stringify(r.event.data.object).includes(id))
      .map((r) => stripe.webhooks.constructEvent(r.body, r.headers['stripe-signature'] as string, SANDBOX_WEBHOOK_SECRET));
  const typesFor = (id: string) => eventsFor(id).map((e) => e.type);
  const waitFor = (id: string, type: string) => until(() => eventsFor(id).find((e) => e.type === type));

  /** Moves the sandbox's clock and lets it notice (any API request sweeps). */
  async function advance(ms: number) {
    clock += ms;
    await fetch(`${sandbox.url}/__sandbox/events?type=none`);
  }

  const setupParams = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams => ({
    mode: 'setup',
    currency: 'eur',
    allowed_payment_method_types: ['sepa_debit'],
    customer_email: 'halter@hafen.test',
    locale: 'de',
    client_reference_id: 'contract-1',
    metadata: { contract_id: 'contract-1' },
    setup_intent_data: { metadata: { contract_id: 'contract-1' } },
    success_url: 'http://127.0.0.1:3000/de/account/long-term?mandate=ok&session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:3000/de/account/long-term?mandate=cancelled',
    ...overrides,
  });

  /** Submits the hosted page's form (no redirect followed). */
  async function submit(session: Stripe.Checkout.Session, values: Record<string, string>, lang = 'de') {
    return fetch(session.url!, {
      method: 'POST',
      body: new URLSearchParams(values),
      redirect: 'manual',
      headers: { 'accept-language': lang, 'user-agent': 'Mozilla/5.0 (Hafen test)' },
    });
  }

  /** A complete mandate for an IBAN: session, page, and what the session's SetupIntent holds. */
  async function mandateFor(iban: string) {
    const session = await stripe.checkout.sessions.create(setupParams());
    const res = await submit(session, { name: 'Hanna Halter', iban, mandate: 'accepted' });
    expect(res.status).toBe(303);
    const setupIntent = await stripe.setupIntents.retrieve(session.setup_intent as string);
    return {
      session,
      customer: setupIntent.customer as string,
      paymentMethod: setupIntent.payment_method as string,
      mandate: setupIntent.mandate as string,
    };
  }

  const debit = (m: { customer: string; paymentMethod: string }, amount = 48_000, options: Stripe.RequestOptions = {}) =>
    stripe.paymentIntents.create(
      {
        amount,
        currency: 'eur',
        customer: m.customer,
        payment_method: m.paymentMethod,
        allowed_payment_method_types: ['sepa_debit'],
        confirm: true,
        off_session: true,
        description: 'Saisongebühr 2027, Rate 1',
        metadata: { fee_id: 'fee-1' },
      },
      options,
    );

  it('creates a Checkout Session in setup mode with its SetupIntent, as Stripe does', async () => {
    const session = await stripe.checkout.sessions.create(setupParams());
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'setup',
      status: 'open',
      payment_status: 'no_payment_required',
      amount_total: null,
      currency: 'eur',
      payment_method_types: ['sepa_debit'],
      allowed_payment_method_types: ['sepa_debit'],
      customer: null,
      customer_email: 'halter@hafen.test',
      metadata: { contract_id: 'contract-1' },
      url: `${sandbox.url}/pay/${session.id}`,
    });
    expect(session.setup_intent).toMatch(/^seti_/);
    const setupIntent = await stripe.setupIntents.retrieve(session.setup_intent as string);
    expect(setupIntent).toMatchObject({
      object: 'setup_intent',
      status: 'requires_payment_method',
      payment_method_types: ['sepa_debit'],
      usage: 'off_session',
      metadata: { contract_id: 'contract-1' },
    });
    await waitFor(setupIntent.id, 'setup_intent.created');
    // Setup mode takes no line items and only euros for sepa_debit.
    await expect(
      stripe.checkout.sessions.create(
        setupParams({ line_items: [{ price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'x' } }, quantity: 1 }] }),
      ),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'line_items' });
    await expect(stripe.checkout.sessions.create(setupParams({ currency: 'usd' }))).rejects.toMatchObject({ param: 'currency' });
    await expect(
      stripe.checkout.sessions.create(setupParams({ currency: undefined, allowed_payment_method_types: undefined })),
    ).rejects.toMatchObject({ code: 'parameter_missing', param: 'currency' });
    await expect(stripe.checkout.sessions.create(setupParams({ allowed_payment_method_types: ['card'] }))).rejects.toMatchObject({
      param: 'allowed_payment_method_types',
    });
    // The older API versions' payment_method_types is read too (raw request: this SDK no longer sends it).
    const legacy = await fetch(`${sandbox.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'mode=setup&currency=eur&payment_method_types[]=sepa_debit&success_url=http://127.0.0.1:3000/ok',
    });
    expect(legacy.status).toBe(200);
    expect(await legacy.json()).toMatchObject({ mode: 'setup', payment_method_types: ['sepa_debit'], allowed_payment_method_types: null });
  });

  it('shows the mandate text and refuses a bad IBAN with Stripe’s message in the page’s language', async () => {
    const session = await stripe.checkout.sessions.create(setupParams());
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('<html lang="de">');
    expect(text(page)).toContain('ermächtigen Sie (A) Hafen Düsseldorf und Stripe, unseren Zahlungsdienstleister');
    expect(page).toMatch(/<label for="iban">IBAN<\/label>/);
    expect(page).toMatch(/<input type="checkbox" id="mandate" name="mandate"/);

    const wrongChecksum = await submit(session, { name: 'Hanna Halter', iban: 'DE89 3704 0044 0532 0130 01', mandate: 'accepted' });
    expect(wrongChecksum.status).toBe(400);
    const html = await wrongChecksum.text();
    expect(text(html)).toContain('Ihre IBAN ist ungültig.');
    expect(html).toMatch(/id="iban" [^>]*aria-invalid="true" aria-describedby="iban-error"/);

    const short = await submit(session, { name: 'Hanna Halter', iban: 'DE8937040044', mandate: 'accepted' });
    expect(text(await short.text())).toContain('Ihre IBAN ist unvollständig.');

    const notAccepted = await submit(session, { name: '', iban: IBAN.succeeds });
    const notAcceptedText = text(await notAccepted.text());
    expect(notAcceptedText).toContain('Bitte erteilen Sie das Lastschriftmandat.');
    expect(notAcceptedText).toContain('Bitte geben Sie den Namen der Kontoinhaberin oder des Kontoinhabers ein.');

    const english = await stripe.checkout.sessions.create(setupParams({ locale: 'en' }));
    const en = await submit(english, { name: 'Hanna Halter', iban: 'DE89370400440532013001', mandate: 'accepted' }, 'en');
    expect(text(await en.text())).toContain('Your IBAN is invalid.');
    expect(text(await (await fetch(english.url!)).text())).toContain('you authorise (A) Hafen Düsseldorf and Stripe');
    // Nothing was set up by the refused attempts.
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    expect((await stripe.setupIntents.retrieve(session.setup_intent as string)).status).toBe('requires_payment_method');
  });

  it('sets up the mandate: Customer, PaymentMethod, Mandate, SetupIntent succeeded, redirect and the webhooks', async () => {
    const session = await stripe.checkout.sessions.create(setupParams());
    const res = await submit(session, { name: 'Hanna Halter', iban: 'de89 3704 0044 0532 0130 00', mandate: 'accepted' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:3000/de/account/long-term?mandate=ok&session_id=${session.id}`);

    const completed = await stripe.checkout.sessions.retrieve(session.id);
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'no_payment_required', url: null });
    expect(completed.customer).toMatch(/^cus_/);
    expect(completed.customer_details).toMatchObject({ email: 'halter@hafen.test', name: 'Hanna Halter' });

    const setupIntent = await stripe.setupIntents.retrieve(session.setup_intent as string, { expand: ['payment_method', 'mandate'] });
    expect(setupIntent.status).toBe('succeeded');
    expect(setupIntent.customer).toBe(completed.customer);
    const pm = setupIntent.payment_method as Stripe.PaymentMethod;
    expect(pm).toMatchObject({
      object: 'payment_method',
      type: 'sepa_debit',
      customer: completed.customer,
      billing_details: { name: 'Hanna Halter', email: 'halter@hafen.test' },
      sepa_debit: { last4: '3000', bank_code: '37040044', country: 'DE' },
    });
    expect(pm.sepa_debit!.fingerprint).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(JSON.stringify(pm)).not.toContain('0532013000');
    const mandate = setupIntent.mandate as Stripe.Mandate;
    expect(mandate).toMatchObject({
      object: 'mandate',
      type: 'multi_use',
      status: 'active',
      payment_method: pm.id,
      customer_acceptance: { type: 'online', online: { ip_address: '127.0.0.1', user_agent: 'Mozilla/5.0 (Hafen test)' } },
      payment_method_details: { type: 'sepa_debit' },
    });
    expect(mandate.customer_acceptance.accepted_at).toBe(Math.floor(clock / 1000));
    expect(mandate.payment_method_details.sepa_debit!.reference).toMatch(/^[A-Z0-9]{16}$/);
    const mandatePage = await fetch(mandate.payment_method_details.sepa_debit!.url, { headers: { 'accept-language': 'de' } });
    expect(mandatePage.status).toBe(200);
    expect(text(await mandatePage.text())).toContain(mandate.payment_method_details.sepa_debit!.reference);
    expect((await stripe.mandates.retrieve(mandate.id)).id).toBe(mandate.id);
    expect((await stripe.customers.retrieve(completed.customer as string)) as Stripe.Customer).toMatchObject({
      email: 'halter@hafen.test',
      name: 'Hanna Halter',
    });

    const done = await waitFor(session.id, 'checkout.session.completed');
    const object = done.data.object as Stripe.Checkout.Session;
    expect(object).toMatchObject({ mode: 'setup', status: 'complete', setup_intent: setupIntent.id, customer: completed.customer });
    const succeeded = await waitFor(setupIntent.id, 'setup_intent.succeeded');
    expect(succeeded.data.object).toMatchObject({ status: 'succeeded', payment_method: pm.id, mandate: mandate.id });
    await waitFor(pm.id, 'payment_method.attached');
    await waitFor(completed.customer as string, 'customer.created');
    // The page now says it is done; a second submission changes nothing.
    expect(text(await (await fetch(`${sandbox.url}/pay/${session.id}`)).text())).toContain('Das Lastschriftmandat ist erteilt.');
    expect((await submit(session, { name: 'X', iban: IBAN.fails, mandate: 'accepted' })).status).toBe(409);
  });

  it('debits off-session: processing at once, succeeded after the pending period, with Stripe’s events', async () => {
    const m = await mandateFor(IBAN.succeeds);
    const intent = await debit(m);
    expect(intent).toMatchObject({
      object: 'payment_intent',
      status: 'processing',
      amount: 48_000,
      amount_received: 0,
      currency: 'eur',
      customer: m.customer,
      payment_method: m.paymentMethod,
      payment_method_types: ['sepa_debit'],
      metadata: { fee_id: 'fee-1' },
    });
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(charge).toMatchObject({
      status: 'pending',
      paid: false,
      amount: 48_000,
      payment_intent: intent.id,
      payment_method_details: {
        type: 'sepa_debit',
        sepa_debit: { last4: '3000', bank_code: '37040044', country: 'DE', mandate: m.mandate },
      },
    });
    await waitFor(intent.id, 'payment_intent.processing');
    await waitFor(intent.id, 'charge.pending');
    expect(typesFor(intent.id)).toEqual(['payment_intent.created', 'payment_intent.processing', 'charge.pending']);

    // Not before the pending period is over …
    await advance(PENDING_MS - 1000);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('processing');
    // … then the bank's answer.
    await advance(1000);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
    const succeeded = await waitFor(intent.id, 'payment_intent.succeeded');
    expect(succeeded.data.object).toMatchObject({ id: intent.id, status: 'succeeded', amount_received: 48_000, latest_charge: charge.id });
    const chargeEvent = await waitFor(charge.id, 'charge.succeeded');
    expect(chargeEvent.data.object).toMatchObject({ status: 'succeeded', paid: true });
    expect(typesFor(intent.id)).toEqual([
      'payment_intent.created',
      'payment_intent.processing',
      'charge.pending',
      'charge.succeeded',
      'payment_intent.succeeded',
    ]);
  });

  it('fails a debit from the failing test IBAN: requires_payment_method with last_payment_error, charge.failed', async () => {
    const m = await mandateFor(IBAN.fails);
    const intent = await debit(m, 12_345);
    expect(intent.status).toBe('processing');
    await advance(PENDING_MS);
    const failed = await waitFor(intent.id, 'payment_intent.payment_failed');
    const object = failed.data.object as Stripe.PaymentIntent;
    expect(object).toMatchObject({
      status: 'requires_payment_method',
      amount_received: 0,
      last_payment_error: { code: 'generic_could_not_process', payment_method_type: 'sepa_debit', charge: intent.latest_charge },
    });
    expect(object.last_payment_error!.payment_method).toMatchObject({ id: m.paymentMethod, type: 'sepa_debit' });
    const chargeFailed = await waitFor(intent.latest_charge as string, 'charge.failed');
    expect(chargeFailed.data.object).toMatchObject({ status: 'failed', failure_code: 'generic_could_not_process' });
    expect(typesFor(intent.id)).not.toContain('payment_intent.succeeded');

    // The insufficient-funds IBAN fails with its own code.
    const poor = await debit(await mandateFor(IBAN.insufficient));
    await advance(PENDING_MS);
    const poorFailed = await waitFor(poor.id, 'payment_intent.payment_failed');
    expect((poorFailed.data.object as Stripe.PaymentIntent).last_payment_error?.code).toBe('insufficient_funds');
  });

  it('disputes a debit from the disputed test IBAN right after it succeeded, and the mandate is no longer used', async () => {
    const m = await mandateFor(IBAN.disputed);
    const intent = await debit(m, 24_000);
    await advance(PENDING_MS);
    await waitFor(intent.id, 'payment_intent.succeeded');
    const created = await waitFor(intent.latest_charge as string, 'charge.dispute.created');
    const dispute = created.data.object as Stripe.Dispute;
    expect(dispute).toMatchObject({
      object: 'dispute',
      amount: 24_000,
      currency: 'eur',
      charge: intent.latest_charge,
      payment_intent: intent.id,
      status: 'lost',
    });
    expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({ id: dispute.id, charge: intent.latest_charge });
    expect((await stripe.charges.retrieve(intent.latest_charge as string)).disputed).toBe(true);
    const updated = await waitFor(m.mandate, 'mandate.updated');
    expect(updated.data).toMatchObject({ object: { id: m.mandate, status: 'inactive' }, previous_attributes: { status: 'active' } });
    await expect(debit(m)).rejects.toMatchObject({ code: 'payment_intent_mandate_invalid', param: 'mandate' });
  });

  it('cancels the SetupIntent of an expired setup session', async () => {
    const session = await stripe.checkout.sessions.create(setupParams());
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired.status).toBe('expired');
    expect(await stripe.setupIntents.retrieve(session.setup_intent as string)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'abandoned',
    });
    await waitFor(session.setup_intent as string, 'setup_intent.canceled');
    expect((await submit(session, { name: 'Hanna Halter', iban: IBAN.succeeds, mandate: 'accepted' })).status).toBe(409);
  });

  it('keeps the delayed test IBAN processing for at least three minutes', async () => {
    const intent = await debit(await mandateFor(IBAN.delayed));
    await advance(PENDING_MS);
    await advance(2 * 60_000);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('processing');
    await advance(60_000);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
  });

  it('honours Idempotency-Key on the new POSTs: one debit for a retried request, an error for other parameters', async () => {
    const m = await mandateFor(IBAN.succeeds);
    const key = `fee-1-attempt-1-${m.paymentMethod}`;
    const first = await debit(m, 48_000, { idempotencyKey: key });
    const second = await debit(m, 48_000, { idempotencyKey: key });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    await expect(debit(m, 50_000, { idempotencyKey: key })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    await advance(PENDING_MS);
    await waitFor(first.id, 'payment_intent.succeeded');
    const processing = receiver.received.filter(
      (r) => r.event.type === 'payment_intent.processing' && (r.event.data.object as Stripe.PaymentIntent).customer === m.customer,
    );
    expect(processing).toHaveLength(1);
    // Events carry the request and its key.
    expect(eventsFor(first.id).find((e) => e.type === 'payment_intent.processing')!.request).toMatchObject({ idempotency_key: key });

    const customerKey = `customer-${m.customer}`;
    const c1 = await stripe.customers.create({ email: 'a@hafen.test' }, { idempotencyKey: customerKey });
    const c2 = await stripe.customers.create({ email: 'a@hafen.test' }, { idempotencyKey: customerKey });
    expect(c2.id).toBe(c1.id);
  });

  it('answers an invalid IBAN with Stripe’s error object, and needs a mandate before a debit', async () => {
    const bad = await fetch(`${sandbox.url}/v1/payment_methods`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'sepa_debit', 'sepa_debit[iban]': 'DE89370400440532013001', 'billing_details[name]': 'X' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'invalid_bank_account_iban',
        param: 'sepa_debit[iban]',
        message: 'The IBAN you provided is invalid.',
        doc_url: 'https://stripe.com/docs/error-codes/invalid-bank-account-iban',
      },
    });
    await expect(
      stripe.paymentMethods.create({
        type: 'sepa_debit',
        sepa_debit: { iban: 'XX00123' },
        billing_details: { name: 'X', email: 'x@hafen.test' },
      }),
    ).rejects.toMatchObject({ code: 'invalid_bank_account_iban' });

    const pm = await stripe.paymentMethods.create({
      type: 'sepa_debit',
      sepa_debit: { iban: IBAN.succeeds },
      billing_details: { name: 'Hanna Halter', email: 'halter@hafen.test' },
    });
    expect(pm).toMatchObject({ type: 'sepa_debit', customer: null, sepa_debit: { last4: '3000', country: 'DE' } });
    // Without a mandate there is no debit (and nothing is kept).
    await expect(
      stripe.paymentIntents.create({ amount: 1000, currency: 'eur', payment_method: pm.id, confirm: true, off_session: true }),
    ).rejects.toMatchObject({ code: 'payment_intent_mandate_invalid' });
    await expect(
      stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: pm.id, confirm: true }),
    ).rejects.toMatchObject({
      param: 'currency',
    });
    // Another customer's payment method is refused.
    const m = await mandateFor(IBAN.succeeds);
    const other = await stripe.customers.create({ email: 'b@hafen.test' });
    await expect(debit({ customer: other.id, paymentMethod: m.paymentMethod })).rejects.toMatchObject({ param: 'payment_method' });
  });
});

const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const noChromium = existsSync(chromiumPath) ? '' : `no Chromium at ${chromiumPath} (apt-get install chromium)`;

describe.skipIf(noChromium && skipBecause('SEPA setup page in Chromium', noChromium))('SEPA setup page in Chromium', () => {
  it('is usable at 390 px and 1280 px in de and en without serious axe violations, and sets up the mandate', async () => {
    const sandbox = await startPaymentSandbox({ host: '127.0.0.1', port: 0, merchantName: 'Hafen Düsseldorf' });
    const browser = await chromium.launch({ executablePath: chromiumPath });
    try {
      const stripe = new Stripe(SANDBOX_SECRET_KEY, { host: '127.0.0.1', port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
      const create = (locale: 'de' | 'en', email?: string) =>
        stripe.checkout.sessions.create({
          mode: 'setup',
          currency: 'eur',
          allowed_payment_method_types: ['sepa_debit'],
          locale,
          customer_email: email,
          success_url: 'http://127.0.0.1:9/done?session_id={CHECKOUT_SESSION_ID}',
          cancel_url: 'http://127.0.0.1:9/back',
        });
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.route('http://127.0.0.1:9/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>ok</title><p>ok</p>' }),
      );
      const de = await create('de', 'halter@hafen.test');
      await page.goto(de.url!);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.getByLabel('Name der Kontoinhaberin / des Kontoinhabers').fill('Hanna Halter');
      await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 01');
      await page.getByLabel('Ich erteile das SEPA-Lastschriftmandat.').check();
      await page.getByRole('button', { name: 'Mandat erteilen' }).click();
      await expect.poll(() => page.getByText('Ihre IBAN ist ungültig.').isVisible()).toBe(true);
      expect(await page.getByLabel('IBAN').getAttribute('aria-invalid')).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
      await page.getByLabel('Ich erteile das SEPA-Lastschriftmandat.').check();
      await page.getByRole('button', { name: 'Mandat erteilen' }).click();
      await page.waitForURL(/127\.0\.0\.1:9\/done/);
      expect(page.url()).toBe(`http://127.0.0.1:9/done?session_id=${de.id}`);
      expect((await stripe.checkout.sessions.retrieve(de.id)).status).toBe('complete');

      const en = await create('en');
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(en.url!);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Accept mandate' }).click();
      await expect.poll(() => page.getByText('Please accept the direct debit mandate.').isVisible()).toBe(true);
      expect(await page.getByText('Your email address is invalid.').isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await browser.close();
      await sandbox.close();
    }
  });
});
