-- The balance of a long-term contract (issue 42 deliverable 7, the back office's contracts table,
-- docs/adr/0048-seasonal-fees-and-sepa.md): public.contract_balances() sums per contract its
-- instalments' gross and what the ledger holds for them (payments net of refunds), and the
-- balance owed now, to the cent; a contract without instalments shows zero. Staff and admins
-- read every contract's balance; a holder, another customer and anon are refused.
begin;
select plan(13);
select private.freeze_clock('2027-02-01 10:00+01');

select tests.create_user('holder');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
update public.profiles set first_name = 'Hanna', last_name = 'Halter', street = 'Rheinufer 1', postal_code = '40213', city = 'Düsseldorf',
                           country = 'DE', locale = 'de'
 where id = tests.get_user_id('holder');

select tests.authenticate_as('admin');
select set_config('tests.season', public.add_season('Sommer 2027 (Saldo)', 'summer', '2027-04-01', '2027-10-31')::text, true);
select tests.clear_authentication();

-- A berth fee at 19 % and electricity at 7 % with odd cents: in two instalments the remainder
-- cent of each line goes to the first (547,52 + 60,01 and 547,51 + 60,00 EUR).
select set_config('tests.lines', jsonb_build_array(
  jsonb_build_object('code', 'berth_fee', 'description', 'Liegeplatz S1, Sommer 2027', 'description_en', 'Berth S1, summer 2027',
                     'quantity', 36.5, 'unit', 'square_metre', 'unit_price_cents', 3000, 'vat_rate', 19, 'gross_cents', 109503),
  jsonb_build_object('code', 'electricity', 'description', 'Strompauschale', 'description_en', 'Electricity flat rate',
                     'quantity', 1, 'unit', 'piece', 'unit_price_cents', 12001, 'vat_rate', 7, 'gross_cents', 12001))::text, true);

-- A real contract row as accept_offer stores it (application, offer, contract), without fees:
-- the fees are made by create_season_fees below (as in pgTAP 420).
create function pg_temp.make_contract(p_id uuid, p_number text, p_user uuid, p_season uuid, p_gross bigint,
                                      p_plan int, p_method text)
returns uuid language plpgsql as $$
declare
  v_place uuid;
  v_app uuid;
  v_offer uuid;
  v_season public.seasons;
  v_boat jsonb := '{"name": "Saldo", "length": 10, "width": 3}'::jsonb;
  v_email text := (select u.email from auth.users u where u.id = p_user);
begin
  select * into v_season from public.seasons s where s.id = p_season;
  insert into public.places (name, width, length) values ('S-' || p_number, 4, 12) returning id into v_place;
  insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, boat, status, answered_at)
  values (v_place, p_user, v_email, 'Test', 'Saldo', v_boat, 'accepted', now()) returning id into v_app;
  insert into public.berth_offers (place_id, season_id, application_id, user_id, email, locale, boat, lines, gross_cents,
                                   deadline, status, answered_at)
  values (v_place, p_season, v_app, p_user, v_email, 'de', v_boat, '[]'::jsonb, p_gross, v_season.starts_on, 'accepted', now())
  returning id into v_offer;
  insert into public.contracts (id, contract_number, offer_id, user_id, holder_id, place_id, season_id, starts_on, ends_on, email,
                                locale, holder, boat, lines, gross_cents, payment_plan, payment_method, terms_version,
                                contract_text, contract_sha256, accepted_at, notice_deadline)
  values (p_id, p_number, v_offer, p_user, gen_random_uuid(), v_place, p_season, v_season.starts_on, v_season.ends_on, v_email,
          'de', jsonb_build_object('first_name', 'Test', 'last_name', 'Saldo', 'email', v_email), v_boat, '[]'::jsonb, p_gross,
          p_plan, p_method, (select max(t.version) from public.contract_terms t), 'Vertrag ' || p_number,
          encode(sha256(convert_to('Vertrag ' || p_number, 'UTF8')), 'hex'), now(), v_season.ends_on - 90);
  return p_id;
end
$$;
select set_config('tests.c1', pg_temp.make_contract('46300000-0000-4000-8000-000000000001', 'LV-2027-4631', tests.get_user_id('holder'),
  current_setting('tests.season')::uuid, 121504, 2, 'bank_transfer')::text, true);
select set_config('tests.c2', pg_temp.make_contract('46300000-0000-4000-8000-000000000002', 'LV-2027-4632', tests.get_user_id('other'),
  current_setting('tests.season')::uuid, 121504, 2, 'bank_transfer')::text, true);
select is((select count(*)::int from private.create_season_fees(current_setting('tests.c1')::uuid, 'LV-2027-4631', tests.get_user_id('holder'), null,
                                                                current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb,
                                                                121504, 2, 'bank_transfer')), 2,
  'the contract has two instalments');
create function pg_temp.fee(p_instalment int) returns uuid language sql security definer as $$
  select id from public.long_term_fees where contract_id = current_setting('tests.c1')::uuid and instalment = p_instalment
$$;
select results_eq($$ select instalment::int, gross_cents from public.long_term_fees where contract_id = current_setting('tests.c1')::uuid order by 1 $$,
  $$ values (1, 60753), (2, 60751) $$, 'of 607,53 and 607,51 EUR (the remainder cents on the first)');

-- The contract as staff see it before anything is paid, and the contract without instalments.
select tests.authenticate_as('harbour');
select results_eq(
  $$ select fees, fees_gross_cents, paid_cents, balance_cents from public.contract_balances() where contract_id = current_setting('tests.c1')::uuid $$,
  $$ values (2, 121504::bigint, 0::bigint, 121504::bigint) $$,
  'nothing paid: the balance is the whole season');
select results_eq(
  $$ select fees, fees_gross_cents, paid_cents, balance_cents from public.contract_balances() where contract_id = current_setting('tests.c2')::uuid $$,
  $$ values (0, 0::bigint, 0::bigint, 0::bigint) $$,
  'a contract without instalments is listed with a balance of zero');

-- The first instalment paid in full, the second in part.
select is((select public.record_fee_transfer(pg_temp.fee(1), 60753, gen_random_uuid()) ->> 'state'), 'paid', 'the first instalment is paid');
select is((select public.record_fee_transfer(pg_temp.fee(2), 20000, gen_random_uuid()) ->> 'state'), 'partially_paid',
  'the second is paid in part');
select results_eq(
  $$ select fees, fees_gross_cents, paid_cents, balance_cents from public.contract_balances() where contract_id = current_setting('tests.c1')::uuid $$,
  $$ values (2, 121504::bigint, 80753::bigint, 40751::bigint) $$,
  'the balance is the instalments'' gross minus what was paid, to the cent (1.215,04 − 807,53 = 407,51 EUR)');
select is((select balance_cents from public.contract_balances() where contract_id = current_setting('tests.c1')::uuid),
  (select sum(balance_cents)::bigint from public.long_term_fee_status where contract_id = current_setting('tests.c1')::uuid),
  'and agrees with the instalments'' own balances');
select tests.clear_authentication();

-- A part of the first payment goes back (a refund row of the ledger, as a returned debit or a
-- repayment writes it): owed again.
insert into public.payments (fee_id, kind, method, amount_cents, refund_of, recorded_at, note)
select pg_temp.fee(1), 'refund', 'bank_transfer', 5001, p.id, private.now(), 'Rückzahlung'
  from public.payments p where p.fee_id = pg_temp.fee(1) and p.kind = 'payment';
select tests.authenticate_as('admin');
select results_eq(
  $$ select paid_cents, balance_cents from public.contract_balances() where contract_id = current_setting('tests.c1')::uuid $$,
  $$ values (75752::bigint, 45752::bigint) $$,
  'a refund counts against what was paid: 50,01 EUR more owed, seen by an admin too');
select is((select count(*)::int from public.contract_balances()
            where contract_id in (current_setting('tests.c1')::uuid, current_setting('tests.c2')::uuid)), 2,
  'staff read every contract''s balance, whoever holds it');

-- Nobody else: the holder reads the own instalments (long_term_fee_status), not this list.
select tests.authenticate_as('holder');
select throws_ok($$ select * from public.contract_balances() $$, '42501', 'staff_only', 'the holder is refused');
select tests.authenticate_as('other');
select throws_ok($$ select * from public.contract_balances() $$, '42501', 'staff_only', 'another customer is refused');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.contract_balances() $$, '42501', null, 'anon may not call it at all');
select tests.clear_authentication();

select * from finish();
rollback;
