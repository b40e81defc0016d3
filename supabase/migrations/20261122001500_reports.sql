-- Admin reports over a date range [p_from, p_to] (Europe/Berlin days, inclusive): occupancy by
-- month and berth size class, revenue by month and kind, average stay, guests by country,
-- sale code use, check-in rate. Orders count by their arrival day; a sale is an order that was
-- confirmed (confirmed, checked_in, completed); unverified, cancelled and expired ones are not.

-- ---------------------------------------------------------------- helpers
create function private.require_admin_range(p_from date, p_to date)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.has_role('admin') then
    raise exception 'admin_only' using errcode = '42501';
  end if;
  if p_from is null or p_to is null or p_to < p_from then
    raise exception 'invalid_range' using errcode = '22023';
  end if;
  if p_to - p_from > 1100 then
    raise exception 'range_too_long' using errcode = '22023', hint = 'At most three years per report.';
  end if;
end
$$;
comment on function private.require_admin_range(date, date) is 'Reports: refuses non-admins (42501) and unordered or over-long ranges (22023).';
revoke all on function private.require_admin_range(date, date) from public;

create function private.size_class(p_length numeric)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_length < 8 then 'up_to_8m'
    when p_length < 10 then '8_to_10m'
    when p_length < 13 then '10_to_13m'
    when p_length < 16 then '13_to_16m'
    else 'from_16m' end
$$;
comment on function private.size_class(numeric) is 'The size class of a berth by its length: up_to_8m, 8_to_10m, 10_to_13m, 13_to_16m, from_16m.';
revoke all on function private.size_class(numeric) from public;

create function private.size_class_rank(p_class text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select array_position(array['up_to_8m', '8_to_10m', '10_to_13m', '13_to_16m', 'from_16m'], p_class)
$$;
comment on function private.size_class_rank(text) is 'Sort order of the size classes, smallest first.';
revoke all on function private.size_class_rank(text) from public;

-- ---------------------------------------------------------------- occupancy
-- A berth-night is the night from day d to d+1; it is occupied when a live booking (or a
-- long-term holding, or a maintenance block) covers midnight at its end. Day stays occupy no
-- night. Berths are the ones not archived.
create function public.report_occupancy(p_from date, p_to date)
returns table (
  month date, size_class text, berths integer, berth_nights integer, booked_nights integer,
  long_term_nights integer, blocked_nights integer, occupancy_percent numeric
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  return query
  with classes as (
    select private.size_class(p.length) as size_class, count(*)::integer as berths
    from public.places p where not p.archived
    group by 1
  ),
  months as (
    select date_trunc('month', d)::date as month, count(*)::integer as days
    from generate_series(0, p_to - p_from) i, lateral (select p_from + i as d) x
    group by 1
  ),
  status_nights as (
    select private.size_class(p.length) as size_class, n.night, s.order_id is not null as booked
    from public.place_statuses s
    join public.places p on p.id = s.place_id and not p.archived
    left join public.orders o on o.id = s.order_id
    cross join lateral (
      select d::date as night
      from generate_series(greatest(p_from, private.berlin_date(s.starts_at) - 1),
                           least(p_to, private.berlin_date(s.ends_at)), interval '1 day') d
    ) n
    where not s.cancelled
      and s.starts_at < private.berlin_at(p_to + 1, time '00:00') + interval '1 day'
      and s.ends_at > private.berlin_at(p_from, time '00:00')
      and (s.order_id is null or o.status in ('confirmed', 'checked_in', 'completed'))
      and s.starts_at <= private.berlin_at(n.night + 1, time '00:00')
      and s.ends_at > private.berlin_at(n.night + 1, time '00:00')
  ),
  holder_nights as (
    select private.size_class(p.length) as size_class, d::date as night
    from public.long_term_holders h
    join public.places p on p.id = h.place_id and not p.archived
    cross join lateral generate_series(greatest(p_from, h.starts_on), least(p_to, coalesce(h.ends_on, p_to)), interval '1 day') d
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
  ),
  counted as (
    select date_trunc('month', x.night)::date as month, x.size_class,
           count(*) filter (where x.what = 'booked')::integer as booked,
           count(*) filter (where x.what = 'long_term')::integer as long_term,
           count(*) filter (where x.what = 'blocked')::integer as blocked
    from (
      select sn.size_class, sn.night, case when sn.booked then 'booked' else 'blocked' end as what from status_nights sn
      union all
      select hn.size_class, hn.night, 'long_term' from holder_nights hn
    ) x
    group by 1, 2
  )
  select m.month, c.size_class, c.berths, c.berths * m.days,
         coalesce(k.booked, 0), coalesce(k.long_term, 0), coalesce(k.blocked, 0),
         round(100.0 * (coalesce(k.booked, 0) + coalesce(k.long_term, 0)) / nullif(c.berths * m.days, 0), 1)
  from months m
  cross join classes c
  left join counted k on k.month = m.month and k.size_class = c.size_class
  order by m.month, private.size_class_rank(c.size_class);
end
$$;
comment on function public.report_occupancy(date, date) is 'Admins: per month and berth size class the berth-nights, booked, long-term and blocked nights and the occupancy in percent.';

-- ---------------------------------------------------------------- revenue
create function public.report_revenue(p_from date, p_to date)
returns table (
  month date, kind public.order_kind, orders integer, net_cents bigint, vat_cents bigint, gross_cents bigint,
  paid_gross_cents bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  return query
  select date_trunc('month', private.berlin_date(o.starts_at))::date, o.kind, count(*)::integer,
         sum((o.price_breakdown ->> 'net_cents')::bigint)::bigint,
         sum((o.price_breakdown ->> 'vat_cents')::bigint)::bigint,
         sum(o.price_cents::bigint)::bigint,
         coalesce(sum(o.price_cents::bigint) filter (where o.payment_status = 'paid'), 0)::bigint
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= private.berlin_at(p_from, time '00:00')
    and o.starts_at < private.berlin_at(p_to + 1, time '00:00')
  group by 1, 2
  order by 1, 2;
end
$$;
comment on function public.report_revenue(date, date) is 'Admins: per arrival month and kind of stay the number of sales and net, VAT and gross cents, and how much of it is paid.';

-- ---------------------------------------------------------------- average stay
create function public.report_average_stay(p_from date, p_to date)
returns table (kind public.order_kind, orders integer, nights integer, average_nights numeric, average_hours numeric, average_boat_length numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  return query
  select o.kind, count(*)::integer,
         sum(private.berlin_date(o.ends_at) - private.berlin_date(o.starts_at))::integer,
         case when o.kind = 'day' then null
              else round(avg(private.berlin_date(o.ends_at) - private.berlin_date(o.starts_at)), 2) end,
         case when o.kind = 'day' then round(avg(extract(epoch from (o.ends_at - o.starts_at)) / 3600), 2) end,
         round(avg((o.boat ->> 'length')::numeric), 2)
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= private.berlin_at(p_from, time '00:00')
    and o.starts_at < private.berlin_at(p_to + 1, time '00:00')
  group by o.kind
  order by o.kind;
end
$$;
comment on function public.report_average_stay(date, date) is 'Admins: per kind of stay the sales, nights and average nights (day stays: average hours) and average boat length.';

-- ---------------------------------------------------------------- guests by country
create function public.report_guests_by_country(p_from date, p_to date)
returns table (country text, orders integer, guests integer, nights integer, gross_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  return query
  select nullif(btrim(o.person ->> 'country'), ''), count(*)::integer,
         count(distinct coalesce(nullif(lower(o.email), ''), o.user_id::text, o.id::text))::integer,
         sum(private.berlin_date(o.ends_at) - private.berlin_date(o.starts_at))::integer,
         sum(o.price_cents::bigint)::bigint
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= private.berlin_at(p_from, time '00:00')
    and o.starts_at < private.berlin_at(p_to + 1, time '00:00')
  group by 1
  order by 2 desc, 1 nulls last;
end
$$;
comment on function public.report_guests_by_country(date, date) is 'Admins: per country of the booking person the sales, distinct guests (by e-mail), nights and gross cents; null = not given.';

-- ---------------------------------------------------------------- sale codes
create function public.report_sale_codes(p_from date, p_to date)
returns table (code text, orders integer, nights integer, discount_cents bigint, net_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  return query
  with used as (
    select upper(o.sale_code) as code, count(*)::integer as orders,
           sum((o.price_breakdown ->> 'nights')::integer)::integer as nights,
           sum((o.price_breakdown ->> 'nights')::bigint * 1000 - (o.price_breakdown ->> 'additional_costs_cents')::bigint)::bigint as discount,
           sum((o.price_breakdown ->> 'net_cents')::bigint)::bigint as net
    from public.orders o
    where o.sale_code is not null
      and o.status in ('confirmed', 'checked_in', 'completed')
      and o.starts_at >= private.berlin_at(p_from, time '00:00')
      and o.starts_at < private.berlin_at(p_to + 1, time '00:00')
    group by 1
  )
  select coalesce(u.code, upper(s.code)), coalesce(u.orders, 0), coalesce(u.nights, 0),
         coalesce(u.discount, 0)::bigint, coalesce(u.net, 0)::bigint
  from used u
  full join public.sale_codes s on upper(s.code) = u.code
  order by 2 desc, 1;
end
$$;
comment on function public.report_sale_codes(date, date) is 'Admins: per sale code (unused ones with zero) the sales, nights, the discount against EUR 10 per night and the net cents.';

-- ---------------------------------------------------------------- check-in rate
create function public.report_check_in_rate(p_from date, p_to date)
returns table (month date, arrivals integer, checked_in integer, check_in_percent numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  return query
  select date_trunc('month', private.berlin_date(o.starts_at))::date, count(*)::integer,
         count(*) filter (where o.checked_in)::integer,
         round(100.0 * count(*) filter (where o.checked_in) / count(*), 1)
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= private.berlin_at(p_from, time '00:00')
    and o.starts_at < private.berlin_at(least(p_to, private.berlin_date(private.now())) + 1, time '00:00')
  group by 1
  order by 1;
end
$$;
comment on function public.report_check_in_rate(date, date) is 'Admins: per arrival month the arrivals up to today and how many checked in, in percent (the rest are no-shows).';

-- ---------------------------------------------------------------- execute grants
revoke all on function public.report_occupancy(date, date) from public, anon, authenticated;
revoke all on function public.report_revenue(date, date) from public, anon, authenticated;
revoke all on function public.report_average_stay(date, date) from public, anon, authenticated;
revoke all on function public.report_guests_by_country(date, date) from public, anon, authenticated;
revoke all on function public.report_sale_codes(date, date) from public, anon, authenticated;
revoke all on function public.report_check_in_rate(date, date) from public, anon, authenticated;
grant execute on function public.report_occupancy(date, date) to authenticated;
grant execute on function public.report_revenue(date, date) to authenticated;
grant execute on function public.report_average_stay(date, date) to authenticated;
grant execute on function public.report_guests_by_country(date, date) to authenticated;
grant execute on function public.report_sale_codes(date, date) to authenticated;
grant execute on function public.report_check_in_rate(date, date) to authenticated;
