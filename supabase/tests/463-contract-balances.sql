-- The balance of a long-term contract (issue 42 deliverable 7, the back office's contracts table,
-- docs/adr/0048-seasonal-fees-and-sepa.md): public.contract_balances() sums per contract its
-- instalments' gross and what the ledger holds for them (payments net of refunds), and the
-- balance owed now, to the cent. Staff and admins read every contract's balance; a holder,
-- another customer and anon are refused.
begin;
select plan(12);
select private.freeze_clock('2027-02-01 10:00+01');

select tests.create_user('holder');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
update public.profiles set first_name = 'Hanna', last_name = 'Halter', street = 'Rheinufer 1', postal_code = '40213', city = 'Düsseldorf',
                           country = 'DE', locale = 'de'
 where id in (tests.get_user_id('holder'), tests.get_user_id('other'));

select tests.authenticate_as('admin');
select set_config('tests.season', public.add_season('Sommer 2027 (Saldo)', 'summer', '2027-04-01', '2027-10-31')::text, true);
select tests.clear_authentication();

-- Two contracts made as the app makes them: the applicant applies, the admin sends the offer,
-- the applicant accepts the text shown (two instalments by transfer; accept_offer issues them).
insert into public.places (name, width, length) values ('S-1', 4.0, 12.0), ('S-2', 4.0, 12.0);
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');
create function pg_temp.contract(p_user text, p_place text) returns uuid language plpgsql as $$
declare
  v_app uuid;
  v_offer uuid;
  v_sha text;
begin
  perform tests.clear_authentication();
  insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, locale, boat)
  select p.id, tests.get_user_id(p_user), p_user || '@test.local', 'Test', 'Saldo', 'de', '{"name": "Saldo", "length": 9.4, "width": 3.2}'
    from public.places p where p.name = p_place
  returning id into v_app;
  perform tests.authenticate_as('admin');
  select o.id into v_offer
    from public.send_offer(v_app, (select id from public.places where name = p_place), current_setting('tests.season')::uuid) o;
  perform tests.authenticate_as(p_user);
  select c.contract_sha256 into v_sha from public.offer_contract(v_offer, 2, 'bank_transfer') c;
  return (select c.id from public.accept_offer(v_offer, 2, 'bank_transfer', v_sha) c);
end
$$;
select set_config('tests.c1', pg_temp.contract('holder', 'S-1')::text, true);
select set_config('tests.c2', pg_temp.contract('other', 'S-2')::text, true);
select tests.clear_authentication();
create function pg_temp.fee(p_instalment int) returns uuid language sql security definer as $$
  select id from public.long_term_fees where contract_id = current_setting('tests.c1')::uuid and instalment = p_instalment
$$;
select results_eq($$ select instalment::int, gross_cents from public.long_term_fees where contract_id = current_setting('tests.c1')::uuid order by 1 $$,
  $$ values (1, 53500), (2, 53500) $$, 'the contract (10 running metres at 95,00 EUR and electricity, 1.070,00 EUR) has two instalments');

-- The contract as staff see it before anything is paid, and the contract without instalments.
select tests.authenticate_as('harbour');
select results_eq(
  $$ select fees, fees_gross_cents, paid_cents, balance_cents from public.contract_balances() where contract_id = current_setting('tests.c1')::uuid $$,
  $$ values (2, 107000::bigint, 0::bigint, 107000::bigint) $$,
  'nothing paid: the balance is the whole season');
select results_eq(
  $$ select fees, fees_gross_cents, paid_cents, balance_cents from public.contract_balances() where contract_id = current_setting('tests.c2')::uuid $$,
  $$ values (2, 107000::bigint, 0::bigint, 107000::bigint) $$,
  'and another holder''s contract beside it');

-- The first instalment paid in full, the second in part.
select is((select public.record_fee_transfer(pg_temp.fee(1), 53500, gen_random_uuid()) ->> 'state'), 'paid', 'the first instalment is paid');
select is((select public.record_fee_transfer(pg_temp.fee(2), 20000, gen_random_uuid()) ->> 'state'), 'partially_paid',
  'the second is paid in part');
select results_eq(
  $$ select fees, fees_gross_cents, paid_cents, balance_cents from public.contract_balances() where contract_id = current_setting('tests.c1')::uuid $$,
  $$ values (2, 107000::bigint, 73500::bigint, 33500::bigint) $$,
  'the balance is the instalments'' gross minus what was paid, to the cent (1.070,00 − 735,00 = 335,00 EUR)');
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
  $$ values (68499::bigint, 38501::bigint) $$,
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
