-- Security (issue 13): writes to a read-only view are refused as a privilege error, not a
-- server error. PostgREST answers Postgres' "cannot insert into view" (SQLSTATE 55000, a
-- view with GROUP BY is not automatically updatable) with HTTP 500; the RLS matrix of
-- tests/security found it for every persona. With INSTEAD OF triggers the view counts as
-- updatable, so the executor checks privileges first (none are granted: 42501 -> 401/403),
-- and the trigger refuses whoever does hold them.

create function private.refuse_view_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'read_only_view' using errcode = '42501', detail = tg_table_name || ' is read-only';
end
$$;
comment on function private.refuse_view_write() is 'INSTEAD OF trigger of read-only views: refuses every write with 42501.';
revoke all on function private.refuse_view_write() from public;

create trigger working_hours_monthly_read_only
  instead of insert or update or delete on public.working_hours_monthly
  for each row execute function private.refuse_view_write();
