-- Admin reports over a date range (orders, occupancy, revenue, sale codes, check-ins).

create function private.require_admin_range(p_from date, p_to date)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
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
-- read ~100-byte rows without per-row function calls (docs/adr/0042-reports-search-calendar-at-scale.md).
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
  -- Berth price (breakdown) plus billed extras without deposits: what the order's invoice bills for
  -- them (not removed, deposits not returned), per VAT rate the gross of the gross-priced lines with
  -- the VAT in it taken out half up (the rule of private.invoice_vat_breakdown), so a report and
  -- the order's invoice agree to the cent.
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
    delete from private.order_report_facts where true;
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
  -- The order's billed extras (net, VAT, gross without deposits) and the deposits it holds.
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
  for each row when (new.order_id is not null) execute function private.order_report_facts_sync();

-- Sales per Berlin arrival day (issue 25, session 12): revenue, check-in rate and sale codes
-- summed a year of order_report_facts (~75k rows) per call. Their sums are additive over days,
-- so they are kept per arrival day, kind and sale code: each row is the aggregate of that day's
-- sale facts, recomputed (not adjusted) whenever a fact of that day is written, so a day's
-- row is by construction what the report summed for that day. A year is ~700-3,000 rows.
-- Derived from order_report_facts by the statement triggers below; no API role reads it.
create table private.report_days (
  id bigint generated always as identity primary key,
  day date not null,
  kind public.order_kind not null,
  -- upper(sale_code) of the orders, null for none.
  sale_code text,
  orders integer not null,
  checked_in integer not null,
  net_cents bigint,
  vat_cents bigint,
  gross_cents bigint,
  paid_cents bigint not null,
  code_nights bigint,
  code_discount_cents bigint,
  code_net_cents bigint,
  -- For the average stay: sums (recomputed per day, never adjusted, so a numeric sum keeps the
  -- scale of the rows it sums and avg = sum / count to the last digit).
  nights bigint not null,
  hours numeric not null,
  boat_length numeric,
  boat_lengths integer not null
);

alter table private.report_days enable row level security;

comment on table private.report_days is 'Reports: per Berlin arrival day, kind and sale code the sums of the sales in order_report_facts (derived by triggers; no API role reads it).';

create index report_days_day_idx on private.report_days (day);

-- Recomputes the rows of the given arrival days (null: of every day, the backfill).
create function private.refresh_report_days(p_days date[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_first timestamptz;
  v_last timestamptz;
begin
  if p_days is null then
    delete from private.report_days where true;
  else
    delete from private.report_days r where r.day = any(p_days);
    select private.berlin_at(min(d), time '00:00'), private.berlin_at(max(d) + 1, time '00:00')
      into v_first, v_last from unnest(p_days) d;
  end if;
  insert into private.report_days (day, kind, sale_code, orders, checked_in, net_cents, vat_cents, gross_cents,
                                   paid_cents, code_nights, code_discount_cents, code_net_cents, nights, hours,
                                   boat_length, boat_lengths)
  select (f.starts_at at time zone 'Europe/Berlin')::date, f.kind, f.sale_code, count(*)::integer,
         (count(*) filter (where f.checked_in))::integer, sum(f.net_cents)::bigint, sum(f.vat_cents)::bigint,
         sum(f.gross_cents)::bigint, sum(f.paid_cents)::bigint, sum(f.code_nights)::bigint,
         sum(f.code_discount_cents)::bigint, sum(f.code_net_cents)::bigint, sum(f.nights)::bigint, sum(f.hours),
         sum(f.boat_length), count(f.boat_length)::integer
  from private.order_report_facts f
  where f.sale
    and (p_days is null
         or (f.starts_at >= v_first and f.starts_at < v_last
             and (f.starts_at at time zone 'Europe/Berlin')::date = any(p_days)))
  group by 1, 2, 3;
end
$$;
comment on function private.refresh_report_days(date[]) is 'Recomputes report_days for the given Berlin arrival days (null: all) from order_report_facts.';
revoke execute on function private.refresh_report_days(date[]) from public;

-- What the derived report tables (report_days, occupancy_spans/_nights) still have to take in:
-- the arrival days and occupations changed since the last flush. Bookings only append here
-- (no lock, no conflict with each other); the reports flush it before they read. Recomputing in
-- the booking's own transaction needed one writer at a time (a day's row is recomputed from the
-- facts, and two transactions doing that at once would each miss the other's uncommitted fact),
-- and a lock taken there and held to commit deadlocked with the exclusion constraint: one booking
-- held the lock and waited for another's overlapping stay, which waited for the lock.
create table private.report_pending (
  id bigint generated always as identity primary key,
  day date,
  place_status_id uuid,
  check (num_nonnulls(day, place_status_id) = 1)
);

alter table private.report_pending enable row level security;

comment on table private.report_pending is 'Reports: arrival days and occupations changed since the derived report tables were last brought up to date (appended by triggers, emptied by private.report_flush; no API role reads it).';

-- Brings report_days and occupancy_spans/_nights up to date with what has committed (and with the
-- caller's own transaction): one flush at a time (an advisory lock to the end of the caller's
-- transaction); it takes the queued keys it sees and recomputes them from the sources as they are
-- now. A change committed while it runs is queued too and is recomputed by the next flush
-- (recomputing is idempotent). The reports call it first; it holds no other lock while waiting.
create function private.report_flush()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_days date[];
  v_ids uuid[];
begin
  perform pg_advisory_xact_lock(hashtextextended('private.report_derived', 0));
  with taken as (
    delete from private.report_pending q returning q.day, q.place_status_id
  )
  select array_agg(distinct t.day) filter (where t.day is not null),
         array_agg(distinct t.place_status_id) filter (where t.place_status_id is not null)
    into v_days, v_ids
  from taken t;
  if v_ids is not null then
    perform private.refresh_occupancy(v_ids);
    -- The calendar's kept rows (40_calendar_realtime.sql) of the same occupations.
    perform private.refresh_calendar_occupations(v_ids);
  end if;
  if v_days is not null then
    perform private.refresh_report_days(v_days);
  end if;
end
$$;
comment on function private.report_flush() is 'Recomputes the derived report tables for the days and occupations queued in report_pending, and the calendar rows of those occupations, one flush at a time; the reports call it before they read.';
revoke execute on function private.report_flush() from public;

create function private.report_days_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_days date[];
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct (n.starts_at at time zone 'Europe/Berlin')::date) into v_days from new_rows n where n.sale;
  else
    select array_agg(distinct (o.starts_at at time zone 'Europe/Berlin')::date) into v_days from old_rows o where o.sale;
  end if;
  if v_days is not null then
    insert into private.report_pending (day) select unnest(v_days);
  end if;
  return null;
end
$$;
comment on function private.report_days_sync() is 'After report facts are written or removed: queues their arrival days for report_days (private.report_flush recomputes them).';
revoke execute on function private.report_days_sync() from public;

-- refresh_order_report_facts deletes and inserts; an update of a fact would not be seen.
create trigger order_report_facts_days_insert after insert on private.order_report_facts
  referencing new table as new_rows for each statement execute function private.report_days_sync();
create trigger order_report_facts_days_delete after delete on private.order_report_facts
  referencing old table as old_rows for each statement execute function private.report_days_sync();

-- Occupied nights (issue 25, session 12): the occupancy report summed each live stay's Berlin
-- nights at query time (two time-zone conversions and a month split per stay: ~75k stays for
-- a year, 300-1,300 ms on Postgres under load). Now the nights are counted when a stay changes:
-- occupancy_spans holds per counted occupation (not cancelled; a service block or an order that
-- is a sale; on a berth not archived) its size class, booked or blocked, and its first and last
-- night (the same expressions the report used); occupancy_nights holds per night, size class
-- and booked/blocked how many berths such spans occupy. A year's report reads ~3,650 rows.
-- Derived data, kept by the transactions that change place_statuses, orders (status) and
-- places (length, archived); not audited (its sources are), no API role reads it.
create table private.occupancy_spans (
  place_status_id uuid primary key,
  size_class text not null,
  -- true: an order's stay; false: a service block.
  booked boolean not null,
  first_night date not null,
  last_night date not null,
  check (first_night <= last_night)
);

alter table private.occupancy_spans enable row level security;

comment on table private.occupancy_spans is 'Reports: per counted occupation (live stay or block on a berth in use) its size class and first and last Berlin night, as counted into occupancy_nights (derived by triggers; no API role reads it).';

create table private.occupancy_nights (
  night date not null,
  size_class text not null,
  booked boolean not null,
  berths integer not null,
  primary key (night, size_class, booked)
);

alter table private.occupancy_nights enable row level security;

comment on table private.occupancy_nights is 'Reports: per Berlin night (the night after that day), size class and booked/blocked the number of berths occupied (derived from occupancy_spans by triggers; no API role reads it).';

-- Re-counts the given occupations (null: all of them, the migration's backfill): takes back
-- what their spans counted, then counts them as they are now. Set-based.
create function private.refresh_occupancy(p_place_status_ids uuid[])
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_place_status_ids is null then
    delete from private.occupancy_spans where true;
    delete from private.occupancy_nights where true;
  else
    with gone as (
      delete from private.occupancy_spans x where x.place_status_id in (select unnest(p_place_status_ids))
      returning x.size_class, x.booked, x.first_night, x.last_night
    ),
    per_night as (
      select g.first_night + i as night, g.size_class, g.booked, count(*)::integer as berths
      from gone g cross join lateral generate_series(0, g.last_night - g.first_night) i
      group by 1, 2, 3
    )
    update private.occupancy_nights n set berths = n.berths - p.berths
    from per_night p
    where n.night = p.night and n.size_class = p.size_class and n.booked = p.booked;
  end if;
  with fresh as (
    insert into private.occupancy_spans (place_status_id, size_class, booked, first_night, last_night)
    select s.id, private.size_class(p.length), s.order_id is not null, x.d1, x.d2
    from public.place_statuses s
    join public.places p on p.id = s.place_id
    left join public.orders o on o.id = s.order_id
    cross join lateral (
      select ((s.starts_at - interval '1 microsecond') at time zone 'Europe/Berlin')::date as d1,
             ((s.ends_at - interval '1 microsecond') at time zone 'Europe/Berlin')::date - 1 as d2
    ) x
    -- in (select unnest(...)): a hashed subplan; = any() compared each row with the whole array.
    where (p_place_status_ids is null or s.id in (select unnest(p_place_status_ids)))
      and not p.archived
      and not s.cancelled
      and (s.order_id is null or o.status in ('confirmed', 'checked_in', 'completed'))
      and x.d1 <= x.d2
    returning size_class, booked, first_night, last_night
  )
  insert into private.occupancy_nights (night, size_class, booked, berths)
  select f.first_night + i, f.size_class, f.booked, count(*)::integer
  from fresh f cross join lateral generate_series(0, f.last_night - f.first_night) i
  group by 1, 2, 3
  on conflict (night, size_class, booked) do update set berths = private.occupancy_nights.berths + excluded.berths;
end
$$;
comment on function private.refresh_occupancy(uuid[]) is 'Re-counts the occupied nights of the given place_statuses (null: of all) into occupancy_spans and occupancy_nights.';
revoke execute on function private.refresh_occupancy(uuid[]) from public;

-- Statement triggers with transition tables, so a set-based change re-counts once.
create function private.occupancy_sync()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids uuid[];
begin
  if tg_table_name = 'place_statuses' then
    if tg_op = 'INSERT' then
      select array_agg(n.id) into v_ids from new_rows n;
    elsif tg_op = 'DELETE' then
      select array_agg(o.id) into v_ids from old_rows o;
    else
      -- type and note: for the calendar's rows (calendar_occupations).
      select array_agg(n.id) into v_ids
      from new_rows n join old_rows o on o.id = n.id
      where (n.place_id, n.order_id, n.starts_at, n.ends_at, n.cancelled, n.type, n.note)
            is distinct from (o.place_id, o.order_id, o.starts_at, o.ends_at, o.cancelled, o.type, o.note);
    end if;
  elsif tg_table_name = 'orders' then
    -- The status for both; expiry, boat name and guest name for the calendar's rows.
    select array_agg(s.id) into v_ids
    from new_rows n join old_rows o on o.id = n.id
    join public.place_statuses s on s.order_id = n.id
    where (n.status, n.expires_at, n.boat ->> 'name', n.person ->> 'first_name', n.person ->> 'last_name')
          is distinct from (o.status, o.expires_at, o.boat ->> 'name', o.person ->> 'first_name', o.person ->> 'last_name');
  elsif tg_table_name = 'berth_blocks' then
    -- A block's reason (calendar only).
    if tg_op = 'INSERT' then
      select array_agg(n.place_status_id) into v_ids from new_rows n;
    elsif tg_op = 'DELETE' then
      select array_agg(o.place_status_id) into v_ids from old_rows o;
    else
      select array_agg(x.place_status_id) into v_ids
      from (select n.place_status_id from new_rows n union select o.place_status_id from old_rows o) x;
    end if;
  else
    select array_agg(s.id) into v_ids
    from new_rows n join old_rows o on o.id = n.id
    join public.place_statuses s on s.place_id = n.id
    where (n.length, n.archived) is distinct from (o.length, o.archived);
  end if;
  if v_ids is not null then
    insert into private.report_pending (place_status_id) select unnest(v_ids);
  end if;
  return null;
end
$$;
comment on function private.occupancy_sync() is 'After a change of place_statuses, of an order''s status, expiry, boat name or guest name, of a block''s reason or of a berth''s length or archived flag: queues the occupations concerned for occupancy_spans/occupancy_nights and calendar_occupations (private.report_flush recomputes them).';
revoke execute on function private.occupancy_sync() from public;

create trigger place_statuses_occupancy_insert after insert on public.place_statuses
  referencing new table as new_rows for each statement execute function private.occupancy_sync();
create trigger place_statuses_occupancy_update after update on public.place_statuses
  referencing old table as old_rows new table as new_rows for each statement execute function private.occupancy_sync();
create trigger place_statuses_occupancy_delete after delete on public.place_statuses
  referencing old table as old_rows for each statement execute function private.occupancy_sync();
create trigger orders_occupancy after update on public.orders
  referencing old table as old_rows new table as new_rows for each statement execute function private.occupancy_sync();
create trigger places_occupancy after update on public.places
  referencing old table as old_rows new table as new_rows for each statement execute function private.occupancy_sync();
-- A block's reason is shown by the calendar (calendar_occupations, 40_calendar_realtime.sql).
create trigger berth_blocks_calendar_insert after insert on public.berth_blocks
  referencing new table as new_rows for each statement execute function private.occupancy_sync();
create trigger berth_blocks_calendar_update after update on public.berth_blocks
  referencing old table as old_rows new table as new_rows for each statement execute function private.occupancy_sync();
create trigger berth_blocks_calendar_delete after delete on public.berth_blocks
  referencing old table as old_rows for each statement execute function private.occupancy_sync();

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
volatile
security definer
set search_path = ''
set jit = off
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  -- What bookings queued since the last report first (reads the derived tables as of now).
  perform private.report_flush();
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
  -- Stays and blocks: the nights counted per night when they changed (occupancy_nights).
  counted_nights as (
    select date_trunc('month', n.night::timestamp)::date as month_start, n.size_class,
           sum(n.berths) filter (where n.booked)::integer as booked,
           sum(n.berths) filter (where not n.booked)::integer as blocked
    from private.occupancy_nights n
    where n.night >= p_from and n.night <= p_to
    group by 1, 2
  ),
  -- Long-term holdings (a few per berth at most), split over the months they touch.
  holdings as (
    select b.size_class, greatest(h.starts_on, p_from) as d1, least(coalesce(h.ends_on, p_to), p_to) as d2
    from public.long_term_holders h
    join berths b on b.id = h.place_id
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
      and greatest(h.starts_on, p_from) <= least(coalesce(h.ends_on, p_to), p_to)
  ),
  counted_holdings as (
    select mm::date as month_start, x.size_class,
           sum(least(x.d2, (mm + interval '1 month')::date - 1) - greatest(x.d1, mm::date) + 1)::integer as long_term
    from holdings x
    cross join lateral generate_series(date_trunc('month', x.d1::timestamp), date_trunc('month', x.d2::timestamp), interval '1 month') mm
    group by 1, 2
  ),
  counted as (
    select coalesce(n.month_start, h.month_start) as month_start, coalesce(n.size_class, h.size_class) as size_class,
           n.booked, h.long_term, n.blocked
    from counted_nights n
    full join counted_holdings h on h.month_start = n.month_start and h.size_class = n.size_class
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
volatile
security invoker
set search_path = ''
as $$
  select * from private.report_occupancy(p_from, p_to)
$$;
comment on function public.report_occupancy(date, date) is 'Admins: per month and berth size class the berth-nights, booked, long-term and blocked nights and the occupancy in percent.';
revoke execute on function public.report_occupancy(date, date) from anon, public;

-- Sales (confirmed, checked_in, completed) whose arrival lies in the range, with the Berlin
-- arrival day and nights as plain columns. "Of which paid" is what the payments ledger holds
-- for them, net of refunds (a partly refunded stay counts what was kept).
create function private.report_revenue(p_from date, p_to date)
returns table (
  month date, kind public.order_kind, orders integer, net_cents bigint, vat_cents bigint, gross_cents bigint,
  paid_gross_cents bigint
)
language plpgsql
volatile
security definer
set search_path = ''
set jit = off
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  -- What bookings queued since the last report first (reads the derived tables as of now).
  perform private.report_flush();
  return query
  -- The facts hold per order the berth price plus extras and what the ledger holds less the
  -- deposits the order still holds (a part payment counts towards them first).
  -- Summed per arrival day, kind and sale code in report_days (issue 25, session 12).
  select date_trunc('month', r.day::timestamp)::date, r.kind, sum(r.orders)::integer, sum(r.net_cents)::bigint,
         sum(r.vat_cents)::bigint, sum(r.gross_cents)::bigint, coalesce(sum(r.paid_cents), 0)::bigint
  from private.report_days r
  where r.day >= p_from and r.day <= p_to
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
volatile
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
volatile
security definer
set search_path = ''
set jit = off
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  -- What bookings queued since the last report first (reads the derived tables as of now).
  perform private.report_flush();
  return query
  -- avg() is sum / count (numeric_div), here over the day sums of report_days.
  select r.kind, sum(r.orders)::integer, sum(r.nights)::integer,
         case when r.kind = 'day' then null else round(sum(r.nights) / sum(r.orders), 2) end,
         case when r.kind = 'day' then round(sum(r.hours) / sum(r.orders), 2) end,
         round(sum(r.boat_length) / nullif(sum(r.boat_lengths), 0), 2)
  from private.report_days r
  where r.day >= p_from and r.day <= p_to
  group by r.kind
  order by r.kind;
end
$$;
comment on function private.report_average_stay(date, date) is 'The rule behind public.report_average_stay (security definer, not exposed by the API).';
revoke execute on function private.report_average_stay(date, date) from public;
grant execute on function private.report_average_stay(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/report_average_stay): runs as the caller, the rule above decides.
create function public.report_average_stay(p_from date, p_to date)
returns TABLE(kind public.order_kind, orders integer, nights integer, average_nights numeric, average_hours numeric, average_boat_length numeric)
language sql
volatile
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
  -- Per country and guest first, then per country: both steps hash (count(distinct) sorted
  -- the year's rows by country and each country's by guest, in the collation's order).
  with per_guest as (
    select f.country, f.guest, count(*) as orders, sum(f.nights) as nights, sum(f.gross_cents) as gross_cents
    from private.order_report_facts f
    where f.sale and f.starts_at >= v_from and f.starts_at < v_to
    group by 1, 2
  )
  select g.country, sum(g.orders)::integer, count(*)::integer, sum(g.nights)::integer, sum(g.gross_cents)::bigint
  from per_guest g
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
volatile
security definer
set search_path = ''
set jit = off
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  -- What bookings queued since the last report first (reads the derived tables as of now).
  perform private.report_flush();
  return query
  with used as (
    select r.sale_code as code, sum(r.orders)::integer as orders, sum(r.code_nights)::integer as nights,
           sum(r.code_discount_cents)::bigint as discount, sum(r.code_net_cents)::bigint as net
    from private.report_days r
    where r.sale_code is not null
      and r.day >= p_from and r.day <= p_to
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
volatile
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
volatile
security definer
set search_path = ''
set jit = off
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  -- What bookings queued since the last report first (reads the derived tables as of now).
  perform private.report_flush();
  return query
  select date_trunc('month', r.day::timestamp)::date, sum(r.orders)::integer, sum(r.checked_in)::integer,
         round(100.0 * sum(r.checked_in)::bigint / sum(r.orders)::bigint, 1)
  from private.report_days r
  where r.day >= p_from and r.day <= least(p_to, private.berlin_date(private.now()))
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
volatile
security invoker
set search_path = ''
as $$
  select * from private.report_check_in_rate(p_from, p_to)
$$;
comment on function public.report_check_in_rate(date, date) is 'Admins: per arrival month the arrivals up to today and how many checked in, in percent (the rest are no-shows).';
revoke execute on function public.report_check_in_rate(date, date) from anon, public;
