-- The staff overview's figures at a glance (issue 40, items 14 and 15; ADR 0013): arrivals
-- still expected and already arrived, departures, berths occupied today of the bookable ones,
-- money to pay back, and this week's bookings against last week's. Staff only.
begin;
select plan(9);

insert into public.places (name, width, length, one_day, archived) values
  ('F1', 4, 12, false, false), ('F2', 4, 12, false, false), ('F3', 4, 12, false, false),
  ('F4', 4, 12, false, false), ('F5', 4, 12, false, true);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

-- Two days ago: a stay on F3 until today.
select private.freeze_clock('2027-05-08 12:00+02');
select tests.authenticate_as('harbour');
select set_config('tests.leaving', (public.staff_create_booking(tests.place_id('F3'), 'overnight', '2027-05-08',
  '{"name": "Abschied", "length": 9, "width": 3}', '{"first_name": "Lea", "last_name": "Leaving"}', '2027-05-10')).id::text, true);

-- Today: two arrivals (F1 still expected, F2 checked in), a stay next week on F4 paid 7 € too much.
select tests.clear_authentication();
select private.freeze_clock('2027-05-10 12:00+02');
select tests.authenticate_as('harbour');
select set_config('tests.expected', (public.staff_create_booking(tests.place_id('F1'), 'overnight', '2027-05-10',
  '{"name": "Erwartet", "length": 9, "width": 3}', '{"first_name": "Eva", "last_name": "Expected"}', '2027-05-12')).id::text, true);
select set_config('tests.arrived', (public.staff_create_booking(tests.place_id('F2'), 'overnight', '2027-05-10',
  '{"name": "Da", "length": 9, "width": 3}', '{"first_name": "Ada", "last_name": "Arrived"}', '2027-05-11')).id::text, true);
select set_config('tests.later', (public.staff_create_booking(tests.place_id('F4'), 'overnight', '2027-05-17',
  '{"name": "Später", "length": 9, "width": 3}', '{"first_name": "Paul", "last_name": "Paid"}', '2027-05-18')).id::text, true);
select lives_ok($$ select public.check_in(current_setting('tests.arrived')::uuid) $$, 'F2''s guest checks in');

-- When they were booked: F1 two days ago and F4 three days ago (this week), F2 ten days ago (the
-- week before), F3 twenty days ago (neither).
select tests.clear_authentication();
update public.orders set created_at = private.now() - interval '2 days' where id = current_setting('tests.expected')::uuid;
update public.orders set created_at = private.now() - interval '3 days' where id = current_setting('tests.later')::uuid;
update public.orders set created_at = private.now() - interval '10 days' where id = current_setting('tests.arrived')::uuid;
update public.orders set created_at = private.now() - interval '20 days' where id = current_setting('tests.leaving')::uuid;
insert into public.payments (order_id, kind, method, amount_cents, note)
select o.id, 'payment', 'cash', o.price_cents + 700, 'to_refund: paid twice' from public.orders o where o.id = current_setting('tests.later')::uuid;

select tests.authenticate_as('harbour');
select results_eq($$ select arrivals_expected, arrivals_arrived, departures from public.overview_figures() $$,
  $$ values (1, 1, 1) $$, 'today: one arrival still expected, one arrived, one departure');
select results_eq($$ select berths_occupied, berths_bookable from public.overview_figures() $$,
  $$ values (3, 4) $$, 'three of the four berths not archived are occupied today (F4 only next week)');
select results_eq($$ select refund_orders, refund_cents from public.overview_figures() $$,
  $$ values (1, 700::bigint) $$, 'one order with 7 € to pay back');
select results_eq($$ select refund_orders, refund_cents from public.overview_figures() $$,
  $$ select count(*)::integer, sum(to_refund_cents + failed_refund_cents)::bigint from public.money_to_return(100) $$,
  'the money figure agrees with the overview''s list');
select results_eq($$ select bookings_week, bookings_prior_week, revenue_week_cents, revenue_prior_week_cents from public.overview_figures() $$,
  $$ select 2, 1,
       (select sum(price_cents) from public.orders where id in (current_setting('tests.expected')::uuid, current_setting('tests.later')::uuid))::bigint,
       (select price_cents from public.orders where id = current_setting('tests.arrived')::uuid)::bigint $$,
  'two bookings this week, one the week before, with their prices');

-- A cancelled booking is no booking in the trend and no arrival.
select lives_ok($$ select public.cancel_booking(current_setting('tests.expected')::uuid) $$, 'F1''s booking is cancelled');
select results_eq($$ select arrivals_expected, bookings_week, berths_occupied from public.overview_figures() $$,
  $$ values (0, 1, 2) $$, 'no longer expected, counted or occupying F1');

select tests.authenticate_as('customer');
select throws_ok($$ select * from public.overview_figures() $$, '42501', 'staff_only', 'a customer gets no figures');

select * from finish();
rollback;
