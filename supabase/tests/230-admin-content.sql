-- Admin content (issue 12): harbour staff cannot write news, sale codes, fair periods, harbour
-- settings, roles, other profiles or news images; an admin cannot remove the own admin flag or
-- switch the own account off (also not through admin_save_user); the user list searches and
-- pages; bad input is refused with a named constraint (a 400, never a 500).
begin;
select plan(38);

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('admin2', array['admin']);
insert into public.news (title, starts_at, ends_at) values ('Plan', now() + interval '1 day', now() + interval '2 days');
insert into public.sale_codes (code, value) values ('RHEIN5', 500);
insert into public.fair_periods (name, starts_on, ends_on) values ('boot', '2027-01-17', '2027-01-25');
insert into storage.objects (bucket_id, name) values ('news-images', 'n1/title.jpg');

-- ---------------------------------------------------------------- harbour staff: no writes
select tests.authenticate_as('harbour');
select throws_ok($$ insert into public.news (title, starts_at, ends_at) values ('x', now(), now() + interval '1 day') $$,
  '42501', null, 'staff cannot create news');
select is_empty($$ update public.news set title = 'x' returning 1 $$, 'staff cannot change news (filtered)');
select is_empty($$ delete from public.news returning 1 $$, 'staff cannot delete news (filtered)');
select throws_ok($$ insert into public.sale_codes (code, value) values ('STAFF', 0) $$, '42501', null, 'staff cannot create sale codes');
select is_empty($$ update public.sale_codes set value = 0 returning 1 $$, 'staff cannot change sale codes');
select is_empty($$ delete from public.sale_codes returning 1 $$, 'staff cannot delete sale codes');
select throws_ok($$ insert into public.fair_periods (name, starts_on, ends_on) values ('x', '2027-02-01', '2027-02-03') $$,
  '42501', null, 'staff cannot create fair periods');
select is_empty($$ update public.fair_periods set name = 'x' returning 1 $$, 'staff cannot change fair periods');
select is_empty($$ delete from public.fair_periods returning 1 $$, 'staff cannot delete fair periods');
select is_empty($$ update public.harbour_settings set door_code = '0000' returning 1 $$, 'staff cannot change the door code');
select is_empty($$ select * from public.harbour_settings $$, 'staff do not read the settings table (harbour_access() is their way)');
select is_empty($$ update public.user_roles set admin = true where user_id = (select auth.uid()) returning 1 $$,
  'staff cannot make themselves admin');
select is_empty($$ update public.profiles set first_name = 'x' where id = tests.get_user_id('customer') returning 1 $$,
  'staff cannot edit other people');
select throws_ok($$ select * from public.admin_list_users() $$, '42501', 'admin_only', 'staff cannot list users');
select throws_ok($$ select public.admin_save_user(tests.get_user_id('customer'), 'K', 'K', null, null, null, null, null, null, true, true, true, true) $$,
  '42501', 'admin_only', 'staff cannot save users');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('news-images', 'x/title.jpg') $$, '42501', null,
  'staff cannot upload news images');
select throws_ok($$ delete from storage.objects where bucket_id = 'news-images' $$, '42501', null,
  'staff cannot delete news images (Storage refuses a delete that does not come through its API)');
select set_config('storage.allow_delete_query', 'true', true);
select is_empty($$ delete from storage.objects where bucket_id = 'news-images' returning 1 $$, 'nor through the Storage API: the policies refuse staff');
select set_config('storage.allow_delete_query', 'false', true);

-- ---------------------------------------------------------------- admins: no self-demotion
select tests.authenticate_as('admin');
select throws_ok($$ update public.user_roles set admin = false where user_id = (select auth.uid()) $$,
  'P0001', 'cannot_remove_own_admin', 'an admin cannot remove the own admin flag');
select throws_ok($$ update public.profiles set active = false where id = (select auth.uid()) $$,
  'P0001', 'cannot_deactivate_self', 'an admin cannot switch the own account off');
select throws_ok($$ select public.admin_save_user((select auth.uid()), 'A', 'B', null, null, null, null, null, null, false, true, true, true) $$,
  'P0001', 'cannot_remove_own_admin', 'nor through admin_save_user');
select results_eq($$ update public.user_roles set harbor = true where user_id = (select auth.uid()) returning admin, harbor $$,
  $$ values (true, true) $$, 'an admin may change the own other flags');
select results_eq($$ update public.user_roles set admin = false where user_id = tests.get_user_id('admin2') returning admin $$,
  $$ values (false) $$, 'an admin removes another admin''s flag');
select lives_ok($$ select public.admin_save_user(tests.get_user_id('customer'), ' Klara ', 'Kunde', '+49 211 1', '', 'Rheinufer 1', '40213', 'Düsseldorf', 'DE', false, true, true, false) $$,
  'an admin saves person fields, roles and the active flag at once');
select results_eq(
  $$ select p.first_name, p.company, p.city, p.active, r.admin, r.harbor, r."user" from public.profiles p join public.user_roles r on r.user_id = p.id where p.id = tests.get_user_id('customer') $$,
  $$ values ('Klara', null::text, 'Düsseldorf', false, false, true, true) $$, 'trimmed, empty as null, flags stored');
select throws_ok($$ select public.admin_save_user(gen_random_uuid(), 'A', 'B', null, null, null, null, null, null, false, false, true, true) $$,
  'P0001', 'user_not_found', 'an unknown user is a clear error');
select throws_ok($$ select public.admin_save_user(tests.get_user_id('customer'), repeat('x', 101), 'B', null, null, null, null, null, null, false, false, true, true) $$,
  '23514', null, 'an over-long name is a check violation (400)');

-- ---------------------------------------------------------------- the user list
select results_eq($$ select email, total from public.admin_list_users('KUNDE') $$,
  $$ values ('customer@test.local', 1::bigint) $$, 'search is case-insensitive over names and e-mail');
select results_eq($$ select count(*), max(total) from public.admin_list_users(null, 2, 0) $$,
  $$ values (2::bigint, 4::bigint) $$, 'a page of 2 of 4');
select is_empty($$ select * from public.admin_list_users('%') $$, 'a % is searched literally');
select throws_ok($$ select * from public.admin_list_users(null, 1000, 0) $$, '22023', 'invalid_page', 'pages are 1-100 rows');
select results_eq($$ select email from public.admin_list_users(null, 20, 0, 'email', true) $$,
  $$ select email from public.profiles order by lower(email) desc $$, 'sort by e-mail descending');
select results_eq($$ select email from public.admin_list_users(p_active => false) $$,
  $$ values ('customer@test.local') $$, 'filter by the active flag');
select results_eq($$ select email from public.admin_list_users(p_role => 'harbor', p_sort => 'last_name') $$,
  $$ select p.email from public.profiles p join public.user_roles r on r.user_id = p.id where r.harbor order by lower(coalesce(p.last_name, '')), lower(coalesce(p.first_name, '')), lower(p.email) $$,
  'filter by role (the harbour team), sorted by last name');
select throws_ok($$ select * from public.admin_list_users(p_sort => 'password') $$, '22023', 'invalid_sort', 'only the known columns sort');

-- ---------------------------------------------------------------- bounds
select throws_ok($$ insert into public.sale_codes (code, value) values ('mit leer', 0) $$, '23514', null, 'a code has no spaces');
select throws_ok($$ insert into public.sale_codes (code, value) values ('TEUER', -1) $$, '23514', null, 'a code value is not negative');
select throws_ok($$ update public.harbour_settings set door_code = repeat('1', 41) $$, '23514', null, 'the door code has a bound');

select tests.clear_authentication();
select * from finish();
rollback;
