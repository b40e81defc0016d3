-- Catalog rules that hold for the whole schema: RLS everywhere, safe security definer
-- functions, comments, exact EXECUTE grants, realtime publication, extensions.
begin;
select plan(15);

select is_empty(
  $$ select n.nspname || '.' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and not c.relrowsecurity $$,
  'every table in public and private has row level security enabled');

select is_empty(
  $$ select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private') and p.prosecdef
       and not coalesce(p.proconfig @> array['search_path=""'], false) $$,
  'every security definer function has search_path set to the empty string');

select is_empty(
  $$ select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private') and p.prokind = 'f'
       and coalesce(p.proconfig @> array['search_path=""'], false) is false $$,
  'every function in public and private pins search_path to the empty string');

select is_empty(
  $$ select n.nspname || '.' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'private') and c.relkind in ('r', 'v') and obj_description(c.oid, 'pg_class') is null $$,
  'every table and view has a comment');

select is_empty(
  $$ select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private') and obj_description(p.oid, 'pg_proc') is null $$,
  'every function has a comment');

select results_eq(
  $$ select p.proname::text collate "default" from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and has_function_privilege('anon', p.oid, 'execute')
       and p.proname = any (array['search_available_places', 'quote_booking', 'create_booking', 'claim_guest_orders', 'cancel_booking',
       'check_in', 'record_desk_payment', 'record_desk_refund', 'record_stripe_event', 'record_checkout_session', 'begin_online_payment',
       'prepare_online_refund', 'payment_mode_for', 'harbour_access', 'expire_unverified_orders', 'place_long_term_starts', 'custom_access_token_hook']) order by 1 $$,
  $$ values ('payment_mode_for'), ('place_long_term_starts'), ('quote_booking'), ('search_available_places') $$,
  'of the booking functions anon may execute exactly search, quote and long-term starts');

select results_eq(
  $$ select p.proname::text collate "default" from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and has_function_privilege('authenticated', p.oid, 'execute')
       and p.proname = any (array['search_available_places', 'quote_booking', 'create_booking', 'claim_guest_orders', 'cancel_booking',
       'check_in', 'record_desk_payment', 'record_desk_refund', 'record_stripe_event', 'record_checkout_session', 'begin_online_payment',
       'prepare_online_refund', 'payment_mode_for', 'harbour_access', 'expire_unverified_orders', 'place_long_term_starts', 'custom_access_token_hook']) order by 1 $$,
  $$ values ('begin_online_payment'), ('cancel_booking'), ('check_in'), ('claim_guest_orders'), ('create_booking'), ('harbour_access'),
            ('payment_mode_for'), ('place_long_term_starts'), ('prepare_online_refund'), ('quote_booking'), ('record_desk_payment'),
            ('record_desk_refund'), ('search_available_places') $$,
  'of the booking functions authenticated may execute exactly these (not expiry, not the hook, not the webhook''s record_stripe_event / record_checkout_session)');

select ok(
  not has_function_privilege('public', 'public.custom_access_token_hook(jsonb)', 'execute')
  and not has_function_privilege('anon', 'public.custom_access_token_hook(jsonb)', 'execute')
  and not has_function_privilege('authenticated', 'public.custom_access_token_hook(jsonb)', 'execute')
  and has_function_privilege('supabase_auth_admin', 'public.custom_access_token_hook(jsonb)', 'execute'),
  'the access-token hook is executable by supabase_auth_admin only');

select ok(
  not has_function_privilege('anon', 'private.freeze_clock(timestamptz)', 'execute')
  and not has_function_privilege('authenticated', 'private.freeze_clock(timestamptz)', 'execute')
  and not has_function_privilege('service_role', 'private.freeze_clock(timestamptz)', 'execute'),
  'no API role can freeze the clock');

select results_eq(
  $$ select tablename::text collate "default" from pg_publication_tables
     where pubname = 'supabase_realtime' and schemaname = 'public' and tablename in ('orders', 'place_statuses') order by 1 $$,
  $$ values ('orders'), ('place_statuses') $$,
  'orders and place statuses are in the realtime publication');

select is(
  (select extnamespace::regnamespace::text from pg_extension where extname = 'btree_gist'),
  'extensions', 'btree_gist lives in schema extensions');

select is_empty(
  $$ select table_name from information_schema.role_table_grants
     where table_schema = 'public' and grantee in ('anon', 'authenticated') and privilege_type = 'TRUNCATE' $$,
  'no API role may truncate a table');

select is_empty(
  $$ select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'private' and c.relkind = 'r'
       and (has_table_privilege('anon', c.oid, 'select') or has_table_privilege('authenticated', c.oid, 'select')) $$,
  'private tables are not readable by API roles');

select is_empty(
  $$ select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'v' and not coalesce(c.reloptions @> array['security_invoker=true'], false) $$,
  'every view is security_invoker');

select is_empty(
  $$ select p.tablename || ' ' || p.cmd || ' ' || r.role
     from pg_policies p cross join lateral unnest(p.roles) r(role)
     where p.permissive = 'PERMISSIVE'
       and (p.schemaname in ('public', 'private') or p.schemaname || '.' || p.tablename = 'storage.objects')
     group by p.schemaname, p.tablename, p.cmd, r.role having count(*) > 1 $$,
  'one permissive policy per table, operation and role (every table of public and private, and storage)');

select * from finish();
rollback;
