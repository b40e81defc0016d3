-- The audit trail (supabase/schemas/38_audit.sql, issue 21 item 7): every audited table writes
-- one row per change naming the actor (and the role, so "who" is never empty) with only the
-- changed columns, old and new; personal values are left out; nobody (anon, a customer, staff,
-- an admin, the service role, the owner, a security definer function) can change or delete a
-- row; only admins read it; the order history names who did each step.
begin;
select plan(53);
select private.freeze_clock('2027-05-10 12:00+02');
-- Rows the migrations wrote (their data steps are audited too, at their own time) are not this test's.
select set_config('tests.audit_start', (select coalesce(max(id), 0)::text from public.audit_log), false);

insert into public.places (name, width, length, one_day, archived) values
  ('A1', 4, 12, false, false), ('A2', 4, 12, false, false), ('A3', 4, 12, false, false);
insert into public.sale_codes (code, value) values ('HAFEN5', 500);
insert into public.fair_periods (name, starts_on, ends_on) values ('boot', '2028-01-17', '2028-01-25');
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);
update public.profiles set first_name = 'Anna', last_name = 'Admin' where id = tests.get_user_id('admin');
update public.profiles set first_name = 'Hanna', last_name = 'Hafen' where id = tests.get_user_id('harbour');

-- The newest audit row of a table (and key), as one comparable value.
create function pg_temp.last(p_table text, p_key text default null)
returns table (action text, actor uuid, actor_role text, old_values jsonb, new_values jsonb, redacted text[])
language sql as $$
  select a.action, a.actor, a.actor_role, a.old_values, a.new_values, a.redacted from public.audit_log a
  where a.table_name = p_table and (p_key is null or a.row_key = p_key) order by a.id desc limit 1
$$;
create function pg_temp.count(p_table text) returns int language sql as $$
  select count(*)::int from public.audit_log where table_name = p_table
$$;

-- ---------------------------------------------------------------- writes name the actor
select ok((select relrowsecurity from pg_class where oid = 'public.audit_log'::regclass), 'the audit trail has row level security');
select results_eq($$ select action, actor, actor_role, new_values ->> 'name', new_values ->> 'width' from public.audit_log
                     where table_name = 'public.places' and row_key = tests.place_id('A1')::text $$,
  $$ values ('insert', null::uuid, 'system', 'A1', '4.0') $$, 'an insert keeps the new row; without a session the actor is the system');

-- places: an admin changes a berth's width; only that column, not updated_at.
select tests.authenticate_as('admin');
update public.places set width = 4.5 where name = 'A1';
select results_eq($$ select * from pg_temp.last('public.places', tests.place_id('A1')::text) $$,
  $$ values ('update', tests.get_user_id('admin'), 'authenticated', '{"width": 4.0}'::jsonb, '{"width": 4.5}'::jsonb, null::text[]) $$,
  'places: an admin''s change names the admin and only the changed column');
update public.places set width = 4.5, name = 'A1' where name = 'A1';
select is(pg_temp.count('public.places'), 4, 'an update that changes nothing (only updated_at) writes no row');

-- sale codes, fair periods, harbour settings, roles
update public.sale_codes set value = 700 where code = 'HAFEN5';
select results_eq($$ select * from pg_temp.last('public.sale_codes') $$,
  $$ values ('update', tests.get_user_id('admin'), 'authenticated', '{"value": 500}'::jsonb, '{"value": 700}'::jsonb, null::text[]) $$,
  'sale codes: the price change with old and new value');
update public.fair_periods set ends_on = '2028-01-26' where name = 'boot';
select results_eq($$ select * from pg_temp.last('public.fair_periods') $$,
  $$ values ('update', tests.get_user_id('admin'), 'authenticated', '{"ends_on": "2028-01-25"}'::jsonb, '{"ends_on": "2028-01-26"}'::jsonb, null::text[]) $$,
  'fair periods');
update public.harbour_settings set door_code = '4711', payment_mode_walk_in = 'online_optional';
select results_eq($$ select * from pg_temp.last('public.harbour_settings', '1') $$,
  $$ values ('update', tests.get_user_id('admin'), 'authenticated', '{"door_code": "", "payment_mode_walk_in": "desk"}'::jsonb,
             '{"door_code": "4711", "payment_mode_walk_in": "online_optional"}'::jsonb, null::text[]) $$,
  'harbour settings: door code and payment mode (admins read them anyway)');
update public.user_roles set harbor = true where user_id = tests.get_user_id('customer');
select results_eq($$ select * from pg_temp.last('public.user_roles', tests.get_user_id('customer')::text) $$,
  $$ values ('update', tests.get_user_id('admin'), 'authenticated', '{"harbor": false}'::jsonb, '{"harbor": true}'::jsonb, null::text[]) $$,
  'user roles: keyed by user_id');
update public.user_roles set harbor = false where user_id = tests.get_user_id('customer');

-- profiles: personal values are left out, their names kept
select tests.authenticate_as('customer');
update public.profiles set phone = '+49 170 5550123', locale = 'en' where id = tests.get_user_id('customer');
select tests.clear_authentication();
select results_eq($$ select a.action, a.actor, a.old_values, a.new_values, a.redacted from public.audit_log a
                     where a.table_name = 'public.profiles' and a.row_key = tests.get_user_id('customer')::text order by a.id desc limit 1 $$,
  $$ values ('update', tests.get_user_id('customer'), '{"locale": "de"}'::jsonb, '{"locale": "en"}'::jsonb, array['phone']) $$,
  'profiles: the person''s own change; the phone number is named but its values are not kept');
select ok(not exists (select 1 from public.audit_log where old_values::text like '%5550123%' or new_values::text like '%5550123%'),
  'the phone number is nowhere in the trail');

-- app settings (private): a direct database session is the system
update private.app_settings set value = 'https://hafen.example' where key = 'site_url';
select results_eq($$ select * from pg_temp.last('private.app_settings', 'site_url') $$,
  $$ values ('update', null::uuid, 'system', '{"value": "http://localhost:3000"}'::jsonb, '{"value": "https://hafen.example"}'::jsonb, null::text[]) $$,
  'app settings: keyed by key; no session is the system');

-- orders: a guest books (role guest), staff move it, the desk takes money (payments, invoice)
select tests.authenticate_as('guest');
select set_config('tests.order', (public.create_booking(tests.place_id('A2'), 'overnight', '2027-05-20',
  '{"name": "Gast", "length": 9, "width": 3}', '{"first_name": "Gita", "last_name": "Gast", "email": "gita@example.org"}', '2027-05-21')).id::text, true);
select tests.clear_authentication();
select results_eq($$ select action, actor, actor_role, new_values ->> 'status', new_values ? 'person', new_values ? 'email', new_values ? 'boat'
                     from pg_temp.last('public.orders', current_setting('tests.order')) $$,
  $$ values ('insert', tests.get_user_id('guest'), 'guest', 'unverified', false, false, false) $$,
  'orders: a guest''s booking names the guest session; person, e-mail and boat are left out');
select tests.authenticate_as('harbour');
select public.move_booking(current_setting('tests.order')::uuid, tests.place_id('A3'));
select tests.clear_authentication();
select results_eq($$ select action, actor, actor_role, (select array_agg(k order by k) from jsonb_object_keys(new_values) k),
                            old_values ->> 'place_id', new_values ->> 'place_id'
                     from pg_temp.last('public.orders', current_setting('tests.order')) $$,
  $$ values ('update', tests.get_user_id('harbour'), 'authenticated', array['place_id', 'place_snapshot'],
             tests.place_id('A2')::text, tests.place_id('A3')::text) $$,
  'orders: a staff move names the staff member and only berth and snapshot');
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.order')::uuid, 'cash');
select tests.clear_authentication();
select results_eq($$ select action, actor, new_values ->> 'method', (new_values ->> 'amount_cents')::int
                     from pg_temp.last('public.payments') $$,
  $$ values ('insert', tests.get_user_id('harbour'), 'cash', 3332) $$, 'payments: the desk payment names who took it');
select results_eq($$ select action, actor, old_values, new_values from pg_temp.last('public.orders', current_setting('tests.order')) $$,
  $$ values ('update', tests.get_user_id('harbour'), '{"payment_status": "pending", "expires_at": "2027-05-11T10:00:00+00:00"}'::jsonb,
             '{"payment_status": "paid", "expires_at": null}'::jsonb) $$,
  'orders: the payment status the ledger derived (a paid order keeps no expiry), with the same actor');
select results_eq($$ select action, actor, (new_values ->> 'gross_cents')::int, new_values ->> 'order_id' from pg_temp.last('public.invoices') $$,
  $$ values ('insert', tests.get_user_id('harbour'), 3332, current_setting('tests.order')) $$, 'invoices: the issued invoice');
select tests.clear_authentication();

-- long-term holders: personal columns left out; the service role is named
select tests.authenticate_as('admin');
select set_config('tests.holder', (public.assign_long_term_holder(tests.place_id('A1'), '2027-06-01',
  '{"first_name": "Lena", "last_name": "Lang", "email": "lena@example.org", "boat_name": "Seeschwalbe"}')).id::text, true);
select results_eq($$ select action, actor, new_values ->> 'starts_on', new_values ? 'email', new_values ? 'first_name' from pg_temp.last('public.long_term_holders') $$,
  $$ values ('insert', tests.get_user_id('admin'), '2027-06-01', false, false) $$, 'long-term holders: the assignment without the holder''s name and e-mail');
update public.long_term_holders set ends_on = '2027-09-30', note = 'Steg B' where id = current_setting('tests.holder')::uuid;
select results_eq($$ select old_values, new_values, redacted from pg_temp.last('public.long_term_holders') $$,
  $$ values ('{"ends_on": null}'::jsonb, '{"ends_on": "2027-09-30"}'::jsonb, array['note']) $$, 'a change of the end date and the note');
select tests.clear_authentication();
set local role service_role;
select set_config('request.jwt.claims', '{"role": "service_role"}', true);
delete from public.long_term_holders where id = current_setting('tests.holder')::uuid;
reset role;
select set_config('request.jwt.claims', '', true);
select results_eq($$ select action, actor, actor_role, old_values ->> 'ends_on', old_values ? 'note' from pg_temp.last('public.long_term_holders') $$,
  $$ values ('delete', null::uuid, 'service_role', '2027-09-30', false) $$, 'a delete keeps the old row (without personal values); the service role is named');

-- ---------------------------------------------------------------- nobody changes a row
select tests.authenticate_as_anon();
select throws_ok($$ update public.audit_log set actor = null $$, '42501', null, 'anon cannot update');
select throws_ok($$ delete from public.audit_log $$, '42501', null, 'nor delete');
select tests.authenticate_as('customer');
select throws_ok($$ update public.audit_log set actor = null $$, '42501', null, 'a customer cannot update');
select throws_ok($$ delete from public.audit_log $$, '42501', null, 'nor delete');
select tests.authenticate_as('harbour');
select throws_ok($$ update public.audit_log set actor = null $$, '42501', null, 'staff cannot update');
select throws_ok($$ delete from public.audit_log $$, '42501', null, 'nor delete');
select tests.authenticate_as('admin');
select throws_ok($$ update public.audit_log set actor = null $$, '42501', null, 'an admin cannot update');
select throws_ok($$ delete from public.audit_log $$, '42501', null, 'nor delete');
select throws_ok($$ insert into public.audit_log (at, table_name, row_key, action, actor_role, new_values) values (now(), 'x', 'x', 'insert', 'system', '{}') $$,
  '42501', null, 'nor write a row of their own');
select throws_ok($$ truncate public.audit_log $$, '42501', null, 'nor truncate');
select tests.clear_authentication();
set local role service_role;
select throws_ok($$ update public.audit_log set actor = null $$, '42501', null, 'the service role cannot update');
select throws_ok($$ delete from public.audit_log $$, '42501', null, 'nor delete');
select throws_ok($$ insert into public.audit_log (at, table_name, row_key, action, actor_role, new_values) values (now(), 'x', 'x', 'insert', 'system', '{}') $$,
  '42501', null, 'nor insert');
reset role;
select throws_ok($$ update public.audit_log set actor = null $$, '42501', 'audit_log_immutable', 'even the owner is refused by the trigger');
select throws_ok($$ delete from public.audit_log $$, '42501', 'audit_log_immutable', 'delete too');
select throws_ok($$ truncate public.audit_log $$, '42501', 'audit_log_immutable', 'and truncate');
-- A security definer function (as every rule in private is) runs as the owner: refused too.
create function private.test_rewrite_audit() returns void language plpgsql security definer set search_path = '' as $$
begin
  update public.audit_log set new_values = '{}';
end $$;
create function private.test_delete_audit() returns void language plpgsql security definer set search_path = '' as $$
begin
  delete from public.audit_log;
end $$;
grant execute on function private.test_rewrite_audit(), private.test_delete_audit() to authenticated;
select tests.authenticate_as('admin');
select throws_ok($$ select private.test_rewrite_audit() $$, '42501', 'audit_log_immutable', 'a security definer function cannot rewrite a row');
select throws_ok($$ select private.test_delete_audit() $$, '42501', 'audit_log_immutable', 'nor delete one');
select tests.clear_authentication();
select ok((select count(*) from public.audit_log) > 20, 'the rows are all still there');

-- ---------------------------------------------------------------- who reads it
select tests.authenticate_as('harbour');
select is_empty($$ select * from public.audit_log $$, 'staff who are not admins read nothing');
select throws_ok($$ select * from public.admin_audit_log() $$, '42501', 'admin_only', 'and the list refuses them by name');
select tests.authenticate_as('customer');
select is_empty($$ select * from public.audit_log $$, 'a customer reads nothing');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.audit_log $$, '42501', null, 'anon may not even ask');
select tests.authenticate_as('admin');
select is((select count(*)::int from public.audit_log), (select count(*)::int from public.admin_audit_log(p_limit => 200)), 'an admin reads every row');
select results_eq($$ select actor_name, actor_email, table_name, new_values from public.admin_audit_log(p_table => 'public.sale_codes', p_limit => 1) $$,
  $$ values ('Anna Admin', 'admin@test.local', 'public.sale_codes', '{"value": 700}'::jsonb) $$, 'the list names the actor and filters by table, newest first');
select ok((select bool_and(actor = tests.get_user_id('harbour')) and count(*) >= 3 from public.admin_audit_log(p_actor => 'hafen')),
  'filter by the actor''s name');
select ok((select bool_and(actor_role in ('system', 'service_role')) and count(*) > 0 from public.admin_audit_log(p_actor_role => 'system')),
  'filter by kind: the system');
select is((select count(*)::int from public.admin_audit_log(p_from => '2027-05-10', p_to => '2027-05-10', p_limit => 200)),
  (select count(*)::int from public.audit_log where id > current_setting('tests.audit_start')::bigint), 'every row this test wrote is of the frozen day (Berlin)');
select is_empty($$ select * from public.admin_audit_log(p_from => '2027-05-11') $$, 'none after it');
select throws_ok($$ select * from public.admin_audit_log(p_from => '2027-05-11', p_to => '2027-05-10') $$, '22023', 'invalid_period', 'an inverted range is refused');
select throws_ok($$ select * from public.admin_audit_log(p_limit => 0) $$, '22023', 'invalid_page', 'so is an empty page');

-- ---------------------------------------------------------------- the order history names the actor
select tests.authenticate_as('harbour');
select results_eq($$ select e.event, a.actor_kind, a.actor_name from public.order_events e
                     join public.order_event_actors(current_setting('tests.order')::uuid) a on a.event_id = e.id order by e.id $$,
  $$ values ('created', 'guest', null::text), ('moved', 'staff', 'Hanna Hafen'), ('payment_recorded', 'staff', 'Hanna Hafen'),
            ('payment', 'staff', 'Hanna Hafen') $$,
  'the history: the guest created it, the staff member moved it and took the money');
select tests.clear_authentication();
update public.orders set status = 'completed' where id = current_setting('tests.order')::uuid;
select tests.authenticate_as('harbour');
select results_eq($$ select a.actor_kind, a.actor_name from public.order_events e
                     join public.order_event_actors(current_setting('tests.order')::uuid) a on a.event_id = e.id where e.event = 'status' $$,
  $$ values ('system', null::text) $$, 'a step without a session is the system''s');
select tests.authenticate_as('customer');
select is_empty($$ select * from public.order_event_actors(current_setting('tests.order')::uuid) $$, 'a customer reads no actors');

select * from finish();
rollback;
