-- Draught against depth (issue 43 item 3, docs/adr/0053-rhine-gauge-and-harbour-status.md,
-- "Draught against depth"): the depth at a level is the depth at the reference level moved by
-- the difference of the levels; a berth is left out of the search (and refused to a booking)
-- when the stay's lowest forecast level (else the last known one) leaves less than the margin
-- under the keel; an unknown depth never hides a berth; the search says how many it left out;
-- those already booked into a berth that becomes too shallow are warned once per episode.
begin;
select plan(36);
select private.freeze_clock('2027-07-01 10:00+02');

insert into public.places (name, width, length, one_day, depth_cm, depth_reference_cm) values
  ('D1', 4, 12, false, 250, 300), ('D2', 4, 12, false, 150, 300);
insert into public.places (name, width, length, one_day) values ('D3', 4, 12, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

-- The formula.
select is(private.depth_clearance(250, 300, 200, 1.2), 30, 'depth 250 cm at 300 cm, level 200 cm, draught 1.2 m: 30 cm under the keel');
select is(private.depth_clearance(250, 300, 420, 1.2), 250, 'a higher level adds its difference to the depth');
select is(private.too_shallow((select p from public.places p where p.name = 'D1'), 200, 1.2, 30), false, 'exactly the margin is enough');
select is(private.too_shallow((select p from public.places p where p.name = 'D1'), 199, 1.2, 30), true, 'one centimetre less is too shallow');
select is(private.too_shallow((select p from public.places p where p.name = 'D3'), 0, 5.0, 30), false, 'an unknown depth never makes a berth too shallow');
select is(private.too_shallow((select p from public.places p where p.name = 'D1'), null, 5.0, 30), false, 'nor does an unknown level');
select is(private.too_shallow((select p from public.places p where p.name = 'D1'), 100, null, 30), false, 'nor an unknown draught');
select throws_ok($$ insert into public.places (name, width, length, depth_cm) values ('D9', 4, 12, 200) $$, '23514', null,
  'a depth without the gauge level it was measured at is refused');

-- The margin: 30 cm by default, admins change it.
select results_eq($$ select margin_cm from public.depth_settings $$, $$ values (30) $$, 'the margin defaults to 30 cm');
select tests.authenticate_as('harbour');
update public.depth_settings set margin_cm = 10;
select tests.authenticate_as('admin');
select results_eq($$ select margin_cm from public.depth_settings $$, $$ values (30) $$, 'harbour staff cannot change it');
select throws_ok($$ update public.depth_settings set margin_cm = 300 $$, '23514', null, 'a margin over 2 m is refused');
select tests.clear_authentication();

-- The level of a stay: the newest run's lowest forecast on its days, else the last known level.
select is(private.stay_gauge_level('2027-07-02 14:00+02', '2027-07-03 11:00+02')::text, '(,)', 'no level known yet: none');
set local role service_role;
select public.record_gauge_reading('2027-07-01 09:45+02', 400, -1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-07-01T06:00:00+02:00', 'timestamp', '2027-07-02T12:00:00+02:00', 'value', 250, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-07-01T06:00:00+02:00', 'timestamp', '2027-07-03T12:00:00+02:00', 'value', 180, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-07-01T06:00:00+02:00', 'timestamp', '2027-07-05T12:00:00+02:00', 'value', 300, 'type', 'estimate')));
reset role;
select results_eq($$ select level_cm, source from private.stay_gauge_level('2027-07-02 14:00+02', '2027-07-03 11:00+02') $$,
  $$ values (180, 'forecast') $$, 'a stay the forecast reaches: its lowest forecast level');
select results_eq($$ select level_cm, source from private.stay_gauge_level('2027-08-10 14:00+02', '2027-08-12 11:00+02') $$,
  $$ values (400, 'now') $$, 'a stay beyond the forecast: the last known level');

-- The search: at 180 cm a 1.0 m draught leaves D1 30 cm (enough), D2 -70 cm (out); D3 has no depth.
select tests.authenticate_as_anon();
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-07-02', 9, 3, '2027-07-03', p_boat_draught => 1.0) where name like 'D_' $$,
  $$ values ('D1'), ('D3') $$, 'the search leaves out the berth too shallow for the draught; an unknown depth stays offered');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-07-02', 9, 3, '2027-07-03') where name like 'D_' $$,
  $$ values ('D1'), ('D2'), ('D3') $$, 'without a draught nothing is left out (callers that do not ask for it)');
select results_eq(
  $$ select too_shallow, level_cm, level_source, margin_cm from public.search_depth_notice('overnight', '2027-07-02', 9, 3, 1.0, '2027-07-03') $$,
  $$ values (1, 180, 'forecast', 30) $$, 'the search says how many berths it left out, at which level and margin');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-08-10', 9, 3, '2027-08-12', p_boat_draught => 1.0) where name like 'D_' $$,
  $$ values ('D1'), ('D2'), ('D3') $$, 'beyond the forecast the last known level (400 cm) decides: all deep enough');
select throws_ok($$ select * from public.search_available_places('overnight', '2027-07-02', 9, 3, '2027-07-03', p_boat_draught => 7) $$,
  '22023', 'invalid_boat_draught', 'an impossible draught is refused');
select tests.clear_authentication();

select tests.authenticate_as('admin');
update public.depth_settings set margin_cm = 40;
select tests.clear_authentication();
select tests.authenticate_as_anon();
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-07-02', 9, 3, '2027-07-03', p_boat_draught => 1.0) where name like 'D_' $$,
  $$ values ('D3') $$, 'a larger margin leaves out D1 too');
select is((select too_shallow from public.search_depth_notice('overnight', '2027-07-02', 9, 3, 1.0, '2027-07-03')), 2, 'and says so');
select tests.clear_authentication();
select tests.authenticate_as('admin');
update public.depth_settings set margin_cm = 30;
select tests.clear_authentication();

-- Booking: the draught is kept; a berth too shallow for it is refused, as the search said.
select tests.authenticate_as('customer');
select throws_ok($$ select public.create_booking(tests.place_id('D2'), 'overnight', '2027-07-02', '{"name": "Tief", "length": 9, "width": 3, "draught": 1.0}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-07-03') $$, '22023', 'berth_too_shallow', 'a booking into a berth too shallow for the draught is refused');
select is((public.create_booking(tests.place_id('D1'), 'overnight', '2027-07-02', '{"name": "Tief", "length": 9, "width": 3, "draught": 1.0}',
  '{"first_name": "Klaus", "last_name": "Kunde", "locale": "en"}', '2027-07-03', p_save_profile => true)).boat ->> 'draught', '1.0',
  'a berth deep enough is booked, with the draught');
select is((select boat_draught from public.profiles where email = 'customer@test.local'), 1.00, 'and the draught is saved to the profile');
select tests.clear_authentication();

-- A holder of D2 with a 1.5 m boat, and the forecast falls: D1 leaves 20 cm under the booked boat.
insert into public.long_term_holders (place_id, email, first_name, last_name, starts_on, boat_name, boat_draught)
values (tests.place_id('D2'), 'holder@test.local', 'Hanna', 'Halter', '2027-04-01', 'Kiel', 1.5);
set local role service_role;
select public.record_gauge_reading('2027-07-01 10:00+02', 390, -1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-07-01T09:00:00+02:00', 'timestamp', '2027-07-02T12:00:00+02:00', 'value', 170, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-07-01T09:00:00+02:00', 'timestamp', '2027-07-04T12:00:00+02:00', 'value', 200, 'type', 'forecast')));
reset role;

select is(private.warn_shallow_berths(), 2, 'the booked guest and the holder are warned');
select results_eq($$ select recipient, locale, subject like 'Low water: berth D1%' from public.outbox where kind = 'depth_warning' and order_id is not null $$,
  $$ values ('customer@test.local', 'en', true) $$, 'the guest in the language booked in');
select ok((select body_text from public.outbox where kind = 'depth_warning' and order_id is not null) like '%170 cm%20 cm%draught 1.0 m%30 cm%',
  'with the level, the water left, the draught and the margin');
select results_eq($$ select recipient, locale, subject like 'Niedrigwasser: Liegeplatz D2%' from public.outbox where kind = 'depth_warning' and order_id is null $$,
  $$ values ('holder@test.local', 'de', true) $$, 'the holder in German (no account)');
select is(private.warn_shallow_berths(), 0, 'run again: nobody is warned twice in one episode');
select is((select count(*)::integer from public.outbox where kind = 'depth_warning'), 2, 'still two e-mails');

-- The water rises: the episodes end; it falls again: a new episode, one new e-mail each.
set local role service_role;
select public.record_gauge_reading('2027-07-01 10:15+02', 400, 1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-07-01T10:00:00+02:00', 'timestamp', '2027-07-02T12:00:00+02:00', 'value', 500, 'type', 'forecast')));
reset role;
select is(private.warn_shallow_berths(), 0, 'deep enough again: no e-mail');
select is((select count(*)::integer from public.depth_warnings where ended_at is not null), 2, 'and both episodes end');
set local role service_role;
select public.record_gauge_reading('2027-07-01 10:30+02', 390, -1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-07-01T10:15:00+02:00', 'timestamp', '2027-07-02T12:00:00+02:00', 'value', 160, 'type', 'forecast')));
reset role;
select is(private.warn_shallow_berths(), 2, 'a new fall is a new episode: warned again');
select is((select count(*)::integer from public.outbox where kind = 'depth_warning'), 4, 'one e-mail per stay and episode');

-- Who sees the warnings.
select tests.authenticate_as('customer');
select is_empty($$ select 1 from public.depth_warnings $$, 'guests do not read the warnings table (they got the e-mail)');
select tests.authenticate_as('harbour');
select is((select count(*)::integer from public.depth_warnings), 4, 'harbour staff read them');
select tests.clear_authentication();

select * from finish();
rollback;
