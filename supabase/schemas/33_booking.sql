-- Booking: the one path every booking takes (private.book_berth), the guest's and customer's
-- create_booking, staff bookings for walk-ins, and the booking confirmation e-mail the new
-- order queues (mail engine: 50_mail_engine.sql).

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
  v_draught numeric;
  v_level integer;
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
    -- Optional (ADR 0053 "Draught against depth"): the booking form asks for it.
    v_draught := nullif(p_boat ->> 'draught', '')::numeric;
  exception when others then
    raise exception 'invalid_boat' using errcode = '22023';
  end;
  perform private.check_boat(v_length, v_width);
  perform private.check_draught(v_draught);
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
  -- Too shallow for the draught at the stay's level (53_draught_depth.sql), as the search says.
  if v_draught is not null and v_place.depth_cm is not null then
    v_level := (select l.level_cm from private.stay_gauge_level(v_period.starts_at, v_period.ends_at) l);
    if private.too_shallow(v_place, v_level, v_draught, (select s.margin_cm from public.depth_settings s where s.id = 1)) then
      raise exception 'berth_too_shallow' using errcode = '22023';
    end if;
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
      -- ... unless the holder is away for the whole stay (67_holder_absences.sql).
      and not exists (
        select 1 from public.holder_absences a
        where a.holder_id = h.id and a.starts_on <= p_arrival
          and a.ends_on > case when p_kind = 'day' then p_arrival else p_departure - 1 end
      )
  ) then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end if;
  -- A guest's stay into a harbour closure (the gauge's forecast or the staff override) is
  -- refused; staff may book it (a boat already in the harbour that cannot leave): ADR 0053.
  if not coalesce(p_breakdown_extra ? 'booked_by_staff', false) then
    perform private.check_harbour_open(p_arrival, case when p_kind = 'day' then p_arrival else p_departure - 1 end);
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
                       'length', v_length, 'width', v_width, 'draught', v_draught),
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
comment on function private.book_berth(uuid, public.order_status, uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, text, boolean, jsonb) is 'The booking rules of create_booking and staff_create_booking: boat, person, e-mail (required or optional), period, fit, kind, long-term holder, harbour not closed on a night (guests only), 3 open unverified orders per session, sale code and price, free berth; writes order (with the booking language, the payment mode and the deadline by which it must be confirmed or paid) and reservation. The caller decides who books, the status and the account.';
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
      boat_length = (v_order.boat ->> 'length')::numeric, boat_width = (v_order.boat ->> 'width')::numeric,
      boat_draught = coalesce((v_order.boat ->> 'draught')::numeric, pr.boat_draught)
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

create function private.queue_booking_confirmation(p_order public.orders)
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_locale text := private.order_locale(p_order);
  v_en boolean := v_locale = 'en';
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_name text := btrim(concat_ws(' ', p_order.person ->> 'first_name', p_order.person ->> 'last_name'));
  v_place text := p_order.place_snapshot ->> 'name';
  v_net bigint := coalesce((p_order.price_breakdown ->> 'net_cents')::bigint, 0);
  v_vat bigint := coalesce((p_order.price_breakdown ->> 'vat_cents')::bigint, 0);
  v_subject text;
  v_body text;
begin
  if p_order.email is null or p_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_subject := case when v_en
    then format('Your booking at Hafen Düsseldorf: berth %s, %s', v_place, private.format_berlin(p_order.starts_at, 'en'))
    else format('Ihre Buchung im Hafen Düsseldorf: Liegeplatz %s, %s', v_place, private.format_berlin(p_order.starts_at, 'de')) end;
  v_body := private.mail_text(v_locale, v_name, concat_ws(E'\n',
    case when v_en then 'thank you for your booking. Your stay:' else 'vielen Dank für Ihre Buchung. Ihr Aufenthalt:' end,
    '',
    case when v_en then 'Berth: ' else 'Liegeplatz: ' end || v_place
      || coalesce(case when v_en then ' (pier ' else ' (Steg ' end || (p_order.place_snapshot ->> 'pier') || ')', ''),
    case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(p_order.starts_at, v_locale),
    case when v_en then 'Departure: ' else 'Abreise: ' end || private.format_berlin(p_order.ends_at, v_locale),
    case when v_en then 'Boat: ' else 'Boot: ' end || coalesce(p_order.boat ->> 'name', '')
      || format(' (%s m × %s m)',
                case when v_en then p_order.boat ->> 'length' else replace(p_order.boat ->> 'length', '.', ',') end,
                case when v_en then p_order.boat ->> 'width' else replace(p_order.boat ->> 'width', '.', ',') end),
    '',
    case when v_en then 'Net: ' else 'Netto: ' end || private.format_eur(v_net, v_locale),
    case when v_en then 'VAT 19 %: ' else 'MwSt. 19 %: ' end || private.format_eur(v_vat, v_locale),
    case when v_en then 'Total: ' else 'Gesamt: ' end || private.format_eur(p_order.price_cents, v_locale),
    '',
    case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || p_order.booking_number,
    case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || p_order.id,
    -- How the stay is paid (the mode as booked); an order that must be paid online names its deadline.
    E'\n' || case
      when p_order.payment_mode = 'online_required' and p_order.expires_at is not null then case when v_en
        then format('Please pay online by %s (link above, "Pay now"). Otherwise the booking expires and the berth is released.', private.format_berlin(p_order.expires_at, 'en'))
        else format('Bitte bezahlen Sie bis %s online (Link oben, „Jetzt bezahlen“). Sonst verfällt die Buchung und der Liegeplatz wird freigegeben.', private.format_berlin(p_order.expires_at, 'de')) end
      when p_order.payment_mode = 'desk' then case when v_en
        then 'Payment: at the harbour office (cash, card or bank transfer).'
        else 'Bezahlung: im Hafenbüro (bar, mit Karte oder per Überweisung).' end
      when p_order.price_cents > 0 then case when v_en
        then 'Payment: online on your booking page (link above) or at the harbour office.'
        else 'Bezahlung: online auf Ihrer Buchungsseite (Link oben) oder im Hafenbüro.' end
    end,
    -- A guest order that must be paid lapses at the payment deadline; paying keeps it, so the
    -- e-mail confirmation is not a deadline of its own then.
    case when p_order.status = 'unverified' and p_order.payment_mode <> 'online_required' then E'\n' || case when v_en
      then 'Please confirm your e-mail address within 24 hours (at the latest by your arrival): log in with your e-mail address and the code we send you, from any device. Otherwise the booking expires and the berth is released.'
      else 'Bitte bestätigen Sie Ihre E-Mail-Adresse innerhalb von 24 Stunden (spätestens bis zur Ankunft): Melden Sie sich mit Ihrer E-Mail-Adresse und dem Code an, den wir Ihnen senden – von jedem Gerät aus. Sonst verfällt die Buchung und der Liegeplatz wird freigegeben.' end end,
    '',
    case when v_en then 'Check-in is possible on the arrival day.' else 'Der Check-in ist am Ankunftstag möglich.' end));
  return private.queue_mail(
    'booking_confirmation', p_order.email, v_locale, v_subject, v_body,
    jsonb_build_array(jsonb_build_object(
      'filename', case when v_en then 'booking-' else 'buchung-' end || v_place || '.ics',
      'content_type', 'text/calendar; charset=utf-8; method=PUBLISH',
      'content', private.booking_ics(p_order, v_locale))),
    private.setting('harbour_email'),
    p_order.id);
end
$$;
comment on function private.queue_booking_confirmation(public.orders) is 'Queues the booking confirmation (guest''s language, price with VAT, how it is paid and the payment deadline when it must be paid online, verification hint for guests, .ics of the stay).';
revoke execute on function private.queue_booking_confirmation(public.orders) from public;

-- Every order that starts its life open (create_booking, staff bookings) is confirmed by
-- exactly one e-mail; imported or past orders (not open, or already over) are not.
create function private.on_order_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status in ('unverified', 'confirmed') and new.ends_at > private.now() then
    perform private.queue_booking_confirmation(new);
  end if;
  return null;
end
$$;
comment on function private.on_order_created() is 'After insert on orders: queues the booking confirmation of a new open order.';
revoke execute on function private.on_order_created() from public;

create trigger orders_queue_confirmation after insert on public.orders
  for each row execute function private.on_order_created();
