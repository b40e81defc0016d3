-- Orders and the booking rules: sale codes and their throttles, orders, berth statuses
-- (the exclusion constraint that forbids double booking), the availability search, the
-- price quote, booking (guest, customer, staff), claiming guest orders, cancelling,
-- check-in, moving a booking and expiry.

create table public.sale_codes (
  id uuid primary key default gen_random_uuid(),
  code text not null check (char_length(code) between 3 and 40),
  type public.sale_code_type not null default 'set-additional-costs',
  value integer not null check (value >= 0),
  created_at timestamptz not null default now(),
  constraint sale_codes_code_format check (code ~ '^[A-Za-z0-9_-]+$'),
  constraint sale_codes_value_max check (value <= 100000)
);

alter table public.sale_codes enable row level security;

comment on table public.sale_codes is 'A discount code; set-additional-costs replaces the additional costs per night by value (cents). Checked only inside the quote and booking functions.';

create unique index sale_codes_code_key on public.sale_codes (upper(code));

create policy "sale_codes: admin reads" on public.sale_codes
  for select to authenticated
  using ((select private.has_role('admin')));

create policy "sale_codes: admin inserts" on public.sale_codes
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "sale_codes: admin updates" on public.sale_codes
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "sale_codes: admin deletes" on public.sale_codes
  for delete to authenticated
  using ((select private.has_role('admin')));

-- Wrong sale codes per session, and per client address (a new anonymous session must not
-- start a new count: 30 wrong codes per hour from one address, which leaves room for a dozen
-- guests on the harbour wifi mistyping). The address comes from the gateway's headers, never
-- from the client. Private: no API role reads it.
create table private.sale_code_attempts (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  attempted_at timestamptz not null default now(),
  client_address inet
);

comment on column private.sale_code_attempts.client_address is 'The client address of the request (from the gateway), for the per-address throttle; null outside an API request.';

alter table private.sale_code_attempts enable row level security;

comment on table private.sale_code_attempts is 'Wrong sale codes entered, per user, for throttling.';

create index sale_code_attempts_user_idx on private.sale_code_attempts (user_id, attempted_at);

create table public.orders (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete set null,
  place_id uuid not null references public.places (id),
  kind public.order_kind not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  status public.order_status not null default 'unverified',
  payment_status public.payment_status not null default 'pending',
  payment_id text,
  price_cents integer not null check (price_cents >= 0),
  price_breakdown jsonb not null,
  email text not null,
  sale_code text,
  place_snapshot jsonb not null,
  boat jsonb not null,
  person jsonb not null,
  expires_at timestamptz,
  checked_in boolean not null default false,
  checked_in_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (ends_at > starts_at),
  check (checked_in = (checked_in_at is not null)),
  -- Bounds on what a booking stores: create_booking keeps only known person and boat fields,
  -- but their values come from the caller. Oversized snapshots are refused (23514, HTTP 400).
  constraint orders_person_size check (octet_length(person::text) <= 4000),
  constraint orders_boat_size check (octet_length(boat::text) <= 1000),
  constraint orders_refunded_is_cancelled check (payment_status <> 'refunded' or status in ('cancelled', 'expired', 'completed')),
  -- How this order is paid, as the admin setting said when it was booked (issue 20): a later
  -- change of the setting does not change what the guest was told.
  payment_mode public.payment_mode not null default 'online_optional',
  -- The number people read out and type (issue 22): HD-<yy>-<4 characters without 0/O, 1/I/L, U>;
  -- set on insert (orders_booking_number). The uuid stays the internal key.
  booking_number text not null
    constraint orders_booking_number_format check (booking_number ~ '^HD-[0-9]{2}-[2-9A-HJKMNP-TV-Z]{4}$')
    constraint orders_booking_number_key unique
);

comment on column public.orders.booking_number is 'The booking number shown to people (pages, e-mails, .ics, invoices, staff lists): HD-<two-digit year of booking>-<4 unambiguous characters>, unique; staff find an order by it.';

comment on column public.orders.expires_at is 'When the order lapses and frees its berth unless something happens first: an unverified guest order (24 hours, at the latest at arrival) unless the e-mail is confirmed, an unpaid online_required order (the hold of harbour_settings.payment_hold_minutes) unless it is paid. Null: it does not lapse.';
comment on column public.orders.payment_mode is 'The payment mode when the order was booked (payment_mode_for at that moment): online_required orders lapse unpaid at expires_at.';

comment on constraint orders_refunded_is_cancelled on public.orders is 'A refunded order is a booking that does not take place (cancelled or expired), or a completed stay refunded in full from Stripe''s dashboard (the app never does that; the ledger records what Stripe reports).';

-- Live in the harbour calendar and the order desk (INSERT and UPDATE; cancel = update).
alter publication supabase_realtime add table public.orders;

alter table public.orders enable row level security;

comment on table public.orders is 'A booking of a berth: who, when, price (cents) with breakdown, snapshots; changed only through functions.';

create index orders_user_idx on public.orders (user_id, starts_at desc);

create index orders_place_idx on public.orders (place_id, starts_at);

create index orders_expiry_idx on public.orders (expires_at) where expires_at is not null;

create index orders_email_idx on public.orders (lower(email)) where status = 'unverified';

create index orders_created_idx on public.orders (created_at desc);

create policy "orders: owner reads own (guests too), staff read all" on public.orders
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

-- No insert, update or delete policies: orders change only through the functions below.
revoke insert, update, delete, truncate on public.orders from anon, authenticated;

create trigger orders_touch before update on public.orders
  for each row execute function private.touch_updated_at();

-- A booking number from 30 characters that cannot be confused when read out or typed (no 0/O,
-- 1/I/L, U): 30^4 = 810,000 per year, drawn at random until unused. The unique constraint is
-- the last word should two bookings draw the same free number at the same instant.
create function private.new_booking_number(p_at timestamptz)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_alphabet constant text := '23456789ABCDEFGHJKMNPQRSTVWXYZ';
  v_number text;
begin
  loop
    v_number := 'HD-' || to_char(p_at at time zone 'Europe/Berlin', 'YY') || '-'
      || (select string_agg(substr(v_alphabet, 1 + floor(random() * 30)::integer, 1), '') from generate_series(1, 4));
    exit when not exists (select 1 from public.orders o where o.booking_number = v_number);
  end loop;
  return v_number;
end
$$;
comment on function private.new_booking_number(timestamptz) is 'A new unused booking number HD-<yy>-XXXX (year in Berlin, 4 characters from 23456789ABCDEFGHJKMNPQRSTVWXYZ).';
revoke execute on function private.new_booking_number(timestamptz) from public;

create function private.orders_set_booking_number()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.booking_number := coalesce(new.booking_number, private.new_booking_number(coalesce(new.created_at, private.now())));
  return new;
end
$$;
comment on function private.orders_set_booking_number() is 'Before insert on orders: gives the order its booking number.';
revoke execute on function private.orders_set_booking_number() from public;

create trigger orders_booking_number before insert on public.orders
  for each row execute function private.orders_set_booking_number();

create table public.place_statuses (
  id uuid primary key default gen_random_uuid(),
  place_id uuid not null references public.places (id) on delete cascade,
  order_id uuid references public.orders (id) on delete cascade,
  type public.place_status_type not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  note text check (char_length(note) <= 2000),
  cancelled boolean not null default false,
  created_by uuid default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (ends_at > starts_at),
  check ((type = 'service') = (order_id is null)),
  -- No double booking, ever: two live rows of one berth never overlap in time. Cancelled rows
  -- are kept (cancel by update) and do not count.
  constraint place_statuses_no_overlap exclude using gist (
    place_id with =,
    tstzrange(starts_at, ends_at) with &&
  ) where (not cancelled)
);

-- The harbour calendar is live. Clients subscribe to INSERT and UPDATE (cancel = update).
alter publication supabase_realtime add table public.place_statuses;

alter table public.place_statuses enable row level security;

comment on table public.place_statuses is 'Occupation of a berth in time (reservation, rent, service); cancelled instead of deleted.';

create index place_statuses_order_idx on public.place_statuses (order_id);

create index place_statuses_place_time_idx on public.place_statuses (place_id, starts_at);

create policy "place_statuses: staff read" on public.place_statuses
  for select to authenticated
  using ((select private.is_staff()));

create policy "place_statuses: staff insert service blocks" on public.place_statuses
  for insert to authenticated
  with check ((select private.is_staff()) and type = 'service' and order_id is null);

create policy "place_statuses: staff update service blocks" on public.place_statuses
  for update to authenticated
  using ((select private.is_staff()) and type = 'service')
  with check ((select private.is_staff()) and type = 'service' and order_id is null);

revoke delete, truncate on public.place_statuses from anon, authenticated;

create trigger place_statuses_touch before update on public.place_statuses
  for each row execute function private.touch_updated_at();

-- The half-open time range of a stay, after the rules of docs/architecture.md "Bookings".
create function private.stay_period(
  p_kind public.order_kind,
  p_arrival date,
  p_departure date,
  p_day_start time,
  p_day_end time,
  out starts_at timestamptz,
  out ends_at timestamptz,
  out nights integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_today date := private.berlin_date(private.now());
begin
  if p_kind is null or p_arrival is null then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if p_kind = 'day' then
    if p_day_start is null or p_day_end is null or p_day_start < time '08:00' or p_day_end > time '22:00'
       or p_day_end <= p_day_start or p_day_end - p_day_start > interval '5 hours'
       or (p_departure is not null and p_departure <> p_arrival) then
      raise exception 'invalid_day_window' using errcode = '22023',
        hint = 'A day stay is one window of at most 5 hours within 08:00-22:00.';
    end if;
    starts_at := private.berlin_at(p_arrival, p_day_start);
    ends_at := private.berlin_at(p_arrival, p_day_end);
    nights := 0;
  else
    if p_departure is null or p_departure <= p_arrival then
      raise exception 'invalid_period' using errcode = '22023';
    end if;
    nights := p_departure - p_arrival;
    if nights > 90 then
      raise exception 'stay_too_long' using errcode = '22023', hint = 'At most 90 nights; long-term berths are by contract.';
    end if;
    if p_kind = 'fair' and not exists (
      select 1 from public.fair_periods f
      where f.starts_on <= p_arrival and f.ends_on >= p_departure - 1
    ) then
      raise exception 'outside_fair_period' using errcode = '22023';
    end if;
    starts_at := private.berlin_at(p_arrival, time '14:00');
    ends_at := private.berlin_at(p_departure, time '12:00');
  end if;
  if p_arrival < v_today or ends_at <= private.now() then
    raise exception 'period_in_past' using errcode = '22023';
  end if;
  -- The booking horizon (harbour_settings, 45): the stay ends by the last bookable day.
  if coalesce(p_departure, p_arrival) > private.booking_last_day() then
    raise exception 'beyond_booking_horizon' using errcode = '22023',
      hint = to_char(private.booking_last_day(), 'YYYY-MM-DD');
  end if;
end
$$;
comment on function private.stay_period(public.order_kind, date, date, time, time) is 'Validates a stay and returns its [starts_at, ends_at) in Europe/Berlin and its nights (date difference).';
revoke execute on function private.stay_period(public.order_kind, date, date, time, time) from public;

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
comment on function private.price_breakdown(public.order_kind, integer, numeric, text, integer) is 'ARCHITECTURE.md "Prices" from the price list (public.tariffs, gross with VAT rates): metres rounded up, berth fee, additional costs or a sale code''s gross value per night, VAT taken out per rate, net; all cents. Keys before issue 40 keep their (net) meaning; *_gross_cents, rates per item and vat_breakdown added.';
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

-- Open orders lapse at expires_at and free their berth: unverified guest orders 24 hours after
-- booking (at the latest at arrival), unpaid orders whose kind must be paid online after the
-- payment hold (payment_hold_minutes, at the latest at arrival). Checked-in orders whose
-- departure has passed are completed. A paid order never expires: the first payment in the
-- ledger clears expires_at (35_payments_invoices.sql), and only orders whose payment is still
-- pending are expired here.
create function private.expire_orders(p_place_id uuid default null)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := private.now();
  v_count integer;
begin
  with expired as (
    update public.orders o
       set status = 'expired'
     where o.status in ('unverified', 'confirmed') and o.expires_at <= v_now and o.payment_status = 'pending'
       and (p_place_id is null or o.place_id = p_place_id)
    returning o.id
  ), freed as (
    update public.place_statuses s
       set cancelled = true
      from expired e
     where s.order_id = e.id and not s.cancelled
    returning s.id
  )
  select count(*) into v_count from expired;
  if p_place_id is null then
    update public.orders o set status = 'completed'
     where o.status = 'checked_in' and o.ends_at <= v_now;
  end if;
  return v_count;
end
$$;
comment on function private.expire_orders(uuid) is 'Expires open orders past expires_at that are still unpaid (unverified guest orders, unpaid online_required orders; all, or of one berth) and frees their berth; completes past checked-in orders.';
revoke execute on function private.expire_orders(uuid) from public;

create function public.expire_unverified_orders()
returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  select private.expire_orders(null)
$$;
comment on function public.expire_unverified_orders() is 'Periodic cleanup (pg_cron on hosted, a timer in the local stack): expires lapsed orders (unverified, or unpaid when online payment is required), completes past stays.';
revoke execute on function public.expire_unverified_orders() from anon, authenticated, public;

create function private.claim_guest_orders()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_email text;
  v_count integer;
begin
  select lower(u.email) into v_email
  from auth.users u
  where u.id = v_uid and not u.is_anonymous and u.email_confirmed_at is not null;
  if v_email is null then
    raise exception 'verified_account_required' using errcode = '42501';
  end if;
  -- An order that must be paid online keeps its payment deadline (it lapses unpaid).
  update public.orders o
     set user_id = v_uid, status = 'confirmed',
         expires_at = case when o.payment_mode = 'online_required' and o.payment_status = 'pending' then o.expires_at end
    from auth.users g
   where g.id = o.user_id and g.is_anonymous
     and lower(o.email) = v_email
     -- A paid guest order has no expiry any more (it never expires) and is claimed too.
     and o.status = 'unverified' and (o.expires_at is null or o.expires_at > private.now());
  get diagnostics v_count = row_count;
  return v_count;
end
$$;
comment on function private.claim_guest_orders() is 'The rule behind public.claim_guest_orders (security definer, not exposed by the API).';
revoke execute on function private.claim_guest_orders() from public;
grant execute on function private.claim_guest_orders() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/claim_guest_orders): runs as the caller, the rule above decides.
create function public.claim_guest_orders()
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.claim_guest_orders()
$$;
comment on function public.claim_guest_orders() is 'After an e-mail code login: moves the open orders of guest sessions carrying this verified address to the caller and confirms them.';
revoke execute on function public.claim_guest_orders() from anon, public;

create function private.cancel_booking(p_order_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_staff boolean := private.is_staff();
  v_order public.orders;
  v_terms jsonb;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found or (v_order.user_id is distinct from v_uid and not v_staff) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.status not in ('unverified', 'confirmed', 'checked_in') or (v_order.status = 'checked_in' and not v_staff) then
    raise exception 'order_not_cancellable' using errcode = 'P0001';
  end if;
  if not v_staff and private.now() >= v_order.starts_at then
    raise exception 'order_not_cancellable' using errcode = 'P0001', hint = 'Customers cancel before arrival.';
  end if;
  -- The cancellation policy (47_cancellation_policy.sql): the terms the dialog showed, kept
  -- share recorded in the same update (the invoice documents follow it); what goes back to the
  -- card is recorded as one refund request under a key derived from the order, which
  -- refund-payment sends (a retry is the same request: one refund).
  v_terms := private.cancellation_terms(v_order, v_staff and v_order.user_id is distinct from v_uid);
  update public.orders o set status = 'cancelled', cancelled_at = private.now(),
         cancellation_kept_cents = (v_terms ->> 'kept_cents')::integer
   where o.id = p_order_id returning * into v_order;
  update public.place_statuses s set cancelled = true where s.order_id = p_order_id and not s.cancelled;
  if (v_terms ->> 'back_card_cents')::integer > 0 and not (v_staff and v_order.user_id is distinct from v_uid) then
    insert into private.refund_requests (request_key, order_id, amount_cents, payment_intent, requested_by, requested_at)
    select private.cancellation_request_key(p_order_id), p_order_id, (v_terms ->> 'back_card_cents')::integer,
           r.payment_intent, v_uid, private.now()
      from private.online_refund_payment(p_order_id, (v_terms ->> 'back_card_cents')::bigint) r
    on conflict (request_key) do nothing;
  end if;
  return v_order;
end
$$;
comment on function private.cancel_booking(uuid) is 'The rule behind public.cancel_booking (security definer, not exposed by the API).';
revoke execute on function private.cancel_booking(uuid) from public;
grant execute on function private.cancel_booking(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/cancel_booking): runs as the caller, the rule above decides.
-- Staff may tick off the guest's e-mail for one change (issue 22): the public functions that
-- change a booking or refund take p_notify (default true) and set it for the rest of the request
-- (one transaction); the mail triggers read it (private.guest_mail_wanted). Only staff may
-- silence it; every call sets it explicitly, so a later call in the same transaction is not
-- silenced by an earlier one.
create function private.set_guest_mail(p_notify boolean)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not coalesce(p_notify, true) and not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501', hint = 'Only staff may send a change without telling the guest.';
  end if;
  perform set_config('hafen.guest_mail', case when coalesce(p_notify, true) then 'on' else 'off' end, true);
end
$$;
comment on function private.set_guest_mail(boolean) is 'Staff switch the guest e-mail of the current change off (p_notify = false) or on, for the rest of the transaction.';
revoke execute on function private.set_guest_mail(boolean) from public;
grant execute on function private.set_guest_mail(boolean) to authenticated, service_role;

create function private.guest_mail_wanted()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(nullif(current_setting('hafen.guest_mail', true), ''), 'on') <> 'off'
$$;
comment on function private.guest_mail_wanted() is 'False when staff ticked off the guest''s e-mail for the current change (private.set_guest_mail).';
revoke execute on function private.guest_mail_wanted() from public;

create function public.cancel_booking(p_order_id uuid, p_notify boolean DEFAULT true)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.cancel_booking(p_order_id);
$$;
comment on function public.cancel_booking(uuid, boolean) is 'Cancels an order and frees its berth: the owner before arrival (under the cancellation policy: the kept share recorded, the card refund of the rest recorded for refund-payment), staff any time (nothing kept); staff may leave the guest''s e-mail out (p_notify = false).';
revoke execute on function public.cancel_booking(uuid, boolean) from anon, public;

create function private.check_in(p_order_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_staff boolean := private.is_staff();
  v_now timestamptz := private.now();
  v_today date := private.berlin_date(private.now());
  v_order public.orders;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found or (v_order.user_id is distinct from v_uid and not v_staff) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.checked_in then
    raise exception 'already_checked_in' using errcode = 'P0001';
  end if;
  if v_staff then
    if v_order.status not in ('unverified', 'confirmed')
       or v_today < private.berlin_date(v_order.starts_at) or v_now >= v_order.ends_at then
      raise exception 'check_in_not_possible' using errcode = 'P0001',
        hint = 'Staff check guests in from the arrival day until departure.';
    end if;
  else
    if private.is_anonymous() or v_order.status = 'unverified' then
      raise exception 'verification_required' using errcode = '42501';
    end if;
    if not private.is_active_user() then
      raise exception 'account_inactive' using errcode = '42501';
    end if;
    if v_order.status <> 'confirmed' or v_today <> private.berlin_date(v_order.starts_at) then
      raise exception 'check_in_not_possible' using errcode = 'P0001', hint = 'Check-in is possible on the arrival day only.';
    end if;
  end if;
  update public.orders o
     set status = 'checked_in', checked_in = true, checked_in_at = v_now, expires_at = null
   where o.id = p_order_id returning * into v_order;
  update public.place_statuses s set type = 'rent'
   where s.order_id = p_order_id and not s.cancelled and s.type = 'reservation';
  return v_order;
end
$$;
comment on function private.check_in(uuid) is 'The rule behind public.check_in (security definer, not exposed by the API).';
revoke execute on function private.check_in(uuid) from public;
grant execute on function private.check_in(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/check_in): runs as the caller, the rule above decides.
create function public.check_in(p_order_id uuid)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.check_in(p_order_id)
$$;
comment on function public.check_in(uuid) is 'Checks a guest in (verified owner on the arrival day, staff from arrival day until departure, Europe/Berlin): sets checked_in_at, reservation -> rent.';
revoke execute on function public.check_in(uuid) from anon, public;

-- Search at scale: with years of history per berth, the overlap test probes the berths'
-- statuses that end after the arrival (an ordinary btree range scan per berth) instead of the
-- gist index of the exclusion constraint, which stays the guard against double booking.
-- Measured with supabase/local/bench/booking.bench.ts (1,000 berths, 10 years of stays).
create index place_statuses_place_end_idx on public.place_statuses (place_id, ends_at) where not cancelled;

-- The live occupations overlapping a period, whatever the berth (availability search, calendar,
-- occupancy report): a GiST index on the stay as a range (issue 25; the exclusion constraint's
-- index leads with place_id).
create index place_statuses_period_idx on public.place_statuses using gist (tstzrange(starts_at, ends_at)) where not cancelled;

-- What a berth says to a staff-moved stay over a period (move_booking, reschedule_booking and
-- the timeline's pre-check move_precheck all ask this one function, so the pre-check and the
-- move can never disagree; issue 40, item 3): 'fits', or why not, in this order:
--   too_small             the boat is longer or wider than the berth
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
begin
  if p_place.length < (p_order.boat ->> 'length')::numeric or p_place.width < (p_order.boat ->> 'width')::numeric then
    return 'too_small';
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
comment on function private.berth_verdict(public.orders, public.places, timestamptz, timestamptz, timestamptz) is 'Whether a berth can take the order''s stay over the period: fits, too_small, day_stay_not_allowed, day_guests_only, long_term, blocked or occupied (the order''s own stay and lapsed unpaid open orders do not count). The one rule of move_booking, reschedule_booking and move_precheck.';
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
    when 'day_stay_not_allowed', 'day_guests_only' then
      raise exception '%', v_verdict using errcode = '22023';
    else
      raise exception 'berth_no_longer_available' using errcode = '23P01', detail = v_verdict;
  end case;
end
$$;
comment on function private.check_berth_for(public.orders, public.places, timestamptz, timestamptz) is 'Raises unless private.berth_verdict says the berth fits the order''s stay over the period: boat_does_not_fit, day_stay_not_allowed, day_guests_only (22023), berth_no_longer_available (23P01; the verdict long_term, blocked or occupied in DETAIL).';
revoke execute on function private.check_berth_for(public.orders, public.places, timestamptz, timestamptz) from public;

-- Whether staff may still move an order (berth or dates): open and not ended.
create function private.check_movable(p_order public.orders)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_order.status not in ('unverified', 'confirmed', 'checked_in') or p_order.ends_at <= private.now() then
    raise exception 'order_not_movable' using errcode = 'P0001';
  end if;
end
$$;
comment on function private.check_movable(public.orders) is 'Raises order_not_movable unless staff may still move the order (open, not ended): lock_movable_order and move_precheck.';
revoke execute on function private.check_movable(public.orders) from public;

-- An order staff may still move (berth or dates), locked for the change: open and not ended.
create function private.lock_movable_order(p_order_id uuid)
returns public.orders
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_order public.orders;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  perform private.check_movable(v_order);
  return v_order;
end
$$;
comment on function private.lock_movable_order(uuid) is 'The order, locked for update, if staff may still move it (open, not ended); raises order_not_found / order_not_movable otherwise.';
revoke execute on function private.lock_movable_order(uuid) from public;

-- The timeline's question before it offers a move (issue 40, item 3): for a stay and a period
-- (its own, or new dates as reschedule_booking would make them), every berth's verdict, by the
-- rule the moves themselves apply (berth_verdict). Dates the moves refuse raise the same error.
create function private.move_precheck(p_order_id uuid, p_arrival date, p_departure date)
returns table (place_id uuid, verdict text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_new jsonb;
  v_starts timestamptz;
  v_ends timestamptz;
  v_now timestamptz := private.now();
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  perform private.check_movable(v_order);
  if p_arrival is null then
    v_starts := v_order.starts_at;
    v_ends := v_order.ends_at;
  else
    v_new := private.reschedule_period(v_order, p_arrival, p_departure);
    v_starts := (v_new ->> 'starts_at')::timestamptz;
    v_ends := (v_new ->> 'ends_at')::timestamptz;
  end if;
  return query
    select p.id, private.berth_verdict(v_order, p, v_starts, v_ends, v_now)
      from public.places p
     where not p.archived or p.id = v_order.place_id
     order by p.name;
end
$$;
comment on function private.move_precheck(uuid, date, date) is 'The rule behind public.move_precheck (security definer, not exposed by the API).';
revoke execute on function private.move_precheck(uuid, date, date) from public;
grant execute on function private.move_precheck(uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/move_precheck): runs as the caller, the rule above decides.
create function public.move_precheck(p_order_id uuid, p_arrival date DEFAULT NULL::date, p_departure date DEFAULT NULL::date)
returns TABLE(place_id uuid, verdict text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.move_precheck(p_order_id, p_arrival, p_departure)
$$;
comment on function public.move_precheck(uuid, date, date) is 'Staff: for an open order and a period (its own; or new dates, as reschedule_booking would make them), each berth''s verdict by the moves'' own rule: fits, too_small, day_stay_not_allowed, day_guests_only, long_term, blocked, occupied. The timeline asks it when a drag starts.';
revoke execute on function public.move_precheck(uuid, date, date) from anon, public;

create function private.move_booking(p_order_id uuid, p_place_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_place public.places;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  v_order := private.lock_movable_order(p_order_id);
  if v_order.place_id = p_place_id then
    return v_order;
  end if;
  select * into v_place from public.places p where p.id = p_place_id and not p.archived;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  perform private.check_berth_for(v_order, v_place, v_order.starts_at, v_order.ends_at);
  perform private.expire_orders(p_place_id);
  begin
    update public.place_statuses s set place_id = p_place_id
     where s.order_id = p_order_id and not s.cancelled;
  -- Two transactions writing overlapping stays of one berth at the same moment can each wait
  -- for the other at the exclusion constraint (40P01): the one Postgres aborts lost the race.
  exception when exclusion_violation or deadlock_detected then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  update public.orders o set
    place_id = p_place_id,
    place_snapshot = jsonb_build_object('id', v_place.id, 'name', v_place.name, 'pier', v_place.pier,
                                        'width', v_place.width, 'length', v_place.length, 'one_day', v_place.one_day)
   where o.id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
comment on function private.move_booking(uuid, uuid) is 'The rule behind public.move_booking (security definer, not exposed by the API).';
revoke execute on function private.move_booking(uuid, uuid) from public;
grant execute on function private.move_booking(uuid, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/move_booking): runs as the caller, the rule above decides.
create function public.move_booking(p_order_id uuid, p_place_id uuid, p_notify boolean DEFAULT true)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.move_booking(p_order_id, p_place_id);
$$;
comment on function public.move_booking(uuid, uuid, boolean) is 'Staff move an open booking to another fitting, free berth (same times, same price); an overlap raises 23P01 berth_no_longer_available; p_notify = false leaves the guest''s e-mail out.';
revoke execute on function public.move_booking(uuid, uuid, boolean) from anon, public;

-- Staff change a stay's dates, and its berth with them if they like (issue 24: drag a bar on the
-- timeline to other days). The new dates follow the booking rules (private.stay_period: not in
-- the past, at most 90 nights, fair stays inside a fair period, a day stay keeps its window on
-- the new day); a checked-in stay keeps its arrival and may change its departure only. The price
-- is the booking price of the new dates (private.price_breakdown, as quote_booking and
-- book_berth), with the discount the order was booked with (its sale code and the value it had
-- then: a code changed or deleted since does not change an agreed booking); extras stay as
-- they are (price_cents = the berth quote's gross + the extras).
create function private.reschedule_period(p_order public.orders, p_arrival date, p_departure date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_period record;
  v_starts timestamptz;
  v_ends timestamptz;
  v_nights integer;
  v_quote jsonb;
  v_old_gross integer := coalesce((p_order.price_breakdown ->> 'gross_cents')::integer, p_order.price_cents);
begin
  if p_arrival is null then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if p_order.checked_in then
    -- The guest is here: the arrival is history, only the departure may change.
    if p_arrival <> private.berlin_date(p_order.starts_at) then
      raise exception 'checked_in_arrival_fixed' using errcode = 'P0001',
        hint = 'A checked-in stay keeps its arrival; only the departure may change.';
    end if;
    if p_order.kind = 'day' then
      if p_departure is not null and p_departure <> p_arrival then
        raise exception 'invalid_day_window' using errcode = '22023';
      end if;
      v_starts := p_order.starts_at;
      v_ends := p_order.ends_at;
      v_nights := 0;
    else
      -- The rules of private.stay_period for the departure (its arrival test does not apply).
      if p_departure is null or p_departure <= p_arrival then
        raise exception 'invalid_period' using errcode = '22023';
      end if;
      v_nights := p_departure - p_arrival;
      if v_nights > 90 then
        raise exception 'stay_too_long' using errcode = '22023', hint = 'At most 90 nights; long-term berths are by contract.';
      end if;
      if p_order.kind = 'fair' and not exists (
        select 1 from public.fair_periods f where f.starts_on <= p_arrival and f.ends_on >= p_departure - 1
      ) then
        raise exception 'outside_fair_period' using errcode = '22023';
      end if;
      v_starts := p_order.starts_at;
      v_ends := private.berlin_at(p_departure, time '12:00');
      if v_ends <= private.now() then
        raise exception 'period_in_past' using errcode = '22023';
      end if;
      if p_departure > private.booking_last_day() then
        raise exception 'beyond_booking_horizon' using errcode = '22023',
          hint = to_char(private.booking_last_day(), 'YYYY-MM-DD');
      end if;
    end if;
  else
    select * into v_period from private.stay_period(
      p_order.kind, p_arrival,
      case when p_order.kind = 'day' then null else p_departure end,
      case when p_order.kind = 'day' then (p_order.starts_at at time zone 'Europe/Berlin')::time end,
      case when p_order.kind = 'day' then (p_order.ends_at at time zone 'Europe/Berlin')::time end);
    v_starts := v_period.starts_at;
    v_ends := v_period.ends_at;
    v_nights := v_period.nights;
  end if;
  v_quote := private.price_breakdown(
    p_order.kind, v_nights, (p_order.boat ->> 'length')::numeric, p_order.sale_code,
    -- The code at its booked value, gross per night (a breakdown from before the gross price
    -- list, issue 40, held it net: its gross at the booked rate).
    case when p_order.sale_code is not null then coalesce(
      (p_order.price_breakdown ->> 'additional_costs_per_night_gross_cents')::integer,
      round((p_order.price_breakdown ->> 'additional_costs_per_night_cents')::numeric
            * (100 + coalesce((p_order.price_breakdown ->> 'vat_rate_percent')::numeric, 19)) / 100)::integer) end);
  return jsonb_build_object(
    'starts_at', v_starts,
    'ends_at', v_ends,
    'nights', v_nights,
    'quote', v_quote,
    'old_price_cents', p_order.price_cents,
    'price_cents', p_order.price_cents - v_old_gross + (v_quote ->> 'gross_cents')::integer);
end
$$;
comment on function private.reschedule_period(public.orders, date, date) is 'The new period and price of an order moved to other dates: stay_period''s rules (a checked-in stay: departure only), the booking price (price_breakdown) with the order''s sale code at its booked value, extras kept.';
revoke execute on function private.reschedule_period(public.orders, date, date) from public;

create function private.reschedule_quote(p_order_id uuid, p_arrival date, p_departure date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  return private.reschedule_period(v_order, p_arrival, p_departure);
end
$$;
comment on function private.reschedule_quote(uuid, date, date) is 'The rule behind public.reschedule_quote (security definer, not exposed by the API).';
revoke execute on function private.reschedule_quote(uuid, date, date) from public;
grant execute on function private.reschedule_quote(uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/reschedule_quote): runs as the caller, the rule above decides.
create function public.reschedule_quote(p_order_id uuid, p_arrival date, p_departure date DEFAULT NULL::date)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.reschedule_quote(p_order_id, p_arrival, p_departure)
$$;
comment on function public.reschedule_quote(uuid, date, date) is 'Staff: what reschedule_booking would make of an order on other dates (starts_at, ends_at, nights, the berth quote, old and new price_cents); checks the dates, not the berth.';
revoke execute on function public.reschedule_quote(uuid, date, date) from anon, public;

create function private.reschedule_booking(p_order_id uuid, p_place_id uuid, p_arrival date, p_departure date)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_place public.places;
  v_new jsonb;
  v_starts timestamptz;
  v_ends timestamptz;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  v_order := private.lock_movable_order(p_order_id);
  v_new := private.reschedule_period(v_order, p_arrival, p_departure);
  v_starts := (v_new ->> 'starts_at')::timestamptz;
  v_ends := (v_new ->> 'ends_at')::timestamptz;
  -- The berth: the same tests as move_booking, for the new dates (the current berth too: a
  -- long-term holder may start on a day the stay now covers).
  select * into v_place from public.places p
   where p.id = coalesce(p_place_id, v_order.place_id) and (not p.archived or p.id = v_order.place_id);
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  if v_starts = v_order.starts_at and v_ends = v_order.ends_at and v_place.id = v_order.place_id then
    return v_order;
  end if;
  perform private.check_berth_for(v_order, v_place, v_starts, v_ends);
  -- Lapsed open orders of the berth give way; then the exclusion constraint decides.
  perform private.expire_orders(v_place.id);
  begin
    update public.place_statuses s set place_id = v_place.id, starts_at = v_starts, ends_at = v_ends
     where s.order_id = p_order_id and not s.cancelled;
  -- Two transactions writing overlapping stays of one berth at the same moment can each wait
  -- for the other at the exclusion constraint (40P01): the one Postgres aborts lost the race.
  exception when exclusion_violation or deadlock_detected then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  update public.orders o set
    place_id = v_place.id,
    place_snapshot = jsonb_build_object('id', v_place.id, 'name', v_place.name, 'pier', v_place.pier,
                                        'width', v_place.width, 'length', v_place.length, 'one_day', v_place.one_day),
    starts_at = v_starts,
    ends_at = v_ends,
    price_cents = (v_new ->> 'price_cents')::integer,
    -- The new berth quote; what the booking added (booked_by_staff) stays.
    price_breakdown = o.price_breakdown || (v_new -> 'quote'),
    -- An open order still lapses as booked, at the latest at its (new) arrival.
    expires_at = case when o.expires_at is not null
                      then least(o.expires_at, greatest(v_starts, private.now() + interval '1 hour')) end
   where o.id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
comment on function private.reschedule_booking(uuid, uuid, date, date) is 'The rule behind public.reschedule_booking (security definer, not exposed by the API).';
revoke execute on function private.reschedule_booking(uuid, uuid, date, date) from public;
grant execute on function private.reschedule_booking(uuid, uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/reschedule_booking): runs as the caller, the rule above decides.
create function public.reschedule_booking(p_order_id uuid, p_arrival date, p_departure date DEFAULT NULL::date, p_place_id uuid DEFAULT NULL::uuid, p_notify boolean DEFAULT true)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.reschedule_booking(p_order_id, p_place_id, p_arrival, p_departure);
$$;
comment on function public.reschedule_booking(uuid, date, date, uuid, boolean) is 'Staff move an open booking to other dates (and optionally another berth): the booking rules for the dates (a checked-in stay: departure only), fit, kind and long-term tests for the berth, an overlap raises 23P01 berth_no_longer_available; repriced as a new booking (sale code kept, extras unchanged); invoices follow (cancellation + new invoice); p_notify = false leaves the guest''s e-mail out.';
revoke execute on function public.reschedule_booking(uuid, date, date, uuid, boolean) from anon, public;

-- Reports filter orders by arrival.
create index if not exists orders_starts_at_idx on public.orders (starts_at);

-- The staff order list: newest first, filtered by status.
create index if not exists orders_status_created_idx on public.orders (status, created_at desc);

create index sale_code_attempts_address_idx on private.sale_code_attempts (client_address, attempted_at)
  where client_address is not null;

-- The client's address as the gateway passed it: the left-most X-Forwarded-For hop (the
-- client, as the gateway writes it), else X-Real-IP; null outside an API request or when the
-- value is not an address.
create function private.request_client_address()
returns inet
language plpgsql
stable
set search_path = ''
as $$
declare
  v_headers jsonb;
  v_value text;
begin
  begin
    v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    return null;
  end;
  if v_headers is null or jsonb_typeof(v_headers) <> 'object' then
    return null;
  end if;
  v_value := coalesce(
    nullif(btrim(split_part(v_headers ->> 'x-forwarded-for', ',', 1)), ''),
    nullif(btrim(v_headers ->> 'x-real-ip'), ''));
  if v_value is null then
    return null;
  end if;
  begin
    return v_value::inet;
  exception when others then
    return null;
  end;
end
$$;
comment on function private.request_client_address() is 'The client address of the current API request (left-most X-Forwarded-For hop, else X-Real-IP, as the gateway sets them); null when there is none.';
revoke execute on function private.request_client_address() from public;

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
  p_sale_code text default null
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
begin
  perform private.check_boat(p_boat_length, p_boat_width);
  v_quote := public.quote_booking(p_kind, p_arrival, p_boat_length, p_departure, p_day_start, p_day_end, p_sale_code);
  v_quote_json := v_quote::text::json;
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  v_starts_at := v_period.starts_at;
  v_ends_at := v_period.ends_at;
  return query
    select p.id, p.name, p.pier, p.description, p.description_en, p.image_path, p.width, p.length,
           p.one_day, p.features, p.position, p.width * p.length, (v_quote ->> 'gross_cents')::integer, v_quote_json
    from private.bookable_places(p_kind, v_starts_at, v_ends_at, p_boat_length, p_boat_width, v_now) p
    order by p.width * p.length, p.length, p.name;
end
$$;
comment on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) is 'The rule behind public.search_available_places (security definer, not exposed by the API).';
revoke execute on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) from public;
grant execute on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/search_available_places): runs as the caller, the rule above decides.
create function public.search_available_places(p_kind public.order_kind, p_arrival date, p_boat_length numeric, p_boat_width numeric, p_departure date DEFAULT NULL::date, p_day_start time DEFAULT NULL::time, p_day_end time DEFAULT NULL::time, p_sale_code text DEFAULT NULL::text)
returns TABLE(place_id uuid, name text, pier text, description text, description_en text, image_path text, width numeric, length numeric, one_day boolean, features text[], "position" double precision[], area numeric, price_cents integer, quote json)
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.search_available_places(p_kind, p_arrival, p_boat_length, p_boat_width, p_departure, p_day_start, p_day_end, p_sale_code)
$$;
comment on function public.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) is 'Berths that fit the boat and are free for the whole stay (not long-term held; stale unverified reservations do not block), smallest area first, each with its quote.';
revoke execute on function public.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) from public;

create function private.order_move_targets(p_order_id uuid)
returns table (place_id uuid, name text, pier text, width numeric, length numeric, one_day boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_length numeric;
  v_width numeric;
  v_now timestamptz := private.now();
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.status not in ('unverified', 'confirmed', 'checked_in') or v_order.ends_at <= v_now then
    return;
  end if;
  v_length := (v_order.boat ->> 'length')::numeric;
  v_width := (v_order.boat ->> 'width')::numeric;
  -- The availability test of the search; move_booking stays the guard (a race still ends in 23P01).
  return query
    select p.id, p.name, p.pier, p.width, p.length, p.one_day
    from private.bookable_places(v_order.kind, v_order.starts_at, v_order.ends_at, v_length, v_width, v_now) p
    where p.id <> v_order.place_id
    order by p.width * p.length, p.length, p.name;
end
$$;
comment on function private.order_move_targets(uuid) is 'The rule behind public.order_move_targets (security definer, not exposed by the API).';
revoke execute on function private.order_move_targets(uuid) from public;
grant execute on function private.order_move_targets(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/order_move_targets): runs as the caller, the rule above decides.
create function public.order_move_targets(p_order_id uuid)
returns TABLE(place_id uuid, name text, pier text, width numeric, length numeric, one_day boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.order_move_targets(p_order_id)
$$;
comment on function public.order_move_targets(uuid) is 'Staff: the berths an open order could move to (fit, one_day berths for day stays and only for them, no long-term holder, free for the whole stay), smallest first.';
revoke execute on function public.order_move_targets(uuid) from anon, public;

create function private.book_berth(
  p_user_id uuid,
  p_status public.order_status,
  p_place_id uuid,
  p_kind public.order_kind,
  p_arrival date,
  p_boat jsonb,
  p_person jsonb,
  p_departure date,
  p_day_start time,
  p_day_end time,
  p_sale_code text,
  p_fallback_email text,
  p_email_required boolean,
  p_breakdown_extra jsonb
)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_place public.places;
  v_period record;
  v_code record;
  v_quote jsonb;
  v_length numeric;
  v_width numeric;
  v_boat_name text := nullif(btrim(p_boat ->> 'name'), '');
  v_email text := lower(coalesce(nullif(btrim(p_person ->> 'email'), ''), p_fallback_email));
  v_first_name text := nullif(btrim(p_person ->> 'first_name'), '');
  v_last_name text := nullif(btrim(p_person ->> 'last_name'), '');
  v_now timestamptz := private.now();
  v_mode public.payment_mode := private.payment_mode_for(p_kind, coalesce(p_breakdown_extra ? 'booked_by_staff', false));
  v_order public.orders;
begin
  -- The boat and the person.
  begin
    v_length := (p_boat ->> 'length')::numeric;
    v_width := (p_boat ->> 'width')::numeric;
  exception when others then
    raise exception 'invalid_boat' using errcode = '22023';
  end;
  perform private.check_boat(v_length, v_width);
  if v_boat_name is null or char_length(v_boat_name) > 60 then
    raise exception 'invalid_boat_name' using errcode = '22023', hint = 'Boat name 1-60 characters.';
  end if;
  if (v_email is null and p_email_required) or (v_email is not null and v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$') then
    raise exception 'invalid_email' using errcode = '22023';
  end if;
  if v_first_name is null or v_last_name is null or char_length(v_first_name) > 100 or char_length(v_last_name) > 100 then
    raise exception 'invalid_name' using errcode = '22023', hint = 'First and last name 1-100 characters.';
  end if;

  -- The stay and the berth.
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  select * into v_place from public.places p where p.id = p_place_id and not p.archived;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  if v_place.length < v_length or v_place.width < v_width then
    raise exception 'boat_does_not_fit' using errcode = '22023';
  end if;
  if p_kind = 'day' and not v_place.one_day then
    raise exception 'day_stay_not_allowed' using errcode = '22023';
  end if;
  if p_kind <> 'day' and v_place.one_day then
    raise exception 'day_guests_only' using errcode = '22023';
  end if;
  if exists (
    select 1 from public.long_term_holders h
    where h.place_id = p_place_id
      and h.starts_on <= case when p_kind = 'day' then p_arrival else p_departure - 1 end
      and (h.ends_on is null or h.ends_on >= p_arrival)
  ) then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end if;

  -- Unverified orders (guest sessions): at most 3 open ones.
  if p_status = 'unverified' and (
    select count(*) from public.orders o
    where o.user_id = p_user_id and o.status = 'unverified' and o.expires_at > v_now
  ) >= 3 then
    raise exception 'too_many_unverified_orders' using errcode = 'P0001';
  end if;

  -- The price, through the same rules as quote_booking.
  select * into v_code from private.sale_code_value(p_sale_code);
  if v_code.valid is false then
    raise exception 'invalid_sale_code' using errcode = 'P0001';
  end if;
  v_quote := private.price_breakdown(
    p_kind, v_period.nights, v_length,
    case when v_code.valid then upper(btrim(p_sale_code)) end,
    case when v_code.valid then v_code.value end);

  -- Stale unverified reservations of this berth give way; then the berth must be free.
  perform private.expire_orders(p_place_id);
  if exists (
    select 1 from public.place_statuses s
    where s.place_id = p_place_id and not s.cancelled
      and tstzrange(s.starts_at, s.ends_at) && tstzrange(v_period.starts_at, v_period.ends_at)
  ) then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end if;

  insert into public.orders (
    user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email,
    sale_code, place_snapshot, boat, person, expires_at, payment_mode
  ) values (
    p_user_id, p_place_id, p_kind, v_period.starts_at, v_period.ends_at, p_status,
    (v_quote ->> 'gross_cents')::integer, v_quote || coalesce(p_breakdown_extra, '{}'::jsonb),
    coalesce(v_email, ''),
    v_quote ->> 'sale_code',
    jsonb_build_object('id', v_place.id, 'name', v_place.name, 'pier', v_place.pier,
                       'width', v_place.width, 'length', v_place.length, 'one_day', v_place.one_day),
    jsonb_build_object('name', v_boat_name, 'tag', nullif(btrim(p_boat ->> 'tag'), ''),
                       'length', v_length, 'width', v_width),
    jsonb_strip_nulls(jsonb_build_object(
      'first_name', v_first_name, 'last_name', v_last_name, 'email', v_email,
      'phone', nullif(btrim(p_person ->> 'phone'), ''), 'company', nullif(btrim(p_person ->> 'company'), ''),
      'street', nullif(btrim(p_person ->> 'street'), ''), 'postal_code', nullif(btrim(p_person ->> 'postal_code'), ''),
      'city', nullif(btrim(p_person ->> 'city'), ''), 'country', nullif(btrim(p_person ->> 'country'), ''),
      -- The language the guest booked in: the confirmation and later mail use it (private.order_locale).
      'locale', case when p_person ->> 'locale' in ('de', 'en') then p_person ->> 'locale' end)),
    -- It lapses unless the guest confirms the e-mail (unverified: 24 hours) or pays (when this
    -- kind must be paid online: the payment hold), whichever comes first; at the latest at
    -- arrival, but never sooner than an hour after booking (a guest booking on the arrival day,
    -- after the arrival time, must not get a booking that has already lapsed). least() skips the
    -- null of a deadline that does not apply.
    case when p_status = 'unverified' or (v_mode = 'online_required' and (v_quote ->> 'gross_cents')::integer > 0)
      then least(case when p_status = 'unverified' then v_now + interval '24 hours' end,
                 case when v_mode = 'online_required' and (v_quote ->> 'gross_cents')::integer > 0
                      then v_now + private.payment_hold() end,
                 greatest(v_period.starts_at, v_now + interval '1 hour')) end,
    v_mode
  ) returning * into v_order;

  begin
    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at, created_by)
    values (p_place_id, v_order.id, 'reservation', v_period.starts_at, v_period.ends_at, (select auth.uid()));
  -- Two transactions writing overlapping stays of one berth at the same moment can each wait
  -- for the other at the exclusion constraint (40P01): the one Postgres aborts lost the race.
  exception when exclusion_violation or deadlock_detected then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  return v_order;
end
$$;
comment on function private.book_berth(uuid, public.order_status, uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, text, boolean, jsonb) is 'The booking rules of create_booking and staff_create_booking: boat, person, e-mail (required or optional), period, fit, kind, long-term holder, 3 open unverified orders per session, sale code and price, free berth; writes order (with the booking language, the payment mode and the deadline by which it must be confirmed or paid) and reservation. The caller decides who books, the status and the account.';
revoke execute on function private.book_berth(uuid, public.order_status, uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, text, boolean, jsonb) from public;

create function private.staff_create_booking(
  p_place_id uuid,
  p_kind public.order_kind,
  p_arrival date,
  p_boat jsonb,
  p_person jsonb,
  p_departure date default null,
  p_day_start time default null,
  p_day_end time default null,
  p_sale_code text default null
)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_email text := lower(nullif(btrim(p_person ->> 'email'), ''));
  v_customer uuid;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  -- A guest with an account gets the order into it.
  if v_email is not null then
    select pr.id into v_customer from public.profiles pr where lower(pr.email) = v_email;
  end if;
  -- The rules of create_booking; confirmed at once, no expiry, e-mail optional (walk-in).
  return private.book_berth(
    v_customer, 'confirmed', p_place_id, p_kind, p_arrival, p_boat, p_person, p_departure, p_day_start,
    p_day_end, p_sale_code, null, false, jsonb_build_object('booked_by_staff', (select auth.uid())));
end
$$;
comment on function private.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) is 'The rule behind public.staff_create_booking (security definer, not exposed by the API).';
revoke execute on function private.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) from public;
grant execute on function private.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/staff_create_booking): runs as the caller, the rule above decides.
create function public.staff_create_booking(p_place_id uuid, p_kind public.order_kind, p_arrival date, p_boat jsonb, p_person jsonb, p_departure date DEFAULT NULL::date, p_day_start time DEFAULT NULL::time, p_day_end time DEFAULT NULL::time, p_sale_code text DEFAULT NULL::text)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.staff_create_booking(p_place_id, p_kind, p_arrival, p_boat, p_person, p_departure, p_day_start, p_day_end, p_sale_code)
$$;
comment on function public.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) is 'Staff book for a walk-in or phone guest: the rules of create_booking (private.book_berth), confirmed at once, no e-mail code; e-mail optional.';
revoke execute on function public.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) from anon, public;

-- Guessing through create_booking: its failed request rolls back the row that would count a
-- wrong code, and Postgres has no autonomous transaction to keep it. So create_booking accepts
-- a code only if the same session had it answered "valid" by quote_booking (or the search,
-- which quotes) within 24 hours, else `sale_code_not_checked` whatever the code; checking a
-- code stays possible only through the quote, which counts wrong codes and commits them. Staff
-- bookings are not held to it (trusted accounts; the walk-in page quotes first anyway).
create table private.sale_code_checks (
  user_id uuid not null,
  code text not null,
  checked_at timestamptz not null,
  primary key (user_id, code)
);

alter table private.sale_code_checks enable row level security;

comment on table private.sale_code_checks is 'Sale codes a session had answered "valid" by quote_booking (upper case, trimmed), with the last time; create_booking accepts only these (24 hours).';

create index sale_code_checks_checked_at_idx on private.sale_code_checks (checked_at);

revoke all on table private.sale_code_checks from public, anon, authenticated;

-- Looks a sale code up for the caller; records wrong codes and refuses after 5 wrong ones
-- within 15 minutes for the user, or 30 within an hour from the client address (harbour staff
-- are not counted per address: they book at the desk for walk-in guests).
-- A valid code is recorded for the session (last check wins); records older than 24 hours
-- are pruned on the way.
create function private.sale_code_value(p_code text, out valid boolean, out value integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_address inet;
  v_now timestamptz := private.now();
begin
  valid := null;
  value := null;
  if p_code is null or btrim(p_code) = '' then
    return;
  end if;
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501', hint = 'Sale codes are checked for a session (a guest session will do).';
  end if;
  if (select count(*) from private.sale_code_attempts a
      where a.user_id = v_uid and a.attempted_at > v_now - interval '15 minutes') >= 5 then
    raise exception 'sale_code_throttled' using errcode = 'P0001', hint = 'Too many wrong codes: try again in 15 minutes.';
  end if;
  if not private.is_staff() then
    v_address := private.request_client_address();
  end if;
  if v_address is not null and (select count(*) from private.sale_code_attempts a
      where a.client_address = v_address and a.attempted_at > v_now - interval '1 hour') >= 30 then
    raise exception 'sale_code_throttled_network' using errcode = 'P0001',
      hint = 'Too many wrong codes from this network: try again in an hour.';
  end if;
  select s.value into value
  from public.sale_codes s
  where upper(s.code) = upper(btrim(p_code)) and s.type = 'set-additional-costs';
  valid := found;
  if not found then
    insert into private.sale_code_attempts (user_id, attempted_at, client_address) values (v_uid, v_now, v_address);
  else
    delete from private.sale_code_checks c where c.checked_at <= v_now - interval '24 hours';
    insert into private.sale_code_checks (user_id, code, checked_at) values (v_uid, upper(btrim(p_code)), v_now)
    on conflict (user_id, code) do update set checked_at = excluded.checked_at;
  end if;
end
$$;
comment on function private.sale_code_value(text) is 'Checks a sale code for the caller, with throttling of wrong codes (5 per 15 minutes per user, 30 per hour per client address); records a valid code for the session (private.sale_code_checks).';
revoke execute on function private.sale_code_value(text) from public;

-- True when the session has had this code answered "valid" within the last 24 hours.
create function private.sale_code_checked(p_user_id uuid, p_code text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.sale_code_checks c
    where c.user_id = p_user_id and c.code = upper(btrim(p_code))
      and c.checked_at > private.now() - interval '24 hours')
$$;
comment on function private.sale_code_checked(uuid, text) is 'Whether the user had the sale code answered "valid" (quote_booking) within the last 24 hours.';
revoke execute on function private.sale_code_checked(uuid, text) from public;

create function private.create_booking(
  p_place_id uuid,
  p_kind public.order_kind,
  p_arrival date,
  p_boat jsonb,
  p_person jsonb,
  p_departure date default null,
  p_day_start time default null,
  p_day_end time default null,
  p_sale_code text default null,
  p_save_profile boolean default false
)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_anonymous boolean;
  v_user_email text;
  v_order public.orders;
begin
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  select u.is_anonymous, u.email into v_anonymous, v_user_email from auth.users u where u.id = v_uid;
  if not found then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  if not v_anonymous and not private.is_active_user() then
    raise exception 'account_inactive' using errcode = '42501';
  end if;

  -- A sale code only after this session checked it through quote_booking (which counts wrong
  -- codes); the same answer for any unchecked code, so create_booking reveals nothing about it.
  if nullif(btrim(p_sale_code), '') is not null and not private.sale_code_checked(v_uid, p_sale_code) then
    raise exception 'sale_code_not_checked' using errcode = 'P0001',
      hint = 'Apply the sale code first (quote_booking), then book with it.';
  end if;

  -- Guests (anonymous sessions) book unverified, accounts confirmed; an account's address is
  -- the default e-mail.
  v_order := private.book_berth(
    v_uid, case when v_anonymous then 'unverified' else 'confirmed' end::public.order_status,
    p_place_id, p_kind, p_arrival, p_boat, p_person, p_departure, p_day_start, p_day_end, p_sale_code,
    case when not v_anonymous then v_user_email end, true, null);

  if p_save_profile and not v_anonymous then
    update public.profiles pr set
      first_name = v_order.person ->> 'first_name', last_name = v_order.person ->> 'last_name',
      phone = coalesce(v_order.person ->> 'phone', pr.phone),
      company = coalesce(v_order.person ->> 'company', pr.company),
      street = coalesce(v_order.person ->> 'street', pr.street),
      postal_code = coalesce(v_order.person ->> 'postal_code', pr.postal_code),
      city = coalesce(v_order.person ->> 'city', pr.city),
      country = coalesce(v_order.person ->> 'country', pr.country),
      boat_name = v_order.boat ->> 'name', boat_tag = coalesce(v_order.boat ->> 'tag', pr.boat_tag),
      boat_length = (v_order.boat ->> 'length')::numeric, boat_width = (v_order.boat ->> 'width')::numeric
    where pr.id = v_uid;
  end if;
  return v_order;
end
$$;
comment on function private.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean) is 'The rule behind public.create_booking (security definer, not exposed by the API).';
revoke execute on function private.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean) from public;
grant execute on function private.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/create_booking): runs as the caller, the rule above decides.
create function public.create_booking(p_place_id uuid, p_kind public.order_kind, p_arrival date, p_boat jsonb, p_person jsonb, p_departure date DEFAULT NULL::date, p_day_start time DEFAULT NULL::time, p_day_end time DEFAULT NULL::time, p_sale_code text DEFAULT NULL::text, p_save_profile boolean DEFAULT false)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.create_booking(p_place_id, p_kind, p_arrival, p_boat, p_person, p_departure, p_day_start, p_day_end, p_sale_code, p_save_profile)
$$;
comment on function public.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean) is 'Books a berth: re-validates fit, kind, times, account, guest limits and sale code, prices it, writes order + reservation; a sale code only after the session had it answered valid by quote_booking (else sale_code_not_checked); a lost race raises 23P01 berth_no_longer_available.';
revoke execute on function public.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean) from anon, public;

-- Whether an order's guest has a customer account (issue 40 item 11, docs/adr/0014): the staff
-- order page said "Kundenkonto: ja" for every order with a user_id, and a guest who books without
-- an account books under an anonymous session, which has one. The truth is in auth.users:
-- 'account' a permanent user with a password (registered), 'code' a permanent user that only
-- ever signed in by e-mail code (the address is verified, no password), 'guest' an anonymous
-- session (unverified), 'none' no user (a walk-in booked by staff).
create function private.order_guest_account(p_order_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_result text;
begin
  if not private.is_staff() then
    raise exception 'not_staff' using errcode = '42501';
  end if;
  select case
      when u.id is null then 'none'
      when u.is_anonymous then 'guest'
      when coalesce(u.encrypted_password, '') <> '' then 'account'
      else 'code'
    end
    into v_result
  from public.orders o
  left join auth.users u on u.id = o.user_id
  where o.id = p_order_id;
  return v_result;
end
$$;
comment on function private.order_guest_account(uuid) is 'Staff only: account (user with a password), code (verified by e-mail code, no password), guest (anonymous session) or none (no user) for an order; null when there is no such order.';
revoke execute on function private.order_guest_account(uuid) from public;
grant execute on function private.order_guest_account(uuid) to authenticated, service_role;

create function public.order_guest_account(p_order_id uuid)
returns text
language sql
stable
security invoker
set search_path = ''
as $$
  select private.order_guest_account(p_order_id)
$$;
comment on function public.order_guest_account(uuid) is 'Staff only: whether the order''s guest has a customer account (account, code, guest, none).';
revoke execute on function public.order_guest_account(uuid) from public, anon;
grant execute on function public.order_guest_account(uuid) to authenticated, service_role;
