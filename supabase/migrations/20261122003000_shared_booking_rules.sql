-- Database code quality (review): each booking rule lives in one place.
--
-- 1. private.bookable_places: the availability test (fit, day stays on one_day berths, no
--    long-term holder, no live occupation overlapping, stale unverified reservations ignored)
--    that search_available_places and order_move_targets both copied. It is an inlinable SQL
--    function: LANGUAGE sql, STABLE, not STRICT, not SECURITY DEFINER, no SET clause, one
--    SELECT, so the planner pastes its body into the caller's query (no per-row function
--    call; docs/decisions.md "No per-row helper calls"). It therefore carries no
--    `set search_path`: its body is parsed in the caller's context, and every caller is a
--    security definer function with search_path = ''. Nobody else may execute it.
-- 2. private.book_berth: the checks, price and writes that create_booking and
--    staff_create_booking repeated; both are now thin wrappers (who may book, which status,
--    whose account, e-mail required or not).
-- 3. The booking's language: create_booking keeps p_person.locale ('de' / 'en', the page the
--    guest booked on) in orders.person, as staff_create_booking already did;
--    private.order_locale reads it first, so the confirmation and any later e-mail about the
--    order speak the language the guest booked in, whatever the profile says.
-- Not-found is raised as PT404 (HTTP 404), never P0002 (HTTP 500): 20261122002700.

-- ---------------------------------------------------------------- available berths
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
as $$
  select p.*
  from public.places p
  where not p.archived
    and p.length >= p_boat_length
    and p.width >= p_boat_width
    and (p_kind <> 'day' or p.one_day)
    -- Long-term held on any day of the stay (Berlin days; a day stay has one).
    and not exists (
      select 1 from public.long_term_holders h
      where h.place_id = p.id
        and h.starts_on <= case when p_kind = 'day' then (p_starts_at at time zone 'Europe/Berlin')::date
                                else (p_ends_at at time zone 'Europe/Berlin')::date - 1 end
        and (h.ends_on is null or h.ends_on >= (p_starts_at at time zone 'Europe/Berlin')::date)
    )
    -- A live occupation overlapping [p_starts_at, p_ends_at); an unverified reservation past
    -- its expiry gives way (the booking functions expire it first). The range test probes
    -- place_statuses_place_end_idx (20261122000800).
    and not exists (
      select 1
      from public.place_statuses s
      left join public.orders o on o.id = s.order_id
      where s.place_id = p.id
        and not s.cancelled
        and s.ends_at > p_starts_at
        and s.starts_at < p_ends_at
        and not (o.status is not distinct from 'unverified' and o.expires_at <= p_now)
    )
$$;
comment on function private.bookable_places(public.order_kind, timestamptz, timestamptz, numeric, numeric, timestamptz) is 'Berths a boat fits that are free for [p_starts_at, p_ends_at): not archived, one_day for day stays, no long-term holder, no live occupation (stale unverified ones ignored). Inlined SQL: keep it LANGUAGE sql STABLE, without SET or SECURITY DEFINER.';
revoke all on function private.bookable_places(public.order_kind, timestamptz, timestamptz, numeric, numeric, timestamptz) from public, anon, authenticated;

create or replace function public.search_available_places(
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
  quote jsonb
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_quote jsonb;
  v_period record;
  v_starts_at timestamptz;
  v_ends_at timestamptz;
  v_now timestamptz := private.now();
begin
  perform private.check_boat(p_boat_length, p_boat_width);
  v_quote := public.quote_booking(p_kind, p_arrival, p_boat_length, p_departure, p_day_start, p_day_end, p_sale_code);
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  v_starts_at := v_period.starts_at;
  v_ends_at := v_period.ends_at;
  return query
    select p.id, p.name, p.pier, p.description, p.description_en, p.image_path, p.width, p.length,
           p.one_day, p.features, p.position, p.width * p.length, (v_quote ->> 'gross_cents')::integer, v_quote
    from private.bookable_places(p_kind, v_starts_at, v_ends_at, p_boat_length, p_boat_width, v_now) p
    order by p.width * p.length, p.length, p.name;
end
$$;

create or replace function public.order_move_targets(p_order_id uuid)
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

-- ---------------------------------------------------------------- booking
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
    sale_code, place_snapshot, boat, person, expires_at
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
    case when p_status = 'unverified' then least(v_now + interval '24 hours', v_period.starts_at) end
  ) returning * into v_order;

  begin
    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at, created_by)
    values (p_place_id, v_order.id, 'reservation', v_period.starts_at, v_period.ends_at, (select auth.uid()));
  exception when exclusion_violation then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  return v_order;
end
$$;
comment on function private.book_berth(uuid, public.order_status, uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, text, boolean, jsonb) is 'The booking rules of create_booking and staff_create_booking: boat, person, e-mail (required or optional), period, fit, kind, long-term holder, 3 open unverified orders per session, sale code and price, free berth; writes order (with the booking language) and reservation. The caller decides who books, the status and the account.';
revoke all on function private.book_berth(uuid, public.order_status, uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, text, boolean, jsonb) from public, anon, authenticated;

create or replace function public.create_booking(
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

create or replace function public.staff_create_booking(
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
comment on function public.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) is 'Staff book for a walk-in or phone guest: the rules of create_booking (private.book_berth), confirmed at once, no e-mail code; e-mail optional.';

comment on function private.order_locale(public.orders) is 'The language of an order''s guest: the language booked in (person.locale, set by create_booking and staff_create_booking), else profile, guest session metadata, German.';
