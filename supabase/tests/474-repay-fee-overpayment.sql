-- Paying an overpaid fee back (issue 42, ADR 0048/0052, the shape of ADR 0032's deposit returned
-- by transfer): Ben paid his first instalment early, the harbour ended his contract before the
-- season, the fee shows 440,00 € overpaid. Staff record that the money went back by transfer:
-- refund rows in the ledger naming the payment (never an update), at most what is overpaid, once
-- per request key (a double click or a retry pays nothing twice). Afterwards the fee and the
-- contract show nothing to return. Dora overpaid a fee not cancelled by 10,00 €: that much goes
-- back, the fee is then paid. Only staff; a fee not overpaid has nothing to pay back.
begin;
select plan(16);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('admin', array['admin']);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('ben');
select tests.create_user('dora');

-- Ben and Dora accept offers for summer 2027 (8 m, by transfer, two instalments of 440,00 €).
select tests.transfer_contracts('R', array['ben', 'dora']);

create temp table keys (name text primary key, key uuid) on commit drop;
grant all on keys to authenticated;
insert into keys values ('ben_in', gen_random_uuid()), ('ben_back', gen_random_uuid()), ('dora_in', gen_random_uuid()),
                        ('dora_back', gen_random_uuid());
create function pg_temp.key(p_name text) returns uuid language sql as $$ select key from keys where name = p_name $$;

-- Ben pays 440,00 € in two transfers (300 + 140); Dora 450,00 € on 440,00 €. Then the harbour
-- ends Ben's contract before the season.
select tests.authenticate_as('harbour');
select public.record_fee_transfer(tests.fee('ben', 1), 30000, pg_temp.key('ben_in'), 'Kontoauszug 3');
select public.record_fee_transfer(tests.fee('ben', 1), 14000, gen_random_uuid(), 'Kontoauszug 4');
select public.record_fee_transfer(tests.fee('dora', 1), 45000, pg_temp.key('dora_in'));
select tests.authenticate_as('admin');
select public.end_contract(tests.contract('ben'), 'Liegeplatz entfällt');
select tests.authenticate_as('harbour');
select results_eq($$ select state, balance_cents from public.long_term_fee_status where id = tests.fee('ben', 1) $$,
  $$ values ('overpaid', -44000::bigint) $$, 'set-up: Ben''s cancelled instalment holds 440,00 € to return');

-- Who may: not the holder, not an anonymous caller.
select tests.authenticate_as('ben');
select throws_ok(format('select public.repay_fee_overpayment(%L, 44000, %L)', tests.fee('ben', 1), gen_random_uuid()),
  '42501', 'staff_only', 'the holder cannot record a repayment');
select tests.clear_authentication();
set local role anon;
select throws_ok(format('select public.repay_fee_overpayment(%L, 44000, %L)', tests.fee('ben', 1), gen_random_uuid()),
  '42501', null, 'an anonymous caller cannot either');
reset role;

-- Bad input.
select tests.authenticate_as('harbour');
select throws_ok(format('select public.repay_fee_overpayment(%L, 44001, %L)', tests.fee('ben', 1), gen_random_uuid()),
  'P0001', 'fee_repay_exceeds_overpaid', 'more than is overpaid is refused');
select throws_ok(format('select public.repay_fee_overpayment(%L, 0, %L)', tests.fee('ben', 1), gen_random_uuid()),
  '22023', 'invalid_amount', 'nothing is no amount');
select throws_ok(format('select public.repay_fee_overpayment(%L, 100, null)', tests.fee('ben', 1)),
  '22023', 'invalid_request_key', 'a repayment names its request key');
select throws_ok(format('select public.repay_fee_overpayment(%L, 100, %L)', tests.fee('ben', 2), gen_random_uuid()),
  'P0001', 'fee_not_overpaid', 'a cancelled fee never paid has nothing to pay back');
select throws_ok(format('select public.repay_fee_overpayment(%L, 100, %L)', tests.fee('ben', 1), pg_temp.key('ben_in')),
  'PT422', 'request_key_reused', 'the key of the incoming transfer is not a repayment''s');

-- The repayment: 440,00 € back, across both transfers (newest first), once per key.
select is((public.repay_fee_overpayment(tests.fee('ben', 1), 44000, pg_temp.key('ben_back'), 'Rücküberweisung 7') ->> 'state'),
  'cancelled', 'paid back, the fee is cancelled with nothing to return');
select results_eq(
  $$ select r.kind::text, r.method::text, r.amount_cents, p.amount_cents, r.note from public.payments r join public.payments p on p.id = r.refund_of
      where r.fee_id = tests.fee('ben', 1) and r.kind = 'refund' order by r.amount_cents $$,
  $$ values ('refund', 'bank_transfer', 14000, 14000, 'Rücküberweisung 7'),
            ('refund', 'bank_transfer', 30000, 30000, 'Rücküberweisung 7') $$,
  'the ledger gets a refund row per transfer, each naming the payment it pays back');
select is((public.repay_fee_overpayment(tests.fee('ben', 1), 44000, pg_temp.key('ben_back'), 'Rücküberweisung 7') ->> 'replay')::boolean,
  true, 'the same key again (a double click, a retry) answers the first repayment');
select is((select count(*)::int from public.payments where fee_id = tests.fee('ben', 1) and kind = 'refund'), 2,
  '... and pays nothing twice');
select throws_ok(format('select public.repay_fee_overpayment(%L, 100, %L)', tests.fee('ben', 1), gen_random_uuid()),
  'P0001', 'fee_not_overpaid', 'a new key finds nothing more to pay back');
select results_eq(
  $$ select s.state, s.balance_cents, s.paid_cents, s.refunded_cents from public.long_term_fee_status s where s.id = tests.fee('ben', 1) $$,
  $$ values ('cancelled', 0::bigint, 44000::bigint, 44000::bigint) $$, 'the fee shows nothing to return');
select results_eq($$ select b.paid_cents, b.balance_cents from public.contract_balances() b where b.contract_id = tests.contract('ben') $$,
  $$ values (0::bigint, 0::bigint) $$, 'the contracts table: the ended contract holds nothing and owes nothing');

-- Dora: 10,00 € overpaid on a fee that stands; paid back, the fee is paid.
select is((public.repay_fee_overpayment(tests.fee('dora', 1), 1000, pg_temp.key('dora_back')) ->> 'state'), 'paid',
  'an overpayment of a fee that stands goes back; the fee is then paid');

select * from finish();
rollback;
