-- check_in: the verified owner on the arrival day only, staff from the arrival day until
-- departure (Europe/Berlin, frozen clock); sets checked_in_at and turns the reservation into rent.
begin;
select plan(17);

insert into public.places (name, width, length) values ('I1', 4, 12), ('I2', 4, 12), ('I3', 4, 12), ('I4', 4, 12);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('inactive');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('guest', p_anonymous => true);

insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person, expires_at)
values
  (tests.get_user_id('customer'), tests.place_id('I1'), 'overnight', '2027-06-10 14:00+02', '2027-06-12 12:00+02', 'confirmed', 0, '{}', 'a@test.local', '{}', '{}', '{}', null),
  (tests.get_user_id('customer'), tests.place_id('I2'), 'overnight', '2027-06-10 14:00+02', '2027-06-12 12:00+02', 'confirmed', 0, '{}', 'b@test.local', '{}', '{}', '{}', null),
  (tests.get_user_id('guest'), tests.place_id('I3'), 'overnight', '2027-06-10 14:00+02', '2027-06-12 12:00+02', 'unverified', 0, '{}', 'c@test.local', '{}', '{}', '{}', '2027-06-10 14:00+02'),
  (tests.get_user_id('inactive'), tests.place_id('I4'), 'overnight', '2027-06-10 14:00+02', '2027-06-12 12:00+02', 'confirmed', 0, '{}', 'd@test.local', '{}', '{}', '{}', null),
  (tests.get_user_id('customer'), tests.place_id('I4'), 'overnight', '2027-03-28 14:00+02', '2027-03-29 12:00+02', 'confirmed', 0, '{}', 'e@test.local', '{}', '{}', '{}', null);
insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
select place_id, id, 'reservation', starts_at, ends_at from public.orders;
update public.profiles set active = false where id = tests.get_user_id('inactive');
select set_config('tests.o1', (select id::text from public.orders where email = 'a@test.local'), true);
select set_config('tests.o2', (select id::text from public.orders where email = 'b@test.local'), true);
select set_config('tests.o3', (select id::text from public.orders where email = 'c@test.local'), true);
select set_config('tests.o4', (select id::text from public.orders where email = 'd@test.local'), true);
select set_config('tests.o5', (select id::text from public.orders where email = 'e@test.local'), true);

-- The evening before arrival.
select private.freeze_clock('2027-06-09 23:59+02');
select tests.authenticate_as('customer');
select throws_ok($$ select public.check_in(current_setting('tests.o1')::uuid) $$, 'P0001', 'check_in_not_possible',
  'not on the day before arrival (23:59 Berlin)');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.check_in(current_setting('tests.o1')::uuid) $$, 'P0001', 'check_in_not_possible',
  'staff neither');

-- The arrival day, early morning (before the 14:00 arrival time).
select tests.clear_authentication();
select private.freeze_clock('2027-06-10 00:05+02');
select tests.authenticate_as('other');
select throws_ok($$ select public.check_in(current_setting('tests.o1')::uuid) $$, 'PT404', 'order_not_found',
  'another customer cannot check the order in');
select tests.authenticate_as('guest');
select throws_ok($$ select public.check_in(current_setting('tests.o3')::uuid) $$, '42501', 'verification_required',
  'an unverified guest must verify first');
select tests.authenticate_as('inactive');
select throws_ok($$ select public.check_in(current_setting('tests.o4')::uuid) $$, '42501', 'account_inactive',
  'an inactive customer cannot check in');
select tests.authenticate_as_anon();
select throws_ok($$ select public.check_in(current_setting('tests.o1')::uuid) $$, '42501', null, 'anon cannot check in');

select tests.authenticate_as('customer');
select results_eq($$ select status::text, checked_in, checked_in_at from public.check_in(current_setting('tests.o1')::uuid) $$,
  $$ values ('checked_in', true, '2027-06-10 00:05+02'::timestamptz) $$,
  'the owner checks in on the arrival day; checked_in_at is the (frozen) time');
select throws_ok($$ select public.check_in(current_setting('tests.o1')::uuid) $$, 'P0001', 'already_checked_in', 'only once');
select tests.clear_authentication();
select results_eq($$ select type::text, cancelled from public.place_statuses where order_id = current_setting('tests.o1')::uuid $$,
  $$ values ('rent', false) $$, 'the reservation became rent');

-- The day after arrival.
select private.freeze_clock('2027-06-11 09:00+02');
select tests.authenticate_as('customer');
select throws_ok($$ select public.check_in(current_setting('tests.o2')::uuid) $$, 'P0001', 'check_in_not_possible',
  'the owner cannot check in after the arrival day');
select tests.authenticate_as('harbour');
select results_eq($$ select status::text, checked_in_at from public.check_in(current_setting('tests.o2')::uuid) $$,
  $$ values ('checked_in', '2027-06-11 09:00+02'::timestamptz) $$, 'staff check a guest in after the arrival day');
select results_eq($$ select status::text from public.check_in(current_setting('tests.o3')::uuid) $$,
  $$ values ('checked_in') $$, 'staff may check in an unverified guest at the quay');

-- After departure.
select tests.clear_authentication();
select private.freeze_clock('2027-06-12 12:00+02');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.check_in(current_setting('tests.o4')::uuid) $$, 'P0001', 'check_in_not_possible',
  'not after departure, not even staff');

-- The arrival day is the Berlin date, also on the DST Sunday.
select tests.clear_authentication();
select private.freeze_clock('2027-03-27 23:30+01');
select tests.authenticate_as('customer');
select throws_ok($$ select public.check_in(current_setting('tests.o5')::uuid) $$, 'P0001', 'check_in_not_possible',
  '23:30 CET on the Saturday is not yet the arrival day');
select tests.clear_authentication();
select private.freeze_clock('2027-03-28 00:30+01');
select tests.authenticate_as('customer');
select results_eq($$ select status::text from public.check_in(current_setting('tests.o5')::uuid) $$,
  $$ values ('checked_in') $$, '00:30 CET on the DST Sunday is the arrival day');

-- In UTC the same instant is still the Saturday: the function must not use the session's zone.
select tests.clear_authentication();
set local timezone = 'UTC';
select is(private.berlin_date('2027-03-27 23:30+00'), '2027-03-28'::date, 'Berlin dates do not depend on the session time zone');
select is(private.berlin_at('2027-03-28', '14:00'), '2027-03-28 12:00+00'::timestamptz, '14:00 on the DST Sunday is 12:00 UTC');

select * from finish();
rollback;
