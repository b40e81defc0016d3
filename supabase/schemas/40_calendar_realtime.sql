-- The harbour calendar (one row per Berlin day, paged for max_rows) and berth blocks.
-- Tables that feed it are in the supabase_realtime publication (see each table's file).

-- Why a berth is blocked by staff. The block itself is a 'service' row of place_statuses (so
-- the exclusion constraint covers it); this table only says whether it is maintenance or a
-- reservation the harbour holds back (a club visit, an event) without an order.
create table public.berth_blocks (
  place_status_id uuid primary key references public.place_statuses (id) on delete cascade,
  reason text not null check (reason in ('maintenance', 'reserved')),
  created_at timestamptz not null default now()
);

alter table public.berth_blocks enable row level security;

comment on table public.berth_blocks is 'The reason (maintenance or reserved) of a staff block, a service row of place_statuses; written by add_berth_block().';

create policy "berth_blocks: staff read" on public.berth_blocks
  for select to authenticated
  using ((select private.is_staff()));

revoke insert, update, delete, truncate on public.berth_blocks from anon, authenticated;

create function private.add_berth_block(
  p_place_id uuid,
  p_starts_at timestamptz,
  p_ends_at timestamptz,
  p_reason text default 'maintenance',
  p_note text default null
)
returns public.place_statuses
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.place_statuses;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_reason is null or p_reason not in ('maintenance', 'reserved') then
    raise exception 'invalid_block_reason' using errcode = '22023', hint = 'maintenance or reserved';
  end if;
  if p_starts_at is null or p_ends_at is null or p_ends_at <= p_starts_at then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if p_ends_at - p_starts_at > interval '400 days' then
    raise exception 'block_too_long' using errcode = '22023', hint = 'At most 400 days; long-term berths have holders.';
  end if;
  if char_length(p_note) > 2000 then
    raise exception 'note_too_long' using errcode = '22023', hint = 'At most 2000 characters.';
  end if;
  if not exists (select 1 from public.places p where p.id = p_place_id) then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  -- Stale unverified reservations give way, as in the booking functions.
  perform private.expire_orders(p_place_id);
  begin
    insert into public.place_statuses (place_id, type, starts_at, ends_at, note, created_by)
    values (p_place_id, 'service', p_starts_at, p_ends_at, nullif(btrim(p_note), ''), (select auth.uid()))
    returning * into v_row;
  -- Two transactions writing overlapping stays of one berth at the same moment can each wait
  -- for the other at the exclusion constraint (40P01): the one Postgres aborts lost the race.
  exception when exclusion_violation or deadlock_detected then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  insert into public.berth_blocks (place_status_id, reason) values (v_row.id, p_reason);
  return v_row;
end
$$;
comment on function private.add_berth_block(uuid, timestamptz, timestamptz, text, text) is 'The rule behind public.add_berth_block (security definer, not exposed by the API).';
revoke execute on function private.add_berth_block(uuid, timestamptz, timestamptz, text, text) from public;
grant execute on function private.add_berth_block(uuid, timestamptz, timestamptz, text, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/add_berth_block): runs as the caller, the rule above decides.
create function public.add_berth_block(p_place_id uuid, p_starts_at timestamptz, p_ends_at timestamptz, p_reason text DEFAULT 'maintenance'::text, p_note text DEFAULT NULL::text)
returns public.place_statuses
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.add_berth_block(p_place_id, p_starts_at, p_ends_at, p_reason, p_note)
$$;
comment on function public.add_berth_block(uuid, timestamptz, timestamptz, text, text) is 'Staff block a berth (maintenance or reserved) for [starts_at, ends_at); an overlap raises 23P01 berth_no_longer_available.';
revoke execute on function public.add_berth_block(uuid, timestamptz, timestamptz, text, text) from anon, public;

create function private.cancel_berth_block(p_place_status_id uuid)
returns public.place_statuses
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.place_statuses;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  update public.place_statuses s set cancelled = true
   where s.id = p_place_status_id and s.type = 'service'
  returning * into v_row;
  if not found then
    raise exception 'block_not_found' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function private.cancel_berth_block(uuid) is 'The rule behind public.cancel_berth_block (security definer, not exposed by the API).';
revoke execute on function private.cancel_berth_block(uuid) from public;
grant execute on function private.cancel_berth_block(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/cancel_berth_block): runs as the caller, the rule above decides.
create function public.cancel_berth_block(p_place_status_id uuid)
returns public.place_statuses
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.cancel_berth_block(p_place_status_id)
$$;
comment on function public.cancel_berth_block(uuid) is 'Staff cancel a maintenance or reserved block (kept, flagged cancelled).';
revoke execute on function public.cancel_berth_block(uuid) from anon, public;

create function private.check_calendar_range(p_from date, p_to date)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_from is null or p_to is null or p_to < p_from then
    raise exception 'invalid_range' using errcode = '22023';
  end if;
  if p_to - p_from > 366 then
    raise exception 'range_too_long' using errcode = '22023', hint = 'At most 367 days per call.';
  end if;
end
$$;
comment on function private.check_calendar_range(date, date) is 'A calendar range is ordered and at most 367 days long.';
revoke execute on function private.check_calendar_range(date, date) from public;

create function private.calendar(p_from date, p_to date)
returns table (day date, places jsonb)
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
  return query select c.day, c.places from private.calendar_days(p_from, p_to, null) c;
end
$$;
comment on function private.calendar(date, date) is 'The rule behind public.calendar (security definer, not exposed by the API).';
revoke execute on function private.calendar(date, date) from public;
grant execute on function private.calendar(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/calendar): runs as the caller, the rule above decides.
create function public.calendar(p_from date, p_to date)
returns TABLE(day date, places jsonb)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.calendar(p_from, p_to)
$$;
comment on function public.calendar(date, date) is 'Staff: per day of [p_from, p_to] (Europe/Berlin) the occupied berths with their status type; one row per day (max_rows never cuts it), an empty list for a free day.';
revoke execute on function public.calendar(date, date) from anon, public;

create function private.place_calendar(p_place_id uuid, p_from date, p_to date)
returns table (day date, places jsonb)
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
  if not exists (select 1 from public.places p where p.id = p_place_id) then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  return query select c.day, c.places from private.calendar_days(p_from, p_to, p_place_id) c;
end
$$;
comment on function private.place_calendar(uuid, date, date) is 'The rule behind public.place_calendar (security definer, not exposed by the API).';
revoke execute on function private.place_calendar(uuid, date, date) from public;
grant execute on function private.place_calendar(uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/place_calendar): runs as the caller, the rule above decides.
create function public.place_calendar(p_place_id uuid, p_from date, p_to date)
returns TABLE(day date, places jsonb)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.place_calendar(p_place_id, p_from, p_to)
$$;
comment on function public.place_calendar(uuid, date, date) is 'Staff: the calendar of one berth, one row per day with its occupations.';
revoke execute on function public.place_calendar(uuid, date, date) from anon, public;

-- What the calendar shows of each live occupation (issue 25 items 1 and 3, session 14): the
-- whole-harbour month read ~7,300 orders (status, expiry, and boat name and guest from their
-- jsonb) per call, ~80 % of its SQL on PGlite. calendar_occupations holds per live (not
-- cancelled) place_status the row calendar_entries returns, with the order's expiry (the
-- "lapsed hold" test depends on the time of the call, so it stays in the query), computed with
-- the expressions the query used; a GiST index on its period. Kept like the report tables and
-- through their queue: the transactions that change place_statuses, an order's status, expiry,
-- boat name or guest name, or a block's reason only append the occupations concerned to
-- private.report_pending (no lock, so no new lock order between bookings); private.report_flush
-- (the reports, and every five minutes) recomputes them, one flush at a time. Until then calendar_entries reads the pending ones from the live
-- tables, so every answer is exact as of its snapshot (a pending row is never read from the
-- kept table; a row not pending was recomputed after every committed change of its sources).
-- Derived data: RLS on, no policies, no API role reads it; not audited (its sources are).
create table private.calendar_occupations (
  id uuid primary key,
  place_id uuid not null,
  type text not null,
  order_id uuid,
  order_status text,
  expires_at timestamptz,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  note text,
  boat_name text,
  guest text,
  block_reason text
);

alter table private.calendar_occupations enable row level security;

comment on table private.calendar_occupations is 'Calendar: per live place_status the row calendar_entries returns, with its order''s expiry (derived; recomputed by report_flush for the occupations queued in report_pending; no API role reads it).';

create index calendar_occupations_period_idx on private.calendar_occupations using gist (tstzrange(starts_at, ends_at));

-- Every live (not cancelled) place_status as the calendar shows it, computed from place_statuses,
-- orders and berth_blocks: what the flush stores in calendar_occupations and what calendar_entries
-- reads for the pending ones. A view, so the planner takes a caller's conditions (an id list, a
-- range, a berth) into its scan of place_statuses.
create view private.calendar_occupations_live with (security_invoker = true) as
select s.id, s.place_id, s.type::text as type, s.order_id, o.status::text as order_status, o.expires_at, s.starts_at,
       s.ends_at, s.note, o.boat ->> 'name' as boat_name,
       nullif(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'), '') as guest, b.reason as block_reason
from public.place_statuses s
left join public.orders o on o.id = s.order_id
left join public.berth_blocks b on b.place_status_id = s.id
where not s.cancelled;
comment on view private.calendar_occupations_live is 'The calendar row of every live place_status (with its order''s expiry), computed from place_statuses, orders and berth_blocks; calendar_occupations keeps them.';
revoke all on private.calendar_occupations_live from public, anon, authenticated;

-- Recomputes the kept rows of the given place_statuses (null: all, the backfill). Called under
-- report_flush's lock (one at a time); a cancelled or deleted place_status loses its row.
create function private.refresh_calendar_occupations(p_ids uuid[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_ids is null then
    delete from private.calendar_occupations where true;
  else
    delete from private.calendar_occupations c where c.id in (select unnest(p_ids));
  end if;
  -- = any(p_ids): one index scan of the primary key for the given ids (none for an empty array).
  insert into private.calendar_occupations
  select * from private.calendar_occupations_live l where p_ids is null or l.id = any(p_ids);
end
$$;
comment on function private.refresh_calendar_occupations(uuid[]) is 'Rewrites calendar_occupations for the given place_statuses (null: all) from the live tables.';
revoke execute on function private.refresh_calendar_occupations(uuid[]) from public;

-- A month of 1,000 berths is ~7,300 occupations, spread over their days ~20,000 list items:
-- ~8 MB of JSON per month in the day-by-day shape (profiled on PGlite: the scan and joins take
-- ~50 ms, building jsonb per entry and per day the rest, parsing it in the client as much
-- again). So calendar_entries returns one flat row per occupation (no jsonb, no repetition per
-- day; ~4.5 times less data) and the page spreads them over the days it shows; calendar and
-- place_calendar keep their day shape but build each entry once as json text and parse a day's
-- list into jsonb once (string_agg), with work_mem for the per-day sort.
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
    -- The occupations changed since the last flush (report_pending; one statement reads one
    -- snapshot, so the queue and the kept rows agree), once, hashed: after a bulk change (the
    -- seed, a berth's new length) thousands may wait for the five-minute flush, and a probe of
    -- the list per row (`unnest` per row, session 14's first version) grew with both.
    with pending as materialized (
      select distinct q.place_status_id as id from private.report_pending q where q.place_status_id is not null
    )
    select e.id, e.place_id, e.type, e.order_id, e.order_status, e.starts_at, e.ends_at, e.note, e.boat_name,
           e.guest, e.block_reason
    from (
      -- The kept rows (one GiST probe, no orders, no jsonb; session 14) but the pending ones ...
      select * from private.calendar_occupations c
      where not exists (select 1 from pending p where p.id = c.id)
      union all
      -- ... which are read live, only those of the range.
      select * from private.calendar_occupations_live l
      where l.id in (select p.id from pending p)
    ) e
    -- Those of the range (and of the berth, if one is given) but lapsed holds: the planner puts
    -- these conditions into both branches (the range into the GiST probe and into the scan of
    -- place_statuses).
    where e.starts_at < v_to
      and e.ends_at > v_from
      and tstzrange(e.starts_at, e.ends_at) && tstzrange(v_from, v_to)
      and (p_place_id is null or e.place_id = p_place_id)
      and not coalesce(e.order_status in ('unverified', 'confirmed') and e.expires_at <= v_now, false)
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
revoke execute on function private.calendar_entries(date, date, uuid) from public;

-- The berths' occupations for the rows a staff member sees (issue 24 item 3, issue 25 item 3):
-- a month of 1,058 berths is ~7,300 rows, which PostgREST's max_rows (1,000) splits into eight
-- requests that each run the whole query again (~1.6 s on PGlite). The timeline asks for the
-- berths it shows, a block of 50 at a time: one index probe per berth (place_id, starts_at).
create function private.calendar_entries_of(p_from date, p_to date, p_place_ids uuid[])
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
    from (select distinct u.id from unnest(p_place_ids) u(id)) p
    join public.place_statuses s on s.place_id = p.id
    left join lateral (
      select o.status, o.expires_at, o.boat, o.person from public.orders o where o.id = s.order_id offset 0
    ) o on true
    left join public.berth_blocks b on b.place_status_id = s.id
    where not s.cancelled
      and s.starts_at < v_to
      and s.ends_at > v_from
      and not coalesce(o.status in ('unverified', 'confirmed') and o.expires_at <= v_now, false)
    union all
    select h.id, h.place_id, 'long_term', null, null,
           (h.starts_on::timestamp at time zone 'Europe/Berlin'),
           ((h.ends_on + 1)::timestamp at time zone 'Europe/Berlin'),
           h.note, h.boat_name, nullif(concat_ws(' ', h.first_name, h.last_name), ''), null
    from public.long_term_holders h
    where h.place_id = any(p_place_ids)
      and h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from);
end
$$;
comment on function private.calendar_entries_of(date, date, uuid[]) is 'calendar_entries for the listed berths only (one index probe per berth).';
revoke execute on function private.calendar_entries_of(date, date, uuid[]) from public;

create function private.staff_calendar_entries(p_from date, p_to date, p_place_ids uuid[])
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
  if p_place_ids is null then
    return query select * from private.calendar_entries(p_from, p_to, null);
  elsif cardinality(p_place_ids) > 500 then
    raise exception 'too_many_places' using errcode = '22023', hint = 'At most 500 berths per call.';
  else
    return query select * from private.calendar_entries_of(p_from, p_to, p_place_ids);
  end if;
end
$$;
comment on function private.staff_calendar_entries(date, date, uuid[]) is 'The rule behind public.calendar_entries (security definer, not exposed by the API).';
revoke execute on function private.staff_calendar_entries(date, date, uuid[]) from public;
grant execute on function private.staff_calendar_entries(date, date, uuid[]) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/calendar_entries): runs as the caller, the rule above decides.
-- Without p_place_ids every berth (as before); with it, the listed berths (at most 500).
create function public.calendar_entries(p_from date, p_to date, p_place_ids uuid[] default null)
returns TABLE(id uuid, place_id uuid, type text, order_id uuid, order_status text, starts_at timestamptz, ends_at timestamptz, note text, boat_name text, guest text, block_reason text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.staff_calendar_entries(p_from, p_to, p_place_ids)
$$;
comment on function public.calendar_entries(date, date, uuid[]) is 'Staff: every live occupation touching the Berlin days [p_from, p_to] once (ends_at null = open-ended long-term holding), of every berth or of the berths in p_place_ids; the compact form of calendar() for the timeline.';
revoke execute on function public.calendar_entries(date, date, uuid[]) from anon, public;

-- Day d covers [d 00:00, d+1 00:00) in Europe/Berlin: an overnight stay shows on its arrival
-- day through its departure day. Long-term holders show as type 'long_term'. Cancelled rows
-- and stale unverified reservations (which the booking functions ignore) do not show.
create function private.calendar_days(p_from date, p_to date, p_place_id uuid)
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
revoke execute on function private.calendar_days(date, date, uuid) from public;
