-- Long-term berths: admins assign and remove holders with history; anyone applies, receives
-- a receipt, and waits in a first-come list that admins answer.
begin;
select plan(27);
select private.freeze_clock('2027-03-10 12:00+01');

insert into public.places (name, width, length) values ('L1', 4, 12), ('L2', 4, 12), ('L3', 4, 12);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

-- ---------------------------------------------------------------- applications
select tests.authenticate_as_anon();
select results_eq(
  $$ select waiting_position from public.apply_for_long_term_berth('Erika@Example.org', 'Erika', 'Muster',
       '{"name": "Erle", "length": 10.2, "width": 3.4}', tests.place_id('L1')) $$,
  $$ values (1) $$, 'anyone applies and learns the waiting-list position');
select throws_ok($$ select * from public.apply_for_long_term_berth('erika@example.org', 'Erika', 'Muster', '{"name": "Erle", "length": 99, "width": 3.4}') $$,
  '22023', 'invalid_boat_length', 'boat data are validated');
select throws_ok($$ select * from public.apply_for_long_term_berth('nope', 'Erika', 'Muster', '{"name": "Erle", "length": 9, "width": 3}') $$,
  '22023', 'invalid_email', 'an application needs a valid address');
select is_empty($$ select * from public.long_term_applications $$, 'anon reads no applications');
select is_empty($$ select * from public.long_term_application_status(gen_random_uuid()) $$, 'an unknown application id tells nothing');

select tests.authenticate_as('customer');
select results_eq(
  $$ select waiting_position from public.apply_for_long_term_berth('customer@test.local', 'Klaus', 'Kunde',
       '{"name": "Rheinperle", "length": 9.4, "width": 3.2}', null, null, '2027-04-01', 'Gern an Steg C.', 'en') $$,
  $$ values (2) $$, 'a customer applies second');
select results_eq($$ select email, status, user_id = auth.uid() from public.long_term_applications $$,
  $$ values ('customer@test.local', 'open', true) $$, 'a customer reads only the own application');
select throws_ok($$ select * from public.long_term_applications_queue() $$, '42501', 'admin_only', 'a customer may not read the waiting list');
select throws_ok($$ select public.answer_long_term_application((select id from public.long_term_applications), 'accepted') $$,
  '42501', 'admin_only', 'a customer may not answer');

select tests.clear_authentication();
select results_eq(
  $$ select kind, recipient, locale, body_text like '%waiting list: 2%' from public.outbox order by id $$,
  $$ values ('application_receipt', 'erika@example.org', 'de', false), ('application_receipt', 'customer@test.local', 'en', true) $$,
  'each application queues a receipt in the applicant''s language with the position');
select results_eq(
  $$ select s.place_name, s.status, s.waiting_position from public.long_term_applications a,
       public.long_term_application_status(a.id) s where a.email = 'erika@example.org' $$,
  $$ values ('L1', 'open', 1) $$, 'the status by id shows berth, state and position');

select tests.authenticate_as('harbour');
select throws_ok($$ select * from public.long_term_applications_queue() $$, '42501', 'admin_only', 'harbour staff do not handle applications');
select is_empty($$ select * from public.long_term_applications $$, 'harbour staff read no applications');

select tests.authenticate_as('admin');
select results_eq($$ select email, waiting_position from public.long_term_applications_queue() $$,
  $$ values ('erika@example.org', 1), ('customer@test.local', 2) $$, 'an admin reads the waiting list in order');
select results_eq(
  $$ select status, answer from public.answer_long_term_application((select id from public.long_term_applications where email = 'erika@example.org'), 'declined', 'Leider belegt.') $$,
  $$ values ('declined', 'Leider belegt.') $$, 'an admin declines an application');
select results_eq($$ select email, waiting_position from public.long_term_applications_queue() $$,
  $$ values ('customer@test.local', 1), ('erika@example.org', null) $$, 'the next applicant moves up');
select is((select count(*)::int from public.outbox where kind = 'application_answer' and recipient = 'erika@example.org'), 1, 'the answer is e-mailed');

-- ---------------------------------------------------------------- holders
select results_eq(
  $$ select boat_name, email, starts_on from public.assign_long_term_holder(tests.place_id('L2'), '2027-04-01',
       jsonb_build_object('user_id', tests.get_user_id('customer')), null,
       (select id from public.long_term_applications where email = 'customer@test.local')) $$,
  $$ values (null::text, 'customer@test.local', '2027-04-01'::date) $$,
  'an admin assigns a customer to a berth from an application');
select is((select status from public.long_term_applications where email = 'customer@test.local'), 'accepted', 'the application is accepted');
select throws_ok($$ select public.assign_long_term_holder(tests.place_id('L2'), '2027-06-01', '{"last_name": "Zweiter"}') $$,
  '23P01', 'berth_already_held', 'a berth has one holder at a time');
select tests.clear_authentication();
insert into public.orders (id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person)
values ('00000000-0000-4000-8000-00000000b001', tests.place_id('L3'), 'overnight', '2027-05-01 14:00+02', '2027-05-03 12:00+02', 'confirmed', 100, '{}', 'g@example.org', '{}', '{}', '{}');
insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
values (tests.place_id('L3'), '00000000-0000-4000-8000-00000000b001', 'reservation', '2027-05-01 14:00+02', '2027-05-03 12:00+02');
select tests.authenticate_as('admin');
select throws_ok($$ select public.assign_long_term_holder(tests.place_id('L3'), '2027-04-01', '{"last_name": "Dritter"}') $$,
  '23P01', 'berth_has_bookings', 'a holding may not swallow a booked stay');

select results_eq(
  $$ select action, ends_on from public.remove_long_term_holder((select id from public.long_term_holders where place_id = tests.place_id('L2')), '2027-09-30') $$,
  $$ values ('removed', '2027-09-30'::date) $$, 'an admin ends a holding on a last day');
select results_eq($$ select ends_on from public.long_term_holders where place_id = tests.place_id('L2') $$,
  $$ values ('2027-09-30'::date) $$, 'the holding stays as history');
select results_eq($$ select action from public.long_term_holder_events order by id $$,
  $$ values ('assigned'), ('removed') $$, 'assignment and removal are recorded');

select tests.authenticate_as('harbour');
select throws_ok($$ select public.assign_long_term_holder(tests.place_id('L1'), '2027-04-01', '{"last_name": "Hafen"}') $$,
  '42501', 'admin_only', 'harbour staff do not assign holders');
select is((select count(*)::int from public.long_term_holder_events), 2, 'harbour staff read the history');
select tests.authenticate_as('other');
select is_empty($$ select * from public.long_term_holder_events $$, 'another customer reads no history');
select tests.clear_authentication();
select * from finish();
rollback;
