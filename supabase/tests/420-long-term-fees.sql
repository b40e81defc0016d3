-- Seasonal fees (issue 42 deliverable 4, docs/adr/0048-seasonal-fees-and-sepa.md): a season's
-- instalments sum to the contract's price to the cent per VAT rate (the remainder on the first);
-- each instalment is an invoice in the one gapless series, never changed; a transfer staff
-- record is in the ledger once under a retried request key, under- and over-payment show in
-- the balance; a SEPA mandate schedules collection after the pre-notification period and the
-- invoice e-mail is the pre-notification; Stripe's events pay the fee once, a failed debit leaves
-- it open and a returned one is reversed by a new ledger row, both e-mail holder and office;
-- DATEV exports the fee documents and payments; holders read their own rows, staff all.
begin;
select plan(77);
select private.freeze_clock('2027-02-01 10:00+01');

select tests.create_user('holder');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
update public.profiles set first_name = 'Hanna', last_name = 'Halter', street = 'Rheinufer 1', postal_code = '40213', city = 'Düsseldorf',
                           country = 'DE', locale = 'de'
 where id = tests.get_user_id('holder');

select tests.authenticate_as('admin');
select set_config('tests.season', public.add_season('Sommer 2027 (Test)', 'summer', '2027-04-01', '2027-10-31')::text, true);
select tests.clear_authentication();

-- A contract's lines as seam 1 prices them: a berth fee at 19 % and electricity at 7 % (odd cents).
select set_config('tests.lines', jsonb_build_array(
  jsonb_build_object('code', 'berth_fee', 'description', 'Liegeplatz A1, Sommer 2027', 'description_en', 'Berth A1, summer 2027',
                     'quantity', 36.5, 'unit', 'square_metre', 'unit_price_cents', 3000, 'vat_rate', 19, 'gross_cents', 109503),
  jsonb_build_object('code', 'electricity', 'description', 'Strompauschale', 'description_en', 'Electricity flat rate',
                     'quantity', 1, 'unit', 'piece', 'unit_price_cents', 12001, 'vat_rate', 7, 'gross_cents', 12001))::text, true);
-- A real contract (long_term_fees.contract_id and sepa_mandates.contract_id reference
-- public.contracts): an accepted application, its accepted offer and the contract row as
-- accept_offer stores them, inserted directly so no fees exist yet (accept_offer would create
-- them through on_contract_accepted); the fees are then made by the function under test.
create function pg_temp.make_contract(p_id uuid, p_number text, p_user uuid, p_season uuid, p_gross bigint,
                                      p_plan int, p_method text)
returns uuid language plpgsql as $$
declare
  v_place uuid;
  v_app uuid;
  v_offer uuid;
  v_season public.seasons;
  v_boat jsonb := '{"name": "Testboot", "length": 10, "width": 3}'::jsonb;
  v_email text := (select u.email from auth.users u where u.id = p_user);
begin
  select * into v_season from public.seasons s where s.id = p_season;
  insert into public.places (name, width, length) values ('V-' || p_number, 4, 12) returning id into v_place;
  insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, boat, status, answered_at)
  values (v_place, p_user, v_email, 'Test', 'Vertrag', v_boat, 'accepted', now()) returning id into v_app;
  insert into public.berth_offers (place_id, season_id, application_id, user_id, email, locale, boat, lines, gross_cents,
                                   deadline, status, answered_at)
  values (v_place, p_season, v_app, p_user, v_email, 'de', v_boat, '[]'::jsonb, p_gross, v_season.starts_on, 'accepted', now())
  returning id into v_offer;
  insert into public.contracts (id, contract_number, offer_id, user_id, holder_id, place_id, season_id, starts_on, ends_on, email,
                                locale, holder, boat, lines, gross_cents, payment_plan, payment_method, terms_version,
                                contract_text, contract_sha256, accepted_at, notice_deadline)
  values (p_id, p_number, v_offer, p_user, gen_random_uuid(), v_place, p_season, v_season.starts_on, v_season.ends_on, v_email,
          'de', jsonb_build_object('first_name', 'Test', 'last_name', 'Vertrag', 'email', v_email), v_boat, '[]'::jsonb, p_gross,
          p_plan, p_method, (select max(t.version) from public.contract_terms t), 'Vertrag ' || p_number,
          encode(sha256(convert_to('Vertrag ' || p_number, 'UTF8')), 'hex'), now(), v_season.ends_on - 90);
  return p_id;
end
$$;
select set_config('tests.c1', pg_temp.make_contract('11111111-1111-4111-8111-111111111111', 'LV-2027-0001', tests.get_user_id('holder'),
  current_setting('tests.season')::uuid, 121504, 4, 'bank_transfer')::text, true);
select set_config('tests.c2', pg_temp.make_contract('22222222-2222-4222-8222-222222222222', 'LV-2027-0002', tests.get_user_id('holder'),
  current_setting('tests.season')::uuid, 121504, 2, 'sepa_debit')::text, true);

-- ---------------------------------------------------------------- instalments
select results_eq(
  $$ select instalment, gross_cents from private.fee_instalment_plan(current_setting('tests.lines')::jsonb, 4, '2027-04-01', '2027-10-31', '2027-02-01') $$,
  $$ values (1, 27378 + 3001), (2, 27375 + 3000), (3, 27375 + 3000), (4, 27375 + 3000) $$,
  'four instalments: per line floor(gross / 4), the remainder cents (3 and 1) on the first, the others equal');
select results_eq(
  $$ select (l ->> 'vat_rate')::numeric, sum((l ->> 'unit_gross_cents')::bigint)::bigint
       from private.fee_instalment_plan(current_setting('tests.lines')::jsonb, 4, '2027-04-01', '2027-10-31', '2027-02-01') p,
            jsonb_array_elements(p.lines) l group by 1 order by 1 $$,
  $$ values (7::numeric, 12001::bigint), (19::numeric, 109503::bigint) $$,
  'per VAT rate the four instalments add up to the season''s price to the cent');
select results_eq(
  $$ select due_on from private.fee_instalment_plan(current_setting('tests.lines')::jsonb, 2, '2027-04-01', '2027-10-31', '2027-02-01') $$,
  $$ values ('2027-04-01'::date), ('2027-07-17'::date) $$,
  'two instalments: due on the season''s first day and half-way through it');
select results_eq(
  $$ select due_on from private.fee_instalment_plan(current_setting('tests.lines')::jsonb, 2, '2027-04-01', '2027-10-31', '2027-05-10') $$,
  $$ values ('2027-05-10'::date), ('2027-07-17'::date) $$,
  'a due day already past when the contract is made is today');
select throws_ok($$ select * from private.fee_instalment_plan(current_setting('tests.lines')::jsonb, 3, '2027-04-01', '2027-10-31', '2027-02-01') $$,
  '22023', 'invalid_payment_plan', 'only 1, 2 or 4 instalments');

select set_config('tests.before', (select coalesce(max(number), 0)::text from public.invoices where year = 2027), true);
select is((select count(*)::int from private.create_season_fees(current_setting('tests.c1')::uuid, 'LV-2027-0001', tests.get_user_id('holder'), null,
                                                                current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb,
                                                                121504, 4, 'bank_transfer')), 4,
  'a contract paid by transfer in four instalments gets four fees');
select results_eq(
  $$ select i.number - current_setting('tests.before')::int, i.gross_cents, i.service_from, i.service_to, i.booking_number, i.reason
       from public.long_term_fees f join public.invoices i on i.fee_id = f.id
      where f.contract_id = current_setting('tests.c1')::uuid order by f.instalment $$,
  $$ values (1, 30379, '2027-04-01'::date, '2027-10-31'::date, 'LV-2027-0001/1', 'season_fee'),
            (2, 30375, '2027-04-01'::date, '2027-10-31'::date, 'LV-2027-0001/2', 'season_fee'),
            (3, 30375, '2027-04-01'::date, '2027-10-31'::date, 'LV-2027-0001/3', 'season_fee'),
            (4, 30375, '2027-04-01'::date, '2027-10-31'::date, 'LV-2027-0001/4', 'season_fee') $$,
  'each instalment is an invoice with the next numbers of the one series, the season as service period, the contract as reference');
select is((select sum(i.gross_cents)::int from public.invoices i join public.long_term_fees f on f.id = i.fee_id
            where f.contract_id = current_setting('tests.c1')::uuid), 121504, 'the invoices add up to the contract''s gross');
select results_eq(
  $$ select (v ->> 'vat_rate')::numeric, sum((v ->> 'gross_cents')::bigint)::bigint, sum((v ->> 'vat_cents')::bigint)::bigint
       from public.invoices i join public.long_term_fees f on f.id = i.fee_id, jsonb_array_elements(i.vat_breakdown) v
      where f.contract_id = current_setting('tests.c1')::uuid group by 1 order by 1 $$,
  $$ values (7::numeric, 12001::bigint, 784::bigint), (19::numeric, 109503::bigint, 17484::bigint) $$,
  'VAT per rate as the documents show it: each rate''s gross exact, the VAT taken out per document');
select is((select i.recipient ->> 'last_name' || ', ' || (i.recipient ->> 'city') from public.invoices i join public.long_term_fees f on f.id = i.fee_id
            where f.contract_id = current_setting('tests.c1')::uuid and f.instalment = 1), 'Halter, Düsseldorf',
  'the holder is the invoice''s recipient with name and address (§ 14 Abs. 4 UStG)');
select isnt((select i.issuer ->> 'name' from public.invoices i join public.long_term_fees f on f.id = i.fee_id
              where f.contract_id = current_setting('tests.c1')::uuid and f.instalment = 1), null, 'and the harbour its issuer');
select is((select count(*)::int from private.create_season_fees(current_setting('tests.c1')::uuid, 'LV-2027-0001', tests.get_user_id('holder'), null,
                                                                current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb,
                                                                121504, 4, 'bank_transfer')), 4,
  'creating the fees again answers the same four');
select is((select max(number) - current_setting('tests.before')::int from public.invoices where year = 2027), 4, 'and issues no further document');
select is((select count(*)::int from public.outbox where kind = 'fee_invoice' and recipient = 'holder@test.local'), 1,
  'the holder gets one e-mail with the invoices');
select is((select jsonb_array_length(attachments) from public.outbox where kind = 'fee_invoice' and recipient = 'holder@test.local'), 4,
  'carrying the four documents');
select throws_ok($$ select private.create_season_fees(gen_random_uuid(), 'LV-X', tests.get_user_id('holder'), null, current_setting('tests.season')::uuid,
                                                      current_setting('tests.lines')::jsonb, 121505, 1, 'bank_transfer') $$,
  '22023', 'invalid_fee_lines', 'lines that do not add up to the contract''s gross are refused');
select throws_ok($$ select private.create_season_fees(gen_random_uuid(), 'LV-X', tests.get_user_id('holder'), null, current_setting('tests.season')::uuid,
                                                      current_setting('tests.lines')::jsonb, 121504, 1, 'bank_transfer') $$,
  '23503', null, 'fees of a contract that does not exist are refused (the foreign key to public.contracts)');

select throws_ok($$ update public.invoices set gross_cents = 1 where fee_id is not null $$, '42501', 'invoice_immutable',
  'an issued fee invoice is never changed');
select throws_ok($$ delete from public.invoices where fee_id is not null $$, '42501', 'invoice_immutable', 'nor deleted');

create function pg_temp.fee(p_contract text, p_instalment int) returns uuid language sql security definer as $$
  select id from public.long_term_fees where contract_id = current_setting(p_contract)::uuid and instalment = p_instalment
$$;
select set_config('tests.f1', pg_temp.fee('tests.c1', 1)::text, true);
select set_config('tests.f2', pg_temp.fee('tests.c1', 2)::text, true);
select set_config('tests.f3', pg_temp.fee('tests.c1', 3)::text, true);

-- ---------------------------------------------------------------- transfers
select tests.authenticate_as('holder');
select throws_ok($$ select public.record_fee_transfer(current_setting('tests.f1')::uuid, 30379, gen_random_uuid()) $$, '42501', 'staff_only',
  'a holder cannot record a transfer');
select throws_ok($$ insert into public.payments (fee_id, kind, method, amount_cents) values (current_setting('tests.f1')::uuid, 'payment', 'bank_transfer', 1) $$,
  '42501', null, 'nor write the ledger');
select throws_ok($$ update public.long_term_fees set gross_cents = 1 $$, '42501', null, 'nor change a fee');
select is((select count(*)::int from public.long_term_fees), 4, 'the holder reads their four fees');
select is((select count(*)::int from public.invoices where fee_id is not null), 4, 'and their four invoices');
select tests.authenticate_as('other');
select is((select count(*)::int from public.long_term_fees), 0, 'another customer reads none of them');
select is((select count(*)::int from public.invoices where fee_id is not null), 0, 'nor their invoices');
select is((select count(*)::int from public.long_term_fee_status), 0, 'nor their states');

select tests.authenticate_as('harbour');
select is((select public.record_fee_transfer(current_setting('tests.f1')::uuid, 30379, '00000000-0000-4000-8000-000000000001', 'Kontoauszug 12') ->> 'state'),
  'paid', 'staff record the incoming transfer: the first instalment is paid');
select is((select public.record_fee_transfer(current_setting('tests.f1')::uuid, 30379, '00000000-0000-4000-8000-000000000001', 'Kontoauszug 12') ->> 'replay'),
  'true', 'the same request again (a double click) is a replay');
select throws_ok($$ select public.record_fee_transfer(current_setting('tests.f1')::uuid, 100, '00000000-0000-4000-8000-000000000001') $$,
  'PT422', 'request_key_reused', 'the key with another amount is refused');
select is((select count(*)::int from public.payments where fee_id = current_setting('tests.f1')::uuid), 1, 'the ledger holds the transfer once');
select is((select public.record_fee_transfer(current_setting('tests.f2')::uuid, 10000, gen_random_uuid()) ->> 'balance_cents'), '20375',
  'a part payment leaves the rest open');
select is((select state from public.long_term_fee_status where id = current_setting('tests.f2')::uuid), 'partially_paid', 'shown as partly paid');
select is((select public.record_fee_transfer(current_setting('tests.f3')::uuid, 31000, gen_random_uuid()) ->> 'balance_cents'), '-625',
  'more than owed is recorded (the money is there) and shows as a credit');
select is((select state from public.long_term_fee_status where id = current_setting('tests.f3')::uuid), 'overpaid', 'to be paid back');
select throws_ok($$ select public.record_fee_transfer(current_setting('tests.f3')::uuid, 0, gen_random_uuid()) $$, '22023', 'invalid_amount',
  'an amount of zero is refused');
select throws_ok($$ select public.record_fee_transfer(current_setting('tests.f3')::uuid, 100, null) $$, '22023', 'invalid_request_key',
  'a transfer names its request key');
select is((select count(*)::int from public.long_term_fees_overview()), 4, 'staff see every fee in the back-office list');
select tests.clear_authentication();
select throws_ok($$ update public.payments set amount_cents = 1 where fee_id is not null $$, '42501', 'payments_immutable',
  'a fee''s ledger row is never changed');

-- ---------------------------------------------------------------- SEPA
select is((select count(*)::int from private.create_season_fees(current_setting('tests.c2')::uuid, 'LV-2027-0002', tests.get_user_id('holder'), null,
                                                                current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb,
                                                                121504, 2, 'sepa_debit')), 2,
  'a contract paid by direct debit in two instalments');
select is((select count(*)::int from public.long_term_fees where contract_id = current_setting('tests.c2')::uuid and collect_on is null), 2,
  'without a mandate nothing is scheduled for collection');
set local role service_role;
select is(public.record_sepa_mandate(jsonb_build_object(
  'user_id', tests.get_user_id('holder'), 'contract_id', current_setting('tests.c2'), 'customer', 'cus_T1', 'payment_method', 'pm_T1',
  'mandate', 'mandate_T1', 'reference', 'HDUS-LV-2027-0002', 'last4', '3000', 'country', 'DE',
  'customer_acceptance', jsonb_build_object('type', 'online', 'accepted_at', 1801994400,
                                             'online', jsonb_build_object('ip_address', '127.0.0.1', 'user_agent', 'pgTAP')))) ->> 'replay',
  'false', 'the webhook stores the mandate Stripe reports');
select is(public.record_sepa_mandate(jsonb_build_object(
  'user_id', tests.get_user_id('holder'), 'contract_id', current_setting('tests.c2'), 'customer', 'cus_T1', 'payment_method', 'pm_T1',
  'mandate', 'mandate_T1', 'reference', 'HDUS-LV-2027-0002', 'last4', '3000', 'customer_acceptance', '{}'::jsonb)) ->> 'replay',
  'true', 'the same mandate again is a replay');
select throws_ok($$ select public.record_sepa_mandate('{"user_id": "x"}'::jsonb) $$, '22023', 'invalid_mandate', 'a malformed mandate is refused');
select throws_ok($$ select public.record_sepa_mandate(jsonb_build_object(
  'user_id', tests.get_user_id('holder'), 'contract_id', gen_random_uuid(), 'customer', 'cus_T1', 'payment_method', 'pm_T1',
  'mandate', 'mandate_T9', 'reference', 'MANDATE-T9', 'last4', '3000', 'country', 'DE', 'customer_acceptance', '{"type": "online"}'::jsonb)) $$,
  '23503', null, 'nor a mandate for a contract that does not exist');
reset role;
select results_eq(
  $$ select collect_on from public.long_term_fees where contract_id = current_setting('tests.c2')::uuid order by instalment $$,
  $$ values ('2027-04-01'::date), ('2027-07-17'::date) $$,
  'with the mandate each instalment is collected on its due day (at least 14 days after the pre-notification)');
select ok((select body_text like '%DE98ZZZ09999999999%' and body_text like '%HDUS-LV-2027-0002%' and body_text like '%01.04.2027%'
                  and body_text like '%607,53 €%' and jsonb_array_length(attachments) = 2
             from public.outbox where kind = 'sepa_prenotification' and recipient = 'holder@test.local'),
  'the invoice e-mail is the pre-notification: creditor id, mandate reference, amount, collection day, the invoices');

select tests.authenticate_as('holder');
select is(public.begin_sepa_setup(current_setting('tests.c2')::uuid) ->> 'reference', 'LV-2027-0002',
  'the holder starts the direct debit set-up of their contract');
select throws_ok($$ select public.begin_sepa_setup(current_setting('tests.c1')::uuid) $$, 'PT404', 'fee_not_found',
  'not for a contract paid by transfer');
select tests.authenticate_as('other');
select throws_ok($$ select public.begin_sepa_setup(current_setting('tests.c2')::uuid) $$, 'PT404', 'fee_not_found',
  'nor for another holder''s contract');
select tests.clear_authentication();
select set_config('tests.d1', pg_temp.fee('tests.c2', 1)::text, true);
select set_config('tests.d2', pg_temp.fee('tests.c2', 2)::text, true);
select is((select count(*)::int from private.due_fee_debits()), 0, 'nothing is collected before the collection day');
select private.freeze_clock('2027-04-01 06:00+02');
select results_eq($$ select fee_id, amount_cents, mandate, idempotency_key from private.due_fee_debits() $$,
  $$ values (current_setting('tests.d1')::uuid, 60753, 'mandate_T1', 'fee-' || current_setting('tests.d1') || '-0') $$,
  'on the collection day the job finds the first instalment with its Idempotency-Key');
set local role service_role;
select is((public.note_fee_debit(current_setting('tests.d1')::uuid, 'pi_D1')).debit_state, 'requested', 'the job notes its PaymentIntent');
select is((public.note_fee_debit(current_setting('tests.d1')::uuid, 'pi_D1')).debit_state, 'requested', 'again: no change');
reset role;
select is((select count(*)::int from private.due_fee_debits()), 0, 'a fee being collected is not collected twice');
select is(tests.record_stripe_event(tests.stripe_event('evt_fee_1', 'payment_intent.processing',
  jsonb_build_object('id', 'pi_D1', 'object', 'payment_intent', 'amount', 60753, 'currency', 'eur', 'status', 'processing',
                     'metadata', jsonb_build_object('fee_id', current_setting('tests.d1'))))) ->> 'outcome', 'updated',
  'payment_intent.processing: the debit is on its way');
select is((select state from public.long_term_fee_status where id = current_setting('tests.d1')::uuid), 'processing', 'shown as being collected');
select is(tests.record_stripe_event(tests.stripe_event('evt_fee_2', 'payment_intent.succeeded',
  jsonb_build_object('id', 'pi_D1', 'object', 'payment_intent', 'amount', 60753, 'amount_received', 60753, 'currency', 'eur', 'status', 'succeeded',
                     'metadata', jsonb_build_object('fee_id', current_setting('tests.d1'))))) ->> 'outcome', 'recorded',
  'payment_intent.succeeded: the payment is in the ledger');
select is(tests.record_stripe_event(tests.stripe_event('evt_fee_2', 'payment_intent.succeeded',
  jsonb_build_object('id', 'pi_D1', 'object', 'payment_intent', 'amount', 60753, 'amount_received', 60753, 'currency', 'eur', 'status', 'succeeded',
                     'metadata', jsonb_build_object('fee_id', current_setting('tests.d1'))))) ->> 'replay', 'true',
  'the same event delivered twice is a replay');
select is((select state from public.long_term_fee_status where id = current_setting('tests.d1')::uuid), 'paid', 'the instalment is paid');

-- A return after success (the holder's bank takes it back): a dispute on the intent.
select is(tests.record_stripe_event(tests.stripe_event('evt_fee_3', 'charge.dispute.created',
  jsonb_build_object('id', 'du_D1', 'object', 'dispute', 'amount', 60753, 'currency', 'eur', 'charge', 'py_D1', 'payment_intent', 'pi_D1',
                     'reason', 'debit_not_authorized', 'status', 'lost', 'metadata', '{}'::jsonb))) ->> 'outcome', 'recorded',
  'charge.dispute.created: the returned debit is recorded');
select results_eq(
  $$ select kind, amount_cents, refund_of is not null from public.payments where fee_id = current_setting('tests.d1')::uuid order by recorded_at, kind $$,
  $$ values ('payment', 60753, false), ('refund', 60753, true) $$,
  'reversed by a new ledger row referring to the payment, the payment itself unchanged');
select results_eq(
  $$ select state, balance_cents from public.long_term_fee_status where id = current_setting('tests.d1')::uuid $$,
  $$ values ('failed', 60753::bigint) $$, 'the fee is open again and shown as a failed debit');
select is((select count(*)::int from public.outbox where kind = 'fee_debit_failed'), 2, 'the holder and the office are told');

-- A debit that fails before it succeeded: nothing was in the ledger.
select private.freeze_clock('2027-07-17 06:00+02');
set local role service_role;
select public.note_fee_debit(current_setting('tests.d2')::uuid, 'pi_D2');
reset role;
select is(tests.record_stripe_event(tests.stripe_event('evt_fee_4', 'payment_intent.payment_failed',
  jsonb_build_object('id', 'pi_D2', 'object', 'payment_intent', 'amount', 60751, 'currency', 'eur', 'status', 'requires_payment_method',
                     'last_payment_error', jsonb_build_object('code', 'insufficient_funds', 'type', 'card_error'),
                     'metadata', jsonb_build_object('fee_id', current_setting('tests.d2'))))) ->> 'outcome', 'recorded',
  'payment_intent.payment_failed is recorded');
select results_eq($$ select state, debit_failure, paid_cents from public.long_term_fee_status where id = current_setting('tests.d2')::uuid $$,
  $$ values ('failed', 'insufficient_funds', 0::bigint) $$, 'the fee stays unpaid, with the reason');
select is((select count(*)::int from public.outbox where kind = 'fee_debit_failed'), 4, 'holder and office are told again');
select tests.authenticate_as('harbour');
select is((select state from public.long_term_fees_overview() limit 1), 'failed', 'failed debits head the back-office list');
select tests.clear_authentication();

-- Events arrive in any order (Stripe delivers them concurrently): a dispute before the success.
select set_config('tests.c3', pg_temp.make_contract('55555555-5555-4555-8555-555555555555', 'LV-2027-0003', tests.get_user_id('holder'),
  current_setting('tests.season')::uuid, 121504, 1, 'sepa_debit')::text, true);
select is((select count(*)::int from private.create_season_fees(current_setting('tests.c3')::uuid, 'LV-2027-0003', tests.get_user_id('holder'), null,
                                                                current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb,
                                                                121504, 1, 'sepa_debit')), 1, 'a third contract paid in full by direct debit');
set local role service_role;
select public.note_fee_debit(pg_temp.fee('tests.c3', 1), 'pi_D3');
reset role;
select is(tests.record_stripe_event(tests.stripe_event('evt_fee_5', 'charge.dispute.created',
  jsonb_build_object('id', 'du_D3', 'object', 'dispute', 'amount', 121504, 'currency', 'eur', 'charge', 'py_D3', 'payment_intent', 'pi_D3',
                     'reason', 'general', 'status', 'lost', 'metadata', '{}'::jsonb))) ->> 'outcome', 'recorded',
  'a dispute that arrives before the payment''s success marks the debit returned');
select is(tests.record_stripe_event(tests.stripe_event('evt_fee_6', 'payment_intent.succeeded',
  jsonb_build_object('id', 'pi_D3', 'object', 'payment_intent', 'amount', 121504, 'amount_received', 121504, 'currency', 'eur', 'status', 'succeeded',
                     'metadata', jsonb_build_object('fee_id', pg_temp.fee('tests.c3', 1))))) ->> 'outcome', 'recorded',
  'the success after it is recorded');
select results_eq(
  $$ select p.kind, p.amount_cents, s.state from public.payments p join public.long_term_fee_status s on s.id = p.fee_id
      where p.fee_id = pg_temp.fee('tests.c3', 1) order by p.kind $$,
  $$ values ('payment', 121504, 'failed'), ('refund', 121504, 'failed') $$,
  'with its reversal at once: the fee stays open as a returned debit');

-- ---------------------------------------------------------------- DATEV
select tests.authenticate_as('admin');
select is((select count(*)::int from public.datev_postings('2027-01-01', '2027-12-31') where document_number like 'RE-2027-%'
             and posting_text like 'Rechnung %LV-2027-000%'), 14,
  'DATEV: one line per VAT rate of each of the seven fee invoices');
select is((select sum(amount_cents)::int from public.datev_postings('2027-01-01', '2027-12-31') where source = 'invoice' and posting_text like '%LV-2027-0001%'),
  121504, 'the first contract''s invoices post its gross');
select results_eq(
  $$ select side, account, amount_cents::int from public.datev_postings('2027-01-01', '2027-12-31')
      where posting_text like '%SEPA-Lastschrift%' order by line_no $$,
  $$ values ('S', '1360', 60753), ('H', '1360', 60753), ('S', '1360', 121504), ('H', '1360', 121504) $$,
  'the debit and its return post against Geldtransit');
select is((select count(*)::int from public.datev_postings('2027-01-01', '2027-12-31') where posting_text like 'Zahlung Überweisung, RE-2027-%'), 3,
  'the three transfers post against the bank account');
select is((select count(*)::int from public.report_long_term_fees('2027-01-01', '2027-12-31')), 4,
  'the revenue report of long-term fees has the due months');
select tests.clear_authentication();

select * from finish();
rollback;
