-- search_available_places: fit (length and width, equal fits), day stays only on one_day
-- berths and those only for day stays (issue 23: "nur für Tagesgäste"), free for the whole stay, long-term holders, stale unverified reservations, sorting
-- by area, each row with its quote.
begin;
select plan(17);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('P1', 2.5, 6.0, true, false),
  ('P2', 3.0, 8.0, false, false),
  ('P3', 3.5, 10.0, false, false),
  ('P4', 4.0, 10.0, false, false),
  ('P5', 4.0, 12.0, false, true),
  ('P6', 4.2, 12.0, false, false),
  ('P7', 4.1, 10.5, true, false);
select tests.create_user('customer');
select tests.create_user('guest', p_anonymous => true);

select tests.authenticate_as_anon();
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 7.5, 2.8, p_departure => '2027-06-12') $$,
  $$ values ('P2'), ('P3'), ('P4'), ('P6') $$,
  'anon finds the berths that fit, smallest area first, without the archived one');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 8.0, 3.0, p_departure => '2027-06-12') $$,
  $$ values ('P2'), ('P3'), ('P4'), ('P6') $$,
  'a boat exactly as long and wide as a berth fits');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 8.0, 3.8, p_departure => '2027-06-12') $$,
  $$ values ('P4'), ('P6') $$,
  'width filters too');
select results_eq(
  $$ select name from public.search_available_places('day', '2027-06-10', 5.5, 2.0, p_day_start => '10:00', p_day_end => '14:00') $$,
  $$ values ('P1'), ('P7') $$,
  'day stays only on one_day berths');
select is_empty(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 5.5, 2.0, p_departure => '2027-06-11') where one_day $$,
  'an overnight search never offers a day-guests-only berth');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 10.2, 4.05, p_departure => '2027-06-11') $$,
  $$ values ('P6') $$,
  'not even when it is the only berth the boat fits besides a larger one');
select is_empty(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 30, 2.0, p_departure => '2027-06-12') $$,
  'nothing fits a 30 m boat');
select results_eq(
  $$ select price_cents, (quote ->> 'nights')::int from public.search_available_places('overnight', '2027-06-10', 9.4, 3.0, p_departure => '2027-06-11') limit 1 $$,
  $$ values (3570, 1) $$,
  'each berth carries its quote');
select results_eq(
  $$ select name, area from public.search_available_places('overnight', '2027-06-10', 9.0, 3.0, p_departure => '2027-06-11') $$,
  $$ values ('P3', 35.00::numeric), ('P4', 40.00::numeric), ('P6', 50.40::numeric) $$,
  'sorted by area ascending');

-- Occupation: a reservation overlapping, one adjacent, one cancelled, a maintenance block.
select tests.clear_authentication();
insert into public.orders (id, user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person, expires_at)
values ('00000000-0000-4000-8000-0000000000b1', tests.get_user_id('customer'), tests.place_id('P2'), 'overnight',
        '2027-06-11 14:00+02', '2027-06-13 12:00+02', 'confirmed', 0, '{}', 'c@test.local', '{}', '{}', '{}', null),
       ('00000000-0000-4000-8000-0000000000b2', tests.get_user_id('customer'), tests.place_id('P3'), 'overnight',
        '2027-06-08 14:00+02', '2027-06-10 12:00+02', 'confirmed', 0, '{}', 'c@test.local', '{}', '{}', '{}', null);
insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
select place_id, id, 'reservation', starts_at, ends_at from public.orders;
insert into public.place_statuses (place_id, type, starts_at, ends_at, cancelled)
values (tests.place_id('P4'), 'service', '2027-06-09 08:00+02', '2027-06-20 08:00+02', true),
       (tests.place_id('P6'), 'service', '2027-06-12 08:00+02', '2027-06-12 17:00+02', false);

select tests.authenticate_as('customer');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 7.5, 2.8, p_departure => '2027-06-12') $$,
  $$ values ('P3'), ('P4') $$,
  'an overlapping reservation and a maintenance block hide berths; an adjacent stay (12:00 out, 14:00 in) and a cancelled block do not');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 7.5, 2.8, p_departure => '2027-06-11') $$,
  $$ values ('P2'), ('P3'), ('P4'), ('P6') $$,
  'the night before the reservation is free');

-- Long-term holders: held from a date; a berth held later than the stay is still free.
select tests.clear_authentication();
insert into public.long_term_holders (place_id, starts_on, ends_on) values
  (tests.place_id('P3'), '2027-06-10', null),
  (tests.place_id('P4'), '2027-06-11', '2027-09-30');
select tests.authenticate_as('customer');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-09', 7.5, 2.8, p_departure => '2027-06-11') $$,
  $$ values ('P2'), ('P4'), ('P6') $$,
  'a berth long-term held from a night of the stay is not offered; one held from the departure day is');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-10-01', 7.5, 2.8, p_departure => '2027-10-03') $$,
  $$ values ('P2'), ('P4'), ('P6') $$,
  'after a holding ends the berth is free again');

-- Unverified guest reservations block until they expire.
select tests.clear_authentication();
insert into public.orders (id, user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person, expires_at)
values ('00000000-0000-4000-8000-0000000000b3', tests.get_user_id('guest'), tests.place_id('P6'), 'overnight',
        '2027-07-01 14:00+02', '2027-07-03 12:00+02', 'unverified', 0, '{}', 'g@test.local', '{}', '{}', '{}', '2027-06-02 10:00+02');
insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
values (tests.place_id('P6'), '00000000-0000-4000-8000-0000000000b3', 'reservation', '2027-07-01 14:00+02', '2027-07-03 12:00+02');
select tests.authenticate_as('customer');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-07-01', 7.5, 2.8, p_departure => '2027-07-02') $$,
  $$ values ('P2') $$,
  'a fresh unverified reservation blocks');
select tests.clear_authentication();
select private.freeze_clock('2027-06-02 10:00+02');
select tests.authenticate_as('customer');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-07-01', 7.5, 2.8, p_departure => '2027-07-02') $$,
  $$ values ('P2'), ('P6') $$,
  'a stale unverified reservation (24 hours) does not block');

select throws_ok($$ select * from public.search_available_places('overnight', '2027-07-01', 11, 20, p_departure => '2027-07-02') $$,
  '22023', 'invalid_boat_width', 'boat widths are 0.5-15.0 m');
select throws_ok($$ select * from public.search_available_places('day', '2027-07-01', 7, 2, p_day_start => '08:00', p_day_end => '14:00') $$,
  '22023', 'invalid_day_window', 'the day window is validated');

select tests.clear_authentication();
select * from finish();
rollback;
