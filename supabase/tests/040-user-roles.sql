-- user_roles: own read, admin all; nobody else changes roles. The access-token hook copies
-- the flags into the JWT and is callable by supabase_auth_admin only.
begin;
select plan(13);

select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

select tests.authenticate_as_anon();
select is_empty($$ select * from public.user_roles $$, 'anon sees no roles');

select tests.authenticate_as('guest');
select is_empty($$ select * from public.user_roles $$, 'a guest sees no roles');

select tests.authenticate_as('customer');
select results_eq($$ select admin, harbor, "user" from public.user_roles $$, $$ values (false, false, true) $$,
  'a customer reads the own role record only');
select is_empty($$ update public.user_roles set admin = true where user_id = tests.get_user_id('customer') returning 1 $$,
  'a customer cannot make himself admin (silently filtered)');
select throws_ok($$ insert into public.user_roles (user_id, admin) values (gen_random_uuid(), true) $$, '42501', null,
  'nobody inserts role records through the API');

select tests.authenticate_as('harbour');
select results_eq($$ select harbor from public.user_roles $$, $$ values (true) $$, 'harbour staff read only their own roles');
select is_empty($$ update public.user_roles set harbor = true where user_id = tests.get_user_id('customer') returning 1 $$,
  'harbour staff do not change roles');

select tests.authenticate_as('admin');
select is((select count(*) from public.user_roles), 4::bigint, 'an admin reads every role record');
select results_eq($$ update public.user_roles set harbor = true where user_id = tests.get_user_id('customer') returning harbor $$,
  $$ values (true) $$, 'an admin grants the harbour role');

-- The access-token hook.
select tests.clear_authentication();
set local role supabase_auth_admin;
select set_config('tests.hook', public.custom_access_token_hook(jsonb_build_object('user_id', tests.get_user_id('admin'), 'claims',
    jsonb_build_object('sub', tests.get_user_id('admin'), 'role', 'authenticated', 'app_metadata', '{"provider":"email"}'::jsonb)))::text, true);
reset role;
select is(current_setting('tests.hook')::jsonb -> 'claims' -> 'app_metadata',
  '{"provider":"email","roles":{"admin":true,"harbor":false,"user":true},"active":true}'::jsonb,
  'the hook (run as supabase_auth_admin) adds the role flags to app_metadata');
select tests.authenticate_as('customer');
select throws_ok($$ select public.custom_access_token_hook('{}') $$, '42501', null, 'authenticated cannot call the hook');
select tests.authenticate_as_anon();
select throws_ok($$ select public.custom_access_token_hook('{}') $$, '42501', null, 'anon cannot call the hook');

select tests.clear_authentication();
set local role supabase_auth_admin;
select set_config('tests.hook', public.custom_access_token_hook(jsonb_build_object('user_id', tests.get_user_id('guest'), 'claims', '{"role":"authenticated"}'::jsonb))::text, true);
reset role;
select is(current_setting('tests.hook')::jsonb -> 'claims' -> 'app_metadata' -> 'roles',
  '{"admin":false,"harbor":false,"user":false}'::jsonb,
  'a guest gets no role flags');

select * from finish();
rollback;
