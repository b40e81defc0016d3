-- Orders: the order table with its booking numbers, the berth statuses (the exclusion
-- constraint that forbids double booking), the stay period rules, expiry of unverified and
-- unpaid orders, claiming guest orders, the guest account of an order and the reminders the
-- scheduler sends. How an order is priced and found is in 32_prices_availability.sql, how it
-- is booked in 33_booking.sql, how it changes in 34_order_changes.sql.

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
    constraint orders_booking_number_key unique,
  -- What a cancellation kept of the money paid (cents; the cancellation policy,
  -- 47_cancellation_policy.sql): set by cancel_booking, never changed. Null on orders cancelled
  -- before the policy existed (they keep what exceeds the price, as before).
  cancellation_kept_cents integer
    constraint orders_cancellation_kept check (cancellation_kept_cents is null or cancellation_kept_cents >= 0)
);

comment on column public.orders.cancellation_kept_cents is 'Cents of the money paid that the harbour keeps after the cancellation (the policy''s share, at most what was paid); what is paid beyond it is owed to the guest. Set by cancel_booking; null: not cancelled under the policy.';

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

-- No insert, update or delete policies: orders change only through functions (here and in
-- 33_booking.sql, 34_order_changes.sql, 34b_check_in.sql, the payments and desk files).
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

-- Open orders lapse at expires_at and free their berth: unverified guest orders 24 hours after
-- booking (at the latest at arrival), unpaid orders whose kind must be paid online after the
-- payment hold (payment_hold_minutes, at the latest at arrival). Checked-in orders whose
-- departure has passed are completed. A paid order never expires: the first payment in the
-- ledger clears expires_at (35_payments_ledger.sql), and only orders whose payment is still
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

-- Search at scale: with years of history per berth, the overlap test probes the berths'
-- statuses that end after the arrival (an ordinary btree range scan per berth) instead of the
-- gist index of the exclusion constraint, which stays the guard against double booking.
-- Measured with supabase/local/bench/booking.bench.ts (1,000 berths, 10 years of stays).
create index place_statuses_place_end_idx on public.place_statuses (place_id, ends_at) where not cancelled;

-- The live occupations overlapping a period, whatever the berth (availability search, calendar,
-- occupancy report): a GiST index on the stay as a range (issue 25; the exclusion constraint's
-- index leads with place_id).
create index place_statuses_period_idx on public.place_statuses using gist (tstzrange(starts_at, ends_at)) where not cancelled;

-- Reports filter orders by arrival.
create index if not exists orders_starts_at_idx on public.orders (starts_at);

-- The staff order list: newest first, filtered by status.
create index if not exists orders_status_created_idx on public.orders (status, created_at desc);

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

-- Reminders the scheduler sends (99_cron.sql, every 15 minutes), each at most once per order
-- (the outbox is the record): the day before arrival from 09:00 Berlin time, what to know on
-- arriving; and a few hours before an unverified or unpaid booking lapses, how to keep it.
create function private.send_guest_reminders()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := private.now();
  v_today date := private.berlin_date(v_now);
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_address text := concat_ws(', ', private.setting('invoice_street'),
                              nullif(concat_ws(' ', private.setting('invoice_postal_code'), private.setting('invoice_city')), ''));
  v_order public.orders;
  v_locale text;
  v_en boolean;
  v_link text;
  v_count integer := 0;
  v_pay boolean;
begin
  -- The day before arrival, from 09:00.
  if (v_now at time zone 'Europe/Berlin')::time >= time '09:00' then
    for v_order in
      select o.* from public.orders o
       where o.status in ('unverified', 'confirmed')
         and o.starts_at >= private.berlin_at(v_today + 1, time '00:00')
         and o.starts_at < private.berlin_at(v_today + 2, time '00:00')
         and o.email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
         and not exists (select 1 from public.outbox m where m.order_id = o.id and m.kind = 'arrival_reminder')
       order by o.starts_at
       for update of o skip locked
    loop
      v_locale := private.order_locale(v_order);
      v_en := v_locale = 'en';
      v_link := v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id;
      v_pay := v_order.payment_status = 'pending' and v_order.price_cents > 0;
      perform private.queue_mail(
        'arrival_reminder', v_order.email, v_locale,
        case when v_en
          then format('See you tomorrow: berth %s, %s (%s)', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'en'), v_order.booking_number)
          else format('Bis morgen: Liegeplatz %s, %s (%s)', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'de'), v_order.booking_number) end,
        private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
          case when v_en then 'your stay at Hafen Düsseldorf begins tomorrow.' else 'morgen beginnt Ihr Aufenthalt im Hafen Düsseldorf.' end,
          '',
          case when v_en then 'Berth: ' else 'Liegeplatz: ' end || (v_order.place_snapshot ->> 'name')
            || coalesce(case when v_en then ' (pier ' else ' (Steg ' end || (v_order.place_snapshot ->> 'pier') || ')', ''),
          case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(v_order.starts_at, v_locale),
          case when v_en then 'Departure: ' else 'Abreise: ' end || private.format_berlin(v_order.ends_at, v_locale),
          case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
          '',
          case when v_en
            then 'Check in on your booking page from the arrival day: ' || v_link || '/check-in'
            else 'Einchecken können Sie ab dem Anreisetag auf Ihrer Buchungsseite: ' || v_link || '/check-in' end,
          case when v_en
            then 'After checking in, the page shows the door code for the sanitary building and the wifi, also late in the evening.'
            else 'Nach dem Check-in zeigt die Seite den Türcode für das Sanitärgebäude und das WLAN, auch spät am Abend.' end,
          case when v_order.status = 'unverified' then case when v_en
            then 'Please confirm your e-mail address first (log in with the code we send you); only then can you check in.'
            else 'Bitte bestätigen Sie vorher Ihre E-Mail-Adresse (Anmeldung mit dem Code, den wir Ihnen senden); erst dann ist der Check-in möglich.' end end,
          case when v_pay then case when v_en
            then 'Still to pay: ' || private.format_eur(v_order.price_cents, 'en') || ' (online on your booking page or at the harbour office).'
            else 'Noch zu bezahlen: ' || private.format_eur(v_order.price_cents, 'de') || ' (online auf Ihrer Buchungsseite oder im Hafenbüro).' end end,
          '',
          case when v_en then 'How to find us: ' else 'So finden Sie uns: ' end || v_address,
          case when v_en then 'Questions? Simply reply to this e-mail.' else 'Fragen? Antworten Sie einfach auf diese E-Mail.' end)),
        '[]'::jsonb, private.setting('harbour_email'), v_order.id);
      v_count := v_count + 1;
    end loop;
  end if;

  -- Three hours before an unverified or unpaid booking lapses (not for one booked within the
  -- last hour: its confirmation has just said so).
  for v_order in
    select o.* from public.orders o
     where o.status in ('unverified', 'confirmed') and o.payment_status = 'pending'
       and o.expires_at > v_now and o.expires_at <= v_now + interval '3 hours'
       and o.created_at <= v_now - interval '1 hour'
       and o.email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
       and not exists (select 1 from public.outbox m where m.order_id = o.id and m.kind = 'expiry_warning')
     order by o.expires_at
     for update of o skip locked
  loop
    v_locale := private.order_locale(v_order);
    v_en := v_locale = 'en';
    v_link := v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id;
    v_pay := v_order.payment_mode = 'online_required';
    perform private.queue_mail(
      'expiry_warning', v_order.email, v_locale,
      case when v_en
        then format('Your booking %s lapses at %s', v_order.booking_number, private.format_berlin(v_order.expires_at, 'en'))
        else format('Ihre Buchung %s verfällt am %s', v_order.booking_number, private.format_berlin(v_order.expires_at, 'de')) end,
      private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
        case when v_pay then case when v_en
            then format('your booking of berth %s is not paid yet. Please pay online by %s, otherwise it lapses and the berth is released:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'en'))
            else format('Ihre Buchung von Liegeplatz %s ist noch nicht bezahlt. Bitte bezahlen Sie bis %s online, sonst verfällt sie und der Liegeplatz wird freigegeben:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'de')) end
          else case when v_en
            then format('your e-mail address for the booking of berth %s is not confirmed yet. Please confirm it by %s (log in with your e-mail address and the code we send you), otherwise the booking lapses and the berth is released:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'en'))
            else format('Ihre E-Mail-Adresse für die Buchung von Liegeplatz %s ist noch nicht bestätigt. Bitte bestätigen Sie sie bis %s (Anmeldung mit Ihrer E-Mail-Adresse und dem Code, den wir Ihnen senden), sonst verfällt die Buchung und der Liegeplatz wird freigegeben:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'de')) end
        end,
        v_link,
        '',
        case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
        case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(v_order.starts_at, v_locale))),
      '[]'::jsonb, private.setting('harbour_email'), v_order.id);
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
comment on function private.send_guest_reminders() is 'Scheduled every 15 minutes: queues the arrival reminder (the day before, from 09:00 Berlin) and the warning 3 hours before an unverified or unpaid booking lapses, each once per order; returns how many were queued.';
revoke execute on function private.send_guest_reminders() from public;
