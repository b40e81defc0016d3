-- The fees of a renewed contract the harbour ends before its season (issue 42, ADR 0052 "Fees of
-- a contract ended before its season"): the renewal run issued the next season's contracts and
-- their instalment invoices; the admin then ends two of them. Each of their invoices gets a
-- cancellation invoice (Storno) in the one gapless series, referring to it; the invoices stay as
-- issued. The cancelled fees owe nothing: not collected by SEPA, not overdue, not reminded; an
-- instalment paid before shows as overpaid, the money to return, in the staff overview and the
-- contract's balance. A contract whose season is running keeps its fees. (A holder's own notice
-- cannot cross a renewal: the run waits for the notice deadline; ADR 0052.)
begin;
select plan(18);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('admin', array['admin']);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('anna');
select tests.create_user('ben');
select tests.create_user('carla');

insert into public.places (name, width, length) values ('E-1', 4.5, 12.0), ('E-2', 4.5, 12.0), ('E-3', 4.5, 12.0);
insert into public.seasons (name, name_en, kind, starts_on, ends_on)
values ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31'), ('Sommer 2028', 'Summer 2028', 'summer', '2028-04-01', '2028-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');

create function pg_temp.season(p_name text) returns uuid language sql as $$ select id from public.seasons where name = p_name $$;
create function pg_temp.uid(p_ident text) returns uuid language sql as $$ select id from auth.users where email = p_ident || '@test.local' $$;
create function pg_temp.contract(p_ident text, p_season text) returns uuid language sql as $$
  select c.id from public.contracts c where c.email = p_ident || '@test.local' and c.season_id = pg_temp.season(p_season)
$$;
create function pg_temp.fee(p_ident text, p_instalment integer) returns uuid language sql as $$
  select f.id from public.long_term_fees f where f.contract_id = pg_temp.contract(p_ident, 'Sommer 2028') and f.instalment = p_instalment
$$;

-- Anna (10 m, SEPA in two), Ben (8 m, transfer in two) and Carla (8 m, SEPA in one) hold E-1 to
-- E-3 for summer 2027 under terms that renew; Anna and Carla gave a direct-debit mandate.
insert into public.long_term_applications (user_id, email, first_name, last_name, locale, boat)
values (pg_temp.uid('anna'), 'anna@test.local', 'Anna', 'Albers', 'de', '{"name": "Aurora", "length": 10.0, "width": 4.0}'),
       (pg_temp.uid('ben'), 'ben@test.local', 'Ben', 'Brandt', 'en', '{"name": "Bora", "length": 8.0, "width": 3.0}'),
       (pg_temp.uid('carla'), 'carla@test.local', 'Carla', 'Conrad', 'de', '{"name": "Calypso", "length": 8.0, "width": 3.0}');
select tests.authenticate_as('admin');
select public.publish_contract_terms(E'## 2. Laufzeit\nDer Vertrag verlängert sich um die nächste Saison.',
                                     E'## 2. Term\nThe contract renews for the next season.', true);
select public.send_offer(a.id, p.id, pg_temp.season('Sommer 2027'))
from public.long_term_applications a
join (values ('anna@test.local', 'E-1'), ('ben@test.local', 'E-2'), ('carla@test.local', 'E-3')) x(email, name) on x.email = a.email
join public.places p on p.name = x.name;
select tests.authenticate_as('anna');
select public.accept_offer(o.id, 2, 'sepa_debit', (select contract_sha256 from public.offer_contract(o.id, 2, 'sepa_debit')))
from public.berth_offers o where o.email = 'anna@test.local';
select tests.authenticate_as('ben');
select public.accept_offer(o.id, 2, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 2, 'bank_transfer')))
from public.berth_offers o where o.email = 'ben@test.local';
select tests.authenticate_as('carla');
select public.accept_offer(o.id, 1, 'sepa_debit', (select contract_sha256 from public.offer_contract(o.id, 1, 'sepa_debit')))
from public.berth_offers o where o.email = 'carla@test.local';
select tests.clear_authentication();
set local role service_role;
select public.record_sepa_mandate(jsonb_build_object(
  'user_id', tests.get_user_id(u), 'customer', 'cus_' || u, 'payment_method', 'pm_' || u, 'mandate', 'mandate_' || u,
  'reference', 'HDUS-' || upper(u), 'last4', '3000', 'country', 'DE',
  'customer_acceptance', jsonb_build_object('type', 'online', 'accepted_at', 1801994400,
                                            'online', jsonb_build_object('ip_address', '127.0.0.1', 'user_agent', 'pgTAP'))))
from unnest(array['anna', 'carla']) u;
reset role;

-- The renewal run after the notice deadline issues the 2028 contracts and their invoices.
select private.freeze_clock('2027-08-03 00:30+02');
select tests.authenticate_as('admin');
select is((select issued from public.confirm_renewal(pg_temp.season('Sommer 2027'), gen_random_uuid())), 3,
  'set-up: the renewal run renews the three contracts for summer 2028');
select tests.clear_authentication();
select results_eq(
  $$ select c.email, f.instalment, f.gross_cents, f.invoice_id is not null, f.collect_on
       from public.long_term_fees f join public.contracts c on c.id = f.contract_id
      where f.season_id = pg_temp.season('Sommer 2028') order by c.email, f.instalment $$,
  $$ values ('anna@test.local', 1::smallint, 53500, true, '2028-04-01'::date), ('anna@test.local', 2::smallint, 53500, true, '2028-07-17'::date),
            ('ben@test.local', 1::smallint, 44000, true, null::date), ('ben@test.local', 2::smallint, 44000, true, null::date),
            ('carla@test.local', 1::smallint, 88000, true, '2028-04-01'::date) $$,
  'set-up: each renewed contract has its instalments invoiced; the SEPA ones are scheduled for collection');

-- February 2028: Ben pays his first instalment early; then the harbour ends Anna's and Ben's
-- renewed contracts before their season begins.
select private.freeze_clock('2028-02-01 10:00+01');
select tests.authenticate_as('harbour');
select public.record_fee_transfer(pg_temp.fee('ben', 1), 44000, gen_random_uuid(), 'Kontoauszug 3');
select tests.authenticate_as('admin');
select public.end_contract(pg_temp.contract('anna', 'Sommer 2028'), 'Steganlage wird erneuert');
select public.end_contract(pg_temp.contract('ben', 'Sommer 2028'), 'Liegeplatz entfällt');
select tests.clear_authentication();

select results_eq(
  $$ select c.kind, c.reason, c.refers_to = i.id, c.refers_to_number = i.invoice_number, c.fee_id = f.id, c.booking_number = i.booking_number,
            c.gross_cents = -i.gross_cents, c.net_cents = -i.net_cents, c.vat_cents = -i.vat_cents, c.service_from, c.service_to
       from public.long_term_fees f
       join public.invoices i on i.id = f.invoice_id
       join public.invoices c on c.refers_to = i.id
      where f.contract_id in (pg_temp.contract('anna', 'Sommer 2028'), pg_temp.contract('ben', 'Sommer 2028'))
      order by f.reference, f.instalment $$,
  $$ values ('cancellation', 'cancelled', true, true, true, true, true, true, true, '2028-04-01'::date, '2028-10-31'::date),
            ('cancellation', 'cancelled', true, true, true, true, true, true, true, '2028-04-01'::date, '2028-10-31'::date),
            ('cancellation', 'cancelled', true, true, true, true, true, true, true, '2028-04-01'::date, '2028-10-31'::date),
            ('cancellation', 'cancelled', true, true, true, true, true, true, true, '2028-04-01'::date, '2028-10-31'::date) $$,
  'each instalment invoice of the two ended contracts gets a cancellation invoice of the same fee, referring to it, every amount negated');
select results_eq($$ select array_agg(number order by number) from public.invoices where year = 2028 $$,
  $$ values (array[1, 2, 3, 4]) $$, 'the cancellations take the next numbers of the one gapless series');
select is((select count(*)::int from public.invoices i join public.long_term_fees f on f.id = i.fee_id
            where i.kind = 'invoice' and f.season_id = pg_temp.season('Sommer 2028')), 5,
  'the invoices themselves stay as issued');
select is((select count(*)::int from public.invoices where fee_id = pg_temp.fee('carla', 1)), 1, 'Carla''s contract, not ended, keeps its invoice alone');

select results_eq(
  $$ select c.email, s.instalment, s.state, s.balance_cents
       from public.long_term_fee_status s join public.contracts c on c.id = s.contract_id
      where s.season_id = pg_temp.season('Sommer 2028') order by c.email, s.instalment $$,
  $$ values ('anna@test.local', 1::smallint, 'cancelled', 0::bigint), ('anna@test.local', 2::smallint, 'cancelled', 0::bigint),
            ('ben@test.local', 1::smallint, 'overpaid', -44000::bigint), ('ben@test.local', 2::smallint, 'cancelled', 0::bigint),
            ('carla@test.local', 1::smallint, 'open', 88000::bigint) $$,
  'the cancelled fees owe nothing; Ben''s paid instalment shows overpaid: 440,00 € to return');
select tests.authenticate_as('anna');
select results_eq($$ select instalment, state from public.long_term_fee_status where season_id = pg_temp.season('Sommer 2028') order by instalment $$,
  $$ values (1::smallint, 'cancelled'), (2::smallint, 'cancelled') $$, 'the holder sees her fees cancelled');
select tests.authenticate_as('harbour');
select results_eq($$ select invoice_number, balance_cents from public.long_term_fees_overview('overpaid') $$,
  $$ select i.invoice_number, -44000::bigint from public.invoices i join public.long_term_fees f on f.invoice_id = i.id where f.id = pg_temp.fee('ben', 1) $$,
  'staff see the paid instalment as overpaid with the amount to return');
select results_eq(
  $$ select b.fees, b.fees_gross_cents, b.paid_cents, b.balance_cents from public.contract_balances() b
      where b.contract_id in (pg_temp.contract('anna', 'Sommer 2028'), pg_temp.contract('ben', 'Sommer 2028'), pg_temp.contract('carla', 'Sommer 2028'))
      order by b.balance_cents $$,
  $$ values (2, 0::bigint, 44000::bigint, -44000::bigint), (2, 0::bigint, 0::bigint, 0::bigint), (1, 88000::bigint, 0::bigint, 88000::bigint) $$,
  'the contracts table: the ended contracts bill nothing, Ben is owed his payment back, Carla owes her season');
select tests.clear_authentication();
select is(private.cancel_contract_fees(pg_temp.contract('anna', 'Sommer 2028')), 0, 'cancelling again issues nothing (once per invoice)');
select tests.authenticate_as('admin');
select throws_ok(format('select public.end_contract(%L, %L)', pg_temp.contract('anna', 'Sommer 2028'), 'nochmal'), 'P0001', 'contract_not_active',
  'an ended contract is not ended twice');

-- The season comes: only Carla's instalment is collected, only hers is overdue and reminded
-- (the 2027 fees, never paid in this test, are left out).
select tests.clear_authentication();
create function pg_temp.of_2028(p_fee uuid) returns boolean language sql as $$
  select exists (select 1 from public.long_term_fees f where f.id = p_fee and f.season_id = pg_temp.season('Sommer 2028'))
$$;
select private.freeze_clock('2028-04-01 08:00+02');
select results_eq($$ select fee_id, amount_cents from private.due_fee_debits() where pg_temp.of_2028(fee_id) $$,
  $$ values (pg_temp.fee('carla', 1), 88000) $$, 'the direct debit job collects only the fee not cancelled');
select private.freeze_clock('2028-07-20 08:00+02');
select results_eq($$ select fee_id from private.due_fee_debits() where pg_temp.of_2028(fee_id) $$, $$ values (pg_temp.fee('carla', 1)) $$,
  'Anna''s second instalment is not collected on its day either');
select results_eq($$ select fee_id from private.overdue_fees() where pg_temp.of_2028(fee_id) $$, $$ values (pg_temp.fee('carla', 1)) $$,
  'nothing cancelled is overdue');
select private.send_fee_reminders();
select results_eq($$ select recipient from public.fee_reminders where pg_temp.of_2028(fee_id) $$, $$ values ('carla@test.local') $$,
  'the reminder goes to Carla only');

select tests.authenticate_as('admin');
select results_eq($$ select sum(gross_cents)::bigint, sum(net_cents + vat_cents)::bigint from public.report_long_term_fees('2028-01-01', '2028-12-31') $$,
  $$ values (88000::bigint, 88000::bigint) $$, 'the fee report counts the cancelled invoices out');

-- A contract whose season is running keeps its fees when the harbour ends it.
select public.end_contract(pg_temp.contract('carla', 'Sommer 2028'), 'Boot verkauft');
select is((select count(*)::int from public.invoices where kind = 'cancellation'), 4,
  'ending a running contract cancels none of its fees (the season is used)');

select * from finish();
rollback;
