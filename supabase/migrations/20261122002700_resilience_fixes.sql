-- Findings of the fuzz suite (tests/resilience/fuzz.test.ts, issue 13): bad input must never
-- give a 500.
--
-- 1. "Not found" was raised as SQLSTATE P0002 (no_data_found). PostgREST answers every P0…
--    code except P0001 with HTTP 500, so a wrong or foreign id (cancel_booking, check_in,
--    move_booking, set_message_done, cancel_berth_block, remove_long_term_holder, …) looked
--    like a server error. PT404 is PostgREST's way to choose the status: HTTP 404, body code
--    'PT404', the same message (the app maps errors by message). Every function of public and
--    private that raises P0002 is rewritten in place (same signature, owner, grants, comment),
--    including those of migrations that ran before this one.
do $$
declare
  r record;
begin
  for r in
    select p.oid
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'private') and p.prosrc like '%errcode = ''P0002''%'
  loop
    execute replace(pg_get_functiondef(r.oid), 'errcode = ''P0002''', 'errcode = ''PT404''');
  end loop;
end
$$;

-- 2. Writes to the read-only view working_hours_monthly (the rewriter's 55000 -> HTTP 500) are
--    refused by 20261122002600_security_read_only_views.sql (the same finding, from the security
--    suite).
