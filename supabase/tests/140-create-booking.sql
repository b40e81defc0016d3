-- create_booking: re-validates everything, prices through the quote rules, writes order and
-- reservation together; lost races and taken berths raise 23P01 berth_no_longer_available.
begin;
select plan(28);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length, one_day) values ('B1', 3.5, 10, false), ('B2', 2.5, 6, true), ('B3', 4, 12, false), ('B4', 4, 12, false);
insert into public.places (name, width, length, archived) values ('B9', 4, 12, true);
insert into public.sale_codes (code, value) values ('RHEIN5', 500);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('inactive', p_active => false);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('guest', p_anonymous => true);
select tests.create_user('guest2', p_anonymous => true);
insert into public.long_term_holders (place_id, starts_on) values (tests.place_id('B3'), '2027-01-01');

create temp table boat as select '{"name":"Rheinperle","tag":"D-1","length":9.4,"width":3.2}'::jsonb as b,
  '{"first_name":"Klaus","last_name":"Kunde","email":"Klaus@Test.Local","phone":"+49 211 1","city":"Düsseldorf"}'::jsonb as p;
grant select on boat to anon, authenticated;

-- ---------------------------------------------------------------- who may book
select tests.authenticate_as_anon();
select throws_ok($$ select public.create_booking(tests.place_id('B1'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat $$,
  '42501', null, 'anon (no session) cannot book');

select tests.authenticate_as('inactive');
select throws_ok($$ select public.create_booking(tests.place_id('B1'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat $$,
  '42501', 'account_inactive', 'an inactive customer cannot book');

select tests.authenticate_as('customer');
select results_eq(
  $$ select status::text, price_cents, payment_status::text, email, expires_at, boat ->> 'name', place_snapshot ->> 'name'
     from public.create_booking(tests.place_id('B1'), 'overnight', '2027-06-10', (select b from boat), (select p from boat), p_departure => '2027-06-12') $$,
  $$ values ('confirmed', 7140, 'pending', 'klaus@test.local', null::timestamptz, 'Rheinperle', 'B1') $$,
  'a customer books: confirmed, priced in cents, with snapshots');
select results_eq(
  $$ select kind::text, starts_at, ends_at, price_breakdown ->> 'net_cents' from public.orders $$,
  $$ values ('overnight', '2027-06-10 14:00+02'::timestamptz, '2027-06-12 12:00+02'::timestamptz, '6000') $$,
  'the customer reads the order: 14:00 arrival to 12:00 departure, net 60 EUR');
select tests.clear_authentication();
select results_eq(
  $$ select s.type::text, s.cancelled, s.starts_at, s.ends_at from public.place_statuses s join public.orders o on o.id = s.order_id $$,
  $$ values ('reservation', false, '2027-06-10 14:00+02'::timestamptz, '2027-06-12 12:00+02'::timestamptz) $$,
  'with its reservation, in the same transaction');

-- ---------------------------------------------------------------- the berth must be free
select tests.authenticate_as('other');
select throws_ok($$ select public.create_booking(tests.place_id('B1'), 'overnight', '2027-06-11', b, p, p_departure => '2027-06-13') from boat $$,
  '23P01', 'berth_no_longer_available', 'an overlapping booking is refused with 23P01');
select lives_ok($$ select public.create_booking(tests.place_id('B1'), 'overnight', '2027-06-12', b, p, p_departure => '2027-06-14') from boat $$,
  'a stay arriving on the departure day is fine');
select throws_ok($$ select public.create_booking(tests.place_id('B3'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat $$,
  '23P01', 'berth_no_longer_available', 'a long-term held berth cannot be booked');
select throws_ok($$ select public.create_booking(tests.place_id('B9'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat $$,
  'PT404', 'place_not_found', 'an archived berth cannot be booked');

-- ---------------------------------------------------------------- fit, kind, input
select throws_ok($$ select public.create_booking(tests.place_id('B2'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat $$,
  '22023', 'boat_does_not_fit', 'the boat must fit');
select throws_ok($$ select public.create_booking(tests.place_id('B1'), 'day', '2027-06-20', b, p, p_day_start => '10:00', p_day_end => '14:00') from boat $$,
  '22023', 'day_stay_not_allowed', 'day stays only on one_day berths');
select throws_ok($$ select public.create_booking(tests.place_id('B2'), 'overnight', '2027-06-20', '{"name":"Jolle","length":5.5,"width":2}', p, p_departure => '2027-06-21') from boat $$,
  '22023', 'day_guests_only', 'a one_day berth (day guests only) takes no overnight stay');
select results_eq(
  $$ select kind::text, price_cents, starts_at, ends_at from public.create_booking(tests.place_id('B2'), 'day', '2027-06-20',
       '{"name":"Jolle","length":5.5,"width":2}', (select p from boat), p_day_start => '10:00', p_day_end => '14:00') $$,
  $$ values ('day', 714, '2027-06-20 10:00+02'::timestamptz, '2027-06-20 14:00+02'::timestamptz) $$,
  'a day stay on a one_day berth: 6 m x 1 EUR + VAT');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-06-10', b - 'name', p, p_departure => '2027-06-12') from boat $$,
  '22023', 'invalid_boat_name', 'a boat needs a name');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-06-10', b || '{"length":"lang"}', p, p_departure => '2027-06-12') from boat $$,
  '22023', 'invalid_boat', 'boat sizes are numbers');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-06-10', b, p - 'last_name', p_departure => '2027-06-12') from boat $$,
  '22023', 'invalid_name', 'the person needs a name');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-06-10', b, p || jsonb_build_object('phone', repeat('9', 5000)), p_departure => '2027-06-12') from boat $$,
  '23514', null, 'oversized person data is refused');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-05-30', b, p, p_departure => '2027-06-02') from boat $$,
  '22023', 'period_in_past', 'no bookings in the past');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12', p_sale_code => 'FALSCH') from boat $$,
  'P0001', 'sale_code_not_checked', 'a sale code the session has not quoted is refused (20261122003200; pgTAP 320)');
-- The booking page quotes a code before booking with it.
select public.quote_booking('overnight', '2027-06-10', 9.4, p_departure => '2027-06-12', p_sale_code => 'Rhein5');
select results_eq(
  $$ select price_cents, sale_code from public.create_booking(tests.place_id('B4'), 'overnight', '2027-06-10', (select b from boat), (select p from boat),
       p_departure => '2027-06-12', p_sale_code => 'rhein5', p_save_profile => true) $$,
  $$ values (5760, 'RHEIN5') $$,
  'a sale code sets the additional costs: 2 x (10 m x 2,38 EUR + 5 EUR), gross (ADR 0011)');
select results_eq($$ select boat_name, boat_length, city from public.profiles where id = auth.uid() $$,
  $$ values ('Rheinperle', 9.4, 'Düsseldorf') $$, 'with p_save_profile the boat and person data are saved to the profile');

-- ---------------------------------------------------------------- guests
select tests.authenticate_as('guest');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-07-01', b, p - 'email', p_departure => '2027-07-02') from boat $$,
  '22023', 'invalid_email', 'a guest must give an e-mail address');
select results_eq(
  $$ select status::text, expires_at from public.create_booking(tests.place_id('B4'), 'overnight', '2027-07-01', (select b from boat), (select p from boat), p_departure => '2027-07-02') $$,
  $$ values ('unverified', '2027-06-02 10:00+02'::timestamptz) $$,
  'a guest booking is unverified and expires 24 hours later');
select results_eq(
  $$ select expires_at from public.create_booking(tests.place_id('B4'), 'overnight', '2027-06-01', (select b from boat), (select p from boat), p_departure => '2027-06-02') $$,
  $$ values ('2027-06-01 14:00+02'::timestamptz) $$,
  'or at the latest at arrival');
select lives_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-07-10', b, p, p_departure => '2027-07-11') from boat $$,
  'a third open unverified booking is allowed');
select throws_ok($$ select public.create_booking(tests.place_id('B4'), 'overnight', '2027-07-20', b, p, p_departure => '2027-07-21') from boat $$,
  'P0001', 'too_many_unverified_orders', 'a fourth is refused');

-- A stale unverified reservation gives way to a new booking.
select tests.clear_authentication();
select private.freeze_clock('2027-06-02 10:00+02');
select tests.authenticate_as('other');
select results_eq(
  $$ select status::text from public.create_booking(tests.place_id('B4'), 'overnight', '2027-07-01', (select b from boat), (select p from boat), p_departure => '2027-07-03') $$,
  $$ values ('confirmed') $$, 'a berth held by a stale guest reservation can be booked');
select tests.clear_authentication();
select results_eq(
  $$ select o.status::text, s.cancelled from public.orders o join public.place_statuses s on s.order_id = o.id
     where o.user_id = tests.get_user_id('guest') and o.starts_at = '2027-07-01 14:00+02' $$,
  $$ values ('expired', true) $$, 'the stale order expired and freed its berth');

select * from finish();
rollback;
