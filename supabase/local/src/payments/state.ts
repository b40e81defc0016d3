import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type Stripe from 'stripe';
import { cardBehaviour, cardBrand, cardFingerprint, refundsFail } from './cards.ts';
import { newCharge, newEvent, newId, newPaymentIntent, newRefund, newSession, type CardData, type LineItemData } from './objects.ts';
import { StripeError, invalid, noSuch } from './params.ts';
import {
  DELAYED_PENDING_MS,
  newCustomer,
  newDispute,
  newMandate,
  newSepaPaymentMethod,
  newSetupIntent,
  sepaBehaviour,
  sepaChargeDetails,
  type SepaBehaviour,
} from './sepa.ts';

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

/** A SEPA debit between `processing` and its outcome (kept by the sandbox, not part of Stripe's objects). */
export interface PendingDebit {
  intent: string;
  charge: string;
  /** When the bank's answer arrives, in the sandbox clock's ms. */
  settleAt: number;
  behaviour: SepaBehaviour;
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
  customers: Record<string, Stripe.Customer>;
  setupIntents: Record<string, Stripe.SetupIntent>;
  paymentMethods: Record<string, Stripe.PaymentMethod>;
  mandates: Record<string, Stripe.Mandate>;
  disputes: Record<string, Stripe.Dispute>;
  /** What each SEPA payment method's (test) IBAN does; the IBAN itself is not kept. */
  sepaBehaviours: Record<string, SepaBehaviour>;
  pendingDebits: PendingDebit[];
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
  customers: {},
  setupIntents: {},
  paymentMethods: {},
  mandates: {},
  disputes: {},
  sepaBehaviours: {},
  pendingDebits: [],
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
    /** How long a SEPA debit stays `processing` before the bank's answer (the delayed test IBANs: at least 3 minutes). */
    readonly sepaPendingMs = 3000,
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
    const nowMs = this.now();
    const due = this.data.pendingDebits.filter((d) => d.settleAt <= nowMs);
    if (due.length > 0) {
      this.data.pendingDebits = this.data.pendingDebits.filter((d) => d.settleAt > nowMs);
      for (const debit of due.sort((a, b) => a.settleAt - b.settleAt)) this.settleDebit(debit);
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
    // Setup mode: the session's SetupIntent is canceled with it.
    const setupIntent = session.setup_intent ? this.data.setupIntents[session.setup_intent as string] : undefined;
    if (setupIntent && setupIntent.status !== 'succeeded') {
      setupIntent.status = 'canceled';
      setupIntent.cancellation_reason = 'abandoned';
      this.emit('setup_intent.canceled', setupIntent, request);
    }
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

  // --- SEPA Direct Debit: customers, setup intents, payment methods, mandates, debits ---------

  customer(id: string): Stripe.Customer {
    const customer = this.data.customers[id];
    if (!customer) throw noSuch('customer', id, 'customer');
    return customer;
  }

  setupIntent(id: string): Stripe.SetupIntent {
    const intent = this.data.setupIntents[id];
    if (!intent) throw noSuch('setupintent', id, 'intent');
    return intent;
  }

  paymentMethod(id: string, param = 'payment_method'): Stripe.PaymentMethod {
    const pm = this.data.paymentMethods[id];
    if (!pm) throw noSuch('PaymentMethod', id, param);
    return pm;
  }

  mandate(id: string): Stripe.Mandate {
    const mandate = this.data.mandates[id];
    if (!mandate) throw noSuch('mandate', id, 'mandate');
    return mandate;
  }

  dispute(id: string): Stripe.Dispute {
    const dispute = this.data.disputes[id];
    if (!dispute) throw noSuch('dispute', id, 'dispute');
    return dispute;
  }

  /** The active multi-use mandate of a payment method (the one its SetupIntent created). */
  mandateOf(paymentMethod: string): Stripe.Mandate | undefined {
    return Object.values(this.data.mandates).find((m) => m.payment_method === paymentMethod && m.status === 'active');
  }

  createCustomer(
    input: { email: string | null; name: string | null; description: string | null; metadata: Record<string, string> },
    request: RequestInfo,
  ) {
    const customer = newCustomer({ ...input, created: this.seconds(), testClock: null });
    this.data.customers[customer.id] = customer;
    this.emit('customer.created', customer, request);
    this.save();
    return customer;
  }

  /** POST /v1/payment_methods with type=sepa_debit: not attached to anyone yet. */
  createSepaPaymentMethod(
    input: { iban: string; name: string | null; email: string | null; metadata: Record<string, string> },
    request: RequestInfo,
  ) {
    void request;
    const pm = newSepaPaymentMethod({ ...input, created: this.seconds(), customer: null });
    this.data.paymentMethods[pm.id] = pm;
    this.data.sepaBehaviours[pm.id] = sepaBehaviour(input.iban);
    this.save();
    return pm;
  }

  /** Checkout in setup mode: the session and its SetupIntent, created together as Stripe does. */
  createSetupSession(
    input: Omit<Parameters<typeof newSession>[0], 'id' | 'created' | 'url' | 'amountTotal' | 'customerCreation'> & {
      baseUrl: string;
      customer: string | null;
      setup: { metadata: Record<string, string>; description: string | null };
      allowedMethods: string[] | null;
    },
  ) {
    const id = newId('cs_test', 58);
    const session = newSession({
      ...input,
      id,
      created: this.seconds(),
      url: `${input.baseUrl}/pay/${id}`,
      amountTotal: 0,
      customerCreation: 'always',
    });
    const setupIntent = newSetupIntent({
      created: this.seconds(),
      customer: input.customer,
      description: input.setup.description,
      metadata: input.setup.metadata,
    });
    Object.assign(session, {
      allowed_payment_method_types: input.allowedMethods,
      mode: 'setup',
      amount_subtotal: null,
      amount_total: null,
      customer: input.customer,
      customer_creation: null,
      payment_method_collection: 'always',
      payment_method_options: { sepa_debit: {} },
      payment_method_types: ['sepa_debit'],
      payment_status: 'no_payment_required',
      setup_intent: setupIntent.id,
      submit_type: null,
      total_details: null,
    });
    this.data.setupIntents[setupIntent.id] = setupIntent;
    this.data.sessions[id] = session;
    this.data.sessionData[id] = {
      lineItems: [],
      intent: { metadata: {}, description: null, receiptEmail: null, statementSuffix: null },
    };
    this.emit('setup_intent.created', setupIntent);
    this.save();
    return session;
  }

  /**
   * The hosted page's form in setup mode, accepted: the Customer (unless the session names one),
   * the PaymentMethod attached to it, the multi-use Mandate with the customer's acceptance, the
   * SetupIntent succeeded and the session complete, with the events Stripe sends.
   */
  completeSetup(
    sessionId: string,
    input: { name: string; email: string; iban: string; ipAddress: string | null; userAgent: string | null; baseUrl: string },
  ): { kind: 'complete'; session: Stripe.Checkout.Session } | { kind: 'closed'; session: Stripe.Checkout.Session } {
    const session = this.session(sessionId);
    if (session.status !== 'open') return { kind: 'closed', session };
    const setupIntent = this.setupIntent(session.setup_intent as string);
    let customerId = (session.customer as string | null) ?? null;
    if (!customerId) {
      const customer = newCustomer({
        created: this.seconds(),
        email: input.email,
        name: input.name,
        description: null,
        metadata: {},
        testClock: null,
      });
      this.data.customers[customer.id] = customer;
      customerId = customer.id;
      this.emit('customer.created', customer);
    }
    const pm = newSepaPaymentMethod({
      iban: input.iban,
      created: this.seconds(),
      customer: customerId,
      name: input.name,
      email: input.email,
      metadata: {},
    });
    this.data.paymentMethods[pm.id] = pm;
    this.data.sepaBehaviours[pm.id] = sepaBehaviour(input.iban);
    const mandate = newMandate({
      paymentMethod: pm.id,
      acceptedAt: this.seconds(),
      ipAddress: input.ipAddress,
      userAgent: input.userAgent,
      baseUrl: input.baseUrl,
    });
    this.data.mandates[mandate.id] = mandate;
    this.emit('payment_method.attached', pm);
    Object.assign(setupIntent, {
      customer: customerId,
      payment_method: pm.id,
      mandate: mandate.id,
      latest_attempt: newId('setatt'),
      status: 'succeeded',
    });
    this.emit('setup_intent.succeeded', setupIntent);
    session.status = 'complete';
    session.url = null;
    session.customer = customerId;
    session.customer_details = {
      address: null,
      business_name: null,
      email: input.email,
      individual_name: null,
      name: input.name,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    this.emit('checkout.session.completed', session);
    this.save();
    return { kind: 'complete', session };
  }

  /**
   * POST /v1/payment_intents (and /confirm) with a SEPA payment method: confirmed, the intent
   * turns `processing` at once with a pending charge; the bank's answer comes `sepaPendingMs`
   * later (sandbox clock), applied by sweep().
   */
  createPaymentIntent(
    input: {
      amount: number;
      currency: string;
      customer: string | null;
      paymentMethod: string | null;
      description: string | null;
      metadata: Record<string, string>;
      receiptEmail: string | null;
      statementSuffix: string | null;
      statementDescriptor: string | null;
      confirm: boolean;
      mandate: string | null;
      allowed: string[] | null;
    },
    request: RequestInfo,
  ): Stripe.PaymentIntent {
    if (input.customer) this.customer(input.customer);
    const pm = input.paymentMethod ? this.paymentMethod(input.paymentMethod) : undefined;
    if (pm) this.checkMethod(pm, input.customer);
    const intent = newPaymentIntent({
      id: newId('pi'),
      created: this.seconds(),
      amount: input.amount,
      currency: input.currency,
      description: input.description,
      metadata: input.metadata,
      receiptEmail: input.receiptEmail,
      statementSuffix: input.statementSuffix,
    });
    Object.assign(intent, {
      allowed_payment_method_types: input.allowed,
      customer: input.customer,
      payment_method: pm?.id ?? null,
      payment_method_options: { sepa_debit: {} },
      payment_method_types: ['sepa_debit'],
      statement_descriptor: input.statementDescriptor,
      status: pm ? 'requires_confirmation' : 'requires_payment_method',
    });
    // A confirmation that cannot start is refused before anything is kept, as Stripe answers 400.
    const mandate = input.confirm ? this.mandateFor(pm, input.mandate) : undefined;
    this.data.paymentIntents[intent.id] = intent;
    this.emit('payment_intent.created', intent, request);
    if (input.confirm) this.startDebit(intent, pm!, mandate!, request);
    this.save();
    return intent;
  }

  confirmPaymentIntent(id: string, input: { paymentMethod: string | null; mandate: string | null }, request: RequestInfo) {
    const intent = this.paymentIntent(id);
    if (!['requires_confirmation', 'requires_payment_method'].includes(intent.status)) {
      throw invalid(
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method, requires_action.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    const pmId = input.paymentMethod ?? (intent.payment_method as string | null);
    const pm = pmId ? this.paymentMethod(pmId) : undefined;
    if (pm) this.checkMethod(pm, intent.customer as string | null);
    const mandate = this.mandateFor(pm, input.mandate);
    intent.payment_method = pm!.id;
    this.startDebit(intent, pm!, mandate, request);
    this.save();
    return intent;
  }

  private checkMethod(pm: Stripe.PaymentMethod, customer: string | null) {
    if (pm.type !== 'sepa_debit') {
      throw invalid(`The local payment sandbox confirms PaymentIntents only with sepa_debit PaymentMethods.`, 'payment_method');
    }
    if (pm.customer && pm.customer !== customer) {
      throw invalid(
        `The provided PaymentMethod ${pm.id} belongs to a different Customer than the one on this PaymentIntent.`,
        'payment_method',
      );
    }
  }

  private mandateFor(pm: Stripe.PaymentMethod | undefined, mandateId: string | null): Stripe.Mandate {
    if (!pm) {
      throw invalid(
        'You cannot confirm this PaymentIntent because it\u2019s missing a payment method. To confirm the PaymentIntent, you must provide a payment method.',
        'payment_method',
        'payment_intent_unexpected_state',
      );
    }
    const mandate = mandateId ? this.mandate(mandateId) : this.mandateOf(pm.id);
    if (!mandate || mandate.payment_method !== pm.id || mandate.status !== 'active') {
      throw invalid(
        mandateId
          ? `The mandate ${mandateId} is not active or does not belong to the PaymentMethod ${pm.id}.`
          : `The PaymentMethod ${pm.id} has no active mandate. Set it up with a SetupIntent (or a Checkout Session in setup mode) first.`,
        'mandate',
        'payment_intent_mandate_invalid',
      );
    }
    return mandate;
  }

  private startDebit(intent: Stripe.PaymentIntent, pm: Stripe.PaymentMethod, mandate: Stripe.Mandate, request: RequestInfo) {
    const charge = newCharge({
      id: newId('ch'),
      created: this.seconds(),
      intent,
      paymentMethod: pm.id,
      card: { brand: '', last4: '', expMonth: 0, expYear: 0, funding: '', country: '', fingerprint: '' },
      billing: { email: pm.billing_details.email, name: pm.billing_details.name },
    });
    Object.assign(charge, {
      amount_captured: intent.amount,
      balance_transaction: newId('txn'),
      captured: true,
      customer: intent.customer,
      outcome: {
        advice_code: null,
        network_advice_code: null,
        network_decline_code: null,
        network_status: 'approved_by_network',
        reason: null,
        risk_level: 'not_assessed',
        seller_message: 'Payment complete.',
        type: 'authorized',
      },
      paid: false,
      payment_method_details: sepaChargeDetails(pm, mandate.id),
      status: 'pending',
    });
    this.data.charges[charge.id] = charge;
    Object.assign(intent, {
      status: 'processing',
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
      payment_method: pm.id,
    });
    const behaviour = this.data.sepaBehaviours[pm.id] ?? { outcome: 'succeed' };
    const wait = behaviour.delayed ? Math.max(this.sepaPendingMs, DELAYED_PENDING_MS) : this.sepaPendingMs;
    this.data.pendingDebits.push({ intent: intent.id, charge: charge.id, settleAt: this.now() + wait, behaviour });
    this.emit('payment_intent.processing', intent, request);
    this.emit('charge.pending', charge, request);
  }

  private settleDebit(debit: PendingDebit) {
    const intent = this.data.paymentIntents[debit.intent];
    const charge = this.data.charges[debit.charge];
    if (!intent || !charge || intent.status !== 'processing') return;
    if (debit.behaviour.outcome === 'fail') {
      const code = debit.behaviour.failureCode ?? 'generic_could_not_process';
      const message = debit.behaviour.failureMessage ?? 'The payment could not be processed.';
      const pm = this.data.paymentMethods[intent.payment_method as string];
      Object.assign(charge, {
        status: 'failed',
        paid: false,
        captured: false,
        amount_captured: 0,
        failure_balance_transaction: newId('txn'),
        failure_code: code,
        failure_message: message,
        outcome: {
          ...charge.outcome,
          network_status: 'declined_by_network',
          reason: code,
          seller_message: message,
          type: 'issuer_declined',
        },
      });
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        charge: charge.id,
        code,
        message,
        payment_method: pm ? structuredClone(pm) : undefined,
        payment_method_type: 'sepa_debit',
        type: 'invalid_request_error',
      } as Stripe.PaymentIntent.LastPaymentError;
      intent.payment_method = null;
      this.emit('charge.failed', charge);
      this.emit('payment_intent.payment_failed', intent);
      return;
    }
    Object.assign(charge, { status: 'succeeded', paid: true });
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    this.emit('charge.succeeded', charge);
    this.emit('payment_intent.succeeded', intent);
    if (debit.behaviour.dispute) {
      const dispute = newDispute({ created: this.seconds(), charge });
      this.data.disputes[dispute.id] = dispute;
      charge.disputed = true;
      this.emit('charge.dispute.created', dispute);
      // A disputed debit was not authorised as far as the bank is concerned: the mandate is no longer used.
      const mandate = this.mandateOf(charge.payment_method as string);
      if (mandate) {
        mandate.status = 'inactive';
        this.emit('mandate.updated', mandate, NO_REQUEST, { status: 'active' });
      }
    }
  }
}
