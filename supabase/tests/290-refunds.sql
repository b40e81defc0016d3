-- Refunds (supabase/schemas/35_payments_ledger.sql, 35c_online_refunds.sql, 35d_desk_payments.sql): only staff refund, only a paid order; a refund to zero
-- cancels a still open booking and frees its berth, a completed stay is not refunded in full, and a
-- refunded order is always cancelled (or expired), whoever writes. The history records who did what.
begin;
select plan(25);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('R1', 4, 12, false, false), ('R2', 4, 12, false, false), ('R3', 4, 12, false, false), ('R4', 4, 12, false, false), ('R5', 4, 12, false, false);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('guest', p_anonymous => true);

select tests.authenticate_as('harbour');
-- Open (the customer's own, future), Today (arrives today, checked in), Storno (cancelled first),
-- Done (a stay that took place), Pending (never paid).
select public.staff_create_booking(tests.place_id('R1'), 'overnight', '2027-05-12', '{"name": "Offen", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde", "email": "customer@test.local"}', '2027-05-14');
select public.staff_create_booking(tests.place_id('R2'), 'overnight', '2027-05-10', '{"name": "Heute", "length": 9, "width": 3}',
  '{"first_name": "Hanna", "last_name": "Heute"}', '2027-05-11');
select public.staff_create_booking(tests.place_id('R3'), 'overnight', '2027-05-20', '{"name": "Storno", "length": 9, "width": 3}',
  '{"first_name": "Sven", "last_name": "Storno"}', '2027-05-21');
select public.staff_create_booking(tests.place_id('R4'), 'overnight', '2027-05-10', '{"name": "Fertig", "length": 9, "width": 3}',
  '{"first_name": "Frida", "last_name": "Fertig"}', '2027-05-11');
select public.staff_create_booking(tests.place_id('R5'), 'overnight', '2027-05-12', '{"name": "Offen2", "length": 9, "width": 3}',
  '{"first_name": "Otto", "last_name": "Offen"}', '2027-05-13');
select set_config('tests.open', (select id::text from public.orders where boat ->> 'name' = 'Offen'), true);
select set_config('tests.today', (select id::text from public.orders where boat ->> 'name' = 'Heute'), true);
select set_config('tests.storno', (select id::text from public.orders where boat ->> 'name' = 'Storno'), true);
select set_config('tests.done', (select id::text from public.orders where boat ->> 'name' = 'Fertig'), true);
select set_config('tests.pending', (select id::text from public.orders where boat ->> 'name' = 'Offen2'), true);
select public.record_desk_payment(current_setting('tests.open')::uuid, 'cash', null, 'bar');
select public.record_desk_payment(current_setting('tests.today')::uuid, 'card_terminal');
select public.record_desk_payment(current_setting('tests.storno')::uuid, 'bank_transfer');
select public.record_desk_payment(current_setting('tests.done')::uuid, 'cash');
select set_config('tests.price', (select price_cents::text from public.orders where id = current_setting('tests.open')::uuid), true);
select public.check_in(current_setting('tests.today')::uuid);
select public.cancel_booking(current_setting('tests.storno')::uuid);
select tests.clear_authentication();
update public.orders set status = 'completed' where id = current_setting('tests.done')::uuid;
update public.orders set cancelled_at = '2027-05-09 10:00+02' where id = current_setting('tests.storno')::uuid;

-- ---------------------------------------------------------------- who may refund
select tests.authenticate_as('customer');
select results_eq($$ select payment_status, user_id is not null from public.orders where id = current_setting('tests.open')::uuid $$,
  $$ values ('paid'::public.payment_status, true) $$, 'the customer sees the own paid order');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.open')::uuid, 'cash', 100) $$,
  '42501', 'staff_only', 'a customer cannot refund the own order through the RPC');
select throws_ok($$ update public.orders set payment_status = 'refunded', status = 'cancelled' where id = current_setting('tests.open')::uuid $$,
  '42501', null, 'nor by writing the order');
select tests.authenticate_as('other');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.open')::uuid, 'cash', 100) $$,
  '42501', 'staff_only', 'another customer cannot refund it');
select tests.authenticate_as('guest');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.open')::uuid, 'cash', 100) $$,
  '42501', 'staff_only', 'a guest session cannot refund');
select tests.authenticate_as_anon();
select throws_ok($$ select public.record_desk_refund(current_setting('tests.open')::uuid, 'cash', 100) $$,
  '42501', null, 'anon cannot refund');
select tests.clear_authentication();
select results_eq($$ select status, payment_status from public.orders where id = current_setting('tests.open')::uuid $$,
  $$ values ('confirmed'::public.order_status, 'paid'::public.payment_status) $$, 'after all that the order is still confirmed and paid');

-- ---------------------------------------------------------------- staff refund
select tests.authenticate_as('harbour');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.pending')::uuid, 'cash', 100) $$,
  'P0001', 'nothing_to_refund', 'an unpaid order cannot be refunded');
select lives_ok($$ select public.record_desk_refund(current_setting('tests.open')::uuid, 'cash', current_setting('tests.price')::integer) $$,
  'staff refund an open paid booking in full');
select results_eq(
  $$ select status, payment_status, cancelled_at from public.orders where id = current_setting('tests.open')::uuid $$,
  $$ values ('cancelled'::public.order_status, 'refunded'::public.payment_status, '2027-05-10 12:00+02'::timestamptz) $$,
  'it is cancelled in the same step');
select is((select count(*)::int from public.place_statuses where order_id = current_setting('tests.open')::uuid and not cancelled), 0,
  'the refunded booking freed its berth');
select ok(exists (select 1 from public.search_available_places('overnight', '2027-05-12', 9, 3, '2027-05-14') where name = 'R1'),
  'the berth is bookable again for that stay');
select lives_ok($$ select public.record_desk_refund(current_setting('tests.today')::uuid, 'cash', (select price_cents from public.orders where id = current_setting('tests.today')::uuid)) $$,
  'a card terminal payment is refunded in cash');
select results_eq($$ select status, payment_status from public.orders where id = current_setting('tests.today')::uuid $$,
  $$ values ('cancelled'::public.order_status, 'refunded'::public.payment_status) $$, 'a checked-in guest''s refund cancels the stay too');
select is((select count(*)::int from public.place_statuses where order_id = current_setting('tests.today')::uuid and not cancelled), 0,
  'and frees the berth');
select public.record_desk_refund(current_setting('tests.storno')::uuid, 'bank_transfer', (select price_cents from public.orders where id = current_setting('tests.storno')::uuid));
select results_eq($$ select status, payment_status, cancelled_at from public.orders where id = current_setting('tests.storno')::uuid $$,
  $$ values ('cancelled'::public.order_status, 'refunded'::public.payment_status, '2027-05-09 10:00+02'::timestamptz) $$,
  'a cancelled paid booking is refunded; its cancellation time stays');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.done')::uuid, 'cash', (select price_cents from public.orders where id = current_setting('tests.done')::uuid)) $$,
  'P0001', 'order_not_refundable', 'a completed stay is not refunded in full');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.open')::uuid, 'cash') $$,
  'P0001', 'order_not_payable', 'refunded (and cancelled) does not go back to paid');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.open')::uuid, 'cash', 1) $$,
  'P0001', 'refund_exceeds_payment', 'refunding twice is refused: nothing is left of the payment');

-- ---------------------------------------------------------------- history and invoice
select tests.clear_authentication();
select results_eq(
  $$ select event, from_value, to_value, actor = tests.get_user_id('harbour') from public.order_events
      where order_id = current_setting('tests.open')::uuid order by id $$,
  $$ values ('created', null, 'confirmed', true), ('payment_recorded', 'cash', current_setting('tests.price'), true), ('payment', 'pending', 'paid', true),
            ('refund_recorded', 'cash', current_setting('tests.price'), true), ('status', 'confirmed', 'cancelled', true), ('payment', 'paid', 'refunded', true) $$,
  'the history shows the payment, the refund, the cancellation, by the staff member (once)');
select results_eq(
  $$ select event, from_value, to_value from public.order_events where order_id = current_setting('tests.storno')::uuid and id > (
       select max(id) from public.order_events where order_id = current_setting('tests.storno')::uuid and event = 'status') order by id $$,
  $$ values ('refund_recorded', 'bank_transfer', (select price_cents::text from public.orders where id = current_setting('tests.storno')::uuid)), ('payment', 'paid', 'refunded') $$,
  'refunding a cancelled booking records the refund and the payment change only');
select results_eq($$ select kind, reason from public.invoices where order_id in (current_setting('tests.open')::uuid, current_setting('tests.storno')::uuid) order by number $$,
  $$ values ('invoice', 'payment'), ('invoice', 'payment'), ('cancellation', 'cancelled'), ('cancellation', 'refunded') $$,
  'the invoices stay; cancelling a paid booking and refunding one in full each issue a cancellation invoice (35b), refunding the cancelled one nothing more');

-- ---------------------------------------------------------------- the rule holds for every writer
select throws_ok($$ update public.orders set payment_status = 'refunded' where id = current_setting('tests.pending')::uuid $$,
  '23514', null, 'even the owner of the table cannot store an open order as refunded');
select results_eq($$ select status, payment_status from public.orders where id = current_setting('tests.done')::uuid $$,
  $$ values ('completed'::public.order_status, 'paid'::public.payment_status) $$, 'the completed stay stays paid');
select is((select count(*)::int from public.orders where payment_status = 'refunded' and status not in ('cancelled', 'expired', 'completed')), 0,
  'no refunded order is open');

select * from finish();
rollback;
