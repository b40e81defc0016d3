-- What the harbour status means for bookings (issue 43 item 2, docs/adr/0053): a guest's stay
-- with a night on a closed day (forecast or now, the staff override included) is refused with
-- harbour_closed naming the first closed day, and the search offers no berth for it; a restricted
-- day is bookable; staff may still book into a closure (a boat that cannot leave the river);
-- stay_harbour_status tells everyone the status of each day of a stay.
begin;
select plan(18);
select private.freeze_clock('2027-01-10 14:00+01');

insert into public.places (name, width, length, one_day) values ('C1', 4, 12, false), ('C2', 4, 12, false), ('D1', 3, 8, true);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

create temp table boat as select '{"name":"Rheinperle","length":9.4,"width":3.2}'::jsonb as b,
  '{"name":"Jolle","length":5,"width":2}'::jsonb as small,
  '{"first_name":"Klaus","last_name":"Kunde","email":"klaus@test.local"}'::jsonb as p;
grant select on boat to anon, authenticated;

-- The hint of the error a statement raises (null: none).
create function pg_temp.hint_of(p_sql text) returns text language plpgsql as $$
declare
  v_hint text;
begin
  execute p_sql;
  return null;
exception when others then
  get stacked diagnostics v_hint = pg_exception_hint;
  return v_hint;
end
$$;

-- The river rises: restricted today and on the 11th, closed on the 12th, open again on the 13th.
set local role service_role;
select public.record_gauge_reading('2027-01-10 14:00+01', 720, 1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-11T12:00:00+01:00', 'value', 790, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-12T06:00:00+01:00', 'value', 910, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-13T06:00:00+01:00', 'value', 690, 'type', 'estimate')));
reset role;

-- ---------------------------------------------------------------- the status of a stay's days
select tests.authenticate_as_anon();
select results_eq($$ select day, status, level_cm from public.stay_harbour_status('2027-01-10', '2027-01-14') $$,
  $$ values ('2027-01-10'::date, 'restricted'::text, 720), ('2027-01-11', 'restricted', 790), ('2027-01-12', 'closed', 910),
            ('2027-01-13', 'open', 690) $$,
  'everyone reads the status of each night of a stay the forecast knows');
select results_eq($$ select day, status from public.stay_harbour_status('2027-01-12') $$,
  $$ values ('2027-01-12'::date, 'closed'::text) $$, 'a day stay: its day');
select is_empty($$ select * from public.stay_harbour_status('2027-01-20', '2027-01-25') $$,
  'days beyond the forecast: nothing known, nothing listed');
select is_empty($$ select * from public.stay_harbour_status('2027-01-11', '2027-01-12') $$ || $$ where status = 'closed' $$,
  'a stay leaving on the closed day has no night on it');

-- ---------------------------------------------------------------- the search
select is_empty($$ select * from public.search_available_places('overnight', '2027-01-11', 9.4, 3.2, p_departure => '2027-01-13') $$,
  'the search offers a guest no berth for a stay with a night on a closed day');
select results_eq($$ select name from public.search_available_places('overnight', '2027-01-11', 9.4, 3.2, p_departure => '2027-01-12') $$,
  $$ values ('C1'), ('C2') $$, 'a restricted day: the berths are offered');
select throws_ok($$ select * from public.search_available_places('overnight', '2027-01-11', 99, 3.2, p_departure => '2027-01-13') $$,
  '22023', null, 'bad input is still refused first');
select tests.clear_authentication();

-- ---------------------------------------------------------------- booking
select tests.authenticate_as('customer');
select throws_ok($$ select public.create_booking(tests.place_id('C1'), 'overnight', '2027-01-11', b, p, p_departure => '2027-01-13') from boat $$,
  '22023', 'harbour_closed', 'a booking with a night on a closed day is refused');
select is(pg_temp.hint_of($$ select public.create_booking(tests.place_id('C1'), 'overnight', '2027-01-11', b, p, p_departure => '2027-01-14') from boat $$),
  '2027-01-12', 'the refusal names the closed day');
select throws_ok($$ select public.create_booking(tests.place_id('D1'), 'day', '2027-01-12', small, p, p_day_start => '10:00', p_day_end => '14:00') from boat $$,
  '22023', 'harbour_closed', 'a day stay on a closed day is refused');
select lives_ok($$ select public.create_booking(tests.place_id('C1'), 'overnight', '2027-01-10', b, p, p_departure => '2027-01-12') from boat $$,
  'restricted days (today and the 11th) can be booked, leaving on the closed day');
select lives_ok($$ select public.create_booking(tests.place_id('C1'), 'overnight', '2027-01-13', b, p, p_departure => '2027-01-20') from boat $$,
  'open and unknown days can be booked');
select tests.clear_authentication();

-- ---------------------------------------------------------------- staff
select tests.authenticate_as('harbour');
select results_eq($$ select name from public.search_available_places('overnight', '2027-01-11', 9.4, 3.2, p_departure => '2027-01-13') $$,
  $$ values ('C2') $$, 'staff search a closure and see the free berths');
select lives_ok($$ select public.staff_create_booking(tests.place_id('C2'), 'overnight', '2027-01-11', b, p, p_departure => '2027-01-13') from boat $$,
  'staff may book into a closure (a boat that cannot leave the river)');

-- The override closes every day it covers, today included, until ended.
select public.set_harbour_status_override('closed', 'Treibgut in der Hafeneinfahrt');
select tests.clear_authentication();
select tests.authenticate_as('customer');
select is(pg_temp.hint_of($$ select public.create_booking(tests.place_id('D1'), 'day', '2027-01-10', small, p, p_day_start => '16:00', p_day_end => '18:00') from boat $$),
  '2027-01-10', 'a staff override to closed refuses today');
select results_eq($$ select day, status, override_reason from public.stay_harbour_status('2027-01-13', '2027-01-14') $$,
  $$ values ('2027-01-13'::date, 'closed'::text, 'Treibgut in der Hafeneinfahrt'::text) $$,
  'the stay''s status names the override''s reason');
select tests.clear_authentication();
select tests.authenticate_as('harbour');
select public.end_harbour_status_override();
select tests.clear_authentication();
select tests.authenticate_as('customer');
select lives_ok($$ select public.create_booking(tests.place_id('D1'), 'day', '2027-01-10', small, p, p_day_start => '16:00', p_day_end => '18:00') from boat $$,
  'the override ended: today is restricted again, and bookable');
select tests.clear_authentication();

-- Moves are staff's (reschedule_booking): they may move a stay into a closure too.
select tests.authenticate_as('harbour');
select lives_ok($$ select public.reschedule_booking((select id from public.orders where starts_at = '2027-01-13 14:00+01'), '2027-01-12', '2027-01-19') $$,
  'staff may move a stay onto a closed day');
select tests.clear_authentication();

select * from finish();
rollback;
