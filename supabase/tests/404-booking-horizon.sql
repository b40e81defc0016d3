-- The booking horizon and the period rules the booking form checks before step 2 (issue 40
-- items 4 and 10, docs/adr/0014-booking-form-and-horizon.md): a stay must end by
-- private.booking_last_day() (harbour_settings: months ahead, at most a last day); a day window
-- already over and a fair stay outside every fair are refused with 22023 by the search, the
-- quote and the booking alike.
begin;
select plan(28);
select private.freeze_clock('2027-03-01 18:30+01');

insert into public.places (name, width, length, one_day, archived) values ('H1', 4.0, 12.0, true, false), ('H2', 4.0, 12.0, false, false);
insert into public.fair_periods (name, starts_on, ends_on) values ('boot', '2027-03-10', '2027-03-14');
select is((select booking_horizon_months from public.harbour_settings where id = 1)::integer, 24, 'the default horizon is 24 months');
update public.harbour_settings set booking_horizon_months = 12, booking_last_day = null where id = 1;
select tests.create_user('admin', array['admin']);
select tests.create_user('customer');

-- ---------------------------------------------------------------- the horizon, read by everyone
select tests.authenticate_as_anon();
select is(public.booking_last_day(), date '2028-03-01', '12 months: today (Berlin) plus 12 months');
select lives_ok($$ select public.quote_booking('overnight', '2028-02-29', 9, p_departure => '2028-03-01') $$,
  'a stay ending on the last bookable day is quoted');
select throws_ok($$ select public.quote_booking('overnight', '2028-02-29', 9, p_departure => '2028-03-02') $$,
  '22023', 'beyond_booking_horizon', 'one day later is refused by the quote');
select throws_ok($$ select public.quote_booking('overnight', '2030-12-01', 9, p_departure => '2030-12-03') $$,
  '22023', 'beyond_booking_horizon', 'December 2030 is not bookable');
select throws_ok($$ select * from public.search_available_places('overnight', '2030-12-01', 9, 3, '2030-12-03') $$,
  '22023', 'beyond_booking_horizon', 'nor found by the search');
select throws_ok($$ select public.quote_booking('day', '2028-03-02', 9, p_day_start => '10:00', p_day_end => '12:00') $$,
  '22023', 'beyond_booking_horizon', 'a day stay after the horizon is refused');
select is((select count(*) from public.search_available_places('day', '2028-03-01', 9, 3, null, '10:00', '12:00'))::integer, 1,
  'a day stay on the last day is offered (H1 takes day guests)');

-- A guest with an account books: the same rule in create_booking.
select tests.authenticate_as('customer');
select throws_ok($$ select public.create_booking(tests.place_id('H2'), 'overnight', '2028-02-29', '{"name": "Weit", "length": 9, "width": 3}',
  '{"first_name": "Wei", "last_name": "Weit"}', '2028-03-02') $$,
  '22023', 'beyond_booking_horizon', 'create_booking refuses a stay beyond the horizon');
select lives_ok($$ select public.create_booking(tests.place_id('H2'), 'overnight', '2028-02-28', '{"name": "Nah", "length": 9, "width": 3}',
  '{"first_name": "Na", "last_name": "Nah"}', '2028-03-01') $$,
  'and books one that ends on the last day');

-- ---------------------------------------------------------------- admins set it
select tests.authenticate_as('admin');
update public.harbour_settings set booking_horizon_months = 6 where id = 1;
select is(public.booking_last_day(), date '2027-09-01', 'six months: 2027-09-01');
update public.harbour_settings set booking_last_day = '2027-06-30' where id = 1;
select is(public.booking_last_day(), date '2027-06-30', 'a last day earlier than the months wins');
select throws_ok($$ select public.quote_booking('overnight', '2027-06-30', 9, p_departure => '2027-07-01') $$,
  '22023', 'beyond_booking_horizon', 'the last day is enforced');
select throws_ok($$ update public.harbour_settings set booking_horizon_months = 0 where id = 1 $$,
  '23514', null, 'at least one month');
select throws_ok($$ update public.harbour_settings set booking_horizon_months = 37 where id = 1 $$,
  '23514', null, 'at most 36 months');
select tests.authenticate_as('customer');
update public.harbour_settings set booking_horizon_months = 36 where id = 1;
select tests.authenticate_as('admin');
select is((select booking_horizon_months from public.harbour_settings where id = 1)::integer, 6, 'a customer cannot change it (RLS)');

-- ---------------------------------------------------------------- the past and fairs (item 4)
select tests.authenticate_as_anon();
select throws_ok($$ select public.quote_booking('day', '2027-03-01', 9, p_day_start => '10:00', p_day_end => '14:00') $$,
  '22023', 'period_in_past', 'at 18:30 today''s 10:00-14:00 is over');
select throws_ok($$ select * from public.search_available_places('day', '2027-03-01', 9, 3, null, '10:00', '14:00') $$,
  '22023', 'period_in_past', 'the search refuses it at once (the form must not send it)');
select is((select count(*) from public.search_available_places('day', '2027-03-01', 9, 3, null, '19:00', '22:00'))::integer, 1,
  'a window later this evening is offered');
select throws_ok($$ select * from public.search_available_places('fair', '2027-03-02', 9, 3, '2027-03-04') $$,
  '22023', 'outside_fair_period', 'a fair stay outside the fair is refused');
select is((select count(*) from public.search_available_places('fair', '2027-03-10', 9, 3, '2027-03-12'))::integer, 1,
  'inside the fair it is offered');
select is((select count(*) from public.fair_periods where ends_on >= '2027-03-01')::integer, 1, 'anon reads the fair periods the form checks against');

-- ---------------------------------------------------------------- Kundenkonto (item 11)
-- Staff see whether the order's guest has an account: a password, a code-verified address only,
-- an anonymous guest session, or no user at all (walk-in).
select tests.clear_authentication();
select tests.create_user('harbour', array['harbor']);
select tests.create_user('codeonly');
select tests.create_user('anonguest', p_anonymous => true);
update auth.users set encrypted_password = '$2a$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01' where id = tests.get_user_id('customer');
select tests.clear_authentication();
insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person, expires_at)
values (tests.get_user_id('anonguest'), tests.place_id('H1'), 'overnight', '2027-04-09 14:00+02', '2027-04-10 12:00+02', 'unverified', 0, '{}',
        'anon@test.local', '{}', '{"name": "A"}', '{"first_name": "A", "last_name": "Guest"}', '2027-03-02 18:30+01'),
       (tests.get_user_id('codeonly'), tests.place_id('H1'), 'overnight', '2027-04-11 14:00+02', '2027-04-12 12:00+02', 'confirmed', 0, '{}',
        'codeonly@test.local', '{}', '{"name": "C"}', '{"first_name": "C", "last_name": "Code"}', null),
       (null, tests.place_id('H1'), 'overnight', '2027-04-13 14:00+02', '2027-04-14 12:00+02', 'confirmed', 0, '{}',
        'walkin@test.local', '{}', '{"name": "W"}', '{"first_name": "W", "last_name": "Walk"}', null);
select tests.authenticate_as('harbour');
select is(public.order_guest_account((select id from public.orders where email = 'anon@test.local')), 'guest', 'an anonymous guest session has no account');
select is(public.order_guest_account((select id from public.orders where email = 'codeonly@test.local')), 'code', 'verified by code, no password: no account');
select is(public.order_guest_account((select id from public.orders where email = 'walkin@test.local')), 'none', 'a walk-in without a user');
select is(public.order_guest_account((select id from public.orders where user_id = tests.get_user_id('customer'))), 'account', 'a customer with a password has one');
select tests.authenticate_as('customer');
select throws_ok($$ select public.order_guest_account((select id from public.orders limit 1)) $$, '42501', 'not_staff', 'customers may not ask');
select tests.authenticate_as_anon();
select throws_ok($$ select public.order_guest_account(gen_random_uuid()) $$, '42501', null, 'nor may anon');

select * from finish();
rollback;
