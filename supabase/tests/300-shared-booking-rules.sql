-- Each booking rule in one place (supabase/schemas/32_prices_availability.sql, 33_booking.sql): private.bookable_places
-- is the one availability test of search_available_places and order_move_targets;
-- private.book_berth holds the rules of create_booking and staff_create_booking; the order keeps
-- the language it was booked in and its e-mails use it.
begin;
select plan(38);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('B1', 2.5, 6.0, true, false),
  ('B2', 3.0, 8.0, false, false),
  ('B3', 3.5, 10.0, false, false),
  ('B4', 4.0, 10.0, true, false),
  ('B5', 4.0, 12.0, false, true),
  ('B6', 4.2, 12.0, false, false),
  ('B7', 4.2, 12.0, false, false);
select tests.create_user('customer');
select tests.create_user('english');
update public.profiles set locale = 'en' where id = tests.get_user_id('english');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('guest', p_anonymous => true);
select tests.create_user('guest2', p_anonymous => true);

-- ---------------------------------------------------------------- 1. one availability test
select results_eq(
  $$ select l.lanname::text collate "default", p.provolatile::text collate "default", p.prosecdef, p.proconfig::text collate "default", p.proretset
     from pg_proc p join pg_language l on l.oid = p.prolang
     where p.oid = 'private.bookable_places(public.order_kind, timestamptz, timestamptz, numeric, numeric, timestamptz)'::regprocedure $$,
  $$ values ('sql', 's', false, '{"search_path=\"\""}', true) $$,
  'bookable_places: SQL, stable, not security definer, set-returning, its search_path pinned (Supabase''s advisor)');
-- The API functions in public call their rules in private (security invoker -> definer).
select ok((select prosrc from pg_proc where oid = 'private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text, numeric)'::regprocedure)
            like '%private.bookable_places(%'
          and (select prosrc from pg_proc where oid = 'public.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text, numeric)'::regprocedure)
            like '%private.search_available_places(%',
  'search_available_places uses it');
select ok((select prosrc from pg_proc where oid = 'private.order_move_targets(uuid)'::regprocedure) like '%private.bookable_places(%'
          and (select prosrc from pg_proc where oid = 'public.order_move_targets(uuid)'::regprocedure) like '%private.order_move_targets(%',
  'order_move_targets uses it');
select is(has_function_privilege('authenticated', 'private.bookable_places(public.order_kind, timestamptz, timestamptz, numeric, numeric, timestamptz)', 'execute')
          or has_function_privilege('anon', 'private.bookable_places(public.order_kind, timestamptz, timestamptz, numeric, numeric, timestamptz)', 'execute'),
  false, 'no API role may call it');

-- Occupation: a booking to move (B6), a stale unverified reservation (B2), a live one (B7, from
-- the second night), a long-term holder from the second night (B3), a day stay (B4, afternoon).
-- B1 and B4 are for day guests only: never offered overnight.
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('B6'), 'overnight', '2027-06-10', '{"name": "Mover", "length": 7.5, "width": 2.8}',
  '{"first_name": "Mia", "last_name": "Mover"}', '2027-06-12');
select public.staff_create_booking(tests.place_id('B4'), 'day', '2027-06-10', '{"name": "Jolle", "length": 5, "width": 2}',
  '{"first_name": "Tina", "last_name": "Tag"}', null, '13:00', '17:00');
select tests.clear_authentication();
insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person, expires_at)
values (tests.get_user_id('guest'), tests.place_id('B2'), 'overnight', '2027-06-09 14:00+02', '2027-06-11 12:00+02', 'unverified', 0, '{}',
        'stale@test.local', '{}', '{"name": "Stale"}', '{}', '2027-06-01 09:00+02'),
       (tests.get_user_id('guest'), tests.place_id('B7'), 'overnight', '2027-06-11 14:00+02', '2027-06-13 12:00+02', 'unverified', 0, '{}',
        'fresh@test.local', '{}', '{"name": "Fresh"}', '{}', '2027-06-02 09:00+02');
insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
select o.place_id, o.id, 'reservation', o.starts_at, o.ends_at from public.orders o where o.email in ('stale@test.local', 'fresh@test.local');
insert into public.long_term_holders (place_id, starts_on) values (tests.place_id('B3'), '2027-06-11');

select tests.authenticate_as('harbour');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 7.5, 2.8, p_departure => '2027-06-12') $$,
  $$ values ('B2') $$,
  'search: a stale unverified reservation gives way; a live one, a holder from a night of the stay, a booking, a small and an archived berth do not');
select results_eq(
  $$ select name from public.order_move_targets((select id from public.orders where boat ->> 'name' = 'Mover')) $$,
  $$ values ('B2') $$,
  'move targets: the same berths for the same stay and boat (without its own)');
select results_eq(
  $$ select name from public.search_available_places('day', '2027-06-10', 5, 2, p_day_start => '13:00', p_day_end => '17:00') $$,
  $$ values ('B1') $$,
  'search: a day stay only on a free one_day berth');
select results_eq(
  $$ select name from public.order_move_targets((select id from public.orders where boat ->> 'name' = 'Jolle')) $$,
  $$ values ('B1') $$,
  'move targets of a day stay: the same');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-09', 7.5, 2.8, p_departure => '2027-06-10') $$,
  $$ values ('B2'), ('B3'), ('B6'), ('B7') $$,
  'the night before: the holder and the stays leave all fitting berths free (but the day-guest berths)');

-- ---------------------------------------------------------------- 2. one set of booking rules
-- The same arguments through create_booking (a customer) and staff_create_booking (staff).
select tests.clear_authentication();
create function tests.refusal(p_sql text)
returns text
language plpgsql
as $$
begin
  execute p_sql;
  return 'booked';
exception when others then
  return sqlstate || ' ' || sqlerrm;
end
$$;
create function tests.both(p_args text)
returns text[]
language plpgsql
as $$
declare
  v_customer text;
  v_staff text;
begin
  perform tests.authenticate_as('customer');
  v_customer := tests.refusal('select public.create_booking(' || p_args || ')');
  perform tests.authenticate_as('harbour');
  v_staff := tests.refusal('select public.staff_create_booking(' || p_args || ')');
  perform tests.clear_authentication();
  return array[v_customer, v_staff];
end
$$;
grant execute on function tests.refusal(text), tests.both(text) to authenticated;

select is(tests.both($$ tests.place_id('B7'), 'overnight', '2027-07-01', '{"name": "X", "length": "lang", "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03' $$),
  array['22023 invalid_boat', '22023 invalid_boat'], 'both refuse a boat size that is no number');
select is(tests.both($$ tests.place_id('B7'), 'overnight', '2027-07-01', '{"name": "X", "length": 0.5, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03' $$),
  array['22023 invalid_boat_length', '22023 invalid_boat_length'], 'both refuse a boat under 1 m');
select is(tests.both($$ tests.place_id('B7'), 'overnight', '2027-07-01', '{"name": " ", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03' $$),
  array['22023 invalid_boat_name', '22023 invalid_boat_name'], 'both need a boat name');
select is(tests.both($$ tests.place_id('B7'), 'overnight', '2027-07-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "email": "a@test.local"}', '2027-07-03' $$),
  array['22023 invalid_name', '22023 invalid_name'], 'both need a last name');
select is(tests.both($$ tests.place_id('B7'), 'overnight', '2027-07-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "kein-at"}', '2027-07-03' $$),
  array['22023 invalid_email', '22023 invalid_email'], 'both refuse a malformed e-mail address');
select is(tests.both($$ tests.place_id('B7'), 'overnight', '2027-05-20', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-05-22' $$),
  array['22023 period_in_past', '22023 period_in_past'], 'both refuse a stay in the past');
select is(tests.both($$ tests.place_id('B5'), 'overnight', '2027-07-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03' $$),
  array['PT404 place_not_found', 'PT404 place_not_found'], 'both answer an archived berth with PT404 (HTTP 404)');
select is(tests.both($$ tests.place_id('B1'), 'overnight', '2027-07-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03' $$),
  array['22023 boat_does_not_fit', '22023 boat_does_not_fit'], 'both refuse a berth too small');
select is(tests.both($$ tests.place_id('B7'), 'day', '2027-07-01', '{"name": "X", "length": 5, "width": 2}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', null, '10:00', '12:00' $$),
  array['22023 day_stay_not_allowed', '22023 day_stay_not_allowed'], 'both refuse a day stay on a berth not for day guests');
select is(tests.both($$ tests.place_id('B4'), 'overnight', '2027-07-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03' $$),
  array['22023 day_guests_only', '22023 day_guests_only'], 'both refuse an overnight stay on a berth for day guests only');
select is(tests.both($$ tests.place_id('B3'), 'overnight', '2027-07-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03' $$),
  array['23P01 berth_no_longer_available', '23P01 berth_no_longer_available'], 'both refuse a long-term held berth');
-- A code the customer's session quoted while valid (create_booking needs that, 20261122003200)
-- and the admin deleted since: both look it up again and refuse it.
insert into public.sale_codes (code, value) values ('WEG', 500);
select tests.authenticate_as('customer');
select public.quote_booking('overnight', '2027-07-01', 9, p_departure => '2027-07-03', p_sale_code => 'WEG');
select tests.clear_authentication();
delete from public.sale_codes where code = 'WEG';
select is(tests.both($$ tests.place_id('B7'), 'overnight', '2027-07-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-07-03', p_sale_code => 'WEG' $$),
  array['P0001 invalid_sale_code', 'P0001 invalid_sale_code'], 'both refuse a sale code that is no longer valid');
select is(tests.both($$ tests.place_id('B6'), 'overnight', '2027-06-11', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B", "email": "a@test.local"}', '2027-06-13' $$),
  array['23P01 berth_no_longer_available', '23P01 berth_no_longer_available'], 'both refuse an occupied berth');
select ok((select bool_and(prosrc like '%private.book_berth(%') from pg_proc
           where oid in ('private.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean)'::regprocedure,
                         'private.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text)'::regprocedure))
          and (select bool_and(prosrc like '%private.' || proname || '(%') from pg_proc
           where oid in ('public.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean)'::regprocedure,
                         'public.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text)'::regprocedure)),
  'both call private.book_berth (the API functions through their rules in private)');

-- What differs stays with the caller: who, status, expiry, account, e-mail optional for staff.
select tests.authenticate_as('harbour');
select results_eq(
  $$ select status, expires_at, email, user_id, (price_breakdown ->> 'booked_by_staff')::uuid = tests.get_user_id('harbour'), price_cents
     from public.staff_create_booking(tests.place_id('B7'), 'overnight', '2027-07-01', '{"name": "Walk", "length": 9, "width": 3}',
       '{"first_name": "Wanda", "last_name": "Walk"}', '2027-07-03') $$,
  $$ values ('confirmed'::public.order_status, null::timestamptz, '', null::uuid, true, 6664) $$,
  'staff: confirmed, no expiry, e-mail optional, booked_by_staff recorded, the same price');
select results_eq(
  $$ select user_id = tests.get_user_id('customer') from public.staff_create_booking(tests.place_id('B7'), 'overnight', '2027-07-05',
       '{"name": "Konto", "length": 9, "width": 3}', '{"first_name": "Klaus", "last_name": "Kunde", "email": " Customer@Test.local "}', '2027-07-06') $$,
  $$ values (true) $$, 'staff: an address of an account puts the order into it');
select tests.authenticate_as('guest2');
select throws_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-07-10', '{"name": "G", "length": 9, "width": 3}',
  '{"first_name": "G", "last_name": "G"}', '2027-07-11') $$, '22023', 'invalid_email', 'a guest session must give an e-mail address');
select results_eq(
  $$ select status, expires_at from public.create_booking(tests.place_id('B1'), 'day', '2027-06-01', '{"name": "Kurz", "length": 5, "width": 2}',
       '{"first_name": "G", "last_name": "G", "email": "g@test.local"}', null, '14:00', '16:00') $$,
  $$ values ('unverified'::public.order_status, '2027-06-01 14:00+02'::timestamptz) $$,
  'a guest books unverified, expiring at arrival when that is sooner than 24 hours');
select lives_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-07-10', '{"name": "G", "length": 9, "width": 3}',
  '{"first_name": "G", "last_name": "G", "email": "g@test.local"}', '2027-07-11') $$, 'a second open unverified order');
select lives_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-07-11', '{"name": "G", "length": 9, "width": 3}',
  '{"first_name": "G", "last_name": "G", "email": "g@test.local"}', '2027-07-12') $$, 'a third');
select throws_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-07-12', '{"name": "G", "length": 9, "width": 3}',
  '{"first_name": "G", "last_name": "G", "email": "g@test.local"}', '2027-07-13') $$, 'P0001', 'too_many_unverified_orders',
  'a guest session holds at most three open unverified orders');

-- ---------------------------------------------------------------- 3. the booking's language
select tests.authenticate_as('english');
select lives_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-08-01', '{"name": "Deutsch", "length": 9, "width": 3}',
  '{"first_name": "Emma", "last_name": "English", "locale": "de"}', '2027-08-02') $$, 'an English-profile customer books on the German pages');
select tests.authenticate_as('customer');
select lives_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-08-03', '{"name": "English", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde", "locale": "en"}', '2027-08-04') $$, 'a German-profile customer books on the English pages');
select lives_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-08-05', '{"name": "Ohne", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-08-06') $$, 'a booking without a language');
select lives_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-08-07', '{"name": "Franz", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde", "locale": "fr"}', '2027-08-08') $$, 'a booking with an unknown language');
select tests.authenticate_as('guest');
select lives_ok($$ select public.create_booking(tests.place_id('B7'), 'overnight', '2027-08-09', '{"name": "Gast", "length": 9, "width": 3}',
  '{"first_name": "Greta", "last_name": "Gast", "email": "greta@test.local", "locale": "en"}', '2027-08-10') $$, 'a guest books on the English pages');
select tests.clear_authentication();
select results_eq(
  $$ select o.boat ->> 'name', o.person ->> 'locale', x.locale, left(x.subject, 12)
     from public.orders o join public.outbox x on x.order_id = o.id
     where o.boat ->> 'name' in ('Deutsch', 'English', 'Ohne', 'Franz', 'Gast') order by o.starts_at $$,
  $$ values ('Deutsch', 'de', 'de', 'Ihre Buchung'), ('English', 'en', 'en', 'Your booking'), ('Ohne', null, 'de', 'Ihre Buchung'),
            ('Franz', null, 'de', 'Ihre Buchung'), ('Gast', 'en', 'en', 'Your booking') $$,
  'the order keeps the language it was booked in and its confirmation uses it over the profile; none or an unknown one falls back to the profile');
select is(private.order_locale(o), 'en', 'later e-mails about the order (private.order_locale) keep the booking''s language')
from public.orders o where o.boat ->> 'name' = 'English';
select private.queue_booking_confirmation(o) from public.orders o where o.boat ->> 'name' = 'English';
select results_eq(
  $$ select x.locale from public.outbox x join public.orders o on o.id = x.order_id where o.boat ->> 'name' = 'English' $$,
  $$ values ('en'), ('en') $$,
  'a confirmation queued again for the order is still in the booking''s language, not the profile''s');

select * from finish();
rollback;
