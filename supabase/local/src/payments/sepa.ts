import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { normalizeIban } from '../../../../src/lib/iban.ts';
import { newId } from './objects.ts';

/**
 * SEPA Direct Debit in the sandbox: Stripe's documented test IBANs (docs.stripe.com/testing,
 * "SEPA Direct Debit", the table for Germany) and Stripe's objects for a SEPA payment method, its
 * mandate and a dispute. Any other valid SEPA IBAN behaves as the succeeding test IBAN.
 */

export interface SepaBehaviour {
  outcome: 'succeed' | 'fail';
  /** "after at least three minutes" in Stripe's table. */
  delayed?: true;
  /** "succeeded, but a dispute is immediately created". */
  dispute?: true;
  /** The failure code of a failing IBAN (charge.failure_code, last_payment_error.code). */
  failureCode?: string;
  failureMessage?: string;
}

const FAILED: SepaBehaviour = {
  outcome: 'fail',
  failureCode: 'generic_could_not_process',
  failureMessage: 'The payment could not be processed.',
};

const TEST_IBANS: Record<string, SepaBehaviour> = {
  // Germany
  DE89370400440532013000: { outcome: 'succeed' },
  DE08370400440532013003: { outcome: 'succeed', delayed: true },
  DE62370400440532013001: FAILED,
  DE78370400440532013004: { ...FAILED, delayed: true },
  DE35370400440532013002: { outcome: 'succeed', dispute: true },
  DE65370400440000343434: {
    outcome: 'fail',
    failureCode: 'charge_exceeds_source_limit',
    failureMessage: 'This payment would cause the account to exceed its weekly payment volume limit.',
  },
  DE27370400440000121212: {
    outcome: 'fail',
    failureCode: 'charge_exceeds_weekly_limit',
    failureMessage: "The payment amount exceeds the account's transaction volume limit.",
  },
  DE65370400440002222227: { outcome: 'fail', failureCode: 'insufficient_funds', failureMessage: 'The account has insufficient funds.' },
};

export function sepaBehaviour(iban: string): SepaBehaviour {
  return TEST_IBANS[normalizeIban(iban)] ?? { outcome: 'succeed' };
}

/** "At least three minutes" for the delayed test IBANs. */
export const DELAYED_PENDING_MS = 3 * 60_000;

export const ibanFingerprint = (iban: string) =>
  createHash('sha256')
    .update(`sandbox-iban:${normalizeIban(iban)}`)
    .digest('base64url')
    .slice(0, 16);

/** Bank and branch code as Stripe reports them for German IBANs (the Bankleitzahl); elsewhere the 4 characters after the check digits. */
function bankCode(iban: string) {
  return iban.startsWith('DE') ? iban.slice(4, 12) : iban.slice(4, 8);
}

export function newSepaPaymentMethod(input: {
  iban: string;
  created: number;
  customer: string | null;
  name: string | null;
  email: string | null;
  metadata: Record<string, string>;
}): Stripe.PaymentMethod {
  const iban = normalizeIban(input.iban);
  return {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: input.email,
      name: input.name,
      phone: null,
      tax_id: null,
    },
    created: input.created,
    customer: input.customer,
    customer_account: null,
    livemode: false,
    metadata: input.metadata,
    sepa_debit: {
      bank_code: bankCode(iban),
      branch_code: '',
      country: iban.slice(0, 2),
      fingerprint: ibanFingerprint(iban),
      generated_from: { charge: null, setup_attempt: null },
      last4: iban.slice(-4),
    },
    type: 'sepa_debit',
  } as Stripe.PaymentMethod;
}

/** A mandate reference as Stripe prints it on the pre-notification (16 upper-case letters and digits). */
export function mandateReference() {
  return newId('x', 16).slice(2).toUpperCase();
}

export function newMandate(input: {
  paymentMethod: string;
  acceptedAt: number;
  ipAddress: string | null;
  userAgent: string | null;
  baseUrl: string;
}): Stripe.Mandate {
  const id = newId('mandate');
  return {
    id,
    object: 'mandate',
    customer_acceptance: {
      accepted_at: input.acceptedAt,
      online: { ip_address: input.ipAddress, user_agent: input.userAgent },
      type: 'online',
    },
    livemode: false,
    multi_use: {},
    payment_method: input.paymentMethod,
    payment_method_details: {
      sepa_debit: { reference: mandateReference(), url: `${input.baseUrl}/mandates/${id}` },
      type: 'sepa_debit',
    },
    status: 'active',
    type: 'multi_use',
  } as Stripe.Mandate;
}

export function newSetupIntent(input: {
  created: number;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
}): Stripe.SetupIntent {
  const id = newId('seti');
  return {
    id,
    object: 'setup_intent',
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${id}_secret_${newId('x', 25).slice(2)}`,
    created: input.created,
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { sepa_debit: {} },
    payment_method_types: ['sepa_debit'],
    single_use_mandate: null,
    status: 'requires_payment_method',
    usage: 'off_session',
  } as unknown as Stripe.SetupIntent;
}

export function newCustomer(input: {
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  testClock: string | null;
}): Stripe.Customer {
  return {
    id: newId('cus', 14),
    object: 'customer',
    address: null,
    balance: 0,
    created: input.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: input.description,
    discount: null,
    email: input.email,
    invoice_prefix: newId('x', 8).slice(2).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: input.metadata,
    name: input.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: input.testClock,
  } as unknown as Stripe.Customer;
}

export function sepaChargeDetails(pm: Stripe.PaymentMethod, mandate: string): Stripe.Charge.PaymentMethodDetails {
  const s = pm.sepa_debit!;
  return {
    type: 'sepa_debit',
    sepa_debit: {
      bank_code: s.bank_code,
      branch_code: s.branch_code,
      country: s.country,
      fingerprint: s.fingerprint,
      last4: s.last4,
      mandate,
    },
  } as Stripe.Charge.PaymentMethodDetails;
}

export function newDispute(input: { created: number; charge: Stripe.Charge }): Stripe.Dispute {
  return {
    id: newId('du'),
    object: 'dispute',
    amount: input.charge.amount,
    balance_transactions: [],
    charge: input.charge.id,
    created: input.created,
    currency: input.charge.currency,
    enhanced_eligibility_types: [],
    evidence: {},
    evidence_details: { due_by: null, has_evidence: false, past_due: false, submission_count: 0 },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: input.charge.payment_intent as string,
    payment_method_details: { type: 'sepa_debit' },
    reason: 'general',
    status: 'lost',
  } as unknown as Stripe.Dispute;
}
