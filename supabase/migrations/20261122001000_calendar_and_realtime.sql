-- The harbour calendar: per Berlin day the occupied berths with their status type, for
-- staff; maintenance and reservation blocks that staff add and cancel; the realtime
-- publication of what feeds the calendar.

-- ---------------------------------------------------------------- realtime
-- orders and place_statuses are published by the core migration; the columns on the plan too.
do $$
begin
  if not exists (
    select 1 from pg_catalog.pg_publication_tables
    where pubname = 'supabase_realtime' and schemaname = 'public' and tablename = 'additional_places'
  ) then
    alter publication supabase_realtime add table public.additional_places;
  end if;
end
$$;

-- ---------------------------------------------------------------- berth blocks
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

create function public.add_berth_block(
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
    raise exception 'place_not_found' using errcode = 'P0002';
  end if;
  -- Stale unverified reservations give way, as in the booking functions.
  perform private.expire_orders(p_place_id);
  begin
    insert into public.place_statuses (place_id, type, starts_at, ends_at, note, created_by)
    values (p_place_id, 'service', p_starts_at, p_ends_at, nullif(btrim(p_note), ''), (select auth.uid()))
    returning * into v_row;
  exception when exclusion_violation then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  insert into public.berth_blocks (place_status_id, reason) values (v_row.id, p_reason);
  return v_row;
end
$$;
comment on function public.add_berth_block(uuid, timestamptz, timestamptz, text, text) is 'Staff block a berth (maintenance or reserved) for [starts_at, ends_at); an overlap raises 23P01 berth_no_longer_available.';

create function public.cancel_berth_block(p_place_status_id uuid)
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
    raise exception 'block_not_found' using errcode = 'P0002';
  end if;
  return v_row;
end
$$;
comment on function public.cancel_berth_block(uuid) is 'Staff cancel a maintenance or reserved block (kept, flagged cancelled).';

-- ---------------------------------------------------------------- calendar
-- Day d covers [d 00:00, d+1 00:00) in Europe/Berlin: an overnight stay shows on its arrival
-- day through its departure day. Long-term holders show as type 'long_term'. Cancelled rows
-- and stale unverified reservations (which the booking functions ignore) do not show.
create function private.calendar_days(p_from date, p_to date, p_place_id uuid)
returns table (day date, places jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  with days as (
    select p_from + i as day,
           private.berlin_at(p_from + i, time '00:00') as day_start,
           private.berlin_at(p_from + i + 1, time '00:00') as day_end
    from generate_series(0, p_to - p_from) as i
  ),
  entries as (
    select s.id, s.place_id, p.name as place_name, s.type::text as type, s.order_id,
           s.starts_at, s.ends_at, s.note, o.status::text as order_status,
           o.boat ->> 'name' as boat_name,
           nullif(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'), '') as guest,
           b.reason as block_reason
    from public.place_statuses s
    join public.places p on p.id = s.place_id
    left join public.orders o on o.id = s.order_id
    left join public.berth_blocks b on b.place_status_id = s.id
    where not s.cancelled
      and s.starts_at < private.berlin_at(p_to + 1, time '00:00')
      and s.ends_at > private.berlin_at(p_from, time '00:00')
      and (p_place_id is null or s.place_id = p_place_id)
      and not (o.status is not distinct from 'unverified' and o.expires_at <= private.now())
    union all
    select h.id, h.place_id, p.name, 'long_term', null,
           private.berlin_at(h.starts_on, time '00:00'),
           case when h.ends_on is null then 'infinity'::timestamptz else private.berlin_at(h.ends_on + 1, time '00:00') end,
           h.note, null, h.boat_name,
           nullif(concat_ws(' ', h.first_name, h.last_name), ''),
           null
    from public.long_term_holders h
    join public.places p on p.id = h.place_id
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
      and (p_place_id is null or h.place_id = p_place_id)
  )
  select d.day,
         coalesce(
           jsonb_agg(
             jsonb_build_object(
               'id', e.id, 'place_id', e.place_id, 'place_name', e.place_name, 'type', e.type,
               'order_id', e.order_id, 'order_status', e.order_status,
               'starts_at', e.starts_at,
               'ends_at', case when e.ends_at = 'infinity'::timestamptz then null else e.ends_at end,
               'note', e.note, 'boat_name', e.boat_name, 'guest', e.guest, 'block_reason', e.block_reason)
             order by e.place_name, e.starts_at)
           filter (where e.id is not null),
           '[]'::jsonb) as places
  from days d
  left join entries e on e.starts_at < d.day_end and e.ends_at > d.day_start
  group by d.day
  order by d.day
$$;
comment on function private.calendar_days(date, date, uuid) is 'One row per Berlin day of [p_from, p_to] with the live occupations of all berths (or one) as a jsonb list.';
revoke all on function private.calendar_days(date, date, uuid) from public;

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
revoke all on function private.check_calendar_range(date, date) from public;

create function public.calendar(p_from date, p_to date)
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
comment on function public.calendar(date, date) is 'Staff: per day of [p_from, p_to] (Europe/Berlin) the occupied berths with their status type; one row per day (max_rows never cuts it), an empty list for a free day.';

create function public.place_calendar(p_place_id uuid, p_from date, p_to date)
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
    raise exception 'place_not_found' using errcode = 'P0002';
  end if;
  return query select c.day, c.places from private.calendar_days(p_from, p_to, p_place_id) c;
end
$$;
comment on function public.place_calendar(uuid, date, date) is 'Staff: the calendar of one berth, one row per day with its occupations.';

-- ---------------------------------------------------------------- execute grants
revoke all on function public.add_berth_block(uuid, timestamptz, timestamptz, text, text) from public, anon, authenticated;
revoke all on function public.cancel_berth_block(uuid) from public, anon, authenticated;
revoke all on function public.calendar(date, date) from public, anon, authenticated;
revoke all on function public.place_calendar(uuid, date, date) from public, anon, authenticated;
grant execute on function public.add_berth_block(uuid, timestamptz, timestamptz, text, text) to authenticated;
grant execute on function public.cancel_berth_block(uuid) to authenticated;
grant execute on function public.calendar(date, date) to authenticated;
grant execute on function public.place_calendar(uuid, date, date) to authenticated;
