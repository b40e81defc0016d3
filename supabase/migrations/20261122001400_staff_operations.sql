-- The back office: staff book for walk-in and phone guests, move bookings, and the harbour
-- numbers the invoices of paid orders; customers export their data and delete their account.

-- ---------------------------------------------------------------- staff booking
create function public.staff_create_booking(
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
  v_staff uuid := (select auth.uid());
  v_place public.places;
  v_period record;
  v_code record;
  v_quote jsonb;
  v_length numeric;
  v_width numeric;
  v_boat_name text := nullif(btrim(p_boat ->> 'name'), '');
  v_email text := lower(nullif(btrim(p_person ->> 'email'), ''));
  v_first_name text := nullif(btrim(p_person ->> 'first_name'), '');
  v_last_name text := nullif(btrim(p_person ->> 'last_name'), '');
  v_customer uuid;
  v_order public.orders;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;

  -- The boat and the person (a walk-in guest may have no e-mail address).
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
  if v_email is not null and v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invalid_email' using errcode = '22023';
  end if;
  if v_first_name is null or v_last_name is null or char_length(v_first_name) > 100 or char_length(v_last_name) > 100 then
    raise exception 'invalid_name' using errcode = '22023', hint = 'First and last name 1-100 characters.';
  end if;

  -- The same period, berth and price rules as create_booking.
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  select * into v_place from public.places p where p.id = p_place_id and not p.archived;
  if not found then
    raise exception 'place_not_found' using errcode = 'P0002';
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
  select * into v_code from private.sale_code_value(p_sale_code);
  if v_code.valid is false then
    raise exception 'invalid_sale_code' using errcode = 'P0001';
  end if;
  v_quote := private.price_breakdown(
    p_kind, v_period.nights, v_length,
    case when v_code.valid then upper(btrim(p_sale_code)) end,
    case when v_code.valid then v_code.value end);

  perform private.expire_orders(p_place_id);
  if exists (
    select 1 from public.place_statuses s
    where s.place_id = p_place_id and not s.cancelled
      and tstzrange(s.starts_at, s.ends_at) && tstzrange(v_period.starts_at, v_period.ends_at)
  ) then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end if;

  -- A guest with an account gets the order into it.
  if v_email is not null then
    select pr.id into v_customer from public.profiles pr where lower(pr.email) = v_email;
  end if;

  insert into public.orders (
    user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email,
    sale_code, place_snapshot, boat, person, expires_at
  ) values (
    v_customer, p_place_id, p_kind, v_period.starts_at, v_period.ends_at, 'confirmed',
    (v_quote ->> 'gross_cents')::integer, v_quote || jsonb_build_object('booked_by_staff', v_staff),
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
      'locale', case when p_person ->> 'locale' in ('de', 'en') then p_person ->> 'locale' end)),
    null
  ) returning * into v_order;

  begin
    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at, created_by)
    values (p_place_id, v_order.id, 'reservation', v_period.starts_at, v_period.ends_at, v_staff);
  exception when exclusion_violation then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  return v_order;
end
$$;
comment on function public.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) is 'Staff book for a walk-in or phone guest: same period, fit, long-term and price rules as create_booking, confirmed at once, no e-mail code; e-mail optional.';

-- ---------------------------------------------------------------- move a booking
create function public.move_booking(p_order_id uuid, p_place_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_place public.places;
  v_first date;
  v_last date;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'P0002';
  end if;
  if v_order.status not in ('unverified', 'confirmed', 'checked_in') or v_order.ends_at <= private.now() then
    raise exception 'order_not_movable' using errcode = 'P0001';
  end if;
  if v_order.place_id = p_place_id then
    return v_order;
  end if;
  select * into v_place from public.places p where p.id = p_place_id and not p.archived;
  if not found then
    raise exception 'place_not_found' using errcode = 'P0002';
  end if;
  if v_place.length < (v_order.boat ->> 'length')::numeric or v_place.width < (v_order.boat ->> 'width')::numeric then
    raise exception 'boat_does_not_fit' using errcode = '22023';
  end if;
  if v_order.kind = 'day' and not v_place.one_day then
    raise exception 'day_stay_not_allowed' using errcode = '22023';
  end if;
  v_first := private.berlin_date(v_order.starts_at);
  v_last := case when v_order.kind = 'day' then v_first else private.berlin_date(v_order.ends_at) - 1 end;
  if exists (
    select 1 from public.long_term_holders h
    where h.place_id = p_place_id and h.starts_on <= v_last and (h.ends_on is null or h.ends_on >= v_first)
  ) then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end if;
  perform private.expire_orders(p_place_id);
  begin
    update public.place_statuses s set place_id = p_place_id
     where s.order_id = p_order_id and not s.cancelled;
  exception when exclusion_violation then
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
comment on function public.move_booking(uuid, uuid) is 'Staff move an open booking to another fitting, free berth (same times, same price); an overlap raises 23P01 berth_no_longer_available.';

-- ---------------------------------------------------------------- invoices
-- Numbers are gapless per year: the counter row is locked by the transaction that takes the
-- next number, so concurrent payments queue and a rolled-back payment returns its number.
create table private.invoice_counters (
  year integer primary key,
  last_number integer not null
);
alter table private.invoice_counters enable row level security;
comment on table private.invoice_counters is 'The last invoice number issued per year (gapless, locked while a number is taken).';

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null unique references public.orders (id),
  year integer not null,
  number integer not null,
  invoice_number text generated always as ('RE-' || year::text || '-' || lpad(number::text, 5, '0')) stored,
  net_cents integer not null,
  vat_cents integer not null,
  gross_cents integer not null,
  recipient jsonb not null,
  issued_at timestamptz not null default now(),
  unique (year, number)
);
alter table public.invoices enable row level security;
comment on table public.invoices is 'The invoice of a paid order: number RE-<year>-<n> gapless per year, amounts and the recipient as billed (kept when an account is deleted, as tax law requires).';

create policy "invoices: staff read" on public.invoices
  for select to authenticated
  using ((select private.is_staff()));
create policy "invoices: owner reads own" on public.invoices
  for select to authenticated
  using (exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));
revoke insert, update, delete, truncate on public.invoices from anon, authenticated;

create function private.issue_invoice()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_year integer := extract(year from private.now() at time zone 'Europe/Berlin')::integer;
  v_number integer;
begin
  if new.payment_status = 'paid' and old.payment_status is distinct from 'paid'
     and not exists (select 1 from public.invoices i where i.order_id = new.id) then
    insert into private.invoice_counters as c (year, last_number) values (v_year, 1)
    on conflict (year) do update set last_number = c.last_number + 1
    returning c.last_number into v_number;
    insert into public.invoices (order_id, year, number, net_cents, vat_cents, gross_cents, recipient, issued_at)
    values (new.id, v_year, v_number,
            coalesce((new.price_breakdown ->> 'net_cents')::integer, new.price_cents),
            coalesce((new.price_breakdown ->> 'vat_cents')::integer, 0),
            new.price_cents,
            (new.person - 'locale') || jsonb_build_object('email', new.email),
            private.now());
  end if;
  return null;
end
$$;
comment on function private.issue_invoice() is 'After an order becomes paid: issues its invoice with the next gapless number of the year (Europe/Berlin).';
revoke all on function private.issue_invoice() from public;
create trigger orders_issue_invoice after update of payment_status on public.orders
  for each row execute function private.issue_invoice();

-- ---------------------------------------------------------------- my data
create function public.export_my_data()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'exported_at', private.now(),
    'user', (select jsonb_build_object('id', u.id, 'email', u.email, 'created_at', u.created_at,
                                       'last_sign_in_at', u.last_sign_in_at, 'is_anonymous', u.is_anonymous)
             from auth.users u where u.id = v_uid),
    'profile', (select to_jsonb(p) from public.profiles p where p.id = v_uid),
    'roles', (select to_jsonb(r) - 'user_id' from public.user_roles r where r.user_id = v_uid),
    'orders', coalesce((select jsonb_agg(to_jsonb(o) order by o.starts_at) from public.orders o where o.user_id = v_uid), '[]'::jsonb),
    'invoices', coalesce((select jsonb_agg(to_jsonb(i) order by i.issued_at)
                          from public.invoices i join public.orders o on o.id = i.order_id where o.user_id = v_uid), '[]'::jsonb),
    'long_term_holdings', coalesce((select jsonb_agg(to_jsonb(h) order by h.starts_on) from public.long_term_holders h where h.user_id = v_uid), '[]'::jsonb),
    'long_term_applications', coalesce((select jsonb_agg(to_jsonb(a) - 'answered_by' order by a.created_at)
                                        from public.long_term_applications a where a.user_id = v_uid), '[]'::jsonb),
    'messages', coalesce((select jsonb_agg(to_jsonb(m) - 'done_by' order by m.created_at)
                          from public.contact_messages m where m.user_id = v_uid), '[]'::jsonb),
    'working_hours', coalesce((select jsonb_agg(to_jsonb(w) order by w.work_date, w.start_time)
                               from public.working_hours w where w.user_id = v_uid), '[]'::jsonb));
end
$$;
comment on function public.export_my_data() is 'GDPR Art. 15/20: everything stored about the caller (account, profile, orders, invoices, holdings, applications, messages, hours) as one jsonb document.';

create function public.delete_my_account()
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_email text;
  v_cancelled integer;
  v_anonymised integer;
begin
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  select lower(u.email) into v_email from auth.users u where u.id = v_uid and not u.is_anonymous;
  if not found then
    raise exception 'account_required' using errcode = '42501';
  end if;
  if private.has_role('admin') and not exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.admin and p.active and r.user_id <> v_uid
  ) then
    raise exception 'last_admin' using errcode = 'P0001', hint = 'Make another admin first.';
  end if;

  -- Open stays before arrival are cancelled and free their berths.
  with open_orders as (
    update public.orders o set status = 'cancelled', cancelled_at = private.now()
     where o.user_id = v_uid and o.status in ('unverified', 'confirmed') and o.starts_at > private.now()
    returning o.id
  ), freed as (
    update public.place_statuses s set cancelled = true
      from open_orders x where s.order_id = x.id and not s.cancelled
    returning s.id
  )
  select count(*) into v_cancelled from open_orders;

  -- Orders stay for the books (price, dates, berth), without the person; invoices keep the
  -- recipient as billed (§ 14 UStG, § 147 AO: kept ten years).
  update public.orders o set
    user_id = null, email = '',
    person = jsonb_build_object('anonymised', true, 'country', o.person ->> 'country'),
    boat = jsonb_build_object('length', o.boat -> 'length', 'width', o.boat -> 'width')
   where o.user_id = v_uid or (lower(o.email) = v_email and o.user_id is null);
  get diagnostics v_anonymised = row_count;

  delete from public.outbox x where x.recipient = v_email;
  delete from public.contact_messages m where m.user_id = v_uid or lower(m.email) = v_email;
  delete from public.long_term_applications a where a.user_id = v_uid or lower(a.email) = v_email;
  update public.long_term_holders h set user_id = null, email = null where h.user_id = v_uid;
  update public.long_term_holder_events e set user_id = null, holder = e.holder - 'email' - 'user_id' where e.user_id = v_uid;

  -- Profile, roles, hours, sessions and identities go with the auth user (cascades).
  delete from auth.users u where u.id = v_uid;
  return jsonb_build_object('cancelled_orders', v_cancelled, 'anonymised_orders', v_anonymised);
end
$$;
comment on function public.delete_my_account() is 'GDPR Art. 17: deletes the caller''s account; open future bookings are cancelled, orders are kept anonymised for the books, invoices keep the billed recipient.';

-- ---------------------------------------------------------------- execute grants
revoke all on function public.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) from public, anon, authenticated;
revoke all on function public.move_booking(uuid, uuid) from public, anon, authenticated;
revoke all on function public.export_my_data() from public, anon, authenticated;
revoke all on function public.delete_my_account() from public, anon, authenticated;
grant execute on function public.staff_create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text) to authenticated;
grant execute on function public.move_booking(uuid, uuid) to authenticated;
grant execute on function public.export_my_data() to authenticated;
grant execute on function public.delete_my_account() to authenticated;
