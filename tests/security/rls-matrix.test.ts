/**
 * The RLS matrix (issue 13, item 4): every relation of the public schema (read from the
 * database, so a new table without a row here fails the suite) and storage.objects, for every
 * persona (anon, guest, customer, other customer, harbour staff, admin), for select, insert,
 * update and delete, through PostgREST's HTTP API and the Storage API as supabase-js calls
 * them. Writes are sent with `Prefer: tx=rollback` (allowed by `pgrst.db_tx_end` on this suite's
 * stack), so the matrix changes nothing.
 *
 * Each cell is one letter: R = allowed and rows came back (read, written or deleted),
 * 0 = allowed but 0 rows (RLS hid them), x = refused (401/403, SQLSTATE 42501 / no privilege).
 * Order of the four letters: select, insert, update, delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { setTxEnd } from '../../supabase/local/test/harness/stack.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import { berlinDay, http, PERSONAS, personas, SEED, startSecurityStack, type Persona, type PersonaName } from './helpers.ts';

type Cell = 'R' | '0' | 'x' | '?';
type Row = Record<PersonaName, string>;

// ------------------------------------------------------------------------ the expected matrix
// (anon, guest, customer = kunde, other = anna, staff = hafen, admin)
const EXPECTED: Record<string, Row> = {
  // Public catalogue: everyone reads, only admins write (others' writes match 0 rows).
  places: { anon: 'Rx00', guest: 'Rx00', customer: 'Rx00', other: 'Rx00', staff: 'Rx00', admin: 'RRRR' },
  additional_places: { anon: 'Rx00', guest: 'Rx00', customer: 'Rx00', other: 'Rx00', staff: 'Rx00', admin: 'RRRR' },
  place_additional_places: { anon: 'Rx00', guest: 'Rx00', customer: 'Rx00', other: 'Rx00', staff: 'Rx00', admin: 'RR0R' },
  // A berth's photos (issue 24): everyone reads those of active berths, only admins write.
  place_photos: { anon: 'Rx00', guest: 'Rx00', customer: 'Rx00', other: 'Rx00', staff: 'Rx00', admin: 'RRRR' },
  fair_periods: { anon: 'Rx00', guest: 'Rx00', customer: 'Rx00', other: 'Rx00', staff: 'Rx00', admin: 'RRRR' },
  news: { anon: 'Rx00', guest: 'Rx00', customer: 'Rx00', other: 'Rx00', staff: 'Rx00', admin: 'RRRR' },
  // Admin only (harbour_settings: the door code; staff read it through harbour_access()).
  sale_codes: { anon: '0x00', guest: '0x00', customer: '0x00', other: '0x00', staff: '0x00', admin: 'RRRR' },
  harbour_settings: { anon: '0x0x', guest: '0x0x', customer: '0x0x', other: '0x0x', staff: '0x0x', admin: 'RxRx' },
  // Admins read every e-mail, staff the e-mails of orders (what the guest was told; 191 checks
  // that they see none outside an order).
  outbox: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Own rows; staff read all; admins change profiles and roles; orders only through functions.
  profiles: { anon: '0x00', guest: '0x00', customer: 'RxR0', other: 'Rx00', staff: 'Rx00', admin: 'RxR0' },
  user_roles: { anon: '0x0x', guest: '0x0x', customer: 'Rx0x', other: 'Rx0x', staff: 'Rx0x', admin: 'RxRx' },
  orders: { anon: '0xxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  invoices: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  contact_messages: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Staff answers to messages: staff read the thread; only reply_to_message writes (the sender gets the e-mail).
  message_replies: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Staff only, written through functions (service blocks also directly).
  place_statuses: { anon: '0x0x', guest: '0x0x', customer: '0x0x', other: '0x0x', staff: 'RRRx', admin: 'RRRx' },
  berth_blocks: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Long-term berths: holders and applicants see their own (anna holds one; kunde applied and,
  // in the set-up, accepted an offer of D10: a holding); admins manage.
  long_term_holders: { anon: '0x00', guest: '0x00', customer: 'Rx00', other: 'Rx00', staff: 'Rx00', admin: 'RRRR' },
  long_term_holder_events: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  long_term_applications: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: '0xxx', admin: 'Rxxx' },
  // Insurance certificates (issue 42, ADR 0050): the holder and staff read; written only by add_insurance_certificate.
  holder_insurance_certificates: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Holders' absences (issue 43, ADR 0054): the holder and staff read; written only by save_/delete_holder_absence.
  holder_absences: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Working hours: staff their own in open months, admins all; the monthly view is read-only.
  working_hours: { anon: 'xxxx', guest: '0x00', customer: '0x00', other: '0x00', staff: 'RRRR', admin: 'RRRR' },
  // Staff notes and the order history: staff read; written only by add_order_note and a trigger.
  order_notes: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  order_events: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // The payments ledger and Checkout sessions: owners read their order's rows, staff all; nobody
  // writes them over the API (ledger rows come from the staff functions and the Stripe webhook's
  // service-role function, sessions from create-checkout's).
  payments: { anon: 'xxxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  checkout_sessions: { anon: 'xxxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  working_hours_monthly: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // The cash book and its closings (issue 21): staff read; written only by the ledger trigger
  // and the staff functions (record_cash_movement, close_cash_day), never changed.
  cash_book_entries: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  cash_closings: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Extras (issue 21): the catalogue is read by everyone (the active entries), written by admins,
  // never deleted; an order's extras are read by the order's owner and staff, a desk sale by staff;
  // both only through the staff functions, never changed over the API.
  extras: { anon: 'Rxxx', guest: 'Rx0x', customer: 'Rx0x', other: 'Rx0x', staff: 'Rx0x', admin: 'RRRx' },
  // The berth tariffs (issue 40): everyone reads the three rows, only admins change them, nobody
  // adds or deletes one; the price list (tariffs and active extras) is a read-only view.
  tariffs: { anon: 'Rxxx', guest: 'Rx0x', customer: 'Rx0x', other: 'Rx0x', staff: 'Rx0x', admin: 'RxRx' },
  price_list: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  order_extras: { anon: 'xxxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  desk_sales: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  desk_sale_cancellations: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Seasons and the long-term price list (issue 42, ADR 0046): everyone reads the seasons and the
  // prices in force or announced (the seeded rows are in force), staff also the replaced ones;
  // nobody writes over the API (admins through add_season, add_long_term_price; prices append-only).
  seasons: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  long_term_prices: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Offers and contracts (issue 42, ADR 0047): everyone reads the terms; the applicant (kunde,
  // offered D10 and accepted it in the set-up) reads the own offer and contract, staff all;
  // nobody writes any of them over the API (only the functions; contracts never change).
  contract_terms: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  berth_offers: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  contracts: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Seasonal fees, their states and SEPA mandates (issue 42, ADR 0048): holders read their own,
  // staff all; nobody writes over the API (the functions of 63_long_term_fees.sql do).
  long_term_fees: { anon: 'xxxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  long_term_fee_status: { anon: 'xxxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  sepa_mandates: { anon: 'xxxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Reminders of overdue long-term fees (issue 42, ADR 0051): the holder reads those of own fees
  // (kunde's fee here), staff all; nobody writes over the API (only send_fee_reminders; append-only).
  fee_reminders: { anon: 'xxxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Renewal and notice (ADR 0052): the holder (kunde) reads the notice of the own contract, staff
  // all notices and the renewal runs; nobody writes either over the API (only the functions).
  contract_notices: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  contract_renewal_runs: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // The Rhine gauge (issue 43, ADR 0053): everyone reads the thresholds, levels and forecasts;
  // nobody writes them over the API (set_gauge_thresholds, record_gauge_reading: service role).
  gauge_settings: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  gauge_readings: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  gauge_forecasts: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Staff overrides of the status: staff read them (everyone reads the reason through
  // harbour_status()); written only by set_/end_harbour_status_override.
  harbour_status_overrides: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Closures and the notices to guests (issue 43 item 2): everyone reads the episodes; the
  // guest (kunde) the notice of the own order, staff all; written only by the functions.
  harbour_closures: { anon: 'Rxxx', guest: 'Rxxx', customer: 'Rxxx', other: 'Rxxx', staff: 'Rxxx', admin: 'Rxxx' },
  harbour_closure_notices: { anon: '0xxx', guest: '0xxx', customer: 'Rxxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // Draught against depth (ADR 0053): everyone reads the under-keel margin, admins change it (no
  // row added or deleted); low-water warnings are read by staff, written only by warn_shallow_berths.
  depth_settings: { anon: 'Rxxx', guest: 'Rx0x', customer: 'Rx0x', other: 'Rx0x', staff: 'Rx0x', admin: 'RxRx' },
  depth_warnings: { anon: '0xxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: 'Rxxx', admin: 'Rxxx' },
  // The audit trail: admins read; nobody writes it over the API (only the audit trigger does).
  audit_log: { anon: 'xxxx', guest: '0xxx', customer: '0xxx', other: '0xxx', staff: '0xxx', admin: 'Rxxx' },
};

// storage.objects per bucket (the object probed: a seeded one in that bucket; for avatars the
// customer's own avatar). Insert = upload of a new PNG into the persona's proper folder.
const EXPECTED_STORAGE: Record<string, Row> = {
  'place-images': { anon: 'Rxx0', guest: 'Rxx0', customer: 'Rxx0', other: 'Rxx0', staff: 'Rxx0', admin: 'RRRR' },
  'news-images': { anon: 'Rxx0', guest: 'Rxx0', customer: 'Rxx0', other: 'Rxx0', staff: 'Rxx0', admin: 'RRRR' },
  'additional-place-images': { anon: 'Rxx0', guest: 'Rxx0', customer: 'Rxx0', other: 'Rxx0', staff: 'Rxx0', admin: 'RRRR' },
  // own folder only; staff read every avatar; nobody changes another's (a delete of an
  // object one may not see answers 200 with nothing removed, as Supabase Storage does)
  avatars: { anon: 'xxx0', guest: '0xx0', customer: 'RRRR', other: '0Rx0', staff: 'RRx0', admin: 'RRx0' },
  // folder = the holding's id: its holder (anna) uploads and reads, staff read; nobody changes or deletes
  'insurance-certificates': { anon: 'xxx0', guest: '0xx0', customer: '0xx0', other: 'RRx0', staff: 'Rxx0', admin: 'Rxx0' },
};

// Who may call each function of the public schema through /rest/v1/rpc (the function itself
// then checks roles and ownership: tests/security/escalation.test.ts). '-' = no EXECUTE.
const ANON_AND_AUTH = 'anon auth';
const AUTH = '- auth';
const NOBODY = '- -';
const EXPECTED_FUNCTIONS: Record<string, string> = {
  // public booking and forms
  search_available_places: ANON_AND_AUTH,
  quote_booking: ANON_AND_AUTH,
  place_long_term_starts: ANON_AND_AUTH,
  send_contact_message: ANON_AND_AUTH,
  request_service: ANON_AND_AUTH,
  apply_for_long_term_berth: ANON_AND_AUTH,
  long_term_application_status: ANON_AND_AUTH,
  long_term_price: ANON_AND_AUTH,
  payment_mode_for: ANON_AND_AUTH,
  payment_terms: ANON_AND_AUTH,
  harbour_intro: ANON_AND_AUTH,
  cancellation_policy: ANON_AND_AUTH,
  // the harbour status from the Rhine gauge (ADR 0053): everyone reads; staff override (checked
  // inside), admins set the thresholds (checked inside); only fetch-gauge records levels
  harbour_status: ANON_AND_AUTH,
  // the status of each day of a stay, shown beside the search (issue 43 item 2)
  stay_harbour_status: ANON_AND_AUTH,
  set_harbour_status_override: AUTH,
  end_harbour_status_override: AUTH,
  set_gauge_thresholds: AUTH,
  record_gauge_reading: NOBODY,
  // guests in a closure: staff list them (checked inside), the owner answers (checked inside)
  harbour_closure_stays: AUTH,
  answer_harbour_closure: AUTH,
  // why the search left berths out as too shallow for the draught (ADR 0053)
  search_depth_notice: ANON_AND_AUTH,
  booking_last_day: ANON_AND_AUTH,
  // a session (guest or account)
  create_booking: AUTH,
  cancel_booking: AUTH,
  check_in: AUTH,
  claim_guest_orders: AUTH,
  harbour_access: AUTH,
  harbour_access_allowed: AUTH,
  export_my_data: AUTH,
  delete_my_account: AUTH,
  begin_online_payment: AUTH,
  order_balance: AUTH,
  cancellation_quote: AUTH,
  prepare_cancellation_refund: AUTH,
  // staff / admin (refused inside for everyone else)
  add_berth_block: AUTH,
  cancel_berth_block: AUTH,
  calendar: AUTH,
  place_calendar: AUTH,
  move_booking: AUTH,
  record_desk_payment: AUTH,
  record_desk_refund: AUTH,
  money_to_return: AUTH,
  prepare_online_refund: AUTH,
  staff_create_booking: AUTH,
  set_message_done: AUTH,
  reply_to_message: AUTH,
  reply_to_application: AUTH,
  answer_long_term_application: AUTH,
  assign_long_term_holder: AUTH,
  remove_long_term_holder: AUTH,
  long_term_applications_queue: AUTH,
  my_fee_access_hold: AUTH,
  overdue_fees_overview: AUTH,
  add_season: AUTH,
  update_season: AUTH,
  delete_season: AUTH,
  add_long_term_price: AUTH,
  report_average_stay: AUTH,
  report_check_in_rate: AUTH,
  report_guests_by_country: AUTH,
  report_occupancy: AUTH,
  report_revenue: AUTH,
  report_sale_codes: AUTH,
  staff_orders: AUTH,
  order_move_targets: AUTH,
  add_order_note: AUTH,
  calendar_entries: AUTH,
  open_long_term_applications: AUTH,
  admin_list_users: AUTH,
  admin_save_user: AUTH,
  set_place_additional_places: AUTH,
  reorder_place_photos: AUTH,
  record_cash_movement: AUTH,
  close_cash_day: AUTH,
  cash_day: AUTH,
  admin_audit_log: AUTH,
  order_event_actors: AUTH,
  move_precheck: AUTH,
  order_guest_account: AUTH,
  overview_figures: AUTH,
  my_mfa_required: AUTH,
  admin_mfa_status: AUTH,
  admin_reset_mfa: AUTH,
  add_order_extra: AUTH,
  remove_order_extra: AUTH,
  return_deposit: AUTH,
  reschedule_booking: AUTH,
  reschedule_quote: AUTH,
  accept_service_request: AUTH,
  sell_at_desk: AUTH,
  cancel_desk_sale: AUTH,
  prepare_deposit_refund: AUTH,
  deposit_refunds_due: AUTH,
  datev_postings: AUTH,
  datev_settings: AUTH,
  save_datev_settings: AUTH,
  invoice_archive_documents: AUTH,
  invoice_seller_settings: AUTH,
  save_invoice_seller_settings: AUTH,
  publish_contract_terms: AUTH,
  offer_candidates: AUTH,
  free_berths_for_season: AUTH,
  send_offer: AUTH,
  offer_next_applicant: AUTH,
  withdraw_offer: AUTH,
  decline_offer: AUTH,
  offer_contract: AUTH,
  accept_offer: AUTH,
  set_contract_status: AUTH,
  renewal_preview: AUTH,
  confirm_renewal: AUTH,
  give_contract_notice: AUTH,
  save_holder_absence: AUTH,
  delete_holder_absence: AUTH,
  holder_absence_list: AUTH,
  absence_let_places: ANON_AND_AUTH,
  end_contract: AUTH,
  add_insurance_certificate: AUTH,
  set_registration_mark: AUTH,
  holders_missing_insurance: AUTH,
  record_fee_transfer: AUTH,
  repay_fee_overpayment: AUTH,
  long_term_fees_overview: AUTH,
  report_long_term_fees: AUTH,
  contract_balances: AUTH,
  sepa_settings: AUTH,
  save_sepa_settings: AUTH,
  begin_sepa_setup: AUTH,
  // platform only (service role, supabase_auth_admin)
  claim_outbox: NOBODY,
  complete_outbox: NOBODY,
  expire_unverified_orders: NOBODY,
  custom_access_token_hook: NOBODY,
  record_stripe_event: NOBODY,
  record_checkout_session: NOBODY,
  note_deposit_refund_refused: NOBODY,
  note_deposit_refund_requested: NOBODY,
  note_online_refund_requested: NOBODY,
  record_sepa_mandate: NOBODY,
  due_fee_debits: NOBODY,
  note_fee_debit: NOBODY,
};

// ------------------------------------------------------------------------ probing
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

const classify = (status: number, rows: unknown): Cell => {
  if (status === 401 || status === 403) return 'x';
  if (status >= 200 && status < 300) return Array.isArray(rows) && rows.length > 0 ? 'R' : '0';
  throw new Error(`unexpected status ${status}: ${JSON.stringify(rows)}`);
};

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`security: RLS matrix on ${engine.name}`, engine.skip))(
    `security: RLS matrix on ${engine.name}`,
    () => {
      let stack: Stack;
      let who: Record<PersonaName, Persona> & { guestOrderId: string };
      /** anna's holding: the folder of her insurance certificates. */
      let holdingId = '';
      let contractId = '';
      const q = async <T = Record<string, unknown>>(sql: string, params?: unknown[]) => (await stack.db.query<T>(sql, params)).rows;

      beforeAll(async () => {
        stack = await startSecurityStack(engine.name);
        // the writes roll back by Prefer: tx=rollback, which PostgREST honours only where
        // db-tx-end allows it (ADR 0022); this suite's stack allows it, as a project could
        await setTxEnd(stack, 'commit-allow-override');
        who = await personas(stack);
        // Rows that the seed leaves empty: an invoice of the customer's (paid at the desk, so a
        // ledger row), a Checkout session of that order, a berth block, a contact message of the customer's.
        const order = (
          await q<{ id: string }>(
            `select id from public.orders where user_id = $1 and status in ('confirmed','completed') and payment_status = 'pending' order by starts_at limit 1`,
            [SEED.customer.id],
          )
        )[0];
        const paid = await who.staff.client.rpc('record_desk_payment', { p_order_id: order.id, p_method: 'cash' });
        if (paid.error) throw paid.error;
        const session = await http(stack, 'POST', '/rest/v1/rpc/record_checkout_session', {
          token: stack.keys.serviceRoleKey,
          body: {
            p_order_id: order.id,
            p_session_id: 'cs_test_matrix',
            p_url: 'https://checkout.example/cs_test_matrix',
            p_amount_cents: 100,
            p_expires_at: '2099-01-01T00:00:00Z',
          },
        });
        if (session.status !== 204 && session.status !== 200) throw new Error(`record_checkout_session: ${session.status} ${session.text}`);
        const place = (await q<{ id: string }>(`select id from public.places where name = 'E10'`))[0];
        const block = await who.staff.client.rpc('add_berth_block', {
          p_place_id: place.id,
          p_starts_at: `${berlinDay(300)}T08:00:00+01:00`,
          p_ends_at: `${berlinDay(301)}T08:00:00+01:00`,
          p_reason: 'maintenance',
        });
        if (block.error) throw block.error;
        const sent = await who.customer.client.rpc('send_contact_message', {
          p_name: 'Klaus Kunde',
          p_email: SEED.customer.email,
          p_message: 'Eine Frage zum Liegeplatz.',
        });
        if (sent.error) throw sent.error;
        // an extra on the customer's order and a desk sale by card (the staff functions, as the desk writes them)
        const washing = (await q<{ id: string }>(`select id from public.extras where code = 'washing_machine'`))[0];
        const extra = await who.staff.client.rpc('add_order_extra', { p_order_id: order.id, p_extra_id: washing.id, p_quantity: 1 });
        if (extra.error) throw extra.error;
        const sale = await who.staff.client.rpc('sell_at_desk', {
          p_items: [{ extra_id: washing.id, quantity: 1 }],
          p_method: 'card_terminal',
        });
        if (sale.error) throw sale.error;
        const storno = await who.staff.client.rpc('cancel_desk_sale', {
          p_receipt_id: (sale.data as { id: string }).id,
          p_reason: 'matrix',
        });
        if (storno.error) throw storno.error;
        // the harbour's answer to it (reply_to_message, as the inbox writes it)
        const replied = await who.staff.client.rpc('reply_to_message', {
          p_message_id: sent.data as string,
          p_body: 'Gern, rufen Sie uns an.',
        });
        if (replied.error) throw replied.error;
        // a staff note on that order (add_order_note, as the orders desk writes it)
        const note = await who.staff.client.rpc('add_order_note', { p_order_id: order.id, p_body: 'Zahlt bar im Büro.' });
        if (note.error) throw note.error;
        // the cash book: that cash payment is an entry; a closing of today (counted = the book)
        const till = await who.staff.client.rpc('cash_day', { p_day: berlinDay(0) });
        if (till.error) throw till.error;
        const closed = await who.staff.client.rpc('close_cash_day', {
          p_day: berlinDay(0),
          p_counted_cents: (till.data as { balance_cents: number }).balance_cents,
        });
        if (closed.error) throw closed.error;
        // a berth without orders (an admin may delete it; berths with orders are kept by FK)
        await q(`insert into public.places (name, pier, width, length) values ('Z99', 'Z', 3, 8)`);
        // a gauge level with a forecast run (as fetch-gauge records them) and a staff override
        await q(`select public.record_gauge_reading(now() - interval '10 minutes', 612, 1::smallint, jsonb_build_array(
          jsonb_build_object('initialized', now() - interval '1 hour', 'timestamp', now() + interval '1 day', 'value', 655, 'type', 'forecast')))`);
        const override = await who.staff.client.rpc('set_harbour_status_override', { p_status: 'restricted', p_reason: 'Treibgut' });
        if (override.error) throw override.error;
        // a low-water warning of an order (as warn_shallow_berths writes it)
        await q(`insert into public.depth_warnings (order_id, place_id, level_cm, clearance_cm, warned_at)
                 select o.id, o.place_id, 120, 10, now() from public.orders o where o.place_id is not null limit 1`);
        // an offer of D10 for summer 2027 to kunde's application, accepted online (a contract)
        const app = (await q<{ id: string }>(`select id from public.long_term_applications where email = 'kunde@hafen.test'`))[0].id;
        const offer = await who.admin.client.rpc('send_offer', {
          p_application_id: app,
          p_place_id: (await q<{ id: string }>(`select id from public.places where name = 'D10'`))[0].id,
          p_season_id: (await q<{ id: string }>(`select id from public.seasons where name = 'Sommer 2027'`))[0].id,
        });
        if (offer.error) throw offer.error;
        const offerId = (offer.data as { id: string }).id;
        // (two instalments by direct debit: the acceptance creates the contract's fees itself)
        const shown = await who.customer.client.rpc('offer_contract', {
          p_offer_id: offerId,
          p_payment_plan: 2,
          p_payment_method: 'sepa_debit',
        });
        if (shown.error) throw shown.error;
        const accepted = await who.customer.client.rpc('accept_offer', {
          p_offer_id: offerId,
          p_payment_plan: 2,
          p_payment_method: 'sepa_debit',
          p_contract_sha256: (shown.data as { contract_sha256: string }[])[0].contract_sha256,
        });
        if (accepted.error) throw accepted.error;
        contractId = (accepted.data as { id: string }).id;
        // the customer's second instalment overdue (due 10 days ago) and its first reminder (ADR 0051)
        await q(
          `with f as (update public.long_term_fees set due_on = current_date - 10 where contract_id = $1 and instalment = 2 returning id)
           insert into public.fee_reminders (fee_id, stage, sent_on, days_overdue, balance_cents) select id, 1, current_date, 10, 50000 from f`,
          [contractId],
        );
        if (
          (
            await q(`select 1 from public.fee_reminders f join public.long_term_fees l on l.id = f.fee_id where l.contract_id = $1`, [
              contractId,
            ])
          ).length !== 1
        )
          throw new Error('no overdue fee of the contract');
        // a notice recorded for kunde's contract and a renewal run (ADR 0052; rows only, status unchanged)
        await q(`insert into public.contract_notices (contract_id, kind) values ($1, 'notice')`, [contractId]);
        await q(
          `insert into public.contract_renewal_runs (request_key, from_season_id, to_season_id, issued)
           select gen_random_uuid(), id, id, 0 from public.seasons limit 1`,
        );
        // a closure episode with a notice to kunde's order (as sync_harbour_closures writes them)
        await q(
          `with c as (insert into public.harbour_closures (first_day, last_day, started_at) values (current_date + 400, current_date + 400, now()) returning id)
           insert into public.harbour_closure_notices (closure_id, order_id, closed_days, notified_at) select c.id, $1, array[current_date + 400], now() from c`,
          [order.id],
        );
        // a photo of an active berth (the seed has none)
        await q(
          `insert into public.place_photos (place_id, path) select id, 'places/matrix/seed.png' from public.places where name = 'A01'`,
        );
        // anna's insurance certificate (the file is seeded below)
        holdingId = (await q<{ id: string }>(`select id from public.long_term_holders where user_id = $1 limit 1`, [SEED.other.id]))[0].id;
        await q(
          `insert into public.holder_insurance_certificates (holder_id, insurer, policy_number, valid_until, file_path)
           values ($1::uuid, 'Matrix Versicherung', 'M-1', '2099-12-31', $1::text || '/seed.png')`,
          [holdingId],
        );
        // an absence of anna's from her holding (ADR 0054)
        await q(
          `insert into public.holder_absences (holder_id, place_id, starts_on, ends_on)
           select id, place_id, greatest(starts_on, current_date + 400), greatest(starts_on, current_date + 400) + 3
             from public.long_term_holders where id = $1`,
          [holdingId],
        );
        // a SEPA mandate of the customer's for that contract (its fees exist since the acceptance)
        const mandate = await http(stack, 'POST', '/rest/v1/rpc/record_sepa_mandate', {
          token: stack.keys.serviceRoleKey,
          body: {
            p_mandate: {
              user_id: SEED.customer.id,
              contract_id: contractId,
              customer: 'cus_matrix',
              payment_method: 'pm_matrix',
              mandate: 'mandate_matrix',
              reference: 'MATRIX-1',
              last4: '3000',
              customer_acceptance: { type: 'online' },
            },
          },
        });
        if (mandate.status !== 200) throw new Error(`record_sepa_mandate: ${mandate.status} ${mandate.text}`);
        // storage objects to probe
        const service = stack.keys.serviceRoleKey;
        for (const path of [
          'place-images/matrix/seed.png',
          'news-images/matrix/seed.png',
          'additional-place-images/matrix/seed.png',
          `avatars/${SEED.customer.id}/seed.png`,
          `insurance-certificates/${holdingId}/seed.png`,
        ]) {
          const res = await http(stack, 'POST', `/storage/v1/object/${path}`, {
            token: service,
            body: png,
            headers: { 'content-type': 'image/png', 'x-upsert': 'true' },
          });
          if (res.status !== 200) throw new Error(`seed ${path}: ${res.text}`);
        }
      }, 120_000);
      afterAll(async () => {
        await stack?.close();
      });

      it('covers every relation of the public schema (a new table needs its row in EXPECTED)', async () => {
        const relations = (
          await q<{ name: string }>(
            `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') order by 1`,
          )
        ).map((r) => r.name);
        expect(relations.length).toBeGreaterThan(15);
        expect(Object.keys(EXPECTED).sort()).toEqual(relations);
        // and every table has RLS switched on; every view is security_invoker
        const noRls = await q(`select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                              where n.nspname = 'public' and c.relkind in ('r','p') and not c.relrowsecurity`);
        expect(noRls).toEqual([]);
        const definerViews = await q(`select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                                     where n.nspname = 'public' and c.relkind = 'v'
                                       and not coalesce(c.reloptions @> array['security_invoker=true'], false)
                                       and not coalesce(c.reloptions @> array['security_invoker=on'], false)`);
        expect(definerViews).toEqual([]);
      });

      it('every function of the public schema has the expected EXECUTE grants (a new one needs its row) and a fixed search_path', async () => {
        const rows = await q<{ name: string; anon: boolean; auth: boolean; definer: boolean; config: string[] | null }>(
          `select p.proname as name, has_function_privilege('anon', p.oid, 'execute') as anon,
                has_function_privilege('authenticated', p.oid, 'execute') as auth, p.prosecdef as definer, p.proconfig as config
           from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' order by 1`,
        );
        const observed = Object.fromEntries(rows.map((r) => [r.name, `${r.anon ? 'anon' : '-'} ${r.auth ? 'auth' : '-'}`]));
        expect(observed).toEqual(EXPECTED_FUNCTIONS);
        const definerWithoutPath = rows.filter((r) => r.definer && !(r.config ?? []).some((c) => c.startsWith('search_path=')));
        expect(definerWithoutPath.map((r) => r.name)).toEqual([]);
      });

      /** The row a write is aimed at, as a PostgREST filter, and a harmless update (same value). */
      async function target(table: string): Promise<{ filter: string; update: Record<string, unknown> }> {
        const one = async (sql: string, params: unknown[] = []) => {
          const rows = await q<Record<string, unknown>>(sql, params);
          if (!rows[0]) throw new Error(`no target row for ${table}`);
          return rows[0];
        };
        const c = SEED.customer.id;
        switch (table) {
          case 'profiles': {
            const r = await one(`select id, city from public.profiles where id = $1`, [c]);
            return { filter: `id=eq.${r.id}`, update: { city: r.city } };
          }
          case 'user_roles': {
            const r = await one(`select user_id, "user" from public.user_roles where user_id = $1`, [c]);
            return { filter: `user_id=eq.${r.user_id}`, update: { user: r.user } };
          }
          case 'orders': {
            const r = await one(`select id, status from public.orders where user_id = $1 limit 1`, [c]);
            return { filter: `id=eq.${r.id}`, update: { status: r.status } };
          }
          case 'invoices': {
            const r = await one(
              `select i.id, i.recipient from public.invoices i join public.orders o on o.id = i.order_id where o.user_id = $1`,
              [c],
            );
            return { filter: `id=eq.${r.id}`, update: { recipient: r.recipient } };
          }
          case 'contact_messages': {
            const r = await one(`select id, status from public.contact_messages where user_id = $1 limit 1`, [c]);
            return { filter: `id=eq.${r.id}`, update: { status: r.status } };
          }
          case 'place_additional_places': {
            const r = await one(`select place_id, additional_place_id from public.place_additional_places limit 1`);
            return {
              filter: `place_id=eq.${r.place_id}&additional_place_id=eq.${r.additional_place_id}`,
              update: { place_id: r.place_id },
            };
          }
          case 'place_statuses': {
            const r = await one(`select id, note from public.place_statuses where type = 'service' and not cancelled limit 1`);
            return { filter: `id=eq.${r.id}`, update: { note: r.note } };
          }
          case 'berth_blocks': {
            const r = await one(`select place_status_id, reason from public.berth_blocks limit 1`);
            return { filter: `place_status_id=eq.${r.place_status_id}`, update: { reason: r.reason } };
          }
          case 'working_hours': {
            const r = await one(
              `select id, note from public.working_hours where user_id = $1 and private.hours_open(work_date) order by work_date desc limit 1`,
              [SEED.staff.id],
            );
            return { filter: `id=eq.${r.id}`, update: { note: r.note } };
          }
          case 'working_hours_monthly': {
            const r = await one(`select user_id from public.working_hours_monthly where user_id = $1 limit 1`, [SEED.staff.id]);
            return { filter: `user_id=eq.${r.user_id}`, update: { user_id: r.user_id } };
          }
          case 'places': {
            const r = await one(`select id, pier from public.places where name = 'Z99'`);
            return { filter: `id=eq.${r.id}`, update: { pier: r.pier } };
          }
          case 'order_notes': {
            const r = await one(`select id, body from public.order_notes limit 1`);
            return { filter: `id=eq.${r.id}`, update: { body: r.body } };
          }
          case 'contract_notices': {
            const r = await one(`select id, reason from public.contract_notices limit 1`);
            return { filter: `id=eq.${r.id}`, update: { reason: r.reason } };
          }
          case 'contract_renewal_runs': {
            const r = await one(`select id, issued from public.contract_renewal_runs limit 1`);
            return { filter: `id=eq.${r.id}`, update: { issued: r.issued } };
          }
          case 'tariffs': {
            const r = await one(`select code, name from public.tariffs where code = 'berth_night_per_metre'`);
            return { filter: `code=eq.${r.code}`, update: { name: r.name } };
          }
          case 'price_list': {
            const r = await one(`select code, name from public.price_list limit 1`);
            return { filter: `code=eq.${r.code}`, update: { name: r.name } };
          }
          case 'harbour_settings': {
            const r = await one(`select id, wifi_ssid from public.harbour_settings`);
            return { filter: `id=eq.${r.id}`, update: { wifi_ssid: r.wifi_ssid } };
          }
          case 'gauge_readings':
          case 'gauge_forecasts': {
            const r = await one(`select level_cm from public.${table} limit 1`);
            return { filter: `level_cm=eq.${r.level_cm}`, update: { level_cm: r.level_cm } };
          }
          default: {
            const cols = await q<{ column_name: string }>(
              `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1
               and column_name not in ('id', 'created_at', 'updated_at') and is_generated = 'NEVER' and is_identity = 'NO' order by ordinal_position limit 1`,
              [table],
            );
            const r = await one(`select * from public.${table} limit 1`);
            return { filter: `id=eq.${r.id}`, update: { [cols[0].column_name]: r[cols[0].column_name] } };
          }
        }
      }

      /** A row the persona would insert (valid, so only privileges and RLS decide). */
      async function sample(table: string, p: Persona): Promise<Record<string, unknown>> {
        const place = (await q<{ id: string }>(`select id from public.places where name = 'A01'`))[0].id;
        const far = '2099-06-01';
        switch (table) {
          case 'places':
            return { name: 'SEC-1', pier: 'Z', width: 3, length: 10 };
          case 'additional_places':
            return { type: 'water', name: 'SEC column', position: [1, 2] };
          case 'place_photos':
            return { place_id: place, path: 'places/sec/probe.png', position: 1 };
          case 'place_additional_places': {
            const r = (
              await q<{ p: string; a: string }>(`select p.id as p, a.id as a from public.places p cross join public.additional_places a
             where not exists (select 1 from public.place_additional_places x where x.place_id = p.id and x.additional_place_id = a.id) limit 1`)
            )[0];
            return { place_id: r.p, additional_place_id: r.a };
          }
          case 'fair_periods':
            return { name: 'SEC fair', starts_on: far, ends_on: '2099-06-05' };
          case 'news':
            return { title: 'SEC', starts_at: '2099-01-01T00:00:00Z', ends_at: '2099-02-01T00:00:00Z' };
          case 'sale_codes':
            return { code: 'SECCODE', value: 0 };
          case 'harbour_settings':
            return { id: 2, door_code: '0000' };
          case 'outbox':
            return { kind: 'contact', recipient: 'x@example.org', subject: 's', body_text: 'b' };
          case 'profiles':
            return { id: p.userId ?? SEED.customer.id, email: 'x@example.org' };
          case 'user_roles':
            return { user_id: p.userId ?? SEED.customer.id, admin: true };
          case 'orders':
            return {
              place_id: place,
              kind: 'overnight',
              starts_at: `${far}T12:00:00Z`,
              ends_at: '2099-06-02T10:00:00Z',
              price_cents: 1,
              price_breakdown: {},
              email: 'x@example.org',
              place_snapshot: {},
              boat: {},
              person: {},
              user_id: p.userId,
            };
          case 'invoices':
            return { order_id: who.guestOrderId, year: 2099, number: 1, net_cents: 1, vat_cents: 0, gross_cents: 1, recipient: {} };
          case 'contact_messages':
            return { kind: 'contact', name: 'x', email: 'x@example.org', message: 'xxxxxxxxxxxx', user_id: p.userId };
          case 'extras':
            return { code: 'sec_probe', name: 'Probe', name_en: 'Probe', unit: 'piece', price_cents: 100, vat_rate: 19 };
          case 'tariffs':
            return { code: 'berth_night_per_metre', name: 'X', name_en: 'X', unit: 'metre_night', gross_cents: 1, vat_rate: 19 };
          case 'price_list':
            return { code: 'sec_probe', price_cents: 1 };
          case 'seasons':
            return { name: 'SEC season', kind: 'summer', starts_on: '2099-04-01', ends_on: '2099-10-31' };
          case 'long_term_prices':
            return { season_kind: 'summer', basis: 'running_metre', gross_cents: 1, vat_rate: 19, valid_from: '2099-01-01' };
          case 'order_extras':
            return {
              order_id: who.guestOrderId,
              extra_id: (await q<{ id: string }>(`select id from public.extras limit 1`))[0].id,
              code: 'x',
              name: 'x',
              name_en: 'x',
              unit: 'piece',
              unit_price_cents: 1,
              vat_rate: 19,
              deposit: false,
              quantity: 1,
            };
          case 'desk_sales':
            return { method: 'cash', gross_cents: 1, items: [{ code: 'x' }] };
          case 'desk_sale_cancellations':
            return {
              desk_sale_id: (await q<{ id: string }>(`select id from public.desk_sales limit 1`))[0].id,
              document_id: (await q<{ id: string }>(`select id from public.invoices limit 1`))[0].id,
              method: 'cash',
              amount_cents: 1,
              reason: 'x',
            };
          case 'message_replies':
            return { message_id: (await q<{ id: string }>(`select id from public.contact_messages limit 1`))[0].id, body: 'x' };
          // Each persona its own hours: the personas probe at once, and two overlapping inserts of
          // one berth at the same moment may wait for each other at the exclusion constraint.
          case 'place_statuses': {
            const hour = String(PERSONAS.indexOf(p.name) * 2).padStart(2, '0');
            return { place_id: place, type: 'service', starts_at: `${far}T${hour}:00:00Z`, ends_at: `${far}T${hour}:59:00Z` };
          }
          case 'berth_blocks':
            return {
              place_status_id: (await q<{ id: string }>(`select id from public.place_statuses where type = 'service' limit 1`))[0].id,
              reason: 'x',
            };
          case 'long_term_holders':
            return { place_id: place, starts_on: far, email: 'x@example.org', first_name: 'X', last_name: 'Y' };
          case 'long_term_holder_events':
            return {
              holder_id: (await q<{ id: string }>(`select id from public.long_term_holders limit 1`))[0].id,
              place_id: place,
              action: 'assigned',
              starts_on: far,
              holder: {},
            };
          case 'contract_terms':
            return { version: 99, body_de: 'x', body_en: 'x' };
          case 'berth_offers':
            return {
              place_id: place,
              season_id: (await q<{ id: string }>(`select id from public.seasons limit 1`))[0].id,
              application_id: (await q<{ id: string }>(`select id from public.long_term_applications limit 1`))[0].id,
              email: 'x@example.org',
              locale: 'de',
              boat: {},
              lines: [],
              gross_cents: 1,
              deadline: far,
              user_id: p.userId,
            };
          case 'contracts':
            return {
              ...(await q<Record<string, unknown>>(`select * from public.contracts limit 1`))[0],
              id: undefined,
              contract_number: 'LV-2099-0001',
            };
          case 'contract_notices':
            return {
              contract_id: (await q<{ id: string }>(`select id from public.contracts limit 1`))[0].id,
              kind: 'notice',
            };
          case 'contract_renewal_runs': {
            const season = (await q<{ id: string }>(`select id from public.seasons limit 1`))[0].id;
            return { request_key: crypto.randomUUID(), from_season_id: season, to_season_id: season, issued: 0 };
          }
          case 'holder_insurance_certificates':
            return {
              holder_id: holdingId,
              insurer: 'X',
              policy_number: 'Y',
              valid_until: '2099-12-31',
              file_path: `${holdingId}/probe.png`,
            };
          case 'holder_absences':
            return { holder_id: holdingId, place_id: place, starts_on: far, ends_on: far };
          case 'long_term_applications':
            return { email: 'x@example.org', first_name: 'X', last_name: 'Y', boat: { name: 'B', length: 8, width: 3 } };
          case 'working_hours':
            return { user_id: p.userId ?? SEED.staff.id, work_date: berlinDay(0), start_time: '01:00', end_time: '02:00' };
          case 'working_hours_monthly':
            return { user_id: p.userId };
          case 'order_notes':
            return { order_id: who.guestOrderId, body: 'note' };
          case 'order_events':
            return { order_id: who.guestOrderId, event: 'status', to_value: 'paid' };
          case 'payments':
            return { order_id: who.guestOrderId, kind: 'payment', method: 'cash', amount_cents: 1 };
          case 'audit_log':
            return {
              at: '2099-01-01T00:00:00Z',
              table_name: 'public.places',
              row_key: 'x',
              action: 'insert',
              actor_role: 'system',
              new_values: {},
            };
          case 'checkout_sessions':
            return {
              id: 'cs_test_probe',
              order_id: who.guestOrderId,
              url: 'https://checkout.example/x',
              amount_cents: 1,
              expires_at: '2099-01-01T00:00:00Z',
            };
          case 'long_term_fee_status':
            return { contract_id: contractId, reference: 'X', gross_cents: 1 };
          case 'long_term_fees':
            return {
              // a real contract (the key) and an instalment it has not got (the unique key), so
              // only RLS and privileges can refuse the row
              contract_id: contractId,
              reference: 'X',
              user_id: p.userId ?? SEED.customer.id,
              season_id: (await q<{ id: string }>(`select id from public.seasons limit 1`))[0].id,
              instalment: 4,
              instalments: 4,
              due_on: far,
              payment_method: 'bank_transfer',
              lines: [],
              gross_cents: 1,
            };
          case 'sepa_mandates':
            return {
              user_id: p.userId ?? SEED.customer.id,
              stripe_payment_method: 'pm_probe',
              stripe_mandate: 'mandate_probe',
              reference: 'X',
              iban_last4: '3000',
              customer_acceptance: {},
            };
          case 'cash_book_entries':
            return { business_day: berlinDay(1), kind: 'opening_float', amount_cents: 1, source_kind: 'movement', reason: 'x' };
          case 'cash_closings':
            return {
              business_day: berlinDay(1),
              period_from: berlinDay(1),
              opening_cents: 0,
              cash_in_cents: 0,
              cash_out_cents: 0,
              expected_cents: 0,
              counted_cents: 0,
              difference_cents: 0,
            };
          case 'gauge_settings':
            return { id: 2, restricted_from_cm: 700, closed_from_cm: 800 };
          case 'gauge_readings':
            return { measured_at: '2099-01-01T00:00:00Z', level_cm: 500 };
          case 'gauge_forecasts':
            return { initialized_at: '2099-01-01T00:00:00Z', forecast_for: '2099-01-02T00:00:00Z', level_cm: 500, kind: 'forecast' };
          case 'harbour_status_overrides':
            return { status: 'closed', reason: 'x', set_at: '2099-01-01T00:00:00Z' };
          case 'harbour_closures':
            return {
              first_day: '2099-01-01',
              last_day: '2099-01-01',
              started_at: '2099-01-01T00:00:00Z',
              ended_at: '2099-01-02T00:00:00Z',
            };
          case 'harbour_closure_notices':
            return {
              closure_id: (await q<{ id: string }>(`select id from public.harbour_closures limit 1`))[0].id,
              order_id: (await q<{ id: string }>(`select id from public.orders where status = 'cancelled' limit 1`))[0].id,
              closed_days: ['2099-01-01'],
              notified_at: '2099-01-01T00:00:00Z',
            };
          case 'depth_settings':
            return { id: 2, margin_cm: 30 };
          case 'depth_warnings':
            return { place_id: place, level_cm: 100, clearance_cm: 0, warned_at: '2099-01-01T00:00:00Z', holder_id: null, order_id: null };
          case 'fee_reminders':
            return {
              fee_id: (await q<{ id: string }>(`select id from public.long_term_fees limit 1`))[0].id,
              stage: 2,
              sent_on: far,
              days_overdue: 1,
              balance_cents: 1,
            };
          default:
            throw new Error(`no sample row for ${table}: add one`);
        }
      }

      const unexpected: string[] = [];
      async function probe(table: string, p: Persona): Promise<string> {
        const headers = { prefer: 'return=representation, tx=rollback' };
        const base = `/rest/v1/${table}`;
        const sel = await http(stack, 'GET', `${base}?select=*`, { token: p.token });
        const ins = await http(stack, 'POST', base, { token: p.token, body: await sample(table, p), headers });
        const t = await target(table);
        const upd = await http(stack, 'PATCH', `${base}?${t.filter}`, { token: p.token, body: t.update, headers });
        const del = await http(stack, 'DELETE', `${base}?${t.filter}`, { token: p.token, headers });
        const cells = [sel, ins, upd, del].map((r, i) => {
          try {
            return classify(r.status, r.body);
          } catch (e) {
            // neither allowed nor refused: a bad probe row or a server error; shown in the diff
            unexpected.push(`${table} ${['select', 'insert', 'update', 'delete'][i]} as ${p.name}: ${(e as Error).message}`);
            return '?';
          }
        });
        return cells.join('');
      }

      it('public relations x personas x select/insert/update/delete match the expected matrix', async () => {
        const observed: Record<string, Row> = {};
        for (const table of Object.keys(EXPECTED).sort()) {
          // the six personas at once (writes roll back; they cannot see each other's changes)
          const cells = await Promise.all(PERSONAS.map((name) => probe(table, who[name])));
          observed[table] = Object.fromEntries(PERSONAS.map((name, i) => [name, cells[i]])) as Row;
        }
        if (process.env.SECURITY_MATRIX_DUMP)
          (await import('node:fs')).writeFileSync(process.env.SECURITY_MATRIX_DUMP, JSON.stringify(observed));
        expect(unexpected).toEqual([]);
        expect(observed).toEqual(EXPECTED);
      }, 120_000);

      async function probeStorage(bucket: string, p: Persona): Promise<string> {
        const own = bucket === 'avatars' ? `${p.userId ?? 'nobody'}` : bucket === 'insurance-certificates' ? holdingId : 'matrix';
        const seeded =
          bucket === 'avatars'
            ? `${SEED.customer.id}/seed.png`
            : bucket === 'insurance-certificates'
              ? `${holdingId}/seed.png`
              : 'matrix/seed.png';
        const service = stack.keys.serviceRoleKey;
        const reseed = () =>
          http(stack, 'POST', `/storage/v1/object/${bucket}/${seeded}`, {
            token: service,
            body: png,
            headers: { 'content-type': 'image/png', 'x-upsert': 'true' },
          });
        const read = await http(stack, 'GET', `/storage/v1/object/authenticated/${bucket}/${seeded}`, { token: p.token });
        const sel: Cell = read.status === 200 ? 'R' : read.status === 400 || read.status === 404 ? (p.name === 'anon' ? 'x' : '0') : 'x';
        const name = `${own}/new-${p.name}.png`;
        const up = await http(stack, 'POST', `/storage/v1/object/${bucket}/${name}`, {
          token: p.token,
          body: png,
          headers: { 'content-type': 'image/png' },
        });
        const ins: Cell = up.status === 200 ? 'R' : 'x';
        if (up.status === 200) await http(stack, 'DELETE', `/storage/v1/object/${bucket}/${name}`, { token: service });
        const put = await http(stack, 'PUT', `/storage/v1/object/${bucket}/${seeded}`, {
          token: p.token,
          body: png,
          headers: { 'content-type': 'image/png' },
        });
        const upd: Cell = put.status === 200 ? 'R' : 'x';
        const rm = await http(stack, 'DELETE', `/storage/v1/object/${bucket}`, { token: p.token, body: { prefixes: [seeded] } });
        const del: Cell = rm.status === 200 ? (Array.isArray(rm.body) && rm.body.length > 0 ? 'R' : '0') : 'x';
        await reseed();
        return [sel, ins, upd, del].join('');
      }

      it('storage.objects per bucket x personas x select/insert/update/delete match the expected matrix', async () => {
        const observed: Record<string, Row> = {};
        for (const bucket of Object.keys(EXPECTED_STORAGE)) {
          observed[bucket] = {} as Row;
          for (const name of PERSONAS) observed[bucket][name] = await probeStorage(bucket, who[name]);
        }
        const buckets = (await q<{ id: string }>(`select id from storage.buckets order by id`)).map((b) => b.id);
        expect(Object.keys(EXPECTED_STORAGE).sort()).toEqual(buckets);
        expect(observed).toEqual(EXPECTED_STORAGE);
      }, 60_000);
    },
  );
}
