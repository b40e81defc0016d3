import type Stripe from 'stripe';
import type { LineItemData } from './objects.ts';
import { ibanProblem, isSepaIban, normalizeIban } from '../../../../src/lib/iban.ts';
import { Reader, StripeError, invalid, missing, noSuch, type Params } from './params.ts';
import type { PaymentStore, RequestInfo } from './state.ts';

/**
 * The API subset: POST/GET /v1/checkout/sessions[/:id[/expire]] (mode payment, or setup with
 * sepa_debit), POST/GET /v1/customers[/:id], POST/GET /v1/payment_methods[/:id] (sepa_debit),
 * GET /v1/setup_intents/:id, GET /v1/mandates/:id, POST /v1/payment_intents[/:id/confirm]
 * (sepa_debit), GET /v1/disputes/:id, GET /v1/payment_intents/:id,
 * GET /v1/charges/:id, POST /v1/refunds, GET /v1/refunds/:id, GET /v1/events/:id. Parameters are checked as Stripe
 * checks them for this subset; a parameter the sandbox does not know is refused
 * (`parameter_unknown`), as Stripe refuses one it does not know, so nothing is silently ignored.
 */

const LOCALES = [
  'auto',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'es',
  'es-419',
  'et',
  'fi',
  'fil',
  'fr',
  'fr-CA',
  'hi-IN',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'pt-BR',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tr',
  'vi',
  'zh',
  'zh-HK',
  'zh-TW',
] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MIN_EXPIRY_S = 30 * 60;
const MAX_EXPIRY_S = 24 * 3600;
/** A client that computes "now + 30 min" a moment before the request is not refused for it. */
const EXPIRY_GRACE_S = 10;
/** Stripe's minimum charge for a euro (and most currencies): 0.50. */
const MIN_AMOUNT = 50;
const MAX_AMOUNT = 99_999_999;

export interface ApiContext {
  store: PaymentStore;
  baseUrl: string;
  request: RequestInfo;
}

function url(reader: Reader, key: string): string | undefined {
  const value = reader.string(key, { max: 5000 });
  if (value === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) throw invalid('Not a valid URL', key, 'url_invalid');
  return value;
}

function lineItems(reader: Reader): { items: LineItemData[]; currency: string } {
  const list = reader.list('line_items', { required: true })!;
  if (list.length === 0) throw missing('line_items');
  if (list.length > 100) throw invalid('You may only specify up to 100 line items.', 'line_items');
  const items: LineItemData[] = [];
  list.forEach((raw, index) => {
    const name = reader.itemName('line_items', index);
    if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('Invalid object', name);
    const item = new Reader(raw as Params, name);
    const price = item.string('price');
    if (price) throw noSuch('price', price, `${name}[price]`);
    const data = item.object('price_data');
    if (!data) throw invalid(`You must specify either \`price\` or \`price_data\` in ${name}.`, name);
    const currency = data.string('currency', { required: true })!.toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}.`, `${name}[price_data][currency]`);
    const product = data.string('product');
    if (product) throw noSuch('product', product, `${name}[price_data][product]`);
    const productData = data.object('product_data', { required: true })!;
    const productName = productData.string('name', { required: true, max: 5000 })!;
    const description = productData.string('description', { max: 40000 }) ?? null;
    productData.metadata();
    productData.rejectUnknown();
    const unitAmount = data.integer('unit_amount', { required: true, min: 0, max: MAX_AMOUNT })!;
    data.rejectUnknown();
    const quantity = item.integer('quantity', { required: true, min: 1, max: 999_999 })!;
    item.metadata();
    item.rejectUnknown();
    items.push({ name: productName, description, currency, unitAmount, quantity });
  });
  const currency = items[0].currency;
  if (items.some((i) => i.currency !== currency)) {
    throw invalid('Checkout does not support multiple currencies.', 'line_items');
  }
  return { items, currency };
}

export function createSession(ctx: ApiContext, params: Params): Stripe.Checkout.Session {
  const reader = new Reader(params);
  const mode = reader.enumeration('mode', ['payment', 'setup', 'subscription'] as const, { required: true });
  if (mode === 'setup') return createSetupSession(ctx, reader);
  if (mode !== 'payment') throw invalid(`The local payment sandbox supports only mode=payment and mode=setup, not ${mode}.`, 'mode');
  const { items, currency } = lineItems(reader);
  const topCurrency = reader.string('currency')?.toLowerCase();
  if (topCurrency && topCurrency !== currency)
    throw invalid(`The currency ${topCurrency} does not match the line items' currency ${currency}.`, 'currency');
  const amountTotal = items.reduce((sum, i) => sum + i.unitAmount * i.quantity, 0);
  if (amountTotal < MIN_AMOUNT) {
    throw invalid(`The Checkout Session's total amount due must add up to at least 0.50 ${currency}`, 'line_items', 'amount_too_small');
  }
  if (amountTotal > MAX_AMOUNT)
    throw invalid(`The Checkout Session's total amount due must be at most 999999.99 ${currency}`, 'line_items', 'amount_too_large');
  const successUrl = url(reader, 'success_url') ?? null;
  const cancelUrl = url(reader, 'cancel_url') ?? null;
  const customerEmail = reader.string('customer_email', { max: 800 }) ?? null;
  if (customerEmail !== null && !EMAIL.test(customerEmail))
    throw invalid(`Invalid email address: ${customerEmail}`, 'customer_email', 'email_invalid');
  const clientReferenceId = reader.string('client_reference_id', { max: 200 }) ?? null;
  const locale = reader.enumeration('locale', LOCALES) ?? null;
  const metadata = reader.metadata() ?? {};
  const intentData = reader.object('payment_intent_data');
  const intentMetadata = intentData?.metadata() ?? {};
  const description = intentData?.string('description', { max: 1000 }) ?? null;
  const receiptEmail = intentData?.string('receipt_email', { max: 800 }) ?? null;
  if (receiptEmail !== null && !EMAIL.test(receiptEmail))
    throw invalid(`Invalid email address: ${receiptEmail}`, 'payment_intent_data[receipt_email]', 'email_invalid');
  const statementSuffix = intentData?.string('statement_descriptor_suffix', { max: 22 }) ?? null;
  intentData?.rejectUnknown();
  const methods = reader.list('payment_method_types');
  if (methods && (methods.length === 0 || methods.some((m) => m !== 'card'))) {
    throw invalid('The local payment sandbox supports only payment_method_types=["card"].', 'payment_method_types');
  }
  reader.enumeration('ui_mode', ['hosted_page'] as const);
  // Shown by Stripe's page only (the sandbox's page keeps its own wording); kept on the session.
  const submitType = reader.enumeration('submit_type', ['auto', 'book', 'donate', 'pay'] as const) ?? null;
  const billingAddressCollection = reader.enumeration('billing_address_collection', ['auto', 'required'] as const) ?? null;
  const customerCreation = reader.enumeration('customer_creation', ['always', 'if_required'] as const) ?? 'if_required';
  const now = ctx.store.seconds();
  const expiresAt = reader.integer('expires_at') ?? now + MAX_EXPIRY_S;
  if (expiresAt < now + MIN_EXPIRY_S - EXPIRY_GRACE_S) {
    throw invalid('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at');
  }
  if (expiresAt > now + MAX_EXPIRY_S)
    throw invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at');
  reader.rejectUnknown(['expand']);
  const session = ctx.store.createSession({
    baseUrl: ctx.baseUrl,
    expiresAt,
    amountTotal,
    currency,
    clientReferenceId,
    customerEmail,
    locale,
    metadata,
    successUrl,
    cancelUrl,
    data: { lineItems: items, intent: { metadata: intentMetadata, description, receiptEmail, statementSuffix } },
    submitType,
    billingAddressCollection,
    customerCreation,
  });
  return session;
}

/**
 * Checkout in setup mode with sepa_debit: collects an IBAN and a
 * mandate for later off-session debits (docs.stripe.com/payments/sepa-debit/set-up-payment?platform=checkout).
 */
function createSetupSession(ctx: ApiContext, reader: Reader): Stripe.Checkout.Session {
  if (reader.has('line_items')) throw invalid('You cannot pass `line_items` in `setup` mode.', 'line_items');
  // `allowed_payment_method_types` filters the dynamic set (API 2026-10-28 and later); the older
  // `payment_method_types` names it. Either way the sandbox offers only sepa_debit in setup mode.
  const allowed = methodFilter(reader, 'allowed_payment_method_types');
  const legacy = methodFilter(reader, 'payment_method_types');
  const currencyParam = reader.string('currency')?.toLowerCase();
  if (!allowed && !legacy && !currencyParam) throw missing('currency');
  const currency = currencyParam ?? 'eur';
  if (currency !== 'eur') throw invalid('The payment method `sepa_debit` only supports the currency `eur`.', 'currency');
  const successUrl = url(reader, 'success_url') ?? null;
  const cancelUrl = url(reader, 'cancel_url') ?? null;
  const customer = reader.string('customer') ?? null;
  if (customer) ctx.store.customer(customer);
  const customerEmail = reader.string('customer_email', { max: 800 }) ?? null;
  if (customer && customerEmail) throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
  if (customerEmail !== null && !EMAIL.test(customerEmail))
    throw invalid(`Invalid email address: ${customerEmail}`, 'customer_email', 'email_invalid');
  const clientReferenceId = reader.string('client_reference_id', { max: 200 }) ?? null;
  const locale = reader.enumeration('locale', LOCALES) ?? null;
  const metadata = reader.metadata() ?? {};
  const setupData = reader.object('setup_intent_data');
  const setupMetadata = setupData?.metadata() ?? {};
  const setupDescription = setupData?.string('description', { max: 1000 }) ?? null;
  setupData?.rejectUnknown();
  reader.enumeration('ui_mode', ['hosted_page'] as const);
  const now = ctx.store.seconds();
  const expiresAt = reader.integer('expires_at') ?? now + MAX_EXPIRY_S;
  if (expiresAt < now + MIN_EXPIRY_S - EXPIRY_GRACE_S) {
    throw invalid('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at');
  }
  if (expiresAt > now + MAX_EXPIRY_S)
    throw invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at');
  reader.rejectUnknown(['expand']);
  const email = customerEmail ?? (customer ? ctx.store.customer(customer).email : null);
  return ctx.store.createSetupSession({
    baseUrl: ctx.baseUrl,
    expiresAt,
    currency,
    clientReferenceId,
    customerEmail: email,
    customer,
    locale,
    metadata,
    successUrl,
    cancelUrl,
    submitType: null,
    billingAddressCollection: null,
    setup: { metadata: setupMetadata, description: setupDescription },
    allowedMethods: allowed ?? null,
  });
}

/** A list of payment method types that must let sepa_debit through (the sandbox's one bank debit). */
function methodFilter(reader: Reader, key: string): string[] | undefined {
  const list = reader.list(key);
  if (!list) return undefined;
  if (list.some((m) => typeof m !== 'string')) throw invalid('Invalid array', key);
  if (!list.includes('sepa_debit')) {
    throw invalid(`The local payment sandbox supports only sepa_debit here: ${key} must include "sepa_debit".`, key);
  }
  return list as string[];
}

/** Stripe's answer to an IBAN that is not one (code `invalid_bank_account_iban`). */
export function invalidIban(param: string) {
  return new StripeError(400, 'invalid_request_error', 'The IBAN you provided is invalid.', 'invalid_bank_account_iban', param);
}

/** Reads and checks an IBAN param: ISO 13616 (src/lib/iban.ts), a SEPA country. */
export function readIban(value: string | undefined, param: string): string {
  if (!value) throw missing(param);
  if (ibanProblem(value) !== null || !isSepaIban(value)) throw invalidIban(param);
  return normalizeIban(value);
}

export function createCustomer(ctx: ApiContext, params: Params): Stripe.Customer {
  const reader = new Reader(params);
  const email = reader.string('email', { max: 512 }) ?? null;
  if (email !== null && !EMAIL.test(email)) throw invalid(`Invalid email address: ${email}`, 'email', 'email_invalid');
  const name = reader.string('name', { max: 256 }) ?? null;
  const description = reader.string('description', { max: 350 }) ?? null;
  const metadata = reader.metadata() ?? {};
  reader.rejectUnknown(['expand']);
  return ctx.store.createCustomer({ email, name, description, metadata }, ctx.request);
}

export function createPaymentMethod(ctx: ApiContext, params: Params): Stripe.PaymentMethod {
  const reader = new Reader(params);
  const type = reader.string('type', { required: true })!;
  if (type !== 'sepa_debit')
    throw invalid(`The local payment sandbox creates only PaymentMethods of type sepa_debit, not ${type}.`, 'type');
  const sepa = reader.object('sepa_debit', { required: true })!;
  const iban = readIban(sepa.string('iban'), 'sepa_debit[iban]');
  sepa.rejectUnknown();
  const billing = reader.object('billing_details');
  const name = billing?.string('name', { max: 5000 }) ?? null;
  const email = billing?.string('email', { max: 800 }) ?? null;
  billing?.object('address');
  billing?.string('phone');
  billing?.rejectUnknown();
  const metadata = reader.metadata() ?? {};
  reader.rejectUnknown(['expand']);
  return ctx.store.createSepaPaymentMethod({ iban, name, email, metadata }, ctx.request);
}

/** `true`, `one_off` or `recurring` (Stripe's off_session); the sandbox debits the same way. */
function offSession(reader: Reader) {
  const value = reader.string('off_session');
  if (value !== undefined && !['true', 'false', 'one_off', 'recurring'].includes(value))
    throw invalid('Invalid off_session: must be a boolean or one of one_off, recurring', 'off_session');
}

function boolean(reader: Reader, key: string): boolean {
  const value = reader.string(key);
  if (value === undefined) return false;
  if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, key);
  return value === 'true';
}

export function createPaymentIntent(ctx: ApiContext, params: Params): Stripe.PaymentIntent {
  const reader = new Reader(params);
  const amount = reader.integer('amount', { required: true, min: 1, max: MAX_AMOUNT })!;
  const currency = reader.string('currency', { required: true })!.toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}.`, 'currency');
  if (currency !== 'eur') throw invalid('The payment method `sepa_debit` only supports the currency `eur`.', 'currency');
  if (amount < MIN_AMOUNT) throw invalid('Amount must be at least €0.50 eur', 'amount', 'amount_too_small');
  const customer = reader.string('customer') ?? null;
  const paymentMethod = reader.string('payment_method') ?? null;
  const allowed = methodFilter(reader, 'allowed_payment_method_types') ?? null;
  methodFilter(reader, 'payment_method_types');
  const confirm = boolean(reader, 'confirm');
  offSession(reader);
  const mandate = reader.string('mandate') ?? null;
  const description = reader.string('description', { max: 1000 }) ?? null;
  const receiptEmail = reader.string('receipt_email', { max: 800 }) ?? null;
  const statementDescriptor = reader.string('statement_descriptor', { max: 22 }) ?? null;
  const statementSuffix = reader.string('statement_descriptor_suffix', { max: 22 }) ?? null;
  const metadata = reader.metadata() ?? {};
  reader.rejectUnknown(['expand']);
  return ctx.store.createPaymentIntent(
    {
      amount,
      currency,
      customer,
      paymentMethod,
      description,
      metadata,
      receiptEmail,
      statementSuffix,
      statementDescriptor,
      confirm,
      mandate,
      allowed,
    },
    ctx.request,
  );
}

export function confirmPaymentIntent(ctx: ApiContext, id: string, params: Params): Stripe.PaymentIntent {
  const reader = new Reader(params);
  const paymentMethod = reader.string('payment_method') ?? null;
  const mandate = reader.string('mandate') ?? null;
  offSession(reader);
  reader.rejectUnknown(['expand']);
  return ctx.store.confirmPaymentIntent(id, { paymentMethod, mandate }, ctx.request);
}

export function expireSession(ctx: ApiContext, id: string, params: Params) {
  new Reader(params).rejectUnknown(['expand']);
  return ctx.store.expireSession(id, ctx.request);
}

export function createRefund(ctx: ApiContext, params: Params): Stripe.Refund {
  const reader = new Reader(params);
  const charge = reader.string('charge');
  const paymentIntent = reader.string('payment_intent');
  if (!charge && !paymentIntent)
    throw invalid('One of the following params should be provided for this request: payment_intent or charge.');
  if (charge && paymentIntent) throw invalid('You can only provide one of these parameters: payment_intent or charge.', 'payment_intent');
  const amount = reader.integer('amount', { min: 1 });
  const reason = reader.enumeration('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
  const metadata = reader.metadata() ?? {};
  reader.rejectUnknown(['expand']);
  return ctx.store.createRefund({ charge, paymentIntent, amount, reason, metadata }, ctx.request);
}

/** `expand[]`: a field holding an id of the sandbox's objects is replaced by the object (dotted paths nest). */
export function expand(store: PaymentStore, object: unknown, params: Params): unknown {
  const reader = new Reader(params);
  const paths = reader.list('expand') ?? [];
  const copy = structuredClone(object) as Record<string, unknown>;
  for (const path of paths) {
    if (typeof path !== 'string') throw invalid('Invalid array', 'expand');
    let node: Record<string, unknown> | null = copy;
    for (const field of path.split('.')) {
      if (!node) break;
      const value: unknown = node[field];
      if (value === null) {
        node = null;
        break;
      }
      if (typeof value === 'object') {
        node = value as Record<string, unknown>;
        continue;
      }
      const found = typeof value === 'string' ? lookup(store, value) : undefined;
      if (!found) throw invalid(`This property cannot be expanded (${field}).`, 'expand');
      node[field] = structuredClone(found);
      node = node[field] as Record<string, unknown>;
    }
  }
  return copy;
}

function lookup(store: PaymentStore, id: string): unknown {
  const prefix = id.slice(0, id.indexOf('_'));
  const find: Record<string, (id: string) => unknown> = {
    cs: (i) => store.session(i),
    pi: (i) => store.paymentIntent(i),
    ch: (i) => store.charge(i),
    re: (i) => store.refund(i),
    cus: (i) => store.customer(i),
    seti: (i) => store.setupIntent(i),
    pm: (i) => store.paymentMethod(i),
    mandate: (i) => store.mandate(i),
    du: (i) => store.dispute(i),
  };
  return find[prefix]?.(id);
}
