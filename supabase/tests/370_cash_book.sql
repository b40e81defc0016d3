-- The cash book and the daily closing (supabase/schemas/37_cash_book.sql, issue 21 item 4): cash
-- payments and cash refunds of the ledger land in the book, staff book their own movements with a
-- reason, entries are numbered without gaps and carry the running balance (= the sum of the
-- entries, never below zero); a closing stores counted, expected and difference (booked as its
-- own entry); a closed day is never changed or deleted and nothing more is booked onto it (what
-- comes after the closing goes to the next day); customers and anon read nothing.
begin;
select plan(62);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('K1', 4, 12, false, false), ('K2', 4, 12, false, false), ('K3', 4, 12, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

-- A customer's booking (one night, 9 m: 3332 cents) and two walk-ins.
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('K1'), 'overnight', '2027-06-10', '{"name": "Kasse", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-06-11');
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id(n), 'overnight', '2027-06-10', jsonb_build_object('name', b, 'length', 9, 'width', 3),
  '{"first_name": "Wanda", "last_name": "Walk"}', '2027-06-11')
from (values ('K2', 'Karte'), ('K3', 'Spaet')) v(n, b);
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;

create function pg_temp.last_balance() returns bigint language sql as $$
  select balance_cents from public.cash_book_entries order by entry_no desc limit 1
$$;

-- ---------------------------------------------------------------- entries
select tests.authenticate_as('harbour');
select results_eq($$ select entry_no, business_day, kind, amount_cents, balance_cents, source_kind, reason
                     from public.record_cash_movement('opening_float', 15000, ' Wechselgeld ') $$,
  $$ values (1, '2027-06-01'::date, 'opening_float', 15000, 15000::bigint, 'movement', 'Wechselgeld') $$,
  'staff book an opening float: entry 1, the business day in Berlin, the balance');
select lives_ok($$ select public.record_desk_payment(current_setting('tests.kasse')::uuid, 'cash', null, 'bar') $$, 'a cash desk payment');
select results_eq($$ select e.entry_no, e.kind, e.amount_cents, e.balance_cents, e.order_id, e.source_id = p.id, e.recorded_by = tests.get_user_id('harbour'), e.booked_at = p.recorded_at
                     from public.cash_book_entries e join public.payments p on p.id = e.source_id
                     where e.source_kind = 'payment' $$,
  $$ values (2, 'payment', 3332, 18332::bigint, current_setting('tests.kasse')::uuid, true, true, true) $$,
  'lands in the cash book: money in, with the order, the ledger row, who and when');
select lives_ok($$ select public.record_desk_payment(current_setting('tests.karte')::uuid, 'card_terminal') $$, 'a card terminal payment');
select is((select count(*)::integer from public.cash_book_entries), 2, 'does not touch the till');
select lives_ok($$ select public.record_desk_refund(current_setting('tests.kasse')::uuid, 'cash', 1000) $$, 'a cash refund');
select results_eq($$ select entry_no, kind, amount_cents, balance_cents from public.cash_book_entries where kind = 'refund' $$,
  $$ values (3, 'refund', -1000, 17332::bigint) $$, 'lands in the cash book: money out');
select lives_ok($$ select public.record_desk_refund(current_setting('tests.kasse')::uuid, 'bank_transfer', 500) $$, 'a refund by transfer');
select is((select count(*)::integer from public.cash_book_entries), 3, 'does not touch the till');
select results_eq($$ select entry_no, kind, amount_cents, balance_cents, reason from public.record_cash_movement('bank_deposit', 15000, 'Geldtransit zur Sparkasse') $$,
  $$ values (4, 'bank_deposit', -15000, 2332::bigint, 'Geldtransit zur Sparkasse') $$, 'a deposit to the bank takes money out');
select results_eq($$ select kind, amount_cents, balance_cents from public.record_cash_movement('withdrawal', 332, 'Briefmarken') $$,
  $$ values ('withdrawal', -332, 2000::bigint) $$, 'a withdrawal too');

-- ---------------------------------------------------------------- never below zero
select throws_ok($$ select public.record_cash_movement('withdrawal', 2001, 'zu viel') $$, 'P0001', 'cash_balance_negative',
  'a withdrawal of more than the till holds is refused');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.karte')::uuid, 'cash', 3332) $$, 'P0001', 'cash_balance_negative',
  'a cash refund the till cannot pay is refused');
select is((select count(*)::integer from public.payments where order_id = current_setting('tests.karte')::uuid and kind = 'refund'), 0,
  'and with it the ledger row (nothing was paid out)');
select lives_ok($$ select public.record_desk_refund(current_setting('tests.karte')::uuid, 'cash', 1500) $$, 'what the till holds can be paid back');
select is(pg_temp.last_balance(), 500::bigint, 'the balance after it');

-- ---------------------------------------------------------------- bad input, refused in words
select throws_ok($$ select public.record_cash_movement('refund', 100, 'x') $$, '22023', 'invalid_cash_movement', 'only the three staff movements');
select throws_ok($$ select public.record_cash_movement('opening_float', 0, 'x') $$, '22023', 'invalid_amount', 'an amount above zero');
select throws_ok($$ select public.record_cash_movement('opening_float', 100, '  ') $$, '22023', 'invalid_reason', 'a reason is required');
select throws_ok($$ select public.record_cash_movement('opening_float', 100, repeat('x', 501)) $$, '22023', 'invalid_reason', 'of at most 500 characters');

-- ---------------------------------------------------------------- the book adds up
select is(pg_temp.last_balance(), (select sum(amount_cents) from public.cash_book_entries), 'the balance equals the sum of the entries');
select ok(not exists (select 1 from public.cash_book_entries e
                      where e.balance_cents <> (select sum(x.amount_cents) from public.cash_book_entries x where x.entry_no <= e.entry_no)),
  'every running balance equals the sum up to its entry');
select results_eq($$ select array_agg(entry_no order by entry_no) from public.cash_book_entries $$,
  $$ values (array[1, 2, 3, 4, 5, 6]) $$, 'numbered without gaps (the refused ones took no number)');
select results_eq($$ select d ->> 'open_day', (d ->> 'expected_cents')::integer, d -> 'closing' from public.cash_day('2027-06-01') d $$,
  $$ values ('2027-06-01', 500, 'null'::jsonb) $$, 'cash_day: the open day and what a closing would expect');

-- ---------------------------------------------------------------- customers and anon
select tests.authenticate_as('customer');
select is_empty($$ select * from public.cash_book_entries $$, 'a customer reads no entry (not even of their own order)');
select is_empty($$ select * from public.cash_closings $$, 'nor a closing');
select throws_ok($$ select public.record_cash_movement('opening_float', 100, 'x') $$, '42501', 'staff_only', 'nor books a movement');
select throws_ok($$ select public.close_cash_day('2027-06-01', 0) $$, '42501', 'staff_only', 'nor closes a day');
select throws_ok($$ insert into public.cash_book_entries (business_day, kind, amount_cents, source_kind, reason) values ('2027-06-01', 'opening_float', 1, 'movement', 'x') $$,
  '42501', null, 'nor inserts');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.cash_book_entries $$, '42501', null, 'anon reads no entry');
select throws_ok($$ select * from public.cash_closings $$, '42501', null, 'nor a closing');
select throws_ok($$ select public.cash_day('2027-06-01') $$, '42501', null, 'nor the day');

-- ---------------------------------------------------------------- the closing
select tests.clear_authentication();
select private.freeze_clock('2027-06-01 18:00+02');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.close_cash_day('2027-06-02', 500) $$, '22023', 'cash_day_invalid', 'a day ahead cannot be closed');
select throws_ok($$ select public.close_cash_day('2027-06-01', -1) $$, '22023', 'invalid_amount', 'the count is not negative');
select results_eq($$ select business_day, period_from, opening_cents, cash_in_cents, cash_out_cents, expected_cents, counted_cents, difference_cents,
                            closed_by = tests.get_user_id('harbour'), closed_at = '2027-06-01 18:00+02'::timestamptz, note
                     from public.close_cash_day('2027-06-01', 450, 'Zählung Abend') $$,
  $$ values ('2027-06-01'::date, '2027-06-01'::date, 0::bigint, 18332::bigint, 17832::bigint, 500::bigint, 450::bigint, -50::bigint, true, true, 'Zählung Abend') $$,
  'staff close the day: counted, expected (opening + entries), the difference, who and when');
select results_eq($$ select e.entry_no, e.business_day, e.kind, e.amount_cents, e.balance_cents, e.source_id = c.id
                     from public.cash_book_entries e join public.cash_closings c on c.difference_entry_id = e.id $$,
  $$ values (7, '2027-06-01'::date, 'difference', -50, 450::bigint, true) $$,
  'the difference is booked as its own entry (Kassendifferenz): the book now equals the count');
select is((select last_entry_no from public.cash_closings), 7, 'the closing covers the book up to that entry');
select is(pg_temp.last_balance(), (select sum(amount_cents) from public.cash_book_entries), 'still the sum of the entries');
select throws_ok($$ select public.close_cash_day('2027-06-01', 450) $$, 'P0001', 'cash_day_closed', 'a closed day is not closed twice');
select results_eq($$ select (d -> 'closing' ->> 'counted_cents')::integer, d ->> 'open_day' from public.cash_day('2027-06-01') d $$,
  $$ values (450, '2027-06-02') $$, 'cash_day: the closed day shows its Kassenbericht; the open day is the next');

-- After the closing: a cash payment the same evening goes to the next open day (with its real time).
select lives_ok($$ select public.record_desk_payment(current_setting('tests.spaet')::uuid, 'cash') $$, 'a cash payment after the closing is taken');
select results_eq($$ select entry_no, business_day, booked_at, balance_cents from public.cash_book_entries where order_id = current_setting('tests.spaet')::uuid $$,
  $$ values (8, '2027-06-02'::date, '2027-06-01 18:00+02'::timestamptz, 3782::bigint) $$,
  'it is booked on the next open day, its time kept');
select throws_ok($$ select public.close_cash_day('2027-06-01', 3782) $$, 'P0001', 'cash_day_closed', 'the closed day stays closed');

-- ---------------------------------------------------------------- a closed day never changes, for any role
select throws_ok($$ update public.cash_closings set counted_cents = 500 $$, '42501', null, 'staff cannot edit a closing');
select throws_ok($$ delete from public.cash_closings $$, '42501', null, 'nor delete it');
select throws_ok($$ update public.cash_book_entries set amount_cents = 1 $$, '42501', null, 'nor an entry');
select tests.authenticate_as('admin');
select throws_ok($$ delete from public.cash_book_entries $$, '42501', null, 'an admin cannot delete entries');
select throws_ok($$ update public.cash_closings set note = 'x' $$, '42501', null, 'nor edit a closing');
select tests.clear_authentication();
set local role service_role;
select throws_ok($$ update public.cash_closings set counted_cents = 1 $$, '42501', null, 'the service role cannot edit a closing');
select throws_ok($$ delete from public.cash_book_entries $$, '42501', null, 'nor delete entries');
reset role;
select throws_ok($$ update public.cash_closings set counted_cents = 1 $$, '42501', 'cash_book_immutable', 'even the owner is refused by the trigger (closing)');
select throws_ok($$ delete from public.cash_closings $$, '42501', 'cash_book_immutable', 'delete too');
select throws_ok($$ truncate public.cash_closings cascade $$, '42501', 'cash_book_immutable', 'and truncate');
select throws_ok($$ update public.cash_book_entries set amount_cents = 1 $$, '42501', 'cash_book_immutable', 'entries: update');
select throws_ok($$ truncate public.cash_book_entries cascade $$, '42501', 'cash_book_immutable', 'entries: truncate');
select throws_ok($$ insert into public.cash_book_entries (business_day, kind, amount_cents, source_kind, reason) values ('2027-06-01', 'opening_float', 100, 'movement', 'nachträglich') $$,
  'P0001', 'cash_day_closed', 'nothing is booked onto a closed day, whoever inserts');
select throws_ok($$ insert into public.cash_book_entries (business_day, kind, amount_cents, source_kind, reason) values ('2027-06-05', 'opening_float', 100, 'movement', 'voraus') $$,
  '22023', 'cash_day_invalid', 'nor onto a day ahead');

-- ---------------------------------------------------------------- the next days
select private.freeze_clock('2027-06-02 18:00+02');
select tests.authenticate_as('harbour');
select results_eq($$ select period_from, opening_cents, cash_in_cents, cash_out_cents, expected_cents, difference_cents, difference_entry_id is null
                     from public.close_cash_day('2027-06-02', 3782) $$,
  $$ values ('2027-06-02'::date, 450::bigint, 3332::bigint, 0::bigint, 3782::bigint, 0::bigint, true) $$,
  'the next day opens with the last count; no difference, no difference entry');
select tests.clear_authentication();
select private.freeze_clock('2027-06-04 09:00+02');
select tests.authenticate_as('harbour');
select lives_ok($$ select public.record_cash_movement('bank_deposit', 3500, 'Geldtransit') $$, 'a day passes without closing; then a deposit');
select throws_ok($$ select public.close_cash_day('2027-06-03', 282) $$, 'P0001', 'cash_later_day_open',
  'a past day cannot be closed once a later day has entries');
select results_eq($$ select period_from, opening_cents, cash_out_cents, expected_cents from public.close_cash_day('2027-06-04', 282) $$,
  $$ values ('2027-06-03'::date, 3782::bigint, 3500::bigint, 282::bigint) $$, 'closing the latest day covers the day left open');
select is(pg_temp.last_balance(), (select sum(amount_cents) from public.cash_book_entries), 'the balance equals the sum of the entries at the end');

select * from finish();
rollback;
