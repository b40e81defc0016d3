-- Admin reports over a date range (orders, occupancy, revenue, sale codes, check-ins).

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
revoke execute on function private.require_admin_range(date, date) from public;

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
revoke execute on function private.size_class(numeric) from public;

create function private.size_class_rank(p_class text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select array_position(array['up_to_8m', '8_to_10m', '10_to_13m', '13_to_16m', 'from_16m'], p_class)
$$;
comment on function private.size_class_rank(text) is 'Sort order of the size classes, smallest first.';
revoke execute on function private.size_class_rank(text) from public;

-- Report facts (issue 25): one narrow row per order with the values the reports sum, computed
-- by the same expressions the reports used on public.orders, public.order_extras and the
-- payments ledger, and kept exact by the transactions that change those rows (triggers below).
-- A year of 75k orders scanned from public.orders (wide: jsonb snapshots, ~780 bytes a row)
-- and with the ledger summed per order cost 40-440 ms per report on PGlite; the reports now
-- read ~100-byte rows without per-row function calls (docs/decisions.md, "Fast reports").
-- Derived data: not audited (the rows it derives from are), no API role reads it.
create table private.order_report_facts (
  order_id uuid primary key references public.orders (id) on delete cascade,
  starts_at timestamptz not null,
  -- status in ('confirmed', 'checked_in', 'completed'): a sale.
  sale boolean not null,
  kind public.order_kind not null,
  -- date_trunc('month', starts_at in Berlin): the arrival month.
  month date not null,
  -- Berlin departure day minus arrival day, and the stay in hours (day stays).
  nights integer not null,
  hours numeric not null,
  boat_length numeric,
  country text,
  -- The distinct guest: lower(e-mail), else the user, else the order.
  guest text not null,
  checked_in boolean not null,
  -- upper(sale_code), and for an order with a code its breakdown's nights, discount against
  -- EUR 10 a night and net cents.
  sale_code text,
  code_nights integer,
  code_discount_cents bigint,
  code_net_cents bigint,
  -- Berth price (breakdown) plus billed extras without deposits (private.extras_revenue).
  net_cents bigint,
  vat_cents bigint,
  gross_cents bigint,
  -- What the ledger holds net of refunds, less the deposits the order still holds, at least 0.
  paid_cents bigint not null
);

alter table private.order_report_facts enable row level security;

comment on table private.order_report_facts is 'Reports: per order the values the admin reports sum (derived from orders, order_extras and payments by triggers; not audited, no API role reads it).';

create index order_report_facts_sale_starts_idx on private.order_report_facts (starts_at) where sale;

-- A numeric read from a jsonb field as the reports read it ((x ->> k)::numeric), or null where
-- that cast would fail (a trigger must not refuse an order the reports would merely fail on).
create function private.jsonb_numeric(p_value jsonb)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_value) = 'number' then (p_value #>> '{}')::numeric
    when jsonb_typeof(p_value) = 'string' and (p_value #>> '{}') ~ '^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$'
      then (p_value #>> '{}')::numeric
  end
$$;
comment on function private.jsonb_numeric(jsonb) is 'A jsonb number (or numeric string) as numeric; null for anything else.';
revoke execute on function private.jsonb_numeric(jsonb) from public;

-- Writes the report facts of one order (p_order_id) or of every order (null: the migration's
-- backfill), set-based.
create function private.refresh_order_report_facts(p_order_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_order_id is null then
    delete from private.order_report_facts;
  else
    delete from private.order_report_facts f where f.order_id = p_order_id;
  end if;
  insert into private.order_report_facts (
    order_id, starts_at, sale, kind, month, nights, hours, boat_length, country, guest, checked_in,
    sale_code, code_nights, code_discount_cents, code_net_cents, net_cents, vat_cents, gross_cents, paid_cents
  )
  select o.id, o.starts_at, o.status in ('confirmed', 'checked_in', 'completed'), o.kind,
         date_trunc('month', (o.starts_at at time zone 'Europe/Berlin'))::date,
         (o.ends_at at time zone 'Europe/Berlin')::date - (o.starts_at at time zone 'Europe/Berlin')::date,
         extract(epoch from (o.ends_at - o.starts_at)) / 3600,
         private.jsonb_numeric(o.boat -> 'length'),
         nullif(btrim(o.person ->> 'country'), ''),
         coalesce(nullif(lower(o.email), ''), o.user_id::text, o.id::text),
         o.checked_in,
         upper(o.sale_code),
         case when o.sale_code is not null then (o.price_breakdown ->> 'nights')::integer end,
         case when o.sale_code is not null
              then (o.price_breakdown ->> 'nights')::bigint * 1000 - (o.price_breakdown ->> 'additional_costs_cents')::bigint end,
         case when o.sale_code is not null then (o.price_breakdown ->> 'net_cents')::bigint end,
         (o.price_breakdown ->> 'net_cents')::bigint + coalesce(x.net_cents, 0),
         (o.price_breakdown ->> 'vat_cents')::bigint + coalesce(x.vat_cents, 0),
         (o.price_breakdown ->> 'gross_cents')::bigint + coalesce(x.gross_cents, 0),
         greatest(coalesce(l.paid_cents, 0) - coalesce(l.refunded_cents, 0) - coalesce(x.deposit_cents, 0), 0)
  from public.orders o
  -- private.extras_revenue(), for these orders.
  left join (
    select r.order_id, sum(r.gross - r.vat) filter (where not r.deposit)::bigint as net_cents,
           sum(r.vat) filter (where not r.deposit)::bigint as vat_cents,
           sum(r.gross) filter (where not r.deposit)::bigint as gross_cents,
           coalesce(sum(r.gross) filter (where r.deposit), 0)::bigint as deposit_cents
    from (
      select e.order_id, e.deposit, sum(e.quantity * e.unit_price_cents)::bigint as gross,
             round(sum(e.quantity * e.unit_price_cents) * e.vat_rate / (100.0 + e.vat_rate))::bigint as vat
      from public.order_extras e
      where e.removed_at is null and e.returned_at is null
        and (p_order_id is null or e.order_id = p_order_id)
      group by e.order_id, e.deposit, e.vat_rate
    ) r
    group by r.order_id
  ) x on x.order_id = o.id
  -- private.order_ledger(), for these orders.
  left join (
    select p.order_id,
           coalesce(sum(p.amount_cents) filter (where p.kind = 'payment' and p.refund_of is null), 0)::bigint as paid_cents,
           (coalesce(sum(p.amount_cents) filter (where p.kind = 'refund'), 0)
            - coalesce(sum(p.amount_cents) filter (where p.kind = 'payment' and p.refund_of is not null), 0))::bigint as refunded_cents
    from public.payments p
    where p_order_id is null or p.order_id = p_order_id
    group by p.order_id
  ) l on l.order_id = o.id
  where p_order_id is null or o.id = p_order_id;
end
$$;
comment on function private.refresh_order_report_facts(uuid) is 'Rewrites the report facts of one order (null: of all orders) from orders, order_extras and payments.';
revoke execute on function private.refresh_order_report_facts(uuid) from public;

create function private.order_report_facts_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'orders' then
    perform private.refresh_order_report_facts(new.id);
  elsif tg_op = 'DELETE' then
    perform private.refresh_order_report_facts(old.order_id);
  else
    perform private.refresh_order_report_facts(new.order_id);
    if tg_op = 'UPDATE' and old.order_id is distinct from new.order_id then
      perform private.refresh_order_report_facts(old.order_id);
    end if;
  end if;
  return null;
end
$$;
comment on function private.order_report_facts_sync() is 'After a change of an order, its extras or its payments: rewrites the order''s report facts in the same transaction.';
revoke execute on function private.order_report_facts_sync() from public;

create trigger orders_report_facts after insert or update of status, kind, starts_at, ends_at, boat, person, email, user_id,
  checked_in, sale_code, price_breakdown on public.orders
  for each row execute function private.order_report_facts_sync();

create trigger order_extras_report_facts after insert or update or delete on public.order_extras
  for each row execute function private.order_report_facts_sync();

create trigger payments_report_facts after insert on public.payments
  for each row execute function private.order_report_facts_sync();

-- A berth-night is the night from day d to d+1; it is occupied when a live booking (or a
-- long-term holding, or a maintenance block) covers midnight at its end. Day stays occupy no
-- night. Berths are the ones not archived.
-- The nights of a stay [s, e): d from ((s - 1 µs) in Berlin)::date to ((e - 1 µs) in Berlin)::date - 1,
-- i.e. the days d whose following midnight lies inside the stay; counted per month by
-- intersecting that date range with the month.
create function private.report_occupancy(p_from date, p_to date)
returns table (
  month date, size_class text, berths integer, berth_nights integer, booked_nights integer,
  long_term_nights integer, blocked_nights integer, occupancy_percent numeric
)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
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
    left join private.order_report_facts f on f.order_id = s.order_id
    where not s.cancelled
      and s.starts_at < v_to and s.ends_at > v_from
      and (s.order_id is null or f.sale)
    union all
    select b.size_class, null, h.starts_on, coalesce(h.ends_on, p_to)
    from public.long_term_holders h
    join berths b on b.id = h.place_id
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
  ),
  -- Each span's nights inside the range, split at month ends: one or two months per span
  -- (a join of every span with every month of the range compared 13 times as many rows).
  clipped as (
    select x.size_class, x.booked, greatest(x.d1, p_from) as d1, least(x.d2, p_to) as d2
    from spans x
    where greatest(x.d1, p_from) <= least(x.d2, p_to)
  ),
  counted as (
    select mm::date as month_start, x.size_class,
           sum(least(x.d2, (mm + interval '1 month')::date - 1) - greatest(x.d1, mm::date) + 1) filter (where x.booked)::integer as booked,
           sum(least(x.d2, (mm + interval '1 month')::date - 1) - greatest(x.d1, mm::date) + 1) filter (where x.booked is null)::integer as long_term,
           sum(least(x.d2, (mm + interval '1 month')::date - 1) - greatest(x.d1, mm::date) + 1) filter (where not x.booked)::integer as blocked
    from clipped x
    cross join lateral generate_series(date_trunc('month', x.d1::timestamp), date_trunc('month', x.d2::timestamp), interval '1 month') mm
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
comment on function private.report_occupancy(date, date) is 'The rule behind public.report_occupancy (security definer, not exposed by the API).';
revoke execute on function private.report_occupancy(date, date) from public;
grant execute on function private.report_occupancy(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/report_occupancy): runs as the caller, the rule above decides.
create function public.report_occupancy(p_from date, p_to date)
returns TABLE(month date, size_class text, berths integer, berth_nights integer, booked_nights integer, long_term_nights integer, blocked_nights integer, occupancy_percent numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.report_occupancy(p_from, p_to)
$$;
comment on function public.report_occupancy(date, date) is 'Admins: per month and berth size class the berth-nights, booked, long-term and blocked nights and the occupancy in percent.';
revoke execute on function public.report_occupancy(date, date) from anon, public;

-- Revenue of an order's extras, per order: what its invoice bills for them (not removed, deposits
-- not returned) less deposits, which are not revenue (0 %, returned in the ledger). Per order and
-- VAT rate the gross of the gross-priced lines, the VAT in it taken out half up: the rule of
-- private.invoice_vat_breakdown, so a report and the order's invoice agree to the cent.
create function private.extras_revenue()
returns table (order_id uuid, net_cents bigint, vat_cents bigint, gross_cents bigint, deposit_cents bigint)
language sql
stable
set search_path = ''
as $$
  select r.order_id, sum(r.gross - r.vat) filter (where not r.deposit)::bigint, sum(r.vat) filter (where not r.deposit)::bigint,
         sum(r.gross) filter (where not r.deposit)::bigint, coalesce(sum(r.gross) filter (where r.deposit), 0)::bigint
  from (
    select e.order_id, e.deposit, sum(e.quantity * e.unit_price_cents)::bigint as gross,
           round(sum(e.quantity * e.unit_price_cents) * e.vat_rate / (100.0 + e.vat_rate))::bigint as vat
    from public.order_extras e
    where e.removed_at is null and e.returned_at is null
    group by e.order_id, e.deposit, e.vat_rate
  ) r
  group by r.order_id
$$;
comment on function private.extras_revenue() is 'Per order the net, VAT and gross cents of its billed extras without deposits (the VAT rule of invoice_vat_breakdown), and the deposits it holds: the reports add the first to the berth price and leave the deposits out of what is paid.';
revoke execute on function private.extras_revenue() from public;

-- Sales (confirmed, checked_in, completed) whose arrival lies in the range, with the Berlin
-- arrival day and nights as plain columns. "Of which paid" is what the payments ledger holds
-- for them, net of refunds (a partly refunded stay counts what was kept).
create function private.report_revenue(p_from date, p_to date)
returns table (
  month date, kind public.order_kind, orders integer, net_cents bigint, vat_cents bigint, gross_cents bigint,
  paid_gross_cents bigint
)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  -- The facts hold per order the berth price plus extras and what the ledger holds less the
  -- deposits the order still holds (a part payment counts towards them first).
  select f.month, f.kind, count(*)::integer, sum(f.net_cents)::bigint, sum(f.vat_cents)::bigint,
         sum(f.gross_cents)::bigint, coalesce(sum(f.paid_cents), 0)::bigint
  from private.order_report_facts f
  where f.sale and f.starts_at >= v_from and f.starts_at < v_to
  group by 1, 2
  order by 1, 2;
end
$$;
comment on function private.report_revenue(date, date) is 'The rule behind public.report_revenue (security definer, not exposed by the API).';
revoke execute on function private.report_revenue(date, date) from public;
grant execute on function private.report_revenue(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/report_revenue): runs as the caller, the rule above decides.
create function public.report_revenue(p_from date, p_to date)
returns TABLE(month date, kind public.order_kind, orders integer, net_cents bigint, vat_cents bigint, gross_cents bigint, paid_gross_cents bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.report_revenue(p_from, p_to)
$$;
comment on function public.report_revenue(date, date) is 'Admins: per arrival month and kind of stay the number of sales and net, VAT and gross cents (berth and extras as invoiced, deposits left out), and how much of it is paid (the ledger, net of refunds).';
revoke execute on function public.report_revenue(date, date) from anon, public;

create function private.report_average_stay(p_from date, p_to date)
returns table (kind public.order_kind, orders integer, nights integer, average_nights numeric, average_hours numeric, average_boat_length numeric)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
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
    select f.kind, f.nights, f.hours, f.boat_length
    from private.order_report_facts f
    where f.sale and f.starts_at >= v_from and f.starts_at < v_to
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
comment on function private.report_average_stay(date, date) is 'The rule behind public.report_average_stay (security definer, not exposed by the API).';
revoke execute on function private.report_average_stay(date, date) from public;
grant execute on function private.report_average_stay(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/report_average_stay): runs as the caller, the rule above decides.
create function public.report_average_stay(p_from date, p_to date)
returns TABLE(kind public.order_kind, orders integer, nights integer, average_nights numeric, average_hours numeric, average_boat_length numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.report_average_stay(p_from, p_to)
$$;
comment on function public.report_average_stay(date, date) is 'Admins: per kind of stay the sales, nights and average nights (day stays: average hours) and average boat length.';
revoke execute on function public.report_average_stay(date, date) from anon, public;

create function private.report_guests_by_country(p_from date, p_to date)
returns table (country text, orders integer, guests integer, nights integer, gross_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
set work_mem = '64MB'
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  select f.country, count(*)::integer, count(distinct f.guest)::integer, sum(f.nights)::integer,
         sum(f.gross_cents)::bigint
  from private.order_report_facts f
  where f.sale and f.starts_at >= v_from and f.starts_at < v_to
  group by 1
  order by 2 desc, 1 nulls last;
end
$$;
comment on function private.report_guests_by_country(date, date) is 'The rule behind public.report_guests_by_country (security definer, not exposed by the API).';
revoke execute on function private.report_guests_by_country(date, date) from public;
grant execute on function private.report_guests_by_country(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/report_guests_by_country): runs as the caller, the rule above decides.
create function public.report_guests_by_country(p_from date, p_to date)
returns TABLE(country text, orders integer, guests integer, nights integer, gross_cents bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.report_guests_by_country(p_from, p_to)
$$;
comment on function public.report_guests_by_country(date, date) is 'Admins: per country of the booking person the sales, distinct guests (by e-mail), nights and gross cents (berth and extras, deposits left out); null = not given.';
revoke execute on function public.report_guests_by_country(date, date) from anon, public;

create function private.report_sale_codes(p_from date, p_to date)
returns table (code text, orders integer, nights integer, discount_cents bigint, net_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
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
    select f.sale_code as code, count(*)::integer as orders, sum(f.code_nights)::integer as nights,
           sum(f.code_discount_cents)::bigint as discount, sum(f.code_net_cents)::bigint as net
    from private.order_report_facts f
    where f.sale_code is not null
      and f.sale and f.starts_at >= v_from and f.starts_at < v_to
    group by 1
  )
  select coalesce(u.code, upper(s.code)), coalesce(u.orders, 0), coalesce(u.nights, 0),
         coalesce(u.discount, 0)::bigint, coalesce(u.net, 0)::bigint
  from used u
  full join public.sale_codes s on upper(s.code) = u.code
  order by 2 desc, 1;
end
$$;
comment on function private.report_sale_codes(date, date) is 'The rule behind public.report_sale_codes (security definer, not exposed by the API).';
revoke execute on function private.report_sale_codes(date, date) from public;
grant execute on function private.report_sale_codes(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/report_sale_codes): runs as the caller, the rule above decides.
create function public.report_sale_codes(p_from date, p_to date)
returns TABLE(code text, orders integer, nights integer, discount_cents bigint, net_cents bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.report_sale_codes(p_from, p_to)
$$;
comment on function public.report_sale_codes(date, date) is 'Admins: per sale code (unused ones with zero) the sales, nights, the discount against EUR 10 per night and the net cents.';
revoke execute on function public.report_sale_codes(date, date) from anon, public;

create function private.report_check_in_rate(p_from date, p_to date)
returns table (month date, arrivals integer, checked_in integer, check_in_percent numeric)
language plpgsql
stable
security definer
set search_path = ''
set jit = off
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(least(p_to, private.berlin_date(private.now())) + 1, time '00:00');
  return query
  select f.month, count(*)::integer, count(*) filter (where f.checked_in)::integer,
         round(100.0 * count(*) filter (where f.checked_in) / count(*), 1)
  from private.order_report_facts f
  where f.sale and f.starts_at >= v_from and f.starts_at < v_to
  group by 1
  order by 1;
end
$$;
comment on function private.report_check_in_rate(date, date) is 'The rule behind public.report_check_in_rate (security definer, not exposed by the API).';
revoke execute on function private.report_check_in_rate(date, date) from public;
grant execute on function private.report_check_in_rate(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/report_check_in_rate): runs as the caller, the rule above decides.
create function public.report_check_in_rate(p_from date, p_to date)
returns TABLE(month date, arrivals integer, checked_in integer, check_in_percent numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.report_check_in_rate(p_from, p_to)
$$;
comment on function public.report_check_in_rate(date, date) is 'Admins: per arrival month the arrivals up to today and how many checked in, in percent (the rest are no-shows).';
revoke execute on function public.report_check_in_rate(date, date) from anon, public;
