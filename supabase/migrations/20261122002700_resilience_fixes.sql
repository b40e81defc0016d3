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

-- 2. Writing to the read-only view working_hours_monthly failed in Postgres's rewriter
--    ("cannot insert into view", 55000 -> HTTP 500) before any privilege check. With an
--    INSTEAD OF trigger the privilege check comes first (authenticated has only SELECT:
--    42501 -> 401/403), and a caller who had the privilege is refused as well.
create function private.refuse_view_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'read_only_view' using errcode = '42501', hint = 'This view is read-only.';
end
$$;
comment on function private.refuse_view_write() is 'INSTEAD OF trigger of read-only views: refuses writes with 42501 instead of the rewriter''s 55000.';
revoke all on function private.refuse_view_write() from public;
create trigger working_hours_monthly_read_only
  instead of insert or update or delete on public.working_hours_monthly
  for each row execute function private.refuse_view_write();
