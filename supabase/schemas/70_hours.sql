-- Working hours of the harbour staff and their monthly totals.

create table public.working_hours (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  location text not null default 'duesseldorf' check (location = 'duesseldorf'),
  work_date date not null,
  start_time time not null,
  end_time time not null,
  break_minutes integer not null default 0 check (break_minutes between 0 and 600),
  minutes integer generated always as (
    (extract(epoch from (end_time - start_time)) / 60)::integer - break_minutes
  ) stored,
  note text check (char_length(note) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (end_time > start_time),
  check ((extract(epoch from (end_time - start_time)) / 60)::integer > break_minutes),
  -- One person cannot work two shifts at once (touching is fine: 08:00-12:00 and 12:00-16:00).
  constraint working_hours_no_overlap exclude using gist (
    user_id with =,
    tsrange(work_date + start_time, work_date + end_time) with &&
  )
);

alter table public.working_hours enable row level security;

comment on table public.working_hours is 'A shift of a harbour worker (date, start, end, break) under a location; minutes are computed.';

create index working_hours_user_date_idx on public.working_hours (user_id, work_date);

create index working_hours_date_idx on public.working_hours (work_date);

-- Staff change their own entries only while the month is open: the current and the last
-- month (Europe/Berlin), never a future month.
create function private.hours_open(p_work_date date)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_work_date >= (date_trunc('month', private.berlin_date(private.now())) - interval '1 month')::date
     and p_work_date < (date_trunc('month', private.berlin_date(private.now())) + interval '1 month')::date
$$;
comment on function private.hours_open(date) is 'The date lies in the current or the last month (Europe/Berlin): staff may still edit their hours there.';
revoke execute on function private.hours_open(date) from public;
grant execute on function private.hours_open(date) to authenticated;

-- One permissive policy per role and action (Supabase's advisor): staff their own rows (writes
-- only while the month is open), admins every row.
create policy "working_hours: staff read own, admins all" on public.working_hours
  for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_staff()))
         or (select private.has_role('admin')));

create policy "working_hours: staff insert own in open months, admins all" on public.working_hours
  for insert to authenticated
  with check ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
              or (select private.has_role('admin')));

create policy "working_hours: staff update own in open months, admins all" on public.working_hours
  for update to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
         or (select private.has_role('admin')))
  with check ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
              or (select private.has_role('admin')));

create policy "working_hours: staff delete own in open months, admins all" on public.working_hours
  for delete to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
         or (select private.has_role('admin')));

revoke all on public.working_hours from anon;

revoke truncate on public.working_hours from authenticated;

-- The computed and bookkeeping columns are not written by the API.
revoke insert, update on public.working_hours from authenticated;

grant insert (user_id, location, work_date, start_time, end_time, break_minutes, note) on public.working_hours to authenticated;

grant update (user_id, work_date, start_time, end_time, break_minutes, note) on public.working_hours to authenticated;

create trigger working_hours_touch before update on public.working_hours
  for each row execute function private.touch_updated_at();

create view public.working_hours_monthly
with (security_invoker = true)
as
select h.user_id,
       h.location,
       date_trunc('month', h.work_date)::date as month,
       count(*)::integer as entries,
       sum(h.minutes)::integer as minutes,
       round(sum(h.minutes) / 60.0, 2) as hours,
       pr.first_name,
       pr.last_name
from public.working_hours h
left join public.profiles pr on pr.id = h.user_id
group by h.user_id, h.location, date_trunc('month', h.work_date), pr.first_name, pr.last_name;

comment on view public.working_hours_monthly is 'Hours per person and month (what the reader may see: staff their own, admins everyone''s).';

revoke all on public.working_hours_monthly from anon;

grant select on public.working_hours_monthly to authenticated;

revoke insert, update, delete, truncate on public.working_hours_monthly from authenticated;

-- Writes to a read-only view are refused as a privilege error, not a server error: PostgREST
-- answers "cannot insert into view" (SQLSTATE 55000; a view with GROUP BY is not automatically
-- updatable) with HTTP 500. With INSTEAD OF triggers the view counts as updatable, so the
-- executor checks privileges first (none are granted: 42501 -> 401/403), and the trigger
-- refuses whoever does hold them.
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
revoke execute on function private.refuse_view_write() from public;

create trigger working_hours_monthly_read_only
  instead of insert or update or delete on public.working_hours_monthly
  for each row execute function private.refuse_view_write();
