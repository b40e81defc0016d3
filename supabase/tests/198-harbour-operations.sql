-- Harbour operations (issue 11): hours do not overlap, open applications for the overview,
-- the compact calendar, the inbox published for realtime.
begin;
select plan(17);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day) values ('H1', 4, 12, false), ('H2', 4, 12, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('deckhand', array['harbor']);
select tests.create_user('admin', array['admin']);

-- ---------------------------------------------------------------- hours
select tests.authenticate_as('harbour');
select lives_ok($$ insert into public.working_hours (work_date, start_time, end_time, break_minutes) values ('2027-05-06', '08:00', '12:00', 0) $$,
  'a morning shift');
select throws_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-05-06', '11:00', '14:00') $$,
  '23P01', null, 'a shift may not overlap one of the same person');
select lives_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-05-06', '12:00', '16:00') $$,
  'a shift may start when the last one ended');
select throws_ok($$ update public.working_hours set end_time = '13:00' where start_time = '08:00' $$,
  '23P01', null, 'an edit may not make shifts overlap');
select throws_ok($$ insert into public.working_hours (work_date, start_time, end_time, break_minutes) values ('2027-05-07', '08:00', '09:00', 60) $$,
  '23514', null, 'the break is shorter than the shift');
select tests.authenticate_as('deckhand');
select lives_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-05-06', '09:00', '15:00') $$,
  'another person may work at the same time');

-- ---------------------------------------------------------------- open applications
select tests.authenticate_as_anon();
select lives_ok($$ select public.apply_for_long_term_berth('ada@example.org', 'Ada', 'Anker', '{"name": "Möwe", "length": 9, "width": 3}', tests.place_id('H1')) $$,
  'someone applies for a long-term berth');
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.open_long_term_applications() $$, '42501', 'staff_only', 'a customer does not see applications');
select tests.authenticate_as('harbour');
select results_eq($$ select first_name, last_name, place_name, open_total from public.open_long_term_applications() $$,
  $$ values ('Ada', 'Anker', 'H1', 1) $$, 'harbour staff see the names of open applications and their number');
select is_empty($$ select * from public.long_term_applications $$, 'harbour staff still cannot read the applications themselves');
select tests.authenticate_as('admin');
select lives_ok($$ select public.answer_long_term_application((select id from public.long_term_applications limit 1), 'declined') $$, 'an admin answers it');
select tests.authenticate_as('harbour');
select is_empty($$ select * from public.open_long_term_applications() $$, 'an answered application is no longer open');

-- ---------------------------------------------------------------- compact calendar
select lives_ok($$ select public.staff_create_booking(tests.place_id('H1'), 'overnight', '2027-05-11',
  '{"name": "Rheinperle", "length": 9.4, "width": 3.2}', '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-13') $$,
  'harbour staff book H1 for 11-13 May');
select results_eq($$ select type, guest, boat_name, order_status from public.calendar_entries('2027-05-10', '2027-05-16') $$,
  $$ values ('reservation', 'Klaus Kunde', 'Rheinperle', 'confirmed') $$, 'calendar_entries lists the stay once');
select results_eq(
  $$ select c.day, e ->> 'id' from public.calendar('2027-05-10', '2027-05-16') c, jsonb_array_elements(c.places) e order by 1 $$,
  $$ select d::date, (select id::text from public.calendar_entries('2027-05-10', '2027-05-16')) from generate_series('2027-05-11'::date, '2027-05-13', '1 day') d $$,
  'calendar spreads the same entry over the days it touches');
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.calendar_entries('2027-05-10', '2027-05-16') $$, '42501', 'staff_only', 'a customer may not read the calendar entries');

-- ---------------------------------------------------------------- realtime
select results_eq(
  $$ select tablename::text collate "default" from pg_catalog.pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public'
     and tablename in ('contact_messages', 'long_term_applications') order by 1 $$,
  $$ values ('contact_messages'), ('long_term_applications') $$,
  'the inbox and applications are published for realtime');

select * from finish();
rollback;
