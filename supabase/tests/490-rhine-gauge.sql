-- The harbour status from the Düsseldorf gauge (issue 43 item 1,
-- docs/adr/0053-rhine-gauge-and-harbour-status.md): readings and forecast runs recorded by the
-- service role only (a repeat changes nothing); open below mark I, restricted from mark I, closed
-- from mark II (defaults 710 and 880 cm, admins change them); one row per forecast day of the
-- newest run with the day's highest level, past points left out; a staff override with a reason
-- (audited) sets every row until it is ended; a silent gauge leaves the last known level with
-- its time.
begin;
select plan(37);
select private.freeze_clock('2027-01-10 14:00+01');

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

-- Defaults from the official marks.
select results_eq($$ select restricted_from_cm, closed_from_cm from public.gauge_settings $$,
  $$ values (710, 880) $$, 'the thresholds default to high-water marks I and II of the Düsseldorf gauge');

-- No reading yet: one row for now, status unknown.
select tests.authenticate_as_anon();
select results_eq($$ select kind, day, status, level_cm from public.harbour_status() $$,
  $$ values ('now'::text, '2027-01-10'::date, null::text, null::integer) $$, 'no reading yet: the status is unknown');

-- Only the service role records.
select tests.authenticate_as('customer');
select throws_ok($$ select public.record_gauge_reading('2027-01-10 13:45+01', 650, 0::smallint) $$, '42501', null,
  'a signed-in person cannot record a level');
select tests.authenticate_as('admin');
select throws_ok($$ select public.record_gauge_reading('2027-01-10 13:45+01', 650, 0::smallint) $$, '42501', null,
  'an admin cannot record a level either');
select tests.clear_authentication();

set local role service_role;
select is(public.record_gauge_reading('2027-01-10 13:45+01', 650, 1::smallint), true, 'the service role records a level');
select is(public.record_gauge_reading('2027-01-10 13:45+01', 650, 1::smallint), false, 'the same measurement again changes nothing');
select is(public.record_gauge_reading('2027-01-10 13:45+01', 640, 1::smallint), true, 'a corrected value for the same time is recorded');
select is(public.record_gauge_reading('2027-01-10 13:45+01', 650, 1::smallint), true, 'and corrected back');
select throws_ok($$ select public.record_gauge_reading('2027-01-10 13:45+01', 5000, 0::smallint) $$, '22023', 'gauge_reading_invalid',
  'an impossible level is refused');
select throws_ok($$ select public.record_gauge_reading('2027-01-11 14:00+01', 650, 0::smallint) $$, '22023', 'gauge_reading_invalid',
  'a measurement from the future is refused');
reset role;

select tests.authenticate_as_anon();
select results_eq($$ select kind, status, level_cm, at from public.harbour_status() $$,
  $$ values ('now'::text, 'open'::text, 650, '2027-01-10 13:45+01'::timestamptz) $$, 'below mark I: open, with the level and its time');
select results_eq($$ select level_cm, trend from public.gauge_readings $$, $$ values (650, 1::smallint) $$,
  'everyone reads the recorded levels');
select tests.clear_authentication();

-- A rise with a forecast run (PEGELONLINE's WV shape): a point already past is left out.
set local role service_role;
select is(public.record_gauge_reading('2027-01-10 14:00+01', 720, 1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-10T10:00:00+01:00', 'value', 950, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-10T16:00:00+01:00', 'value', 740, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-11T06:00:00+01:00', 'value', 800, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-11T18:00:00+01:00', 'value', 890, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-12T10:00:00+01:00', 'value', 870, 'type', 'estimate'),
  jsonb_build_object('initialized', '2027-01-10T07:00:00+01:00', 'timestamp', '2027-01-13T08:00:00+01:00', 'value', 700, 'type', 'estimate'))),
  true, 'a level with a forecast run is recorded');
reset role;

select tests.authenticate_as_anon();
select results_eq($$ select kind, day, status, level_cm from public.harbour_status() $$,
  $$ values ('now'::text, '2027-01-10'::date, 'restricted'::text, 720),
            ('forecast', '2027-01-10', 'restricted', 740),
            ('forecast', '2027-01-11', 'closed', 890),
            ('forecast', '2027-01-12', 'restricted', 870),
            ('forecast', '2027-01-13', 'open', 700) $$,
  'from mark I restricted, from mark II closed, per forecast day by its highest level');
select results_eq($$ select at, forecast_initialized_at from public.harbour_status() where day = '2027-01-11' $$,
  $$ values ('2027-01-11 18:00+01'::timestamptz, '2027-01-10 07:00+01'::timestamptz) $$,
  'a forecast day says when its highest level is expected and when the forecast was made');
select tests.clear_authentication();

-- A newer run decides alone.
set local role service_role;
select is(public.record_gauge_reading('2027-01-10 14:00+01', 720, 1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-01-10T13:00:00+01:00', 'timestamp', '2027-01-11T12:00:00+01:00', 'value', 690, 'type', 'forecast'))),
  false, 'the same measurement with a newer forecast run: no new level');
reset role;
select results_eq($$ select kind, day, status, level_cm from public.harbour_status() $$,
  $$ values ('now'::text, '2027-01-10'::date, 'restricted'::text, 720), ('forecast', '2027-01-11', 'open', 690) $$,
  'the newest forecast run decides the forecast days');

-- Thresholds: admins only, sensible values only, audited.
select tests.authenticate_as('harbour');
select throws_ok($$ select public.set_gauge_thresholds(600, 700) $$, '42501', 'admin_only', 'harbour staff cannot move the thresholds');
select tests.authenticate_as('admin');
select throws_ok($$ select public.set_gauge_thresholds(880, 710) $$, '22023', 'gauge_thresholds_invalid', 'restricted must lie below closed');
select throws_ok($$ select public.set_gauge_thresholds(50, 710) $$, '22023', 'gauge_thresholds_invalid', 'a threshold below 1 m is refused');
select lives_ok($$ select public.set_gauge_thresholds(600, 700) $$, 'an admin moves the thresholds');
select results_eq($$ select status from public.harbour_status() where kind = 'now' $$, $$ values ('closed'::text) $$,
  'the status follows the new thresholds');
select tests.clear_authentication();
select ok(exists (select 1 from public.audit_log where table_name = 'public.gauge_settings' and action = 'update'
                    and new_values ->> 'closed_from_cm' = '700'), 'the change of thresholds is in the audit trail');
select tests.authenticate_as('admin');
select lives_ok($$ select public.set_gauge_thresholds(710, 880) $$, 'back to the official marks');

-- The override.
select tests.authenticate_as('customer');
select throws_ok($$ select public.set_harbour_status_override('closed', 'Treibgut') $$, '42501', 'staff_only',
  'a customer cannot override the status');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.set_harbour_status_override('closed', '  ') $$, '22023', 'invalid_reason', 'an override needs a reason');
select throws_ok($$ select public.set_harbour_status_override('shut', 'Treibgut') $$, '22023', 'harbour_status_invalid',
  'only open, restricted or closed');
select lives_ok($$ select public.set_harbour_status_override('closed', 'Treibgut an der Einfahrt') $$, 'staff close the harbour with a reason');
select tests.authenticate_as_anon();
select results_eq($$ select kind, status, override_reason from public.harbour_status() $$,
  $$ values ('now'::text, 'closed'::text, 'Treibgut an der Einfahrt'::text), ('forecast', 'closed', 'Treibgut an der Einfahrt') $$,
  'the override sets now and every forecast day, and everyone reads its reason');
select tests.authenticate_as('customer');
select is_empty($$ select * from public.harbour_status_overrides $$, 'customers do not read the override table');
select tests.authenticate_as('harbour');
select lives_ok($$ select public.set_harbour_status_override('restricted', 'Baustelle am Steg') $$, 'a second override replaces the first');
select results_eq($$ select status, ended_at is not null from public.harbour_status_overrides order by set_at, ended_at nulls last $$,
  $$ values ('closed'::text, true), ('restricted', false) $$, 'the first override was ended; one is in force');
select is(public.end_harbour_status_override(), true, 'staff end the override');
select is(public.end_harbour_status_override(), false, 'ending again: none was in force');
select results_eq($$ select kind, status, override_reason from public.harbour_status() $$,
  $$ values ('now'::text, 'restricted'::text, null::text), ('forecast', 'open', null) $$, 'after the end the gauge decides again');
select tests.clear_authentication();
select ok((select count(*) from public.audit_log where table_name = 'public.harbour_status_overrides' and action = 'insert'
             and actor = tests.get_user_id('harbour')) = 2
          and exists (select 1 from public.audit_log where table_name = 'public.harbour_status_overrides' and action = 'update'
                        and new_values ? 'ended_at'),
  'setting and ending overrides are in the audit trail with the staff member');

-- The gauge falls silent: two days on, the last known level with its time, no forecast day past.
select private.freeze_clock('2027-01-12 15:00+01');
select tests.authenticate_as_anon();
select results_eq($$ select kind, day, status, level_cm, at from public.harbour_status() $$,
  $$ values ('now'::text, '2027-01-12'::date, 'restricted'::text, 720, '2027-01-10 14:00+01'::timestamptz) $$,
  'without new readings the last known level stays, with the time it was measured');
select tests.clear_authentication();

select * from finish();
rollback;
