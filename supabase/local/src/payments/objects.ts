import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/**
 * Stripe's objects for the sandbox's subset, typed by the `stripe` package's own definitions
 * (node_modules/stripe/esm/resources), so a field Stripe's types require cannot be left out.
 */

/** The API version of the `stripe` package the project uses (events carry it as `api_version`). */
export const API_VERSION = '2026-10-28.endive';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id with Stripe's prefix (`cs_test_…`, `pi_…`, `ch_…`, `re_…`, `evt_…`, `req_…`). */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export interface LineItemData {
  name: string;
  description: string | null;
  currency: string;
  unitAmount: number;
  quantity: number;
}

export interface CardData {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: string;
  country: string;
  fingerprint: string;
}

export function newSession(input: {
  id: string;
  created: number;
  expiresAt: number;
  url: string;
  amountTotal: number;
  currency: string;
  clientReferenceId: string | null;
  customerEmail: string | null;
  locale: Stripe.Checkout.Session.Locale | null;
  metadata: Record<string, string>;
  successUrl: string | null;
  cancelUrl: string | null;
  submitType: Stripe.Checkout.Session.SubmitType | null;
  billingAddressCollection: Stripe.Checkout.Session.BillingAddressCollection | null;
  customerCreation: Stripe.Checkout.Session.CustomerCreation;
}): Stripe.Checkout.Session {
  return {
    id: input.id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: input.amountTotal,
    amount_total: input.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: input.billingAddressCollection,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_account: null,
    customer_creation: input.customerCreation,
    customer_details: input.customerEmail
      ? {
          address: null,
          business_name: null,
          email: input.customerEmail,
          individual_name: null,
          name: null,
          phone: null,
          tax_exempt: 'none',
          tax_ids: null,
        }
      : null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: {
      enabled: false,
      invoice_data: {
        account_tax_ids: null,
        custom_fields: null,
        description: null,
        footer: null,
        issuer: null,
        metadata: {},
        rendering_options: null,
      },
    },
    livemode: false,
    locale: input.locale,
    managed_payments: null,
    metadata: input.metadata,
    mode: 'payment',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: input.submitType,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: input.url,
    wallet_options: null,
  };
}

export function newPaymentIntent(input: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  statementSuffix: string | null;
}): Stripe.PaymentIntent {
  return {
    id: input.id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${input.id}_secret_${newId('x', 25).slice(2)}`,
    confirmation_method: 'automatic',
    created: input.created,
    currency: input.currency,
    customer: null,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: input.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: input.statementSuffix,
    status: 'requires_payment_method',
    transfer_group: null,
  };
}

export function newCharge(input: {
  id: string;
  created: number;
  intent: Stripe.PaymentIntent;
  paymentMethod: string;
  card: CardData;
  billing: { email: string | null; name: string | null };
  failure?: { code: string; declineCode: string; message: string };
}): Stripe.Charge {
  const failed = Boolean(input.failure);
  return {
    id: input.id,
    object: 'charge',
    amount: input.intent.amount,
    amount_captured: failed ? 0 : input.intent.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: failed ? null : newId('txn'),
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: input.billing.email,
      name: input.billing.name,
      phone: null,
      tax_id: null,
    },
    calculated_statement_descriptor: 'Stripe',
    captured: !failed,
    created: input.created,
    currency: input.intent.currency,
    customer: null,
    description: input.intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: input.failure?.code ?? null,
    failure_message: input.failure?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: input.intent.metadata,
    on_behalf_of: null,
    outcome: failed
      ? {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: 'declined_by_network',
          reason: input.failure!.declineCode,
          risk_level: 'normal',
          risk_score: 0,
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        }
      : {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: 'approved_by_network',
          reason: null,
          risk_level: 'normal',
          risk_score: 0,
          seller_message: 'Payment complete.',
          type: 'authorized',
        },
    paid: !failed,
    payment_intent: input.intent.id,
    payment_method: input.paymentMethod,
    payment_method_details: {
      type: 'card',
      card: {
        amount_authorized: failed ? null : input.intent.amount,
        authorization_code: null,
        brand: input.card.brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: input.card.country,
        electronic_commerce_indicator: null,
        exp_month: input.card.expMonth,
        exp_year: input.card.expYear,
        fingerprint: input.card.fingerprint,
        funding: input.card.funding,
        installments: null,
        last4: input.card.last4,
        mandate: null,
        network: input.card.brand,
        network_token: { used: false },
        network_transaction_id: null,
        regulated_status: 'unregulated',
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
    },
    receipt_email: input.intent.receipt_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: failed ? 'failed' : 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}

export function newRefund(input: {
  id: string;
  created: number;
  charge: Stripe.Charge;
  amount: number;
  reason: Stripe.Refund.Reason | null;
  metadata: Record<string, string>;
}): Stripe.Refund {
  return {
    id: input.id,
    object: 'refund',
    amount: input.amount,
    balance_transaction: newId('txn'),
    charge: input.charge.id,
    created: input.created,
    currency: input.charge.currency,
    customer: null,
    customer_account: null,
    destination_details: {
      type: 'card',
      card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
    },
    metadata: input.metadata,
    payment_intent: input.charge.payment_intent as string,
    payment_method: input.charge.payment_method,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export function newEvent(input: {
  id: string;
  created: number;
  type: Stripe.Event.Type;
  object: unknown;
  previousAttributes?: Record<string, unknown>;
  pendingWebhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}): Stripe.Event {
  const data: Stripe.Event.Data = { object: structuredClone(input.object) as Stripe.Event.Data.Object };
  if (input.previousAttributes) data.previous_attributes = input.previousAttributes;
  return {
    id: input.id,
    object: 'event',
    api_version: API_VERSION,
    created: input.created,
    data,
    livemode: false,
    pending_webhooks: input.pendingWebhooks,
    request: input.request,
    type: input.type,
  } as Stripe.Event;
}
