-- profiles: created by the auth trigger (as GoTrue inserts, as supabase_auth_admin), following
-- e-mail changes; own read and update of person fields; staff read; admin changes active.
begin;
select plan(19);

-- GoTrue's way: supabase_auth_admin inserts the user.
set local role supabase_auth_admin;
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data, raw_user_meta_data, is_anonymous)
values ('00000000-0000-0000-0000-000000000000', '11111111-1111-4111-8111-111111111111', 'authenticated', 'authenticated',
        'neu@test.local', '', '{"provider":"email","providers":["email"]}', '{"first_name":"Nina","last_name":"Neu","locale":"en"}', false),
       ('00000000-0000-0000-0000-000000000000', '22222222-2222-4222-8222-222222222222', 'authenticated', 'authenticated',
        null, '', '{}', '{}', true);
reset role;

select results_eq(
  $$ select email, first_name, last_name, locale, location, active from public.profiles where id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values ('neu@test.local', 'Nina', 'Neu', 'en', 'duesseldorf', true) $$,
  'a user inserted by supabase_auth_admin gets a profile from its metadata');
select results_eq(
  $$ select admin, harbor, "user" from public.user_roles where user_id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values (false, false, true) $$,
  'and a role record with user = true');
select is_empty($$ select 1 from public.profiles where id = '22222222-2222-4222-8222-222222222222' $$,
  'an anonymous guest gets no profile');

set local role supabase_auth_admin;
update auth.users set email = 'neu2@test.local' where id = '11111111-1111-4111-8111-111111111111';
reset role;
select is((select email from public.profiles where id = '11111111-1111-4111-8111-111111111111'), 'neu2@test.local',
  'an e-mail change follows into the profile');

select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

-- anon
select tests.authenticate_as_anon();
select is_empty($$ select * from public.profiles $$, 'anon sees no profiles');

-- anonymous guest
select tests.authenticate_as('guest');
select is_empty($$ select * from public.profiles $$, 'a guest sees no profiles');

-- customer
select tests.authenticate_as('customer');
select results_eq($$ select email from public.profiles $$, $$ values ('customer@test.local') $$,
  'a customer sees only the own profile');
select results_eq(
  $$ update public.profiles set boat_name = 'Rheinperle', boat_length = 9.4, phone = '+49 211 1' where id = tests.get_user_id('customer') returning boat_name $$,
  $$ values ('Rheinperle') $$, 'a customer updates the own person and boat fields');
select is_empty(
  $$ update public.profiles set first_name = 'Hacker' where id = tests.get_user_id('other') returning 1 $$,
  'an update of another profile is silently filtered');
select throws_ok($$ update public.profiles set active = false where id = tests.get_user_id('customer') $$,
  '42501', 'only_admins_change_active', 'a customer cannot switch the own account');
select throws_ok($$ update public.profiles set email = 'x@test.local' where id = tests.get_user_id('customer') $$,
  '42501', 'profile_field_read_only', 'the e-mail is read-only');
select throws_ok($$ insert into public.profiles (id) values (gen_random_uuid()) $$, '42501', null, 'nobody inserts profiles');
select is_empty($$ delete from public.profiles where id = tests.get_user_id('customer') returning 1 $$,
  'a delete of profiles through the API is silently filtered');

-- harbour staff
select tests.authenticate_as('harbour');
select is((select count(*) from public.profiles where id in (tests.get_user_id('customer'), tests.get_user_id('other'))), 2::bigint,
  'harbour staff read all profiles');
select is_empty($$ update public.profiles set active = false where id = tests.get_user_id('customer') returning 1 $$,
  'harbour staff do not update other profiles');

-- admin
select tests.authenticate_as('admin');
select results_eq($$ update public.profiles set active = false where id = tests.get_user_id('other') returning active $$,
  $$ values (false) $$, 'an admin switches an account off');

-- inactive customer: still reads the own profile (to see why), but is no staff any more
select tests.authenticate_as('other');
select results_eq($$ select active from public.profiles $$, $$ values (false) $$, 'an inactive customer reads the own profile');

select tests.clear_authentication();
update public.profiles set active = false where id = tests.get_user_id('admin');
select tests.authenticate_as('admin');
select is((select count(*) from public.profiles), 1::bigint, 'a switched-off admin loses the admin rights');
select ok(not private.has_role('admin'), 'has_role ignores the forged JWT claim and the inactive admin');

select tests.clear_authentication();
select * from finish();
rollback;
