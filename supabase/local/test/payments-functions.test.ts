/**
 * The payment edge functions (supabase/functions/create-checkout, stripe-webhook,
 * refund-payment) against the project (schema + seed) on the local stack with its payment
 * sandbox, offline (Deno takes the stripe SDK from node_modules): a guest books through the
 * REST API as the app does, pays on the sandbox's checkout page with a form post as a browser
 * would, and the sandbox's signed webhook makes the order paid; staff refund part, then the
 * rest. The webhook refuses what is not signed by Stripe (missing, forged, stale, another
 * secret) and records nothing then; a replay changes nothing; events out of order end in the
 * right state. Events the tests send themselves are signed with the stripe SDK's own
 * generateTestHeaderStringAsync and shaped as the SDK's types describe them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import Stripe from 'stripe';
import { createClient } from '@supabase/supabase-js';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses, downloadedNpmFiles } from './harness/offline.ts';
import {
  SANDBOX_SECRET_KEY,
  SANDBOX_WEBHOOK_SECRET as WEBHOOK_SECRET,
  callFunction,
  clientOptions,
  guestOrder as bookAsGuest,
  payOnSandbox,
  sessionIdOf,
  until,
  type Answer,
  type GuestOrder,
} from './harness/payments.ts';
import type { Stack } from '../src/stack.ts';
import { signInWithPassword } from './harness/demo-staff.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

const STAFF = { email: 'hafen@hafen.test', password: 'Hafen1234' };
/** How long a test waits for the sandbox's webhook to take effect: its retries (1 s, 2 s, 4 s …) on a loaded machine. */
const WEBHOOK_MS = 60_000;

for (const engine of engines()) {
  const suite = `payment functions on ${engine.name}`;
  describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
    let stack: Stack;
    let stripe: Stripe;
    let staffToken: string;
    let dayOffset = 40;

    const call = (name: string, options?: Parameters<typeof callFunction>[2]) => callFunction(stack, name, options);
    const guestOrder = (locale: 'de' | 'en' = 'de') => bookAsGuest(stack, dayOffset++, locale);

    const paymentStatus = async (orderId: string) =>
      (
        await stack.db.query<{ payment_status: string; status: string }>(
          `select payment_status::text, status::text from public.orders where id = $1`,
          [orderId],
        )
      ).rows[0];
    const ledger = async (orderId: string) =>
      (
        await stack.db.query<{
          id: string;
          kind: string;
          method: string;
          amount_cents: number;
          provider: string | null;
          provider_payment_id: string | null;
          provider_refund_id: string | null;
          refund_of: string | null;
          recorded_by: string | null;
        }>(
          `select id::text, kind, method::text, amount_cents, provider, provider_payment_id, provider_refund_id, refund_of::text, recorded_by::text
           from public.payments where order_id = $1 order by recorded_at, kind`,
          [orderId],
        )
      ).rows;
    const sessionsOf = async (orderId: string) =>
      (
        await stack.db.query<{ id: string; status: string; url: string; amount_cents: number }>(
          `select id, status, url, amount_cents from public.checkout_sessions where order_id = $1`,
          [orderId],
        )
      ).rows;

    const checkout = (order: GuestOrder, headers?: Record<string, string>) =>
      call('create-checkout', { token: order.token, body: { order_id: order.orderId }, headers });

    /** A Stripe event around `object`, as the SDK's Event type has it. */
    function event(type: string, object: Record<string, unknown>, id = `evt_test_${randomBytes(12).toString('hex')}`) {
      return {
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
    }

    /** Delivers a body to stripe-webhook as Stripe does (no Supabase token), signed as given. */
    async function deliver(payload: string, signature?: { secret?: string; timestamp?: number; header?: string }): Promise<Answer> {
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      if (signature) {
        headers['stripe-signature'] =
          signature.header ??
          (await Stripe.webhooks.generateTestHeaderStringAsync({
            payload,
            secret: signature.secret ?? WEBHOOK_SECRET,
            timestamp: signature.timestamp ?? Math.floor(Date.now() / 1000),
            cryptoProvider: Stripe.createSubtleCryptoProvider(),
          }));
      }
      return call('stripe-webhook', { token: null, body: payload, headers });
    }
    const send = (evt: object) => deliver(JSON.stringify(evt), {});

    /** The order's open session at the sandbox as Stripe would describe it once paid, and its payment intent. */
    async function completedSession(order: GuestOrder) {
      const started = await checkout(order);
      expect(started.status).toBe(200);
      const session = await stripe.checkout.sessions.retrieve(sessionIdOf(started.body.url as string));
      const paymentIntent = `pi_test_${randomBytes(12).toString('hex')}`;
      return {
        ...session,
        status: 'complete',
        payment_status: 'paid',
        payment_intent: paymentIntent,
        amount_total: session.amount_total,
      } as unknown as Stripe.Checkout.Session & { payment_intent: string };
    }

    /** A refund object of the SDK's Refund shape. */
    function refundObject(paymentIntent: string, amount: number, orderId: string) {
      return {
        id: `re_test_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount,
        balance_transaction: null,
        charge: `ch_test_${paymentIntent.slice(8)}`,
        created: Math.floor(Date.now() / 1000),
        currency: 'eur',
        destination_details: null,
        metadata: { order_id: orderId },
        payment_intent: paymentIntent,
        reason: null,
        receipt_number: null,
        source_transfer_reversal: null,
        status: 'succeeded',
        transfer_reversal: null,
      };
    }

    beforeAll(async () => {
      stack = await startTestStack({ engine: engine.name, workdir: project, paymentsPort: 0 });
      const sandbox = new URL(stack.paymentsUrl);
      stripe = new Stripe(SANDBOX_SECRET_KEY, { host: sandbox.hostname, port: sandbox.port, protocol: 'http', maxNetworkRetries: 0 });
      const staff = createClient(stack.url, stack.keys.anonKey, clientOptions);
      const { data, error } = await signInWithPassword(staff, STAFF);
      if (error) throw error;
      staffToken = data.session!.access_token;
    }, 180_000);

    afterAll(async () => {
      await stack?.close();
    });

    it('create-checkout answers bad or foreign requests with 4xx and starts no session', async () => {
      const order = await guestOrder();
      const other = await guestOrder();
      expect((await call('create-checkout', { token: null, body: { order_id: order.orderId } })).status).toBe(401); // the gateway: no JWT
      expect(await call('create-checkout', { body: { order_id: order.orderId } })).toEqual({
        status: 401,
        body: { error: 'not_signed_in' },
      }); // the anon key
      expect((await call('create-checkout', { token: order.token, method: 'GET' })).status).toBe(405);
      for (const body of [{}, { order_id: 'not-a-uuid' }, { order_id: 42 }, 'not json', [order.orderId]]) {
        expect(await call('create-checkout', { token: order.token, body })).toEqual({ status: 400, body: { error: 'invalid_request' } });
      }
      // Someone else's order, and one that does not exist: the database refuses, 4xx with its code.
      const foreign = await call('create-checkout', { token: other.token, body: { order_id: order.orderId } });
      expect(foreign.status).toBeGreaterThanOrEqual(400);
      expect(foreign.status).toBeLessThan(500);
      expect(foreign.body.error).toMatch(/^[a-z_]+$/);
      const missing = await call('create-checkout', { token: order.token, body: { order_id: '00000000-0000-4000-8000-000000000000' } });
      expect(missing.status).toBeGreaterThanOrEqual(400);
      expect(missing.status).toBeLessThan(500);
      expect(await sessionsOf(order.orderId)).toEqual([]);
    });

    it(
      'a guest pays: the sandbox URL charges quote_booking to the cent, one session for two tabs, the webhook makes the order paid, the invoice and the receipt e-mail follow',
      async () => {
        const order = await guestOrder('en');
        expect(order.priceCents).toBe(order.quoteCents);

        // Two tabs press "pay" at once: one session, one URL.
        const [first, second] = await Promise.all([checkout(order, { origin: 'https://evil.example' }), checkout(order)]);
        expect(first.status).toBe(200);
        expect(second).toEqual(first);
        const url = first.body.url as string;
        expect(url.startsWith(`${stack.paymentsUrl}/pay/cs_`)).toBe(true);
        // Normally the same Idempotency-Key made it one session; two calls a minute apart make a
        // second one, which is closed at once: either way exactly one stays open, the one answered.
        const settled = await until(
          () => sessionsOf(order.orderId),
          (rows) => rows.every((r) => r.id === sessionIdOf(url) || r.status === 'expired'),
          WEBHOOK_MS,
        );
        expect(settled.filter((r) => r.status === 'open')).toEqual([
          expect.objectContaining({ id: sessionIdOf(url), url, amount_cents: order.quoteCents }),
        ]);

        // What the sandbox (Stripe) was asked to charge, read back through its API.
        const session = await stripe.checkout.sessions.retrieve(sessionIdOf(url));
        expect(session.amount_total).toBe(order.quoteCents);
        expect(session.currency).toBe('eur');
        expect(session.mode).toBe('payment');
        expect(session.client_reference_id).toBe(order.orderId);
        expect(session.metadata?.order_id).toBe(order.orderId);
        const { booking_number: bookingNumber } = (
          await stack.db.query<{ booking_number: string }>('select booking_number from public.orders where id = $1', [order.orderId])
        ).rows[0];
        expect(session.metadata?.booking_reference).toBe(bookingNumber);
        expect(bookingNumber).toMatch(/^HD-\d{2}-[2-9A-HJKMNP-TV-Z]{4}$/);
        expect(session.customer_email).toBe(order.email);
        expect(session.locale).toBe('en');
        // An unknown Origin never becomes the return address: the app's SITE_URL does.
        const site = new URL(stack.config.auth.siteUrl).origin;
        expect(session.success_url).toBe(`${site}/en/order/${order.orderId}?payment=success&session_id={CHECKOUT_SESSION_ID}`);
        expect(session.cancel_url).toBe(`${site}/en/order/${order.orderId}?payment=cancelled`);
        expect(session.expires_at - Date.now() / 1000).toBeGreaterThan(30 * 60);

        // The app served from one of its other origins (config.toml's additional_redirect_urls)
        // gets its own origin back; an unknown one (above) never does.
        const elsewhere = await guestOrder('en');
        const fromDev = await checkout(elsewhere, { origin: 'http://localhost:5173' });
        const devSession = await stripe.checkout.sessions.retrieve(sessionIdOf(fromDev.body.url as string));
        expect(devSession.success_url).toBe(
          `http://localhost:5173/en/order/${elsewhere.orderId}?payment=success&session_id={CHECKOUT_SESSION_ID}`,
        );

        // While it is open, "pay" again gives the same page.
        expect(await checkout(order)).toEqual(first);

        const paid = await payOnSandbox(url);
        expect(paid.status).toBe(303);
        expect(paid.location).toBe(`${site}/en/order/${order.orderId}?payment=success&session_id=${sessionIdOf(url)}`);

        // The sandbox's webhook, verified and recorded: the guest sees the order paid.
        const seen = await until(
          async () => (await order.client.from('orders').select('payment_status').eq('id', order.orderId).single()).data?.payment_status,
          (s) => s === 'paid',
          WEBHOOK_MS,
        );
        expect(seen).toBe('paid');
        const rows = await ledger(order.orderId);
        expect(rows).toEqual([
          expect.objectContaining({
            kind: 'payment',
            method: 'online',
            amount_cents: order.quoteCents,
            provider: 'stripe',
            recorded_by: null,
          }),
        ]);
        expect(rows[0].provider_payment_id).toMatch(/^pi_/);
        // The session's own event (it may come after payment_intent.succeeded, which recorded the
        // payment). The paid session by its id: a second session closed at once (above) may be
        // listed first, and an update moves a row behind the others in Postgres's heap.
        const paidSession = (r: Awaited<ReturnType<typeof sessionsOf>>) => r.find((s) => s.id === sessionIdOf(url))?.status;
        expect(
          paidSession(
            await until(
              () => sessionsOf(order.orderId),
              (r) => paidSession(r) === 'complete',
              WEBHOOK_MS,
            ),
          ),
        ).toBe('complete');

        // Paid: no second checkout, with the database's reason.
        const again = await checkout(order);
        expect(again.status).toBeGreaterThanOrEqual(400);
        expect(again.status).toBeLessThan(500);
        expect(again.body.error).toMatch(/^[a-z_]+$/);
        expect((await sessionsOf(order.orderId)).filter((r) => r.status !== 'expired')).toHaveLength(1);

        // Paid: the invoice is issued, and the receipt reaches the guest's mailbox in the
        // booking's language (queued by the ledger, delivered by send-mail through pg_net).
        const invoices = await stack.db.query<{ gross_cents: number }>(`select gross_cents from public.invoices where order_id = $1`, [
          order.orderId,
        ]);
        expect(invoices.rows).toEqual([{ gross_cents: order.quoteCents }]);
        const receipt = await until(
          async () => stack.context.mailer.store.list(order.email).find((m) => m.subject.startsWith('Payment received: berth ')),
          (mail) => mail !== undefined,
          WEBHOOK_MS,
        );
        expect(receipt?.text).toContain(`Amount: EUR ${(order.quoteCents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
        expect(receipt?.text).toContain(`Payment reference: ${rows[0].provider_payment_id}`);
        const number = (
          await stack.db.query<{ booking_number: string }>('select booking_number from public.orders where id = $1', [order.orderId])
        ).rows[0].booking_number;
        expect(receipt?.text).toContain(`Booking number: ${number}`);
        expect(receipt?.text).not.toContain(`Booking number: ${order.orderId}`);
      },
      4 * WEBHOOK_MS,
    );

    it(
      'refund-payment (after a declined card and a second try): a customer cannot, bad amounts are 400, staff refund part then the rest and the ledger follows the webhook',
      async () => {
        const order = await guestOrder();
        const started = await checkout(order);
        // A declined card first: the page says so, the order stays payable with the same session.
        const declined = await payOnSandbox(started.body.url as string, '4000 0000 0000 0002');
        expect(declined.status).toBe(402);
        expect(declined.html).toContain('Ihre Karte wurde abgelehnt.');
        expect(await checkout(order)).toEqual(started);
        expect(await paymentStatus(order.orderId)).toMatchObject({ payment_status: 'pending' });
        expect((await payOnSandbox(started.body.url as string)).status).toBe(303);
        expect(
          (
            await until(
              () => paymentStatus(order.orderId),
              (s) => s.payment_status === 'paid',
              WEBHOOK_MS,
            )
          ).payment_status,
        ).toBe('paid');

        // Each call a new refund (a new request key), as staff confirming one after the other.
        const refund = (token: string, body: unknown) =>
          call('refund-payment', { token, body: body && typeof body === 'object' ? { idempotency_key: randomUUID(), ...body } : body });
        const own = await refund(order.token, { order_id: order.orderId, amount_cents: 100 });
        expect(own.status).toBeGreaterThanOrEqual(400);
        expect(own.status).toBeLessThan(500);
        expect(await refund(stack.keys.anonKey, { order_id: order.orderId, amount_cents: 100 })).toEqual({
          status: 401,
          body: { error: 'not_signed_in' },
        });
        for (const body of [
          { order_id: order.orderId },
          { order_id: order.orderId, amount_cents: 0 },
          { order_id: order.orderId, amount_cents: -100 },
          { order_id: order.orderId, amount_cents: 12.5 },
          { order_id: order.orderId, amount_cents: '100' },
          { order_id: 'x', amount_cents: 100 },
          'not json',
        ]) {
          expect(await refund(staffToken, body)).toEqual({ status: 400, body: { error: 'invalid_request' } });
        }
        const tooMuch = await refund(staffToken, { order_id: order.orderId, amount_cents: order.priceCents + 1 });
        expect(tooMuch.status).toBeGreaterThanOrEqual(400);
        expect(tooMuch.status).toBeLessThan(500);
        expect((await ledger(order.orderId)).filter((r) => r.kind === 'refund')).toEqual([]);

        const part = 1000;
        const partial = await refund(staffToken, { order_id: order.orderId, amount_cents: part });
        expect(partial.status).toBe(200);
        expect(partial.body.refund_id).toMatch(/^re_/);
        expect(
          await until(
            () => paymentStatus(order.orderId),
            (s) => s.payment_status === 'partially_refunded',
            WEBHOOK_MS,
          ),
        ).toMatchObject({ payment_status: 'partially_refunded' });
        const payment = (await ledger(order.orderId)).find((r) => r.kind === 'payment')!;
        expect((await ledger(order.orderId)).filter((r) => r.kind === 'refund')).toEqual([
          expect.objectContaining({ amount_cents: part, refund_of: payment.id, provider_refund_id: partial.body.refund_id }),
        ]);

        const rest = await refund(staffToken, { order_id: order.orderId, amount_cents: order.priceCents - part });
        expect(rest.status).toBe(200);
        expect(rest.body.refund_id).not.toBe(partial.body.refund_id);
        expect(
          await until(
            () => paymentStatus(order.orderId),
            (s) => s.payment_status === 'refunded',
            WEBHOOK_MS,
          ),
        ).toMatchObject({ payment_status: 'refunded' });
        const refunds = (await ledger(order.orderId)).filter((r) => r.kind === 'refund');
        expect(refunds.map((r) => r.amount_cents).sort((a, b) => a - b)).toEqual([part, order.priceCents - part].sort((a, b) => a - b));

        // Nothing is left to refund.
        const more = await refund(staffToken, { order_id: order.orderId, amount_cents: 1 });
        expect(more.status).toBeGreaterThanOrEqual(400);
        expect(more.status).toBeLessThan(500);
      },
      4 * WEBHOOK_MS,
    );

    it(
      'refund-payment after a refund the bank did not take asks Stripe again (a new refund, not the failed one replayed) and notes it: the desk does not pay the same money back while it is in flight',
      async () => {
        const order = await guestOrder();
        const started = await checkout(order);
        expect((await payOnSandbox(started.body.url as string, '4000 0000 0000 5126')).status).toBe(303);
        expect(
          (
            await until(
              () => paymentStatus(order.orderId),
              (s) => s.payment_status === 'paid',
              WEBHOOK_MS,
            )
          ).payment_status,
        ).toBe('paid');
        // Staff confirm a refund, then try the card again: two refunds, two request keys.
        const refund = () =>
          call('refund-payment', {
            token: staffToken,
            body: { order_id: order.orderId, amount_cents: 1000, idempotency_key: randomUUID() },
          });
        const reversals = async () => (await ledger(order.orderId)).filter((r) => r.kind === 'payment' && r.refund_of !== null);
        const deskRefundable = async () =>
          Number(
            (
              await stack.db.query<{ c: string }>(
                `select private.payment_desk_refundable(id) as c from public.payments where order_id = $1 and kind = 'payment' and refund_of is null`,
                [order.orderId],
              )
            ).rows[0].c,
          );

        const first = await refund();
        expect(first.status).toBe(200);
        // Booked, then reported failed and booked back: the desk may pay the 10 € instead.
        await until(reversals, (rows) => rows.length === 1, WEBHOOK_MS);
        expect(await deskRefundable()).toBe(1000);

        // Staff try the card again: Stripe makes a second refund (the same request's key would
        // replay the first answer and refund nothing).
        const again = await refund();
        expect(again.status).toBe(200);
        expect(again.body.refund_id).toMatch(/^re_/);
        expect(again.body.refund_id).not.toBe(first.body.refund_id);
        // Both are noted with what each pays back of a failed refund: the first nothing, the
        // retry the 10 € the failure left owed (from then on the desk does not pay them as well;
        // pgTAP 398 walks through those states one by one).
        const noted = await stack.db.query<{ refund_id: string; amount_cents: number; settles_cents: number }>(
          `select refund_id, amount_cents, settles_cents from private.online_refund_requests where payment_id = (select id from public.payments where order_id = $1 and kind = 'payment' and refund_of is null) order by id`,
          [order.orderId],
        );
        expect(noted.rows).toEqual([
          { refund_id: first.body.refund_id, amount_cents: 1000, settles_cents: 0 },
          { refund_id: again.body.refund_id, amount_cents: 1000, settles_cents: 1000 },
        ]);
        await until(
          () => ledger(order.orderId),
          (rows) => rows.some((r) => r.provider_refund_id === again.body.refund_id),
          WEBHOOK_MS,
        );
        // The card refuses refunds: the second is booked back too, and the desk may pay again.
        await until(reversals, (rows) => rows.length === 2, WEBHOOK_MS);
        expect(await deskRefundable()).toBe(1000);
      },
      4 * WEBHOOK_MS,
    );

    it(
      'refund-payment is safe to retry: one request key sent again after the refund is in the ledger, and five times at once, makes one Stripe refund, one ledger row and one credit note; a new key is a new refund; the key is required and bound to its order and amount',
      async () => {
        const order = await guestOrder();
        const started = await checkout(order);
        expect((await payOnSandbox(started.body.url as string)).status).toBe(303);
        expect(
          (
            await until(
              () => paymentStatus(order.orderId),
              (s) => s.payment_status === 'paid',
              WEBHOOK_MS,
            )
          ).payment_status,
        ).toBe('paid');
        const paymentIntent = (await ledger(order.orderId)).find((r) => r.kind === 'payment')!.provider_payment_id!;
        const refund = (body: Record<string, unknown>) =>
          call('refund-payment', { token: staffToken, body: { order_id: order.orderId, amount_cents: 1000, ...body } });
        const ledgerRefunds = async () => (await ledger(order.orderId)).filter((r) => r.kind === 'refund');
        /** The refunds the sandbox made of this payment (its refund.created events). */
        const stripeRefunds = async () => {
          const list = (await (await fetch(`${stack.paymentsUrl}/__sandbox/events?type=refund.created`)).json()) as {
            data: { event: { data: { object: { id: string; payment_intent: string } } } }[];
          };
          return [
            ...new Set(
              list.data
                .map((d) => d.event.data.object)
                .filter((r) => r.payment_intent === paymentIntent)
                .map((r) => r.id),
            ),
          ];
        };
        const creditNotes = async () =>
          (
            await stack.db.query<{ gross_cents: number }>(
              `select gross_cents from public.invoices where order_id = $1 and kind = 'credit_note' order by number`,
              [order.orderId],
            )
          ).rows;

        // A desk worker confirms a refund of 10 €, gets no answer in time and clicks again once
        // the refund is in the ledger (what is left of the payment changed in between).
        const key = randomUUID();
        const first = await refund({ idempotency_key: key });
        expect(first.status).toBe(200);
        expect(first.body.refund_id).toMatch(/^re_/);
        await until(ledgerRefunds, (rows) => rows.length === 1, WEBHOOK_MS);
        const again = await refund({ idempotency_key: key });
        expect(again).toEqual({ status: 200, body: { refund_id: first.body.refund_id, status: 'succeeded' } });

        // Five clicks at once with one key: one refund; a request still running at Stripe is 409.
        const batchKey = randomUUID();
        const five = await Promise.all(Array.from({ length: 5 }, () => refund({ idempotency_key: batchKey })));
        for (const answer of five) expect([200, 409]).toContain(answer.status);
        const made = [...new Set(five.filter((a) => a.status === 200).map((a) => a.body.refund_id))];
        expect(made).toHaveLength(1);
        expect(five.filter((a) => a.status === 409).map((a) => a.body)).toEqual(
          five.filter((a) => a.status === 409).map(() => ({ error: 'refund_in_progress' })),
        );
        expect(made[0]).not.toBe(first.body.refund_id);
        // Retried afterwards, the busy ones get that refund.
        expect((await refund({ idempotency_key: batchKey })).body.refund_id).toBe(made[0]);

        // At the sandbox, in the ledger (after the webhook) and as credit notes: two refunds, not more.
        await until(ledgerRefunds, (rows) => rows.length >= 2, WEBHOOK_MS);
        await until(creditNotes, (rows) => rows.length >= 2, WEBHOOK_MS);
        await new Promise((r) => setTimeout(r, 1500));
        expect((await stripeRefunds()).sort()).toEqual([first.body.refund_id, made[0]].sort());
        expect((await ledgerRefunds()).map((r) => r.provider_refund_id).sort()).toEqual([first.body.refund_id, made[0]].sort());
        expect((await creditNotes()).map((c) => c.gross_cents)).toEqual([-1000, -1000]);
        expect((await paymentStatus(order.orderId)).payment_status).toBe('partially_refunded');

        // A genuinely new refund of the same amount (a new key) is made.
        const fresh = await refund({ idempotency_key: randomUUID() });
        expect(fresh.status).toBe(200);
        expect([first.body.refund_id, made[0]]).not.toContain(fresh.body.refund_id);
        await until(ledgerRefunds, (rows) => rows.length === 3, WEBHOOK_MS);

        // The key is required (a UUID) and belongs to its order and amount, as Stripe's does.
        for (const bad of [{}, { idempotency_key: '' }, { idempotency_key: 'retry-1' }, { idempotency_key: 42 }]) {
          expect(await refund(bad)).toEqual({ status: 400, body: { error: 'invalid_request', code: 'invalid_idempotency_key' } });
        }
        expect(await refund({ idempotency_key: key, amount_cents: 999 })).toEqual({ status: 422, body: { error: 'request_key_reused' } });
        const other = await guestOrder();
        expect(
          await call('refund-payment', { token: staffToken, body: { order_id: other.orderId, amount_cents: 1000, idempotency_key: key } }),
        ).toEqual({ status: 422, body: { error: 'request_key_reused' } });
        expect(await stripeRefunds()).toHaveLength(3);
        expect(await ledgerRefunds()).toHaveLength(3);
      },
      6 * WEBHOOK_MS,
    );

    it(
      'refund-payment returns a deposit to the card and notes the refund Stripe made: in flight until the webhook records it',
      async () => {
        const order = await guestOrder();
        const headers = { apikey: stack.keys.anonKey, authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' };
        const extra = (await stack.db.query<{ id: string }>(`select id::text from public.extras where code = 'cooler_deposit'`)).rows[0].id;
        const added = await fetch(`${stack.url}/rest/v1/rpc/add_order_extra`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ p_order_id: order.orderId, p_extra_id: extra, p_quantity: 1 }),
        });
        expect(added.status).toBe(200);
        const orderExtraId = ((await added.json()) as { id: string }).id;
        const started = await checkout(order);
        expect((await payOnSandbox(started.body.url as string)).status).toBe(303);
        expect(
          (
            await until(
              () => paymentStatus(order.orderId),
              (s) => s.payment_status === 'paid',
              WEBHOOK_MS,
            )
          ).payment_status,
        ).toBe('paid');

        const answer = await call('refund-payment', { token: staffToken, body: { order_extra_id: orderExtraId } });
        expect(answer.status).toBe(200);
        expect(answer.body.refund_id).toMatch(/^re_/);
        const noted = await stack.db.query<{ refund_id: string }>(
          `select refund_id from private.deposit_refund_requests where order_extra_id = $1`,
          [orderExtraId],
        );
        expect(noted.rows).toEqual([{ refund_id: answer.body.refund_id }]);
        // The webhook records it as the deposit's return; then it is no longer in flight.
        await until(
          () => ledger(order.orderId),
          (rows) => rows.some((r) => r.provider_refund_id === answer.body.refund_id),
          WEBHOOK_MS,
        );
        expect((await stack.db.query<{ f: boolean }>(`select private.deposit_refund_in_flight($1) as f`, [orderExtraId])).rows[0].f).toBe(
          false,
        );
      },
      3 * WEBHOOK_MS,
    );

    it('a customer can call neither record_stripe_event nor write the ledger over REST', async () => {
      const order = await guestOrder();
      const session = await completedSession(order);
      const evt = event('checkout.session.completed', session as unknown as Record<string, unknown>);
      for (const token of [order.token, stack.keys.anonKey]) {
        const headers = { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const rpc = await fetch(`${stack.url}/rest/v1/rpc/record_stripe_event`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ p_event: evt }),
        });
        expect(rpc.status, await rpc.text()).toBeGreaterThanOrEqual(400);
        expect(rpc.status).toBeLessThan(500);
        const insert = await fetch(`${stack.url}/rest/v1/payments`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            order_id: order.orderId,
            kind: 'payment',
            method: 'online',
            amount_cents: order.priceCents,
            currency: 'eur',
          }),
        });
        expect(insert.status, await insert.text()).toBeGreaterThanOrEqual(400);
        expect(insert.status).toBeLessThan(500);
      }
      expect(await ledger(order.orderId)).toEqual([]);
      expect((await paymentStatus(order.orderId)).payment_status).toBe('pending');
    });

    it('stripe-webhook refuses a missing, forged, stale or foreign signature and records nothing; the genuine event is recorded once, a replay changes nothing; Stripe refusing a refund is a 4xx with its code', async () => {
      const order = await guestOrder();
      const session = await completedSession(order);
      const evt = event('checkout.session.completed', session as unknown as Record<string, unknown>);
      const payload = JSON.stringify(evt);
      const now = Math.floor(Date.now() / 1000);
      const genuine = await Stripe.webhooks.generateTestHeaderStringAsync({
        payload,
        secret: WEBHOOK_SECRET,
        timestamp: now,
        cryptoProvider: Stripe.createSubtleCryptoProvider(),
      });

      expect(await deliver(payload)).toEqual({ status: 400, body: { error: 'missing_signature' } });
      expect(await deliver(payload, { secret: 'whsec_someone_else' })).toEqual({ status: 400, body: { error: 'invalid_signature' } });
      expect(await deliver(payload, { timestamp: now - 301 })).toEqual({ status: 400, body: { error: 'invalid_signature' } });
      // The genuine header over a changed body (the amount): forged.
      const forged = payload.replace(`"amount_total":${session.amount_total}`, '"amount_total":1');
      expect(forged).not.toBe(payload);
      expect(await deliver(forged, { header: genuine })).toEqual({ status: 400, body: { error: 'invalid_signature' } });
      expect(await deliver(payload, { header: `t=${now},v1=${'0'.repeat(64)}` })).toEqual({
        status: 400,
        body: { error: 'invalid_signature' },
      });
      expect(await deliver(payload, { header: 'garbage' })).toEqual({ status: 400, body: { error: 'invalid_signature' } });
      expect(await ledger(order.orderId)).toEqual([]);
      expect((await paymentStatus(order.orderId)).payment_status).toBe('pending');

      // The same bytes with Stripe's signature (4 minutes old: within the tolerance) are recorded.
      expect(await deliver(payload, { timestamp: now - 240 })).toEqual({ status: 200, body: { received: true } });
      expect((await paymentStatus(order.orderId)).payment_status).toBe('paid');
      const recorded = await ledger(order.orderId);
      expect(recorded).toEqual([
        expect.objectContaining({ kind: 'payment', amount_cents: order.priceCents, provider_payment_id: session.payment_intent }),
      ]);

      // Replayed (Stripe retries; an attacker resends a captured request within 5 minutes): nothing changes.
      expect(await deliver(payload, { header: genuine })).toEqual({ status: 200, body: { received: true } });
      expect(await send(evt)).toEqual({ status: 200, body: { received: true } });
      // The payment intent's own event for the same payment: recorded once.
      const intent = {
        id: session.payment_intent,
        object: 'payment_intent',
        amount: order.priceCents,
        amount_received: order.priceCents,
        currency: 'eur',
        status: 'succeeded',
        metadata: session.metadata,
        latest_charge: null,
        created: now,
        livemode: false,
      };
      expect(await send(event('payment_intent.succeeded', intent))).toEqual({ status: 200, body: { received: true } });
      expect(await ledger(order.orderId)).toEqual(recorded);
      expect((await paymentStatus(order.orderId)).payment_status).toBe('paid');

      // Stripe's refusal reaches staff as a 4xx with Stripe's code (this payment intent exists
      // only in the event above, not at Stripe): nothing refunded, nothing recorded.
      const refused = await call('refund-payment', {
        token: staffToken,
        body: { order_id: order.orderId, amount_cents: 100, idempotency_key: randomUUID() },
      });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(refused.body.error).toBe('resource_missing');

      // A type this project does not handle: acknowledged, nothing recorded.
      const ignored = await send(event('customer.created', { id: 'cus_test_1', object: 'customer' }));
      expect(ignored).toEqual({ status: 200, body: { received: true, ignored: 'customer.created' } });
      expect(await ledger(order.orderId)).toEqual(recorded);
    });

    it("stripe-webhook answers 503 while the database cannot record events (a broken deployment) and records nothing; Stripe's retry after the fix is recorded once", async () => {
      const order = await guestOrder();
      const session = await completedSession(order);
      const evt = event('checkout.session.completed', session as unknown as Record<string, unknown>);
      // The service role loses the right to record events (as after a migration that forgot its grant).
      await stack.db.query('revoke execute on function public.record_stripe_event(jsonb) from service_role');
      try {
        expect(await send(evt)).toEqual({ status: 503, body: { error: 'database_unavailable' } });
        expect(await ledger(order.orderId)).toEqual([]);
        expect((await paymentStatus(order.orderId)).payment_status).toBe('pending');
      } finally {
        await stack.db.query('grant execute on function public.record_stripe_event(jsonb) to service_role');
      }
      // Stripe retries the same event (same id) once the endpoint answers again.
      expect(await send(evt)).toEqual({ status: 200, body: { received: true } });
      expect(await send(evt)).toEqual({ status: 200, body: { received: true } });
      expect(await ledger(order.orderId)).toEqual([expect.objectContaining({ kind: 'payment', amount_cents: order.priceCents })]);
      expect((await paymentStatus(order.orderId)).payment_status).toBe('paid');
    });

    it('events out of order end in the right state: a refund before its payment, an expiry after it', async () => {
      const order = await guestOrder();
      const session = await completedSession(order);
      const part = 700;
      const refund = refundObject(session.payment_intent, part, order.orderId);

      // The refund's events arrive first: kept, nothing to show yet.
      expect(await send(event('refund.created', refund))).toEqual({ status: 200, body: { received: true } });
      expect((await paymentStatus(order.orderId)).payment_status).toBe('pending');
      // Then the payment; then the session's expiry (late, for a session already complete).
      expect(await send(event('checkout.session.completed', session as unknown as Record<string, unknown>))).toEqual({
        status: 200,
        body: { received: true },
      });
      expect(await send(event('checkout.session.expired', { ...session, status: 'expired', payment_status: 'unpaid' }))).toEqual({
        status: 200,
        body: { received: true },
      });
      // The same refund once more, as refund.updated.
      expect(await send(event('refund.updated', refund))).toEqual({ status: 200, body: { received: true } });

      expect(await paymentStatus(order.orderId)).toMatchObject({ payment_status: 'partially_refunded' });
      expect((await paymentStatus(order.orderId)).status).not.toBe('expired');
      const rows = await ledger(order.orderId);
      const payment = rows.find((r) => r.kind === 'payment')!;
      expect(rows).toEqual([
        expect.objectContaining({ kind: 'payment', amount_cents: order.priceCents }),
        expect.objectContaining({ kind: 'refund', amount_cents: part, provider_refund_id: refund.id, refund_of: payment.id }),
      ]);
      // Deno downloaded nothing: the stripe SDK came from node_modules.
      expect(downloadedNpmFiles(stack.context.denoDir)).toEqual([]);
    });
  });
}
