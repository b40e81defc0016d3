-- Faster calendar and reports. Functions with a SET clause (all private.* helpers) are never
-- inlined and switch search_path on every call; called per row they dominated the cost (1.2 s
-- for a month's calendar of 60 berths, 30 s for a year's occupancy of 1,000 berths on PGlite).
-- Here the bounds are computed once per call and rows use plain expressions.

-- ---------------------------------------------------------------- calendar
create or replace function private.calendar_days(p_from date, p_to date, p_place_id uuid)
returns table (day date, places jsonb)
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
  -- Each live occupation is built once as jsonb, spread over the Berlin days it touches (first
  -- day: its start's date; last day: the date just before its end), then gathered per day.
  return query
  with entries as (
    select p.name as place_name, s.starts_at,
           jsonb_build_object(
             'id', s.id, 'place_id', s.place_id, 'place_name', p.name, 'type', s.type,
             'order_id', s.order_id, 'order_status', o.status, 'starts_at', s.starts_at, 'ends_at', s.ends_at,
             'note', s.note, 'boat_name', o.boat ->> 'name',
             'guest', nullif(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'), ''),
             'block_reason', b.reason) as entry,
           greatest(p_from, (s.starts_at at time zone 'Europe/Berlin')::date) as first_day,
           least(p_to, ((s.ends_at - interval '1 microsecond') at time zone 'Europe/Berlin')::date) as last_day
    from public.place_statuses s
    join public.places p on p.id = s.place_id
    left join public.orders o on o.id = s.order_id
    left join public.berth_blocks b on b.place_status_id = s.id
    where not s.cancelled
      and s.starts_at < v_to
      and s.ends_at > v_from
      and (p_place_id is null or s.place_id = p_place_id)
      and not (o.status is not distinct from 'unverified' and o.expires_at <= v_now)
    union all
    select p.name, (h.starts_on::timestamp at time zone 'Europe/Berlin'),
           jsonb_build_object(
             'id', h.id, 'place_id', h.place_id, 'place_name', p.name, 'type', 'long_term',
             'order_id', null, 'order_status', null,
             'starts_at', (h.starts_on::timestamp at time zone 'Europe/Berlin'),
             'ends_at', ((h.ends_on + 1)::timestamp at time zone 'Europe/Berlin'),
             'note', h.note, 'boat_name', h.boat_name,
             'guest', nullif(concat_ws(' ', h.first_name, h.last_name), ''),
             'block_reason', null),
           greatest(p_from, h.starts_on),
           least(p_to, coalesce(h.ends_on, p_to))
    from public.long_term_holders h
    join public.places p on p.id = h.place_id
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
      and (p_place_id is null or h.place_id = p_place_id)
  ),
  per_day as (
    select e.first_day + i as day,
           jsonb_agg(e.entry order by e.place_name, e.starts_at) as places
    from entries e
    cross join lateral generate_series(0, e.last_day - e.first_day) as i
    group by 1
  )
  select (p_from + i)::date, coalesce(pd.places, '[]'::jsonb)
  from generate_series(0, p_to - p_from) as i
  left join per_day pd on pd.day = p_from + i
  order by 1;
end
$$;
comment on function private.calendar_days(date, date, uuid) is 'One row per Berlin day of [p_from, p_to] with the live occupations of all berths (or one) as a jsonb list.';

-- ---------------------------------------------------------------- occupancy
-- The nights of a stay [s, e): d from ((s - 1 µs) in Berlin)::date to ((e - 1 µs) in Berlin)::date - 1,
-- i.e. the days d whose following midnight lies inside the stay; counted per month by
-- intersecting that date range with the month.
create or replace function public.report_occupancy(p_from date, p_to date)
returns table (
  month date, size_class text, berths integer, berth_nights integer, booked_nights integer,
  long_term_nights integer, blocked_nights integer, occupancy_percent numeric
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 2, time '00:00');
  return query
  with berths as (
    select p.id, private.size_class(p.length) as size_class
    from public.places p where not p.archived
  ),
  classes as (
    select b.size_class, count(*)::integer as berths from berths b group by 1
  ),
  months as (
    select m::date as month_start,
           least((m + interval '1 month')::date - 1, p_to) as month_end,
           greatest(m::date, p_from) as first_day
    from generate_series(date_trunc('month', p_from::timestamp), date_trunc('month', p_to::timestamp), interval '1 month') m
  ),
  spans as (
    select b.size_class, s.order_id is not null as booked,
           ((s.starts_at - interval '1 microsecond') at time zone 'Europe/Berlin')::date as d1,
           ((s.ends_at - interval '1 microsecond') at time zone 'Europe/Berlin')::date - 1 as d2
    from public.place_statuses s
    join berths b on b.id = s.place_id
    left join public.orders o on o.id = s.order_id
    where not s.cancelled
      and s.starts_at < v_to and s.ends_at > v_from
      and (s.order_id is null or o.status in ('confirmed', 'checked_in', 'completed'))
    union all
    select b.size_class, null, h.starts_on, coalesce(h.ends_on, p_to)
    from public.long_term_holders h
    join berths b on b.id = h.place_id
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
  ),
  counted as (
    select m.month_start, x.size_class,
           sum(least(x.d2, m.month_end) - greatest(x.d1, m.first_day) + 1) filter (where x.booked)::integer as booked,
           sum(least(x.d2, m.month_end) - greatest(x.d1, m.first_day) + 1) filter (where x.booked is null)::integer as long_term,
           sum(least(x.d2, m.month_end) - greatest(x.d1, m.first_day) + 1) filter (where not x.booked)::integer as blocked
    from spans x
    join months m on x.d1 <= m.month_end and x.d2 >= m.first_day
    group by 1, 2
  )
  select m.month_start, c.size_class, c.berths, c.berths * (m.month_end - m.first_day + 1),
         coalesce(k.booked, 0), coalesce(k.long_term, 0), coalesce(k.blocked, 0),
         round(100.0 * (coalesce(k.booked, 0) + coalesce(k.long_term, 0)) / nullif(c.berths * (m.month_end - m.first_day + 1), 0), 1)
  from months m
  cross join classes c
  left join counted k on k.month_start = m.month_start and k.size_class = c.size_class
  order by m.month_start, private.size_class_rank(c.size_class);
end
$$;

-- ---------------------------------------------------------------- the order reports
-- Sales (confirmed, checked_in, completed) whose arrival lies in the range, with the Berlin
-- arrival day and nights as plain columns.
create or replace function public.report_revenue(p_from date, p_to date)
returns table (
  month date, kind public.order_kind, orders integer, net_cents bigint, vat_cents bigint, gross_cents bigint,
  paid_gross_cents bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  select date_trunc('month', (o.starts_at at time zone 'Europe/Berlin'))::date, o.kind, count(*)::integer,
         sum((o.price_breakdown ->> 'net_cents')::bigint)::bigint,
         sum((o.price_breakdown ->> 'vat_cents')::bigint)::bigint,
         sum(o.price_cents::bigint)::bigint,
         coalesce(sum(o.price_cents::bigint) filter (where o.payment_status = 'paid'), 0)::bigint
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= v_from and o.starts_at < v_to
  group by 1, 2
  order by 1, 2;
end
$$;

create or replace function public.report_average_stay(p_from date, p_to date)
returns table (kind public.order_kind, orders integer, nights integer, average_nights numeric, average_hours numeric, average_boat_length numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  with sales as (
    select o.kind,
           (o.ends_at at time zone 'Europe/Berlin')::date - (o.starts_at at time zone 'Europe/Berlin')::date as nights,
           extract(epoch from (o.ends_at - o.starts_at)) / 3600 as hours,
           (o.boat ->> 'length')::numeric as boat_length
    from public.orders o
    where o.status in ('confirmed', 'checked_in', 'completed')
      and o.starts_at >= v_from and o.starts_at < v_to
  )
  select s.kind, count(*)::integer, sum(s.nights)::integer,
         case when s.kind = 'day' then null else round(avg(s.nights), 2) end,
         case when s.kind = 'day' then round(avg(s.hours), 2) end,
         round(avg(s.boat_length), 2)
  from sales s
  group by s.kind
  order by s.kind;
end
$$;

create or replace function public.report_guests_by_country(p_from date, p_to date)
returns table (country text, orders integer, guests integer, nights integer, gross_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  select nullif(btrim(o.person ->> 'country'), ''), count(*)::integer,
         count(distinct coalesce(nullif(lower(o.email), ''), o.user_id::text, o.id::text))::integer,
         sum((o.ends_at at time zone 'Europe/Berlin')::date - (o.starts_at at time zone 'Europe/Berlin')::date)::integer,
         sum(o.price_cents::bigint)::bigint
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= v_from and o.starts_at < v_to
  group by 1
  order by 2 desc, 1 nulls last;
end
$$;

create or replace function public.report_sale_codes(p_from date, p_to date)
returns table (code text, orders integer, nights integer, discount_cents bigint, net_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  with used as (
    select upper(o.sale_code) as code, count(*)::integer as orders,
           sum((o.price_breakdown ->> 'nights')::integer)::integer as nights,
           sum((o.price_breakdown ->> 'nights')::bigint * 1000 - (o.price_breakdown ->> 'additional_costs_cents')::bigint)::bigint as discount,
           sum((o.price_breakdown ->> 'net_cents')::bigint)::bigint as net
    from public.orders o
    where o.sale_code is not null
      and o.status in ('confirmed', 'checked_in', 'completed')
      and o.starts_at >= v_from and o.starts_at < v_to
    group by 1
  )
  select coalesce(u.code, upper(s.code)), coalesce(u.orders, 0), coalesce(u.nights, 0),
         coalesce(u.discount, 0)::bigint, coalesce(u.net, 0)::bigint
  from used u
  full join public.sale_codes s on upper(s.code) = u.code
  order by 2 desc, 1;
end
$$;

create or replace function public.report_check_in_rate(p_from date, p_to date)
returns table (month date, arrivals integer, checked_in integer, check_in_percent numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(least(p_to, private.berlin_date(private.now())) + 1, time '00:00');
  return query
  select date_trunc('month', (o.starts_at at time zone 'Europe/Berlin'))::date, count(*)::integer,
         count(*) filter (where o.checked_in)::integer,
         round(100.0 * count(*) filter (where o.checked_in) / count(*), 1)
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= v_from and o.starts_at < v_to
  group by 1
  order by 1;
end
$$;

-- Reports filter orders by arrival.
create index if not exists orders_starts_at_idx on public.orders (starts_at);
