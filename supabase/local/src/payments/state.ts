import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type Stripe from 'stripe';
import { cardBehaviour, cardBrand, cardFingerprint, refundsFail } from './cards.ts';
import { newCharge, newEvent, newId, newPaymentIntent, newRefund, newSession, type CardData, type LineItemData } from './objects.ts';
import { StripeError, invalid, noSuch } from './params.ts';

/** One event's delivery to the webhook endpoint, with every attempt (read by GET /__sandbox/events). */
export interface Delivery {
  event: string;
  type: string;
  created: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: { at: number; status: number | null; error?: string }[];
  next_attempt_at: number | null;
}

/** What the sandbox keeps about a session besides Stripe's object. */
export interface SessionData {
  lineItems: LineItemData[];
  intent: { metadata: Record<string, string>; description: string | null; receiptEmail: string | null; statementSuffix: string | null };
  /** The card waiting for 3-D Secure (never the full number: what the charge shows). */
  pendingCard?: { card: CardData; paymentMethod: string; billing: { email: string | null; name: string | null } };
}

export interface IdempotentResult {
  method: string;
  path: string;
  hash: string;
  status: number;
  body: unknown;
  at: number;
}

interface Data {
  version: 1;
  sessions: Record<string, Stripe.Checkout.Session>;
  sessionData: Record<string, SessionData>;
  paymentIntents: Record<string, Stripe.PaymentIntent>;
  charges: Record<string, Stripe.Charge>;
  refunds: Record<string, Stripe.Refund>;
  events: Stripe.Event[];
  deliveries: Delivery[];
  idempotency: Record<string, IdempotentResult>;
}

const empty = (): Data => ({
  version: 1,
  sessions: {},
  sessionData: {},
  paymentIntents: {},
  charges: {},
  refunds: {},
  events: [],
  deliveries: [],
  idempotency: {},
});

const MAX_EVENTS = 1000;

/** How long a refund of 4000 0000 0000 5126 stays succeeded before it fails ("some time later"). */
export const REFUND_FAILS_AFTER_S = 2;

export type RequestInfo = { id: string | null; idempotency_key: string | null };
const NO_REQUEST: RequestInfo = { id: null, idempotency_key: null };

export interface CardInput {
  digits: string;
  expMonth: number;
  expYear: number;
  name: string;
  email: string;
}

export type PayResult =
  | { kind: 'paid'; session: Stripe.Checkout.Session }
  | { kind: 'declined'; message: string; code: string; declineCode: string }
  | { kind: 'authenticate'; intent: string }
  | { kind: 'closed'; session: Stripe.Checkout.Session };

/**
 * The sandbox's state: Stripe's objects, the events and their deliveries, idempotent answers.
 * Every change happens synchronously (no await between a check and its write), so two requests
 * cannot both pay one session; with a file, the whole state is rewritten after each change.
 */
export class PaymentStore {
  private data: Data;
  /** Called for each new event (the webhook sender delivers it). */
  onEvent: (delivery: Delivery) => void = () => {};

  constructor(
    private readonly file: string | undefined,
    readonly now: () => number = Date.now,
    warn: (message: string) => void = () => {},
  ) {
    this.data = empty();
    if (file && existsSync(file)) {
      try {
        const loaded = JSON.parse(readFileSync(file, 'utf8')) as Data;
        if (loaded.version !== 1) throw new Error(`unknown version ${String(loaded.version)}`);
        this.data = { ...empty(), ...loaded };
      } catch (error) {
        // A damaged file (a disk filled up, an edit by hand) must not stop the stack: kept aside.
        const aside = `${file}.unreadable-${Date.now()}`;
        renameSync(file, aside);
        warn(`payment sandbox: ${file} could not be read (${(error as Error).message}); moved to ${aside}, starting empty`);
      }
    }
  }

  save() {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
  }

  seconds() {
    return Math.floor(this.now() / 1000);
  }

  // --- events -------------------------------------------------------------------------------

  private emit(type: Stripe.Event.Type, object: unknown, request: RequestInfo = NO_REQUEST, previousAttributes?: Record<string, unknown>) {
    const event = newEvent({ id: newId('evt'), created: this.seconds(), type, object, previousAttributes, pendingWebhooks: 1, request });
    this.data.events.push(event);
    const delivery: Delivery = { event: event.id, type, created: event.created, status: 'pending', attempts: [], next_attempt_at: null };
    this.data.deliveries.push(delivery);
    this.prune();
    this.onEvent(delivery);
  }

  /** Keeps the newest MAX_EVENTS events (and any still being delivered), so the file stays small. */
  private prune() {
    const excess = this.data.events.length - MAX_EVENTS;
    if (excess <= 0) return;
    const pending = new Set(this.data.deliveries.filter((d) => d.status === 'pending').map((d) => d.event));
    const dropped = new Set(
      this.data.events
        .slice(0, excess)
        .filter((e) => !pending.has(e.id))
        .map((e) => e.id),
    );
    this.data.events = this.data.events.filter((e) => !dropped.has(e.id));
    this.data.deliveries = this.data.deliveries.filter((d) => !dropped.has(d.event));
  }

  event(id: string): Stripe.Event | undefined {
    return this.data.events.find((e) => e.id === id);
  }

  deliveries(): Delivery[] {
    return this.data.deliveries;
  }

  // --- idempotency --------------------------------------------------------------------------

  idempotent(key: string): IdempotentResult | undefined {
    const hit = this.data.idempotency[key];
    // Stripe keeps keys for at least 24 hours.
    if (hit && this.now() - hit.at > 24 * 3600_000) {
      delete this.data.idempotency[key];
      return undefined;
    }
    return hit;
  }

  remember(key: string, result: Omit<IdempotentResult, 'at'>) {
    this.data.idempotency[key] = { ...result, at: this.now() };
    this.save();
  }

  // --- checkout sessions --------------------------------------------------------------------

  createSession(input: Omit<Parameters<typeof newSession>[0], 'id' | 'created' | 'url'> & { baseUrl: string; data: SessionData }) {
    const id = newId('cs_test', 58);
    const session = newSession({ ...input, id, created: this.seconds(), url: `${input.baseUrl}/pay/${id}` });
    this.data.sessions[id] = session;
    this.data.sessionData[id] = input.data;
    this.save();
    return session;
  }

  /**
   * Expires every open session past its `expires_at` and fails every refund due to fail
   * (checked on each access and by a timer).
   */
  sweep() {
    const now = this.seconds();
    let changed = false;
    for (const session of Object.values(this.data.sessions)) {
      if (session.status === 'open' && session.expires_at <= now) {
        this.expire(session, NO_REQUEST);
        changed = true;
      }
    }
    // A refund of a card whose refunds fail (4000 0000 0000 5126) turns failed this long after it was made.
    for (const refund of Object.values(this.data.refunds)) {
      if (refund.status !== 'succeeded' || refund.created + REFUND_FAILS_AFTER_S > now) continue;
      if (!refundsFail(this.data.charges[refund.charge as string]?.payment_method_details?.card?.fingerprint)) continue;
      this.failRefund(refund);
      changed = true;
    }
    if (changed) this.save();
  }

  /**
   * A refund the card's bank did not take: failed, the amount back on the charge (Stripe's
   * balance gets a failure_balance_transaction). Stripe names no failure_reason for the test
   * card; `unknown` is one of its documented values.
   */
  private failRefund(refund: Stripe.Refund) {
    refund.status = 'failed';
    refund.failure_reason = 'unknown';
    refund.failure_balance_transaction = newId('txn');
    const charge = this.data.charges[refund.charge as string];
    if (charge) {
      charge.amount_refunded = Math.max(0, charge.amount_refunded - refund.amount);
      charge.refunded = false;
    }
    this.emit('refund.updated', refund, NO_REQUEST, { status: 'succeeded', failure_reason: null, failure_balance_transaction: null });
    this.emit('refund.failed', refund);
    this.emit('charge.refund.updated', refund, NO_REQUEST, { status: 'succeeded' });
  }

  private expire(session: Stripe.Checkout.Session, request: RequestInfo) {
    session.status = 'expired';
    session.url = null;
    const intent = session.payment_intent ? this.data.paymentIntents[session.payment_intent as string] : undefined;
    if (intent && intent.status !== 'succeeded') {
      intent.status = 'canceled';
      intent.canceled_at = this.seconds();
      intent.cancellation_reason = 'abandoned';
      intent.next_action = null;
    }
    delete this.data.sessionData[session.id]?.pendingCard;
    this.emit('checkout.session.expired', session, request);
  }

  session(id: string): Stripe.Checkout.Session {
    this.sweep();
    const session = this.data.sessions[id];
    if (!session) throw noSuch('checkout.session', id, 'session');
    return session;
  }

  sessionData(id: string): SessionData {
    return (
      this.data.sessionData[id] ?? { lineItems: [], intent: { metadata: {}, description: null, receiptEmail: null, statementSuffix: null } }
    );
  }

  expireSession(id: string, request: RequestInfo) {
    const session = this.session(id);
    if (session.status !== 'open') {
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
      );
    }
    this.expire(session, request);
    this.save();
    return session;
  }

  // --- paying (the hosted page) -------------------------------------------------------------

  private intentFor(session: Stripe.Checkout.Session): Stripe.PaymentIntent {
    const existing = session.payment_intent ? this.data.paymentIntents[session.payment_intent as string] : undefined;
    if (existing) return existing;
    const data = this.sessionData(session.id);
    const intent = newPaymentIntent({
      id: newId('pi'),
      created: this.seconds(),
      amount: session.amount_total ?? 0,
      currency: session.currency ?? 'eur',
      description: data.intent.description,
      metadata: data.intent.metadata,
      receiptEmail: data.intent.receiptEmail,
      statementSuffix: data.intent.statementSuffix,
    });
    this.data.paymentIntents[intent.id] = intent;
    session.payment_intent = intent.id;
    return intent;
  }

  pay(sessionId: string, input: CardInput): PayResult {
    const session = this.session(sessionId);
    if (session.status !== 'open') return { kind: 'closed', session };
    const data = this.sessionData(sessionId);
    const intent = this.intentFor(session);
    const card: CardData = {
      brand: cardBrand(input.digits),
      last4: input.digits.slice(-4),
      expMonth: input.expMonth,
      expYear: input.expYear,
      funding: 'credit',
      country: 'US',
      fingerprint: cardFingerprint(input.digits),
    };
    const paymentMethod = newId('pm');
    const billing = { email: input.email || session.customer_email, name: input.name || null };
    const behaviour = cardBehaviour(input.digits);
    if (behaviour.kind === 'authenticate') {
      data.pendingCard = { card, paymentMethod, billing };
      this.data.sessionData[sessionId] = data;
      intent.status = 'requires_action';
      intent.payment_method = paymentMethod;
      intent.last_payment_error = null;
      intent.next_action = {
        type: 'use_stripe_sdk',
        use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${session.url}/authenticate` },
      };
      this.save();
      return { kind: 'authenticate', intent: intent.id };
    }
    if (behaviour.kind === 'decline') {
      const charge = newCharge({
        id: newId('ch'),
        created: this.seconds(),
        intent,
        paymentMethod,
        card,
        billing,
        failure: { code: behaviour.code, declineCode: behaviour.declineCode, message: behaviour.message },
      });
      this.data.charges[charge.id] = charge;
      this.fail(intent, {
        type: 'card_error',
        code: behaviour.code,
        decline_code: behaviour.declineCode,
        message: behaviour.message,
        charge: charge.id,
        doc_url: `https://stripe.com/docs/error-codes/${behaviour.code.replaceAll('_', '-')}`,
      });
      intent.latest_charge = charge.id;
      this.save();
      return { kind: 'declined', message: behaviour.message, code: behaviour.code, declineCode: behaviour.declineCode };
    }
    const paid = this.succeed(session, intent, { card, paymentMethod, billing });
    return { kind: 'paid', session: paid };
  }

  /** The 3-D Secure page's answer: complete pays, fail leaves the session open for another try. */
  authenticate(sessionId: string, complete: boolean): PayResult {
    const session = this.session(sessionId);
    if (session.status !== 'open') return { kind: 'closed', session };
    const data = this.sessionData(sessionId);
    const intent = session.payment_intent ? this.data.paymentIntents[session.payment_intent as string] : undefined;
    const pending = data.pendingCard;
    if (!intent || intent.status !== 'requires_action' || !pending) {
      return { kind: 'declined', code: 'payment_intent_unexpected_state', declineCode: '', message: 'Nothing awaits authentication.' };
    }
    delete data.pendingCard;
    if (complete) return { kind: 'paid', session: this.succeed(session, intent, pending) };
    const message =
      'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.';
    this.fail(intent, {
      type: 'invalid_request_error',
      code: 'payment_intent_authentication_failure',
      message,
      doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
    });
    this.save();
    return { kind: 'declined', code: 'payment_intent_authentication_failure', declineCode: '', message };
  }

  private fail(intent: Stripe.PaymentIntent, error: Omit<Stripe.PaymentIntent.LastPaymentError, 'payment_method'>) {
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.last_payment_error = { ...error, payment_method_type: 'card' } as Stripe.PaymentIntent.LastPaymentError;
    intent.payment_method = null;
    this.emit('payment_intent.payment_failed', intent);
  }

  private succeed(session: Stripe.Checkout.Session, intent: Stripe.PaymentIntent, paid: NonNullable<SessionData['pendingCard']>) {
    const charge = newCharge({
      id: newId('ch'),
      created: this.seconds(),
      intent,
      paymentMethod: paid.paymentMethod,
      card: paid.card,
      billing: paid.billing,
    });
    this.data.charges[charge.id] = charge;
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
    intent.payment_method = paid.paymentMethod;
    intent.next_action = null;
    intent.last_payment_error = null;
    session.status = 'complete';
    session.payment_status = 'paid';
    session.url = null;
    session.customer_details = {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      business_name: null,
      email: paid.billing.email,
      individual_name: null,
      name: paid.billing.name,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    this.emit('payment_intent.succeeded', intent);
    this.emit('checkout.session.completed', session);
    this.save();
    return session;
  }

  // --- payment intents, charges, refunds ----------------------------------------------------

  paymentIntent(id: string): Stripe.PaymentIntent {
    const intent = this.data.paymentIntents[id];
    if (!intent) throw noSuch('payment_intent', id, 'intent');
    return intent;
  }

  charge(id: string): Stripe.Charge {
    const charge = this.data.charges[id];
    if (!charge) throw noSuch('charge', id, 'charge');
    return charge;
  }

  refund(id: string): Stripe.Refund {
    const refund = this.data.refunds[id];
    if (!refund) throw noSuch('refund', id, 'refund');
    return refund;
  }

  createRefund(
    input: {
      charge?: string;
      paymentIntent?: string;
      amount?: number;
      reason: Stripe.Refund.Reason | null;
      metadata: Record<string, string>;
    },
    request: RequestInfo,
  ): Stripe.Refund {
    let charge: Stripe.Charge;
    if (input.charge) {
      charge = this.charge(input.charge);
    } else {
      const intent = this.data.paymentIntents[input.paymentIntent!];
      if (!intent) throw noSuch('payment_intent', input.paymentIntent!, 'payment_intent');
      const latest = intent.latest_charge ? this.data.charges[intent.latest_charge as string] : undefined;
      if (intent.status !== 'succeeded' || !latest) {
        throw invalid(
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          'payment_intent',
          'charge_not_refundable',
        );
      }
      charge = latest;
    }
    if (charge.status !== 'succeeded')
      throw invalid(`Charge ${charge.id} has not succeeded and cannot be refunded.`, 'charge', 'charge_not_refundable');
    if (charge.refunded)
      throw new StripeError(
        400,
        'invalid_request_error',
        `Charge ${charge.id} has already been refunded.`,
        'charge_already_refunded',
        'charge',
      );
    const refundable = charge.amount - charge.amount_refunded;
    const amount = input.amount ?? refundable;
    if (amount > refundable) {
      const money = (cents: number) =>
        new Intl.NumberFormat('en-US', { style: 'currency', currency: charge.currency.toUpperCase() }).format(cents / 100);
      throw invalid(
        `Refund amount (${money(amount)}) is greater than unrefunded amount on charge (${money(refundable)})`,
        'amount',
        'amount_too_large',
      );
    }
    const refund = newRefund({ id: newId('re'), created: this.seconds(), charge, amount, reason: input.reason, metadata: input.metadata });
    this.data.refunds[refund.id] = refund;
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit(
      'charge.refunded',
      charge,
      request,
      charge.refunded === previous.refunded ? { amount_refunded: previous.amount_refunded } : previous,
    );
    this.emit('refund.created', refund, request);
    this.save();
    return refund;
  }
}
