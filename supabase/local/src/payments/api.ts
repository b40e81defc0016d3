import type Stripe from 'stripe';
import type { LineItemData } from './objects.ts';
import { Reader, invalid, missing, noSuch, type Params } from './params.ts';
import type { PaymentStore, RequestInfo } from './state.ts';

/**
 * The API subset: POST/GET /v1/checkout/sessions[/:id[/expire]], GET /v1/payment_intents/:id,
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
  if (mode !== 'payment') throw invalid(`The local payment sandbox supports only mode=payment, not ${mode}.`, 'mode');
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
  };
  return find[prefix]?.(id);
}
