-- calendar / place_calendar: staff read per Berlin day the occupied berths (one row per day,
-- an empty list for a free day); berth blocks; the realtime publication; 1,000 berths whole.
begin;
select plan(22);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day) values ('K1', 4, 12, false), ('K2', 4, 12, false), ('K3', 4, 12, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);
insert into public.long_term_holders (place_id, first_name, last_name, starts_on, boat_name)
values (tests.place_id('K3'), 'Lena', 'Lang', '2027-05-15', 'Dauerwelle');

select tests.authenticate_as('harbour');
select lives_ok($$ select public.staff_create_booking(tests.place_id('K1'), 'overnight', '2027-05-11',
  '{"name": "Rheinperle", "length": 9.4, "width": 3.2}', '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-13') $$,
  'harbour staff book K1 for 11-13 May');

-- Who may read it.
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.calendar('2027-05-10', '2027-05-16') $$, '42501', null, 'anon may not read the calendar');
select tests.authenticate_as('guest');
select throws_ok($$ select * from public.calendar('2027-05-10', '2027-05-16') $$, '42501', 'staff_only', 'a guest may not read the calendar');
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.calendar('2027-05-10', '2027-05-16') $$, '42501', 'staff_only', 'a customer may not read the calendar');
select throws_ok($$ select * from public.place_calendar(tests.place_id('K1'), '2027-05-10', '2027-05-16') $$, '42501', 'staff_only', 'a customer may not read a berth calendar');
select throws_ok($$ select public.add_berth_block(tests.place_id('K2'), '2027-05-14 08:00+02', '2027-05-14 17:00+02') $$, '42501', 'staff_only', 'a customer may not block a berth');

select tests.authenticate_as('harbour');
select results_eq(
  $$ select day, jsonb_array_length(places) from public.calendar('2027-05-10', '2027-05-16') $$,
  $$ values ('2027-05-10'::date, 0), ('2027-05-11', 1), ('2027-05-12', 1), ('2027-05-13', 1), ('2027-05-14', 0), ('2027-05-15', 1), ('2027-05-16', 1) $$,
  'one row per day; a free day has an empty list; a stay shows from arrival to departure day');
select results_eq(
  $$ select e ->> 'place_name', e ->> 'type', e ->> 'boat_name', e ->> 'guest', e ->> 'order_status'
     from public.calendar('2027-05-12', '2027-05-12') c, jsonb_array_elements(c.places) e $$,
  $$ values ('K1', 'reservation', 'Rheinperle', 'Klaus Kunde', 'confirmed') $$,
  'an entry names berth, status type, boat, guest and order status');
select results_eq(
  $$ select e ->> 'place_name', e ->> 'type', e ->> 'ends_at' from public.calendar('2027-05-16', '2027-05-16') c, jsonb_array_elements(c.places) e $$,
  $$ values ('K3', 'long_term', null::text) $$,
  'a long-term holder shows as type long_term, open-ended');

select results_eq(
  $$ select (public.add_berth_block(tests.place_id('K2'), '2027-05-14 08:00+02', '2027-05-14 17:00+02', 'maintenance', 'Poller tauschen')).note $$,
  $$ values ('Poller tauschen') $$, 'harbour staff block a berth for maintenance');
select results_eq(
  $$ select e ->> 'place_name', e ->> 'type', e ->> 'block_reason' from public.calendar('2027-05-14', '2027-05-14') c, jsonb_array_elements(c.places) e $$,
  $$ values ('K2', 'service', 'maintenance') $$, 'the block shows on its day with its reason');
select throws_ok($$ select public.add_berth_block(tests.place_id('K2'), '2027-05-14 12:00+02', '2027-05-15 12:00+02', 'reserved') $$,
  '23P01', 'berth_no_longer_available', 'an overlapping block is refused');
select throws_ok($$ select public.add_berth_block(tests.place_id('K1'), '2027-05-12 08:00+02', '2027-05-12 10:00+02', 'reserved') $$,
  '23P01', 'berth_no_longer_available', 'a block over a booking is refused');
select throws_ok($$ select public.add_berth_block(tests.place_id('K2'), '2027-05-20 08:00+02', '2027-05-21 08:00+02', 'party') $$,
  '22023', 'invalid_block_reason', 'a block has a known reason');
select lives_ok($$ select public.cancel_berth_block((select place_status_id from public.berth_blocks)) $$, 'harbour staff cancel the block');
select is((select places from public.calendar('2027-05-14', '2027-05-14')), '[]'::jsonb, 'a cancelled block leaves the calendar');

select results_eq(
  $$ select day, jsonb_array_length(places) from public.place_calendar(tests.place_id('K3'), '2027-05-14', '2027-05-16') $$,
  $$ values ('2027-05-14'::date, 0), ('2027-05-15', 1), ('2027-05-16', 1) $$,
  'the berth calendar shows only that berth');
select throws_ok($$ select * from public.calendar('2027-01-01', '2028-06-01') $$, '22023', 'range_too_long', 'at most a year and a day per call');
select throws_ok($$ select * from public.calendar('2027-05-10', '2027-05-01') $$, '22023', 'invalid_range', 'the range is ordered');

-- 1,000 berths over a month: every day comes back whole, whatever max_rows says.
select tests.clear_authentication();
insert into public.places (name, width, length)
select 'M' || lpad(i::text, 4, '0'), 4, 12 from generate_series(1, 1000) i;
insert into public.place_statuses (place_id, type, starts_at, ends_at, note)
select p.id, 'service', private.berlin_at(make_date(2027, 6, 1 + i % 28), time '08:00'),
       private.berlin_at(make_date(2027, 6, 2 + i % 28), time '17:00'), 'Test'
from public.places p, lateral (select substring(p.name from 2)::int as i) x
where p.name like 'M%';
select tests.authenticate_as('admin');
select results_eq(
  $$ select count(*)::int, count(distinct e ->> 'place_id')::int
     from public.calendar('2027-06-01', '2027-06-30') c, jsonb_array_elements(c.places) e $$,
  $$ values (2030, 1001) $$,
  'June with 1,000 blocked berths: 2,000 block entries (two days each) plus 30 of the long-term berth, 1,001 berths');
select is((select count(*)::int from public.calendar('2027-06-01', '2027-06-30')), 30, 'one row per day of June');

select tests.clear_authentication();
select results_eq(
  $$ select tablename::text collate "default" from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public'
     and tablename in ('additional_places', 'orders', 'place_statuses') order by 1 $$,
  $$ values ('additional_places'), ('orders'), ('place_statuses') $$,
  'berth statuses, orders and additional places are published for realtime');
select * from finish();
rollback;
