-- Harbour operations (issue 11): hours that do not overlap, the inbox live, new long-term
-- applications on the staff overview, and a calendar fast enough for 1,000 berths.

-- ---------------------------------------------------------------- working hours
-- One person cannot work two shifts at once: an entry may not overlap another of the same
-- person (touching is fine: 08:00-12:00 and 12:00-16:00). The other checks (end after start,
-- break shorter than the span) are in the table already.
alter table public.working_hours
  add constraint working_hours_no_overlap exclude using gist (
    user_id with =,
    tsrange(work_date + start_time, work_date + end_time) with &&
  );

-- ---------------------------------------------------------------- inbox and applications live
-- Staff see new contact messages and service requests without reloading (RLS decides per
-- subscriber: staff read all, senders their own); admins see new applications.
do $$
declare
  v_table text;
begin
  foreach v_table in array array['contact_messages', 'long_term_applications'] loop
    if not exists (
      select 1 from pg_catalog.pg_publication_tables
      where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = v_table
    ) then
      execute format('alter publication supabase_realtime add table public.%I', v_table);
    end if;
  end loop;
end
$$;

-- Harbour staff may not read applications (admins answer them), but the overview names the
-- open ones so the team knows someone waits: names, berth and date only.
create function public.open_long_term_applications(p_limit integer default 20)
returns table (id uuid, first_name text, last_name text, place_name text, created_at timestamptz, open_total integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  return query
    select a.id, a.first_name, a.last_name, p.name, a.created_at, (count(*) over ())::integer
    from public.long_term_applications a
    left join public.places p on p.id = a.place_id
    where a.status = 'open'
    order by a.created_at desc, a.queue_number desc
    limit least(greatest(coalesce(p_limit, 20), 1), 100);
end
$$;
comment on function public.open_long_term_applications(integer) is 'Staff: the newest open long-term applications (names, berth, date) and how many are open in all; the details stay with admins.';
revoke all on function public.open_long_term_applications(integer) from public, anon, authenticated;
grant execute on function public.open_long_term_applications(integer) to authenticated;

-- ---------------------------------------------------------------- calendar speed
-- A month of 1,000 berths is ~7,300 occupations, spread over their days ~20,000 list items:
-- ~8 MB of JSON per month in the day-by-day shape. Profiled (EXPLAIN ANALYZE, PGlite): the scan
-- and joins take ~50 ms, building jsonb per entry and jsonb_agg per day the rest, and parsing
-- 8 MB in the client as much again. Two changes:
-- 1. calendar_entries: one flat row per occupation (no jsonb, no repetition per day); the page
--    spreads them over the days it shows. ~4.5 times less data.
-- 2. calendar / place_calendar keep their shape, but each entry is built once as json text and
--    a day's list parsed into jsonb once (string_agg), instead of jsonb_agg re-encoding every
--    entry per day; the per-day sort gets work_mem to stay in memory.
create function private.calendar_entries(p_from date, p_to date, p_place_id uuid)
returns table (
  id uuid, place_id uuid, type text, order_id uuid, order_status text, starts_at timestamptz,
  ends_at timestamptz, note text, boat_name text, guest text, block_reason text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz := private.berlin_at(p_from, time '00:00');
  v_to timestamptz := private.berlin_at(p_to + 1, time '00:00');
  v_now timestamptz := private.now();
begin
  return query
    select s.id, s.place_id, s.type::text, s.order_id, o.status::text, s.starts_at, s.ends_at, s.note,
           o.boat ->> 'name',
           nullif(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'), ''),
           b.reason
    from public.place_statuses s
    left join public.orders o on o.id = s.order_id
    left join public.berth_blocks b on b.place_status_id = s.id
    where not s.cancelled
      and s.starts_at < v_to
      and s.ends_at > v_from
      and (p_place_id is null or s.place_id = p_place_id)
      and not (o.status is not distinct from 'unverified' and o.expires_at <= v_now)
    union all
    select h.id, h.place_id, 'long_term', null, null,
           (h.starts_on::timestamp at time zone 'Europe/Berlin'),
           ((h.ends_on + 1)::timestamp at time zone 'Europe/Berlin'),
           h.note, h.boat_name, nullif(concat_ws(' ', h.first_name, h.last_name), ''), null
    from public.long_term_holders h
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
      and (p_place_id is null or h.place_id = p_place_id);
end
$$;
comment on function private.calendar_entries(date, date, uuid) is 'The live occupations (bookings, blocks, long-term holders) touching the Berlin days [p_from, p_to], one row each.';
revoke all on function private.calendar_entries(date, date, uuid) from public;

create function public.calendar_entries(p_from date, p_to date)
returns table (
  id uuid, place_id uuid, type text, order_id uuid, order_status text, starts_at timestamptz,
  ends_at timestamptz, note text, boat_name text, guest text, block_reason text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  perform private.check_calendar_range(p_from, p_to);
  return query select * from private.calendar_entries(p_from, p_to, null);
end
$$;
comment on function public.calendar_entries(date, date) is 'Staff: every live occupation touching the Berlin days [p_from, p_to] once (ends_at null = open-ended long-term holding); the compact form of calendar() for the calendar page.';
revoke all on function public.calendar_entries(date, date) from public, anon, authenticated;
grant execute on function public.calendar_entries(date, date) to authenticated;

create or replace function private.calendar_days(p_from date, p_to date, p_place_id uuid)
returns table (day date, places jsonb)
language plpgsql
stable
security definer
set search_path = ''
set work_mem = '64MB'
as $$
begin
  return query
  with entries as (
    select pl.name as place_name, e.starts_at,
           json_build_object(
             'id', e.id, 'place_id', e.place_id, 'place_name', pl.name, 'type', e.type,
             'order_id', e.order_id, 'order_status', e.order_status, 'starts_at', e.starts_at,
             'ends_at', e.ends_at, 'note', e.note, 'boat_name', e.boat_name, 'guest', e.guest,
             'block_reason', e.block_reason)::text as entry,
           greatest(p_from, (e.starts_at at time zone 'Europe/Berlin')::date) as first_day,
           least(p_to, coalesce(((e.ends_at - interval '1 microsecond') at time zone 'Europe/Berlin')::date, p_to)) as last_day
    from private.calendar_entries(p_from, p_to, p_place_id) e
    join public.places pl on pl.id = e.place_id
  ),
  per_day as (
    select x.first_day + i as day,
           ('[' || string_agg(x.entry, ',' order by x.place_name, x.starts_at) || ']')::jsonb as places
    from entries x
    cross join lateral generate_series(0, x.last_day - x.first_day) as i
    group by 1
  )
  select (p_from + i)::date, coalesce(pd.places, '[]'::jsonb)
  from generate_series(0, p_to - p_from) as i
  left join per_day pd on pd.day = p_from + i
  order by 1;
end
$$;
comment on function private.calendar_days(date, date, uuid) is 'One row per Berlin day of [p_from, p_to] with the live occupations of all berths (or one) as a jsonb list.';
