-- EXECUTE on the operations functions is granted exactly; their tables have RLS and no API writes.
begin;
select plan(6);

create temporary table ops_functions (name text);
insert into ops_functions values ('add_berth_block'), ('cancel_berth_block'), ('calendar'), ('place_calendar'),
  ('claim_outbox'), ('complete_outbox'), ('send_contact_message'), ('request_service'), ('set_message_done'),
  ('apply_for_long_term_berth'), ('long_term_application_status'), ('long_term_applications_queue'),
  ('answer_long_term_application'), ('assign_long_term_holder'), ('remove_long_term_holder'),
  ('staff_create_booking'), ('move_booking'), ('export_my_data'), ('delete_my_account'),
  ('report_occupancy'), ('report_revenue'), ('report_average_stay'), ('report_guests_by_country'),
  ('report_sale_codes'), ('report_check_in_rate');

select results_eq(
  $$ select p.proname::text collate "default" from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.proname in (select name from ops_functions) and has_function_privilege('anon', p.oid, 'execute') order by 1 $$,
  $$ values ('apply_for_long_term_berth'), ('long_term_application_status'), ('request_service'), ('send_contact_message') $$,
  'anon may execute exactly: apply, application status, contact, service request');
select results_eq(
  $$ select p.proname::text collate "default" from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.proname in (select name from ops_functions) and not has_function_privilege('authenticated', p.oid, 'execute') order by 1 $$,
  $$ values ('claim_outbox'), ('complete_outbox') $$,
  'authenticated may execute all but the outbox functions (permissions are checked inside)');
select results_eq(
  $$ select p.proname::text collate "default" from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.proname in (select name from ops_functions) and has_function_privilege('public', p.oid, 'execute') order by 1 $$,
  $$ select null::text where false $$,
  'nothing is executable by public');
select ok(has_function_privilege('service_role', 'public.claim_outbox(integer)', 'execute')
          and has_function_privilege('service_role', 'public.complete_outbox(bigint, boolean, text)', 'execute'),
  'the service role (send-mail) claims and completes mail');
select is_empty(
  $$ select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relname in ('outbox', 'contact_messages', 'long_term_applications', 'long_term_holder_events', 'invoices', 'berth_blocks')
       and (has_table_privilege('anon', c.oid, 'insert') or has_table_privilege('authenticated', c.oid, 'insert')
            or has_table_privilege('authenticated', c.oid, 'update') or has_table_privilege('authenticated', c.oid, 'delete')) $$,
  'the tables written only by functions take no API writes');
select is_empty(
  $$ select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relname in ('outbox', 'contact_messages', 'long_term_applications', 'long_term_holder_events', 'invoices', 'berth_blocks', 'working_hours')
       and not c.relrowsecurity $$,
  'every operations table has RLS');
select * from finish();
rollback;
