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

-- Ben and Dora accept offers for summer 2027 (8 m, by transfer, two instalments of 440,00 €).
select tests.transfer_contracts('T', array['ben', 'dora']);

-- Ben pays his first instalment early; then the harbour ends his contract before the season.
create temp table keys (name text primary key, key uuid) on commit drop;
grant all on keys to authenticated;
insert into keys values ('early', gen_random_uuid()), ('late', gen_random_uuid()), ('dora', gen_random_uuid());
select tests.authenticate_as('harbour');
select public.record_fee_transfer(tests.fee('ben', 1), 44000, (select key from keys where name = 'early'), 'Kontoauszug 3');
select tests.authenticate_as('admin');
select public.end_contract(tests.contract('ben'), 'Liegeplatz entfällt');

select tests.authenticate_as('harbour');
select results_eq($$ select instalment, state, balance_cents, cancelled_cents from public.long_term_fee_status
                      where contract_id = tests.contract('ben') order by instalment $$,
  $$ values (1::smallint, 'overpaid', -44000::bigint, 44000::bigint), (2::smallint, 'cancelled', 0::bigint, 44000::bigint) $$,
  'set-up: the fees are cancelled (cancelled_cents says by how much), the paid one overpaid');
select throws_ok(format('select public.record_fee_transfer(%L, 44000, %L)', tests.fee('ben', 2), (select key from keys where name = 'late')),
  'PT409', 'fee_cancelled', 'a transfer on a cancelled fee is refused');
select throws_ok(format('select public.record_fee_transfer(%L, 100, %L)', tests.fee('ben', 1), gen_random_uuid()),
  'PT409', 'fee_cancelled', 'also on a cancelled fee that holds money already (it is overpaid, not open)');
select is((select count(*)::int from public.payments where fee_id in (tests.fee('ben', 1), tests.fee('ben', 2))), 1,
  'the ledger holds only the transfer from before the cancellation');
select is((public.record_fee_transfer(tests.fee('ben', 1), 44000, (select key from keys where name = 'early'), 'Kontoauszug 3') ->> 'replay')::boolean,
  true, 'the transfer recorded before the cancellation still answers its replay (a lost answer, retried)');
select is((public.record_fee_transfer(tests.fee('dora', 1), 44000, (select key from keys where name = 'dora')) ->> 'state'), 'paid',
  'a fee not cancelled takes its transfer as before');

select * from finish();
rollback;
