-- Draught against depth in moves and holdings (docs/adr/0053-rhine-gauge-and-harbour-status.md,
-- "Draught against depth"): staff moving a stay to another berth or other dates meet the rule the
-- booking applies: a berth too shallow for the order's draught at the stay's level is the verdict
-- too_shallow in the pre-check, is left out of the move targets and is refused with
-- berth_too_shallow; an order without a draught moves as before. A holding created by an accepted
-- offer takes the draught from the applicant's profile, a renewed one from the holding it renews.
begin;
select plan(13);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('anna');

-- ---------------------------------------------------------------- holdings: offer and renewal
insert into public.places (name, width, length) values ('R-1', 4.5, 12.0);
insert into public.seasons (name, name_en, kind, starts_on, ends_on) values
  ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31'),
  ('Sommer 2028', 'Summer 2028', 'summer', '2028-04-01', '2028-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');
update public.profiles set boat_draught = 1.3 where email = 'anna@test.local';
insert into public.long_term_applications (user_id, email, first_name, last_name, locale, boat)
values ((select id from auth.users where email = 'anna@test.local'), 'anna@test.local', 'Anna', 'Albers', 'de',
        '{"name": "Aurora", "length": 10.0, "width": 4.0}');

select tests.authenticate_as('admin');
select public.publish_contract_terms(
  E'## 2. Laufzeit\nDer Vertrag verlängert sich um die nächste Saison, wenn er nicht bis zur Kündigungsfrist gekündigt wird.',
  E'## 2. Term\nThe contract renews for the next season unless notice is given by the notice deadline.', true);
select public.send_offer(a.id, tests.place_id('R-1'), (select id from public.seasons where name = 'Sommer 2027'))
  from public.long_term_applications a;
select tests.authenticate_as('anna');
select public.accept_offer(o.id, 1, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 1, 'bank_transfer')))
  from public.berth_offers o;
select tests.clear_authentication();
select results_eq($$ select boat_name, boat_draught from public.long_term_holders $$, $$ values ('Aurora', 1.30) $$,
  'an accepted offer''s holding takes the draught from the applicant''s profile (the application does not ask for it)');

-- The harbour sounds the boat: 1.6 m in the holding; the renewal carries that, not the profile's.
update public.long_term_holders set boat_draught = 1.6;

-- ---------------------------------------------------------------- moves
select private.freeze_clock('2027-07-01 10:00+02');
insert into public.places (name, width, length, one_day, depth_cm, depth_reference_cm) values
  ('MDEEP', 4, 12, false, 250, 300), ('MSHALLOW', 4, 12, false, 150, 300);
insert into public.places (name, width, length, one_day) values ('MHOME', 4, 12, false), ('MHOME2', 4, 12, false), ('MOPEN', 4, 12, false);
-- The newest run: 180 cm on 3 July. Beyond it the last reading, 400 cm, decides.
set local role service_role;
select public.record_gauge_reading('2027-07-01 09:45+02', 400, -1::smallint, jsonb_build_array(
  jsonb_build_object('initialized', '2027-07-01T06:00:00+02:00', 'timestamp', '2027-07-02T12:00:00+02:00', 'value', 250, 'type', 'forecast'),
  jsonb_build_object('initialized', '2027-07-01T06:00:00+02:00', 'timestamp', '2027-07-03T12:00:00+02:00', 'value', 180, 'type', 'forecast')));
reset role;

-- Tief (draught 1.0 m) and Ohne (no draught) stay 2-4 July. At 180 cm MDEEP leaves 30 cm under
-- Tief's keel (enough), MSHALLOW -70 cm; MOPEN has no depth.
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('MHOME'), 'overnight', '2027-07-02', '{"name": "Tief", "length": 9, "width": 3, "draught": 1.0}',
  '{"first_name": "Tina", "last_name": "Tief"}', '2027-07-04');
select public.staff_create_booking(tests.place_id('MHOME2'), 'overnight', '2027-07-02', '{"name": "Ohne", "length": 9, "width": 3}',
  '{"first_name": "Otto", "last_name": "Ohne"}', '2027-07-04');
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;

select results_eq(
  $$ select p.name, v.verdict from public.move_precheck(current_setting('tests.tief')::uuid) v join public.places p on p.id = v.place_id
      where p.name in ('MDEEP', 'MSHALLOW', 'MOPEN') order by p.name $$,
  $$ values ('MDEEP', 'fits'), ('MOPEN', 'fits'), ('MSHALLOW', 'too_shallow') $$,
  'the pre-check calls the berth too shallow for the draught at the stay''s level too_shallow');
select results_eq(
  $$ select name from public.order_move_targets(current_setting('tests.tief')::uuid) where name in ('MDEEP', 'MSHALLOW', 'MOPEN') order by name $$,
  $$ values ('MDEEP'), ('MOPEN') $$,
  'the move targets leave it out');
select results_eq(
  $$ select name from public.order_move_targets(current_setting('tests.ohne')::uuid) where name in ('MDEEP', 'MSHALLOW', 'MOPEN') order by name $$,
  $$ values ('MDEEP'), ('MOPEN'), ('MSHALLOW') $$,
  'an order without a draught is offered every berth, as before');
select throws_ok($$ select public.move_booking(current_setting('tests.tief')::uuid, tests.place_id('MSHALLOW')) $$,
  '22023', 'berth_too_shallow', 'staff moving the stay into the berth too shallow for it are refused, as a booking is');
select is((public.move_booking(current_setting('tests.tief')::uuid, tests.place_id('MDEEP'))).place_snapshot ->> 'name', 'MDEEP',
  'a berth deep enough takes it');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.tief')::uuid, '2027-07-02', '2027-07-04', tests.place_id('MSHALLOW')) $$,
  '22023', 'berth_too_shallow', 'rescheduling into the shallow berth is refused too');
-- Beyond the forecast the last reading (400 cm) decides: MSHALLOW leaves 150 cm under the keel.
select is((public.reschedule_booking(current_setting('tests.tief')::uuid, '2027-08-10', '2027-08-12', tests.place_id('MSHALLOW'))).place_snapshot ->> 'name',
  'MSHALLOW', 'on dates at a higher level the same berth takes the stay: the level of the new dates decides');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.tief')::uuid, '2027-07-02', '2027-07-04') $$,
  '22023', 'berth_too_shallow', 'and moving the stay back to the low-water dates on its own berth is refused');
select is((public.move_booking(current_setting('tests.ohne')::uuid, tests.place_id('MOPEN'))).place_snapshot ->> 'name', 'MOPEN',
  'set-up: Ohne moves to MOPEN');
select is((public.reschedule_booking(current_setting('tests.ohne')::uuid, '2027-07-02', '2027-07-04', tests.place_id('MDEEP'))).place_snapshot ->> 'name',
  'MDEEP', 'an order without a draught moves into a berth whatever its depth');
select tests.clear_authentication();

-- The renewal: the next season's holding takes the draught of the holding it renews.
select private.freeze_clock('2027-08-03 00:30+02');
select tests.authenticate_as('admin');
select is((select issued from public.confirm_renewal((select id from public.seasons where name = 'Sommer 2027'), gen_random_uuid())), 1,
  'set-up: the contract renews for summer 2028');
select tests.clear_authentication();
select results_eq($$ select starts_on, boat_draught from public.long_term_holders order by starts_on $$,
  $$ values ('2027-04-01'::date, 1.60), ('2028-04-01'::date, 1.60) $$,
  'the renewed holding keeps the draught the harbour entered in the holding (not the profile''s 1.3 m)');

select * from finish();
rollback;
