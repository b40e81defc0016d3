-- A cancelled fee takes no transfer (issue 42, ADR 0048/0052): the harbour ended a contract
-- before its season, its instalment invoices were cancelled, the fee owes nothing. Staff who
-- record an incoming transfer on it are refused with fee_cancelled (the money that came anyway
-- is returned, not booked as a payment of a fee that no longer exists); a transfer recorded
-- before the cancellation still answers its replay; a fee not cancelled takes transfers as before.
begin;
select plan(6);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('admin', array['admin']);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('ben');
select tests.create_user('dora');

insert into public.places (name, width, length) values ('T-1', 4.5, 12.0), ('T-2', 4.5, 12.0);
insert into public.seasons (name, name_en, kind, starts_on, ends_on)
values ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');

create function pg_temp.fee(p_ident text, p_instalment integer) returns uuid language sql as $$
  select f.id from public.long_term_fees f join public.contracts c on c.id = f.contract_id
   where c.email = p_ident || '@test.local' and f.instalment = p_instalment
$$;
create function pg_temp.contract(p_ident text) returns uuid language sql as $$
  select c.id from public.contracts c where c.email = p_ident || '@test.local'
$$;

-- Ben and Dora accept offers for summer 2027 (8 m, by transfer, in two instalments of 440,00 €).
insert into public.long_term_applications (user_id, email, first_name, last_name, locale, boat)
values (tests.get_user_id('ben'), 'ben@test.local', 'Ben', 'Brandt', 'en', '{"name": "Bora", "length": 8.0, "width": 3.0}'),
       (tests.get_user_id('dora'), 'dora@test.local', 'Dora', 'Diehl', 'de', '{"name": "Delta", "length": 8.0, "width": 3.0}');
select tests.authenticate_as('admin');
select public.send_offer(a.id, p.id, (select id from public.seasons))
from public.long_term_applications a
join (values ('ben@test.local', 'T-1'), ('dora@test.local', 'T-2')) x(email, name) on x.email = a.email
join public.places p on p.name = x.name;
select tests.authenticate_as('ben');
select public.accept_offer(o.id, 2, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 2, 'bank_transfer')))
from public.berth_offers o where o.email = 'ben@test.local';
select tests.authenticate_as('dora');
select public.accept_offer(o.id, 2, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 2, 'bank_transfer')))
from public.berth_offers o where o.email = 'dora@test.local';

-- Ben pays his first instalment early; then the harbour ends his contract before the season.
create temp table keys (name text primary key, key uuid) on commit drop;
grant all on keys to authenticated;
insert into keys values ('early', gen_random_uuid()), ('late', gen_random_uuid()), ('dora', gen_random_uuid());
select tests.authenticate_as('harbour');
select public.record_fee_transfer(pg_temp.fee('ben', 1), 44000, (select key from keys where name = 'early'), 'Kontoauszug 3');
select tests.authenticate_as('admin');
select public.end_contract(pg_temp.contract('ben'), 'Liegeplatz entfällt');

select tests.authenticate_as('harbour');
select results_eq($$ select instalment, state, balance_cents, cancelled_cents from public.long_term_fee_status
                      where contract_id = pg_temp.contract('ben') order by instalment $$,
  $$ values (1::smallint, 'overpaid', -44000::bigint, 44000::bigint), (2::smallint, 'cancelled', 0::bigint, 44000::bigint) $$,
  'set-up: the fees are cancelled (cancelled_cents says by how much), the paid one overpaid');
select throws_ok(format('select public.record_fee_transfer(%L, 44000, %L)', pg_temp.fee('ben', 2), (select key from keys where name = 'late')),
  'PT409', 'fee_cancelled', 'a transfer on a cancelled fee is refused');
select throws_ok(format('select public.record_fee_transfer(%L, 100, %L)', pg_temp.fee('ben', 1), gen_random_uuid()),
  'PT409', 'fee_cancelled', 'also on a cancelled fee that holds money already (it is overpaid, not open)');
select is((select count(*)::int from public.payments where fee_id in (pg_temp.fee('ben', 1), pg_temp.fee('ben', 2))), 1,
  'the ledger holds only the transfer from before the cancellation');
select is((public.record_fee_transfer(pg_temp.fee('ben', 1), 44000, (select key from keys where name = 'early'), 'Kontoauszug 3') ->> 'replay')::boolean,
  true, 'the transfer recorded before the cancellation still answers its replay (a lost answer, retried)');
select is((public.record_fee_transfer(pg_temp.fee('dora', 1), 44000, (select key from keys where name = 'dora')) ->> 'state'), 'paid',
  'a fee not cancelled takes its transfer as before');

select * from finish();
rollback;
