-- Edges of the operations functions: holdings that never began, application limits, admins
-- keeping others' hours, mail that fails for good, invoice numbers per year, a guest's export.
begin;
select plan(11);
select private.freeze_clock('2027-12-30 12:00+01');

insert into public.places (name, width, length) values ('E1', 4, 12), ('E2', 4, 12);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

-- A holding removed before it began is deleted; the history keeps it.
select tests.authenticate_as('admin');
select public.assign_long_term_holder(tests.place_id('E1'), '2028-04-01', '{"first_name": "Frida", "last_name": "Früh", "boat_name": "Lenz"}');
select results_eq($$ select action, ends_on, holder ->> 'boat_name' from public.remove_long_term_holder((select id from public.long_term_holders)) $$,
  $$ values ('removed', '2027-12-30'::date, 'Lenz') $$, 'removing a holding that has not begun records it');
select is_empty($$ select * from public.long_term_holders $$, 'and deletes the row, so the berth is free');
select throws_ok($$ select public.answer_long_term_application(gen_random_uuid(), 'accepted') $$, 'PT404', 'application_not_open', 'only open applications are answered');
select throws_ok($$ select * from public.place_calendar(gen_random_uuid(), '2027-12-01', '2027-12-31') $$, 'PT404', 'place_not_found', 'a berth calendar needs a berth');

-- At most 3 open applications per address.
select tests.authenticate_as_anon();
select public.apply_for_long_term_berth('viel@example.org', 'Viel', 'Wunsch', '{"name": "Boot", "length": 9, "width": 3}') from generate_series(1, 3);
select throws_ok($$ select * from public.apply_for_long_term_berth('VIEL@example.org', 'Viel', 'Wunsch', '{"name": "Boot", "length": 9, "width": 3}') $$,
  'P0001', 'too_many_applications', 'a fourth open application of one address is refused');

-- Admins keep hours for others, in any month.
select tests.authenticate_as('admin');
select results_eq($$ insert into public.working_hours (user_id, work_date, start_time, end_time) values (tests.get_user_id('harbour'), '2027-01-15', '08:00', '12:00') returning minutes $$,
  $$ values (240) $$, 'an admin records hours for a harbour worker, even in a closed month');
select tests.authenticate_as('harbour');
select results_eq($$ select work_date from public.working_hours $$, $$ values ('2027-01-15'::date) $$, 'the worker sees them');
select is_empty($$ delete from public.working_hours returning 1 $$, 'but cannot delete them in a closed month');

-- Mail that keeps failing is given up after 8 attempts.
select tests.clear_authentication();
select set_config('role', 'service_role', true);
update public.outbox set attempts = 7 where id = (select min(id) from public.outbox);
select is((select status from public.complete_outbox((select min(o.id) from public.claim_outbox(1) o), false, '550 no such user')), 'failed',
  'the eighth failed attempt marks the mail failed');

-- Invoice numbers start again each year.
select tests.clear_authentication();
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('E2'), 'overnight', '2027-12-30', '{"name": "A", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "A"}', '2027-12-31');
select public.record_desk_payment((select id from public.orders), 'cash');
select tests.clear_authentication();
select private.freeze_clock('2028-01-02 12:00+01');
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('E2'), 'overnight', '2028-01-02', '{"name": "B", "length": 9, "width": 3}', '{"first_name": "B", "last_name": "B"}', '2028-01-03');
select public.record_desk_payment((select id from public.orders where boat ->> 'name' = 'B'), 'cash');
select results_eq($$ select invoice_number from public.invoices order by issued_at $$, $$ values ('RE-2027-00001'), ('RE-2028-00001') $$,
  'each year counts from 1');

-- A guest exports the data of the guest session.
select tests.authenticate_as('guest');
select public.create_booking(tests.place_id('E1'), 'overnight', '2028-01-05', '{"name": "Gastboot", "length": 9, "width": 3}',
  '{"first_name": "Gita", "last_name": "Gast", "email": "gita@example.org"}', '2028-01-06');
select results_eq($$ select d -> 'user' ->> 'is_anonymous', jsonb_array_length(d -> 'orders'), d -> 'profile' from public.export_my_data() d $$,
  $$ values ('true', 1, 'null'::jsonb) $$, 'a guest session exports its orders (no profile)');
select tests.clear_authentication();
select * from finish();
rollback;
