import type { I18n, MessageDescriptor } from '@lingui/core';

/**
 * The error catalogue's codes (issue 41, docs/adr/0019-error-catalogue.md): every code the
 * database raises (`raise exception 'code'` in supabase/schemas, and the codes the append-only
 * tables' trigger `private.refuse_change('code', …)` raises), every code the edge functions answer
 * with (`{ error: 'code' }` in supabase/functions), and the few the client makes up itself.
 * tests/unit/error-catalogue.test.ts fails when SQL or a function raises a code missing here, or
 * when a code here is raised nowhere.
 *
 * Each code names who reads its message, which decides where its text lives (by Lingui area, so
 * /start downloads none of them):
 * - `guest`: src/lib/errors/guest-messages.ts (catalogue `booking`, loaded on every page but /start):
 *   guests can meet it; staff pages load it too;
 * - `staff`: src/lib/errors/staff-messages.ts (catalogue `harbour`, loaded under /account/admin);
 * - `internal`: a guard against a caller the app never makes (a tampered request, an append-only
 *   table, a bad setting): no text of its own, the reader sees the generic message.
 * This file holds no text: it is small and may be imported anywhere.
 */
export const DB_ERROR_CODES = {
  absence_in_past: 'guest',
  absence_nights_let: 'guest',
  absence_not_found: 'guest',
  absence_outside_contract: 'guest',
  absence_overlaps: 'guest',
  account_inactive: 'guest',
  account_required: 'guest',
  additional_place_not_found: 'staff',
  admin_only: 'staff',
  already_checked_in: 'guest',
  amount_mismatch: 'internal',
  application_not_found: 'staff',
  application_not_open: 'staff',
  archive_range_too_long: 'staff',
  audit_log_immutable: 'internal',
  berth_already_held: 'staff',
  berth_has_bookings: 'staff',
  berth_no_longer_available: 'guest',
  berth_offer_open: 'staff',
  berth_renews: 'staff',
  berth_too_shallow: 'guest',
  beyond_booking_horizon: 'guest',
  block_not_found: 'staff',
  block_too_long: 'staff',
  boat_does_not_fit: 'guest',
  boat_size_invalid: 'staff',
  buyer_required: 'staff',
  cannot_deactivate_self: 'staff',
  cannot_remove_own_admin: 'staff',
  cash_balance_negative: 'staff',
  cash_book_immutable: 'internal',
  cash_day_closed: 'staff',
  cash_day_invalid: 'staff',
  cash_later_day_open: 'staff',
  check_in_not_possible: 'guest',
  checked_in_arrival_fixed: 'staff',
  closure_choice_invalid: 'internal',
  contract_end_reason_invalid: 'staff',
  contract_immutable: 'internal',
  contract_not_active: 'guest',
  contract_not_found: 'staff',
  contract_notice_immutable: 'internal',
  contract_status_invalid: 'staff',
  contract_terms_immutable: 'internal',
  contract_terms_invalid: 'staff',
  contract_text_changed: 'guest',
  datev_invalid_setting: 'internal',
  datev_range_fiscal_year: 'staff',
  datev_vat_rate: 'staff',
  day_guests_only: 'guest',
  day_stay_not_allowed: 'guest',
  deposit_needs_order: 'staff',
  deposit_refund_not_failed: 'staff',
  deposit_refund_online: 'staff',
  desk_sale_cancelled: 'staff',
  desk_sale_immutable: 'internal',
  extra_not_found: 'staff',
  fee_cancelled: 'staff',
  fee_debit_in_flight: 'staff',
  fee_not_found: 'guest',
  fee_not_overpaid: 'staff',
  fee_overdue_access_withheld: 'guest',
  fee_reminders_immutable: 'internal',
  fee_repay_exceeds_overpaid: 'staff',
  flags_required: 'internal',
  gauge_reading_invalid: 'internal',
  gauge_thresholds_invalid: 'staff',
  harbour_closed: 'guest',
  harbour_status_invalid: 'internal',
  holder_already_ended: 'staff',
  holder_not_found: 'guest',
  holding_not_found: 'guest',
  invalid_actor_role: 'internal',
  invalid_amount: 'staff',
  invalid_answer: 'internal',
  invalid_block_reason: 'internal',
  invalid_boat: 'guest',
  invalid_boat_draught: 'guest',
  invalid_boat_length: 'guest',
  invalid_boat_name: 'guest',
  invalid_boat_width: 'guest',
  invalid_cash_movement: 'staff',
  invalid_checkout_session: 'internal',
  invalid_contract: 'internal',
  invalid_day_window: 'guest',
  invalid_email: 'guest',
  invalid_event: 'internal',
  invalid_fee_lines: 'internal',
  invalid_fee_payment_method: 'internal',
  invalid_holder: 'internal',
  invalid_items: 'staff',
  invalid_mandate: 'internal',
  invalid_message: 'guest',
  invalid_name: 'guest',
  invalid_note: 'staff',
  invalid_page: 'internal',
  invalid_paging: 'internal',
  invalid_payment_method: 'staff',
  invalid_payment_plan: 'internal',
  invalid_period: 'guest',
  invalid_phone: 'guest',
  invalid_price: 'staff',
  invalid_quantity: 'staff',
  invalid_query: 'staff',
  invalid_range: 'staff',
  invalid_reason: 'staff',
  invalid_refund: 'internal',
  invalid_refund_id: 'internal',
  invalid_refund_method: 'staff',
  invalid_reply: 'staff',
  invalid_request_key: 'internal',
  invalid_sale_code: 'guest',
  invalid_service: 'internal',
  invalid_sort: 'internal',
  insurance_file_invalid: 'guest',
  insurance_insurer_invalid: 'guest',
  insurance_policy_invalid: 'guest',
  insurance_valid_until_past: 'guest',
  invoice_immutable: 'internal',
  invoice_invalid_setting: 'internal',
  last_admin: 'guest',
  long_term_price_basis_invalid: 'internal',
  long_term_price_invalid: 'staff',
  long_term_price_missing: 'staff',
  long_term_price_valid_from_past: 'staff',
  long_term_prices_immutable: 'internal',
  message_not_found: 'staff',
  mfa_enrol_first: 'staff',
  no_candidate: 'staff',
  no_factor: 'staff',
  no_online_payment: 'staff',
  not_a_deposit: 'staff',
  not_allowed: 'staff',
  not_staff: 'staff',
  note_too_long: 'staff',
  nothing_to_refund: 'staff',
  notice_deadline_passed: 'guest',
  notice_not_found: 'guest',
  offer_already_open: 'staff',
  offer_berth_unavailable: 'guest',
  offer_boat_does_not_fit: 'staff',
  offer_deadline_invalid: 'staff',
  offer_lapsed: 'guest',
  offer_not_closed: 'staff',
  offer_not_found: 'guest',
  offer_not_open: 'guest',
  only_admins_change_active: 'internal',
  order_already_paid: 'guest',
  order_closed: 'staff',
  order_events_immutable: 'internal',
  order_extra_closed: 'staff',
  order_extra_not_found: 'staff',
  order_not_cancellable: 'guest',
  order_not_found: 'guest',
  order_not_movable: 'staff',
  order_not_open: 'guest',
  order_not_payable: 'guest',
  order_not_refundable: 'staff',
  outbox_row_not_sending: 'internal',
  outside_fair_period: 'guest',
  payment_desk_only: 'guest',
  payment_method_invalid: 'guest',
  payment_not_found: 'staff',
  payment_plan_invalid: 'guest',
  payments_immutable: 'internal',
  period_in_past: 'guest',
  place_has_orders: 'staff',
  place_not_found: 'guest',
  profile_field_read_only: 'internal',
  range_too_long: 'staff',
  read_only_view: 'internal',
  reason_required: 'staff',
  receipt_not_found: 'staff',
  refund_exceeds_payment: 'staff',
  refund_online_payment: 'staff',
  registration_mark_invalid: 'guest',
  renewal_no_next_season: 'staff',
  request_done: 'staff',
  request_key_expired: 'staff',
  request_key_reused: 'staff',
  sale_code_not_checked: 'guest',
  sale_code_throttled: 'guest',
  sale_code_throttled_network: 'guest',
  season_dates_invalid: 'staff',
  season_in_use: 'staff',
  season_kind_invalid: 'internal',
  season_name_invalid: 'staff',
  season_not_found: 'staff',
  season_over: 'staff',
  season_overlap: 'staff',
  sepa_invalid_setting: 'internal',
  sign_in_required: 'guest',
  staff_only: 'staff',
  stay_too_long: 'guest',
  tariff_code_fixed: 'staff',
  tariff_missing: 'internal',
  too_many_applications: 'guest',
  too_many_messages: 'guest',
  too_many_places: 'internal',
  too_many_requests: 'guest',
  too_many_unverified_orders: 'guest',
  user_not_found: 'staff',
  vat_rate_invalid: 'staff',
  verification_required: 'guest',
  verified_account_required: 'guest',
} as const satisfies Record<string, Audience>;

/**
 * The codes the edge functions answer with (`{ error: code }`; a database refusal they relay keeps
 * the database's code, src/lib/edge-functions.ts `FunctionCallError`), and the client's own:
 * `network` (no answer), `unauthorized` (the gateway's 401), `unknown` (an answer without a code).
 */
export const FUNCTION_ERROR_CODES = {
  database_unavailable: 'guest',
  database_unreachable: 'internal',
  forbidden: 'staff',
  gauge_unavailable: 'internal',
  idempotency_conflict: 'guest',
  internal_error: 'internal',
  invalid_idempotency_key: 'internal',
  invalid_request: 'guest',
  method_not_allowed: 'internal',
  missing_signature: 'internal',
  no_documents: 'staff',
  not_configured: 'guest',
  not_einvoice: 'internal',
  not_found: 'guest',
  not_signed_in: 'guest',
  nothing_to_pay: 'guest',
  payment_provider_error: 'guest',
  refund_in_progress: 'staff',
  request_refused: 'internal',
} as const satisfies Record<string, Audience>;

/** Codes made up in the browser, and the Stripe error codes refund-payment passes on as its own. */
export const CLIENT_ERROR_CODES = {
  network: 'guest',
  unauthorized: 'guest',
  unknown: 'internal',
  amount_exceeds_refundable: 'staff',
  charge_already_refunded: 'staff',
} as const satisfies Record<string, Audience>;

/** Who reads a code's message: its text lives in that area's file, or it has none (internal). */
export type Audience = 'guest' | 'staff' | 'internal';

export type DbErrorCode = keyof typeof DB_ERROR_CODES;
export type FunctionErrorCode = keyof typeof FUNCTION_ERROR_CODES;
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES;
/** Every code the app can meet in an error: the one union the message maps are typed by. */
export type ErrorCode = DbErrorCode | FunctionErrorCode | ClientErrorCode;

export const ERROR_CODES: Readonly<Record<ErrorCode, Audience>> = { ...DB_ERROR_CODES, ...FUNCTION_ERROR_CODES, ...CLIENT_ERROR_CODES };

/** The codes whose message lives in `audience`'s file. */
export type CodesFor<A extends Audience> = {
  [C in ErrorCode]: C extends keyof typeof DB_ERROR_CODES
    ? (typeof DB_ERROR_CODES)[C] extends A
      ? C
      : never
    : C extends keyof typeof FUNCTION_ERROR_CODES
      ? (typeof FUNCTION_ERROR_CODES)[C] extends A
        ? C
        : never
      : C extends keyof typeof CLIENT_ERROR_CODES
        ? (typeof CLIENT_ERROR_CODES)[C] extends A
          ? C
          : never
        : never;
}[ErrorCode];

const isCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/**
 * The catalogue code of an error, wherever it came from: a `FunctionCallError`'s `code`, a
 * PostgREST/Postgres error's `message` (the database raises the bare code as its message), else
 * undefined (then the SQLSTATE in `code` is all there is).
 */
export function errorCode(error: unknown): ErrorCode | undefined {
  const e = (error ?? {}) as { code?: unknown; message?: unknown; name?: unknown };
  if (e.name === 'FunctionCallError' && isCode(e.code)) return e.code;
  if (isCode(e.message)) return e.message;
  if (isCode(e.code)) return e.code;
  return undefined;
}

/** The SQLSTATE (or PostgREST code) of an error, when it has one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$|^PGRST\d+$/.test(code) ? code : undefined;
}

export interface ErrorMessageOptions {
  /** The text for an error without a text of its own (instead of the generic message). */
  fallback?: MessageDescriptor;
  /** The i18n instance of the component (useLingui), else the global one. */
  i18n?: I18n;
}

/** The one lookup: the code's text in `messages`, else the SQLSTATE's in `sqlStates`, else `fallback`. */
export function lookupErrorMessage(
  error: unknown,
  messages: Partial<Record<ErrorCode, MessageDescriptor>>,
  sqlStates: Record<string, MessageDescriptor>,
  fallback: MessageDescriptor,
): MessageDescriptor {
  const code = errorCode(error);
  if (code && messages[code]) return messages[code];
  const state = sqlState(error);
  if (state && Object.hasOwn(sqlStates, state)) return sqlStates[state];
  return fallback;
}
