-- Prices and availability: the berth tariffs, the price breakdown of a stay, the quote, the
-- verdict whether a berth can take a boat for a period, and the availability search.

-- The berth tariffs (issue 40, docs/adr/0011-consumer-prices-with-vat.md): the harbour's price
-- list for stays, beside the catalogue of extras (55_extras.sql). Prices are what a consumer
-- pays (PAngV § 3: the total price including VAT), in integer cents, each with its VAT rate; the
-- VAT is taken out of the gross per rate (private.invoice_vat_breakdown). The quote, the booking,
-- the reschedule and the invoices read them through private.price_breakdown; the prices page
-- reads them with the active extras through public.price_list. Three fixed rows: admins change
-- prices, rates and names, never the codes; a booked order keeps its breakdown as booked.
create table public.tariffs (
  code text primary key check (code in ('berth_night_per_metre', 'day_berth_per_metre', 'additional_costs_night')),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 100),
  -- metre_night: per running metre and night; metre_day: per metre, once per day stay; night.
  unit text not null check (unit in ('metre_night', 'metre_day', 'night')),
  gross_cents integer not null check (gross_cents between 1 and 100000),
  vat_rate integer not null check (vat_rate in (0, 7, 19)),
  sort_order integer not null default 0 check (sort_order between 0 and 10000),
  updated_at timestamptz not null default now(),
  constraint tariffs_code_unit check (unit = case code when 'berth_night_per_metre' then 'metre_night'
                                                        when 'day_berth_per_metre' then 'metre_day'
                                                        else 'night' end)
);

alter table public.tariffs enable row level security;

comment on table public.tariffs is 'The berth tariffs (berth per running metre and night, day berth per metre, additional costs per night): names (de, en), gross price in cents (what a consumer pays, PAngV § 3) and VAT rate. Everyone reads them; admins change prices, rates and names (never the three codes); no rows are added or deleted.';

create policy "tariffs: everyone reads" on public.tariffs
  for select to anon, authenticated
  using (true);

create policy "tariffs: admin updates" on public.tariffs
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

revoke insert, delete, truncate, references, trigger on public.tariffs from anon, authenticated;

revoke update on public.tariffs from anon;

-- The spec's price list as consumer prices: 2 EUR, 1 EUR and 10 EUR net plus 19 % VAT.
insert into public.tariffs (code, name, name_en, unit, gross_cents, vat_rate, sort_order) values
  ('berth_night_per_metre', 'Übernachtung, pro laufendem Meter und Nacht', 'Overnight stay, per running metre and night', 'metre_night', 238, 19, 10),
  ('additional_costs_night', 'Nebenkosten pro Nacht (Strom, Wasser, Dusche/WC, Müll)', 'Additional costs per night (electricity, water, showers/toilets, waste)', 'night', 1190, 19, 20),
  ('day_berth_per_metre', 'Tagesliegeplatz ohne Übernachtung, pro Meter', 'Day berth without an overnight stay, per metre', 'metre_day', 119, 19, 30);

-- The code names the tariff the price rules look up: it never changes.
create function private.tariffs_keep_code()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.code is distinct from old.code or new.unit is distinct from old.unit then
    raise exception 'tariff_code_fixed' using errcode = '22023', hint = 'A tariff''s code and unit never change.';
  end if;
  new.updated_at := now();
  return new;
end
$$;
comment on function private.tariffs_keep_code() is 'Before update on tariffs: refuses a change of code or unit, stamps updated_at.';
revoke execute on function private.tariffs_keep_code() from public;

create trigger tariffs_keep_code before update on public.tariffs
  for each row execute function private.tariffs_keep_code();

-- The gross price and VAT rate of a tariff; a missing row is an error, never a free stay.
create function private.tariff(p_code text, out gross_cents integer, out vat_rate integer)
language plpgsql
stable
set search_path = ''
as $$
begin
  select t.gross_cents, t.vat_rate into gross_cents, vat_rate from public.tariffs t where t.code = p_code;
  if not found then
    raise exception 'tariff_missing' using errcode = 'P0001', hint = p_code;
  end if;
end
$$;
comment on function private.tariff(text) is 'The gross price (cents) and VAT rate of a berth tariff by code (tariff_missing when absent).';
revoke execute on function private.tariff(text) from public;

-- The net in a gross amount at a rate (the VAT taken out half up).
create function private.net_of_gross(p_gross bigint, p_rate numeric)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select p_gross - round(p_gross * p_rate / (100 + p_rate))::bigint
$$;
comment on function private.net_of_gross(bigint, numeric) is 'Net cents in a gross amount at a VAT rate in percent (VAT taken out, half up).';
revoke execute on function private.net_of_gross(bigint, numeric) from public;

-- docs/architecture.md "Prices", from the price list: metres rounded up; the berth fee (nights x
-- metres x the tariff per metre and night, a day stay metres x the day tariff) and the
-- additional costs (nights x the tariff per night, or a sale code's value: gross per night), all
-- gross as the guest pays them; the VAT taken out per rate (as on the invoice), net = gross - VAT.
-- The keys of the breakdown before issue 40 keep their meaning (net amounts; vat_rate_percent the
-- berth's rate); the *_gross_cents keys, the rates per item and vat_breakdown are new, and
-- prices_include_vat marks a breakdown priced from the gross list (order_billable_lines bills it
-- in gross lines).
create function private.price_breakdown(
  p_kind public.order_kind,
  p_nights integer,
  p_boat_length numeric,
  p_sale_code text,
  p_additional_per_night integer
)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_day boolean := p_kind = 'day';
  v_metres integer := ceil(p_boat_length)::integer;
  v_nights integer := case when p_kind = 'day' then 0 else p_nights end;
  v_berth record;
  v_add record;
  v_add_per_night integer;
  v_berth_gross bigint;
  v_add_gross bigint;
  v_vat jsonb;
  v_vat_cents bigint;
begin
  v_berth := private.tariff(case when v_day then 'day_berth_per_metre' else 'berth_night_per_metre' end);
  v_add := private.tariff('additional_costs_night');
  v_add_per_night := case when v_day then 0 else coalesce(p_additional_per_night, v_add.gross_cents) end;
  v_berth_gross := case when v_day then v_metres * v_berth.gross_cents else v_nights * v_metres * v_berth.gross_cents end;
  v_add_gross := v_nights * v_add_per_night;
  v_vat := private.invoice_vat_breakdown(
    (select coalesce(jsonb_agg(l), '[]'::jsonb) from (values
      (jsonb_build_object('vat_rate', v_berth.vat_rate, 'quantity', 1, 'unit_gross_cents', v_berth_gross)),
      (jsonb_build_object('vat_rate', v_add.vat_rate, 'quantity', 1, 'unit_gross_cents', v_add_gross))) x(l)
     where (l ->> 'unit_gross_cents')::bigint <> 0));
  v_vat_cents := (select coalesce(sum((v ->> 'vat_cents')::bigint), 0) from jsonb_array_elements(v_vat) v);
  return jsonb_build_object(
    'kind', p_kind,
    'metres', v_metres,
    'nights', v_nights,
    'berth_fee_per_metre_cents', private.net_of_gross(v_berth.gross_cents, v_berth.vat_rate),
    'berth_fee_cents', private.net_of_gross(v_berth_gross, v_berth.vat_rate),
    'additional_costs_per_night_cents', private.net_of_gross(v_add_per_night, v_add.vat_rate),
    'additional_costs_cents', private.net_of_gross(v_add_gross, v_add.vat_rate),
    'sale_code', p_sale_code,
    'net_cents', v_berth_gross + v_add_gross - v_vat_cents,
    'vat_rate_percent', v_berth.vat_rate,
    'vat_cents', v_vat_cents,
    'gross_cents', v_berth_gross + v_add_gross,
    'prices_include_vat', true,
    'berth_fee_per_metre_gross_cents', v_berth.gross_cents,
    'berth_fee_gross_cents', v_berth_gross,
    'berth_vat_rate', v_berth.vat_rate,
    'additional_costs_per_night_gross_cents', v_add_per_night,
    'additional_costs_gross_cents', v_add_gross,
    'additional_costs_vat_rate', v_add.vat_rate,
    'vat_breakdown', v_vat
  );
end
$$;
comment on function private.price_breakdown(public.order_kind, integer, numeric, text, integer) is 'docs/adr/0011-consumer-prices-with-vat.md: from the price list (public.tariffs, gross with VAT rates): metres rounded up, berth fee, additional costs or a sale code''s gross value per night, VAT taken out per rate, net; all cents. Keys before issue 40 keep their (net) meaning; *_gross_cents, rates per item and vat_breakdown added.';
revoke execute on function private.price_breakdown(public.order_kind, integer, numeric, text, integer) from public;

create function private.check_boat(p_boat_length numeric, p_boat_width numeric)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_boat_length is null or p_boat_length < 1.0 or p_boat_length > 60.0 then
    raise exception 'invalid_boat_length' using errcode = '22023', hint = 'Boat length 1.0-60.0 m.';
  end if;
  if p_boat_width is null or p_boat_width < 0.5 or p_boat_width > 15.0 then
    raise exception 'invalid_boat_width' using errcode = '22023', hint = 'Boat width 0.5-15.0 m.';
  end if;
end
$$;
comment on function private.check_boat(numeric, numeric) is 'Validates boat dimensions (length 1.0-60.0 m, width 0.5-15.0 m).';
revoke execute on function private.check_boat(numeric, numeric) from public;

create function private.quote_booking(
  p_kind public.order_kind,
  p_arrival date,
  p_boat_length numeric,
  p_departure date default null,
  p_day_start time default null,
  p_day_end time default null,
  p_sale_code text default null
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_period record;
  v_code record;
  v_quote jsonb;
begin
  perform private.check_boat(p_boat_length, 1.0);
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  select * into v_code from private.sale_code_value(p_sale_code);
  v_quote := private.price_breakdown(
    p_kind, v_period.nights, p_boat_length,
    case when v_code.valid then upper(btrim(p_sale_code)) end,
    case when v_code.valid then v_code.value end);
  return v_quote || jsonb_build_object(
    'sale_code_valid', v_code.valid,
    'starts_at', v_period.starts_at,
    'ends_at', v_period.ends_at);
end
$$;
comment on function private.quote_booking(public.order_kind, date, numeric, date, time, time, text) is 'The rule behind public.quote_booking (security definer, not exposed by the API).';
revoke execute on function private.quote_booking(public.order_kind, date, numeric, date, time, time, text) from public;
grant execute on function private.quote_booking(public.order_kind, date, numeric, date, time, time, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/quote_booking): runs as the caller, the rule above decides.
create function public.quote_booking(p_kind public.order_kind, p_arrival date, p_boat_length numeric, p_departure date DEFAULT NULL::date, p_day_start time DEFAULT NULL::time, p_day_end time DEFAULT NULL::time, p_sale_code text DEFAULT NULL::text)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.quote_booking(p_kind, p_arrival, p_boat_length, p_departure, p_day_start, p_day_end, p_sale_code)
$$;
comment on function public.quote_booking(public.order_kind, date, numeric, date, time, time, text) is 'The price breakdown (cents) of a stay for a boat length, with an optional sale code; wrong codes are recorded and throttled.';
revoke execute on function public.quote_booking(public.order_kind, date, numeric, date, time, time, text) from public;

-- What a berth says to a staff-moved stay over a period (move_booking, reschedule_booking and
-- the timeline's pre-check move_precheck all ask this one function, so the pre-check and the
-- move can never disagree; issue 40, item 3): 'fits', or why not, in this order:
--   too_small             the boat is longer or wider than the berth
--   too_shallow           too shallow for the order's draught at the stay's level (from now on),
--                         as book_berth refuses it (53_draught_depth.sql)
--   day_stay_not_allowed  a day stay on an overnight berth
--   day_guests_only       an overnight (or fair) stay on a day-guest berth
--   long_term             a long-term holder has the berth on a night (a day stay: the day)
--   blocked               a service block (maintenance, reserved) overlaps the period
--   occupied              another live stay overlaps the period
-- The order's own stay does not count, and an open order past its expiry that is still unpaid
-- gives way (the same test as expire_orders, which the moves run before they write). The
-- exclusion constraint stays the guard against a race between the check and the write.
create function private.berth_verdict(p_order public.orders, p_place public.places, p_starts timestamptz, p_ends timestamptz, p_now timestamptz)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  v_first date := private.berlin_date(p_starts);
  v_last date := case when p_order.kind = 'day' then private.berlin_date(p_starts) else private.berlin_date(p_ends) - 1 end;
  v_blocked boolean;
  v_draught numeric := case when jsonb_typeof(p_order.boat -> 'draught') = 'number' then (p_order.boat ->> 'draught')::numeric end;
begin
  if p_place.length < (p_order.boat ->> 'length')::numeric or p_place.width < (p_order.boat ->> 'width')::numeric then
    return 'too_small';
  end if;
  -- The level of the stay's part still ahead (a stay under way: from now), as the warnings take it.
  if v_draught is not null and p_place.depth_cm is not null
     and private.too_shallow(p_place,
                             (select l.level_cm from private.stay_gauge_level(greatest(p_starts, p_now), p_ends) l),
                             v_draught, (select s.margin_cm from public.depth_settings s where s.id = 1)) then
    return 'too_shallow';
  end if;
  if p_order.kind = 'day' and not p_place.one_day then
    return 'day_stay_not_allowed';
  end if;
  if p_order.kind <> 'day' and p_place.one_day then
    return 'day_guests_only';
  end if;
  if exists (
    select 1 from public.long_term_holders h
    where h.place_id = p_place.id and h.starts_on <= v_last and (h.ends_on is null or h.ends_on >= v_first)
      -- ... unless the holder is away for the whole stay (67_holder_absences.sql).
      and not exists (select 1 from public.holder_absences a where a.holder_id = h.id and a.starts_on <= v_first and a.ends_on > v_last)
  ) then
    return 'long_term';
  end if;
  select bool_or(s.order_id is null) into v_blocked
    from public.place_statuses s
    left join public.orders o on o.id = s.order_id
   where s.place_id = p_place.id
     and not s.cancelled
     and s.starts_at < p_ends
     and s.ends_at > p_starts
     and s.order_id is distinct from p_order.id
     and not coalesce(o.status in ('unverified', 'confirmed') and o.expires_at <= p_now and o.payment_status = 'pending', false);
  if v_blocked then
    return 'blocked';
  elsif v_blocked is not null then
    return 'occupied';
  end if;
  return 'fits';
end
$$;
comment on function private.berth_verdict(public.orders, public.places, timestamptz, timestamptz, timestamptz) is 'Whether a berth can take the order''s stay over the period: fits, too_small, too_shallow, day_stay_not_allowed, day_guests_only, long_term, blocked or occupied (the order''s own stay and lapsed unpaid open orders do not count). The one rule of move_booking, reschedule_booking and move_precheck.';
revoke execute on function private.berth_verdict(public.orders, public.places, timestamptz, timestamptz, timestamptz) from public;

-- The moves' refusal of a berth: raises the error of berth_verdict's answer unless it fits.
create function private.check_berth_for(p_order public.orders, p_place public.places, p_starts timestamptz, p_ends timestamptz)
returns void
language plpgsql
stable
set search_path = ''
as $$
declare
  v_verdict text := private.berth_verdict(p_order, p_place, p_starts, p_ends, private.now());
begin
  case v_verdict
    when 'fits' then
      return;
    when 'too_small' then
      raise exception 'boat_does_not_fit' using errcode = '22023';
    when 'too_shallow' then
      raise exception 'berth_too_shallow' using errcode = '22023';
    when 'day_stay_not_allowed', 'day_guests_only' then
      raise exception '%', v_verdict using errcode = '22023';
    else
      raise exception 'berth_no_longer_available' using errcode = '23P01', detail = v_verdict;
  end case;
end
$$;
comment on function private.check_berth_for(public.orders, public.places, timestamptz, timestamptz) is 'Raises unless private.berth_verdict says the berth fits the order''s stay over the period: boat_does_not_fit, berth_too_shallow, day_stay_not_allowed, day_guests_only (22023), berth_no_longer_available (23P01; the verdict long_term, blocked or occupied in DETAIL).';
revoke execute on function private.check_berth_for(public.orders, public.places, timestamptz, timestamptz) from public;

-- The one availability test, read by the search and by the move targets. Its search_path is
-- pinned like every other function's (Supabase's advisor: function_search_path_mutable), which
-- keeps the planner from inlining it into its callers: called once in FROM it runs once per
-- query, and timed against an inlined copy it was as fast (docs/adr/0007-bookable-places-search-path.md).
-- No API role may execute it; every caller is a security definer function.
create function private.bookable_places(
  p_kind public.order_kind,
  p_starts_at timestamptz,
  p_ends_at timestamptz,
  p_boat_length numeric,
  p_boat_width numeric,
  p_now timestamptz
)
returns setof public.places
language sql
stable
set search_path = ''
as $$
  select p.*
  from public.places p
  where not p.archived
    and p.length >= p_boat_length
    and p.width >= p_boat_width
    -- Day stays only on day-guest berths (one_day), and those only for day stays.
    and p.one_day = (p_kind = 'day')
    -- Long-term held on any day of the stay (Berlin days; a day stay has one).
    and not exists (
      select 1 from public.long_term_holders h
      where h.place_id = p.id
        and h.starts_on <= case when p_kind = 'day' then (p_starts_at at time zone 'Europe/Berlin')::date
                                else (p_ends_at at time zone 'Europe/Berlin')::date - 1 end
        and (h.ends_on is null or h.ends_on >= (p_starts_at at time zone 'Europe/Berlin')::date)
        -- ... unless the holder is away for the whole stay (67_holder_absences.sql).
        and not exists (
          select 1 from public.holder_absences a
          where a.holder_id = h.id
            and a.starts_on <= (p_starts_at at time zone 'Europe/Berlin')::date
            and a.ends_on > case when p_kind = 'day' then (p_starts_at at time zone 'Europe/Berlin')::date
                                 else (p_ends_at at time zone 'Europe/Berlin')::date - 1 end
        )
    )
    -- A live occupation overlapping [p_starts_at, p_ends_at); an open order past its expiry
    -- (unverified, or unpaid when it must be paid online) gives way (the booking functions
    -- expire it first); a paid one has no expiry (null) and never gives way. The range test
    -- probes place_statuses_place_end_idx.
    and not exists (
      select 1
      from public.place_statuses s
      left join public.orders o on o.id = s.order_id
      where s.place_id = p.id
        and not s.cancelled
        and s.ends_at > p_starts_at
        and s.starts_at < p_ends_at
        -- Implied by the two tests above; lets the planner probe place_statuses_period_idx
        -- once instead of scanning every stay ever booked (issue 25).
        and tstzrange(s.starts_at, s.ends_at) && tstzrange(p_starts_at, greatest(p_starts_at, p_ends_at), '[]')
        and not coalesce(o.status in ('unverified', 'confirmed') and o.expires_at <= p_now, false)
    )
$$;
comment on function private.bookable_places(public.order_kind, timestamptz, timestamptz, numeric, numeric, timestamptz) is 'Berths a boat fits that are free for [p_starts_at, p_ends_at): not archived, one_day berths for day stays and only for them, no long-term holder, no live occupation (lapsed open orders ignored). Pass now as an argument (a private.now() inside would be a call per row).';
revoke execute on function private.bookable_places(public.order_kind, timestamptz, timestamptz, numeric, numeric, timestamptz) from public;

create function private.search_available_places(
  p_kind public.order_kind,
  p_arrival date,
  p_boat_length numeric,
  p_boat_width numeric,
  p_departure date default null,
  p_day_start time default null,
  p_day_end time default null,
  p_sale_code text default null,
  -- The boat's draught (m): berths too shallow for it at the stay's level are left out
  -- (53_draught_depth.sql; null: no depth test).
  p_boat_draught numeric default null
)
returns table (
  place_id uuid,
  name text,
  pier text,
  description text,
  description_en text,
  image_path text,
  width numeric,
  length numeric,
  one_day boolean,
  features text[],
  "position" double precision[],
  area numeric,
  price_cents integer,
  quote json
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_quote jsonb;
  -- The same quote on every row: its text once, as json (session 14: jsonb would be printed
  -- again per row, ~590 times; json's output is its text, the same characters).
  v_quote_json json;
  v_period record;
  v_starts_at timestamptz;
  v_ends_at timestamptz;
  v_now timestamptz := private.now();
  v_level integer;
  v_margin integer;
begin
  perform private.check_boat(p_boat_length, p_boat_width);
  perform private.check_draught(p_boat_draught);
  v_quote := public.quote_booking(p_kind, p_arrival, p_boat_length, p_departure, p_day_start, p_day_end, p_sale_code);
  v_quote_json := v_quote::text::json;
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  v_starts_at := v_period.starts_at;
  v_ends_at := v_period.ends_at;
  -- No berth for a guest's stay into a harbour closure (the booking would be refused); why is
  -- public.stay_harbour_status's answer, which the search page shows. Staff see the berths (ADR 0053).
  if not private.is_staff() and private.harbour_closed_day(
       p_arrival, case when p_kind = 'day' then p_arrival else p_departure - 1 end) is not null then
    return;
  end if;
  if p_boat_draught is not null then
    v_level := (select l.level_cm from private.stay_gauge_level(v_starts_at, v_ends_at) l);
    v_margin := (select s.margin_cm from public.depth_settings s where s.id = 1);
  end if;
  return query
    select p.id, p.name, p.pier, p.description, p.description_en, p.image_path, p.width, p.length,
           p.one_day, p.features, p.position, p.width * p.length, (v_quote ->> 'gross_cents')::integer, v_quote_json
    from private.bookable_places(p_kind, v_starts_at, v_ends_at, p_boat_length, p_boat_width, v_now) p
    where not private.too_shallow(p, v_level, p_boat_draught, v_margin)
    order by p.width * p.length, p.length, p.name;
end
$$;
comment on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text, numeric) is 'The rule behind public.search_available_places (security definer, not exposed by the API).';
revoke execute on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text, numeric) from public;
grant execute on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text, numeric) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/search_available_places): runs as the caller, the rule above decides.
create function public.search_available_places(p_kind public.order_kind, p_arrival date, p_boat_length numeric, p_boat_width numeric, p_departure date DEFAULT NULL::date, p_day_start time DEFAULT NULL::time, p_day_end time DEFAULT NULL::time, p_sale_code text DEFAULT NULL::text, p_boat_draught numeric DEFAULT NULL::numeric)
returns TABLE(place_id uuid, name text, pier text, description text, description_en text, image_path text, width numeric, length numeric, one_day boolean, features text[], "position" double precision[], area numeric, price_cents integer, quote json)
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.search_available_places(p_kind, p_arrival, p_boat_length, p_boat_width, p_departure, p_day_start, p_day_end, p_sale_code, p_boat_draught)
$$;
comment on function public.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text, numeric) is 'Berths that fit the boat and are free for the whole stay (not long-term held; stale unverified reservations do not block; with p_boat_draught, not too shallow at the stay''s level: search_depth_notice says how many were left out), smallest area first, each with its quote; none for a guest when the harbour is closed on a night of the stay (stay_harbour_status says so).';
revoke execute on function public.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text, numeric) from public;
