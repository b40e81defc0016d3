-- Door code and wifi: one row, readable by admins; harbour_access() gives it to those
-- who may see it (staff, active long-term holders, checked-in verified guests). The same row
-- holds the payment mode per kind of order (admins update it; payment_mode_for() reads it).

create table public.harbour_settings (
  id smallint primary key default 1 check (id = 1),
  door_code text not null default '',
  wifi_ssid text not null default '',
  wifi_password text not null default '',
  updated_at timestamptz not null default now(),
  -- How each kind of order is paid (issue 20): online before the stay, online or at the desk,
  -- or at the desk only. Walk-ins (booked by staff, staff_create_booking) have their own mode.
  payment_mode_day public.payment_mode not null default 'online_optional',
  payment_mode_overnight public.payment_mode not null default 'online_optional',
  payment_mode_fair public.payment_mode not null default 'online_optional',
  payment_mode_walk_in public.payment_mode not null default 'desk',
  constraint harbour_settings_lengths check (
    char_length(door_code) <= 40 and char_length(wifi_ssid) <= 64 and char_length(wifi_password) <= 100),
  -- How long an unpaid order of a kind that must be paid online holds its berth (issue 20).
  payment_hold_minutes integer not null default 60
    constraint harbour_settings_payment_hold check (payment_hold_minutes between 15 and 1440),
  -- Two-factor sign-in required per staff role (issue 26, 46_mfa.sql): when on, a person with
  -- that role flag counts as staff only in a session at aal2 (TOTP verified).
  mfa_required_admin boolean not null default false,
  mfa_required_harbor boolean not null default false,
  -- The start page introduces the harbour (issue 23): address, office hours, a map position and
  -- the approach by water. Everyone reads these through harbour_intro(); admins edit them.
  address_street text not null default '',
  address_postal_code text not null default '',
  address_city text not null default '',
  latitude numeric(8,6),
  longitude numeric(9,6),
  office_weekdays_opens time,
  office_weekdays_closes time,
  office_weekend_opens time,
  office_weekend_closes time,
  office_hours_note text not null default '',
  office_hours_note_en text not null default '',
  rhine_km numeric(5,1),
  vhf_channel smallint,
  water_approach text not null default '',
  water_approach_en text not null default '',
  -- The harbour office's phone and e-mail (contact, door-code, legal pages, start page): an
  -- international number (+, country code, 7 to 15 digits in all; spaces, hyphens, slashes and
  -- one pair of brackets as typed) and a plain address.
  contact_phone text not null default '',
  contact_email text not null default '',
  constraint harbour_settings_intro_lengths check (
    char_length(address_street) <= 100 and char_length(address_postal_code) <= 10
    and char_length(address_city) <= 60 and char_length(office_hours_note) <= 200
    and char_length(office_hours_note_en) <= 200 and char_length(water_approach) <= 800
    and char_length(water_approach_en) <= 800),
  -- A map position is both coordinates or neither.
  constraint harbour_settings_position check (
    (latitude is null) = (longitude is null)
    and (latitude is null or latitude between -90 and 90)
    and (longitude is null or longitude between -180 and 180)),
  -- Office hours per part of the week: both times or neither (closed), opening before closing.
  constraint harbour_settings_office_weekdays check (
    (office_weekdays_opens is null) = (office_weekdays_closes is null)
    and (office_weekdays_opens is null or office_weekdays_opens < office_weekdays_closes)),
  constraint harbour_settings_office_weekend check (
    (office_weekend_opens is null) = (office_weekend_closes is null)
    and (office_weekend_opens is null or office_weekend_opens < office_weekend_closes)),
  -- Rhine kilometres run from Constance (0) to the North Sea (about 1036).
  constraint harbour_settings_rhine_km check (rhine_km between 0 and 1040),
  -- Marine VHF channels are numbered 1 to 88.
  constraint harbour_settings_vhf_channel check (vhf_channel between 1 and 88),
  constraint harbour_settings_contact_phone check (
    char_length(contact_phone) <= 30
    and contact_phone ~ '^\+[1-9][0-9]*( ?\([0-9]+\) ?[0-9]+)?([ /-][0-9]+)*$'
    and char_length(regexp_replace(contact_phone, '[^0-9]', '', 'g')) between 7 and 15),
  constraint harbour_settings_contact_email check (
    char_length(contact_email) <= 254 and contact_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  -- The cancellation policy (47_cancellation_policy.sql, issue 40 item 1): free of charge until
  -- cancel_free_hours before arrival, afterwards the harbour keeps cancel_fee_percent.
  cancel_free_hours integer not null default 48
    constraint harbour_settings_cancel_free_hours check (cancel_free_hours between 0 and 2160),
  cancel_fee_percent integer not null default 50
    constraint harbour_settings_cancel_fee_percent check (cancel_fee_percent between 0 and 100),
  -- The booking horizon (issue 40 item 10, docs/adr/0014-booking-form-and-horizon.md): how far
  -- ahead a stay may be booked, so next year's prices are not sold at this year's. A stay must
  -- end (departure day; a day stay: its day) on or before private.booking_last_day(): today
  -- (Berlin) plus booking_horizon_months, and not after booking_last_day when an admin set one.
  booking_horizon_months smallint not null default 24
    constraint harbour_settings_booking_horizon_months check (booking_horizon_months between 1 and 36),
  booking_last_day date
);

comment on column public.harbour_settings.rhine_km is 'Where the harbour entrance lies on the Rhine (river kilometre, start page); null: not shown.';
comment on column public.harbour_settings.vhf_channel is 'The marine VHF channel the harbour office listens on (start page); null: none.';
comment on column public.harbour_settings.contact_phone is 'The harbour office''s phone in international form (+49 211 1234560); shown on the public pages.';
comment on column public.harbour_settings.contact_email is 'The harbour''s public e-mail address; shown on the public pages (mail Reply-To stays private.setting(''harbour_email'')).';
comment on column public.harbour_settings.water_approach is 'How to arrive by water, German (start page); water_approach_en the English text (empty: the German one is shown).';

comment on column public.harbour_settings.mfa_required_admin is 'Admins must sign in with a second factor (TOTP): an aal1 session of an admin holds no admin or staff rights.';
comment on column public.harbour_settings.mfa_required_harbor is 'Harbour staff must sign in with a second factor (TOTP): an aal1 session of harbour staff holds no staff rights.';

comment on column public.harbour_settings.payment_hold_minutes is 'Minutes an unpaid order holds its berth when its kind must be paid online (15 minutes to 24 hours); then it lapses and the berth is free again. A Checkout session started in time extends the hold to its own end.';

comment on column public.harbour_settings.cancel_free_hours is 'A guest cancels free of charge until this many hours before arrival (0 to 2160 = 90 days); everyone reads it through cancellation_policy().';
comment on column public.harbour_settings.cancel_fee_percent is 'The share of the price (whole percent, 0 to 100) the harbour keeps when a guest cancels later than cancel_free_hours before arrival.';

comment on column public.harbour_settings.booking_horizon_months is 'How many months ahead guests and staff may book a stay (1 to 36); the stay must end by today plus this many months.';
comment on column public.harbour_settings.booking_last_day is 'The last day a stay may end (e.g. the end of the season whose prices are set); null: only booking_horizon_months applies.';

alter table public.harbour_settings enable row level security;

comment on table public.harbour_settings is 'The one row of harbour settings: access data (door code, wifi; others read it only through harbour_access()) and the payment mode per kind of order (everyone reads it through payment_mode_for()).';

create policy "harbour_settings: admin reads" on public.harbour_settings
  for select to authenticated
  using ((select private.has_role('admin')));

create policy "harbour_settings: admin updates" on public.harbour_settings
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

revoke insert, delete, truncate on public.harbour_settings from anon, authenticated;

-- The demo harbour's introduction (start page); an operator changes it on the settings page.
insert into public.harbour_settings (id, address_street, address_postal_code, address_city, latitude, longitude,
  office_weekdays_opens, office_weekdays_closes, office_weekend_opens, office_weekend_closes,
  office_hours_note, office_hours_note_en, rhine_km, vhf_channel, water_approach, water_approach_en,
  contact_phone, contact_email)
values (1, 'Speditionstraße 25', '40221', 'Düsseldorf', 51.213900, 6.745200,
  '08:00', '18:00', '09:00', '17:00',
  'Von April bis Oktober; im Winter nach Vereinbarung.', 'April to October; in winter by arrangement.',
  744.0, 69,
  'Die Hafeneinfahrt liegt am rechten Ufer bei Rhein-km 744. Melden Sie sich vor der Einfahrt über UKW beim Hafenbüro und machen Sie an einem freien Gastliegeplatz am Kopfsteg fest.',
  'The harbour entrance is on the right bank at Rhine km 744. Call the harbour office on VHF before entering and moor at a free guest berth on the head pier.',
  '+49 211 1234560', 'hafen@hafen-duesseldorf.example');

create trigger harbour_settings_touch before update on public.harbour_settings
  for each row execute function private.touch_updated_at();

-- Audited (38_audit.sql): who changed the door code, wifi or payment modes, from what to what.
create trigger harbour_settings_audit after insert or update or delete on public.harbour_settings
  for each row execute function private.audit_row('id');

-- The last day a stay may end (departure day; a day stay: its day); stay_period refuses a later one.
create function private.booking_last_day()
returns date
language sql
stable
security definer
set search_path = ''
as $$
  select least(
    (private.berlin_date(private.now()) + make_interval(months => coalesce(s.booking_horizon_months, 24)))::date,
    coalesce(s.booking_last_day, 'infinity'::date))
  from (select 1) one
  left join public.harbour_settings s on s.id = 1
$$;
comment on function private.booking_last_day() is 'The booking horizon: the last day a stay may end (today in Berlin plus harbour_settings.booking_horizon_months, at most harbour_settings.booking_last_day).';
revoke execute on function private.booking_last_day() from public;
grant execute on function private.booking_last_day() to anon, authenticated, service_role;

create function public.booking_last_day()
returns date
language sql
stable
security invoker
set search_path = ''
as $$
  select private.booking_last_day()
$$;
comment on function public.booking_last_day() is 'The booking horizon for the booking form: the last day a stay may end; everyone may read it.';
revoke execute on function public.booking_last_day() from public;
grant execute on function public.booking_last_day() to anon, authenticated, service_role;

-- plpgsql (its body is checked when called): private.fee_access_withheld comes with 65_fee_reminders.sql.
create function private.can_see_harbour_access()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return private.is_staff()
    or (
      private.is_active_user() and not private.is_anonymous() and (
        exists (
          select 1 from public.long_term_holders h
          where h.user_id = (select auth.uid())
            and h.starts_on <= private.berlin_date(private.now())
            and (h.ends_on is null or h.ends_on >= private.berlin_date(private.now()))
        )
        or exists (
          select 1 from public.orders o
          where o.user_id = (select auth.uid()) and o.status = 'checked_in' and o.ends_at > private.now()
        )
      )
      -- docs/adr/0051: not while a long-term fee is overdue past the grace period.
      and not private.fee_access_withheld((select auth.uid()))
    );
end
$$;
comment on function private.can_see_harbour_access() is 'docs/adr/0028-door-code-and-wifi.md: staff, active long-term holders, verified owners of a checked-in stay until departure; docs/adr/0051: none of them while a long-term fee is overdue past fee_door_code_grace_days.';
revoke execute on function private.can_see_harbour_access() from public;

create function private.harbour_access()
returns table (door_code text, wifi_ssid text, wifi_password text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.can_see_harbour_access() then
    if private.fee_access_withheld((select auth.uid())) then
      raise exception 'fee_overdue_access_withheld' using errcode = '42501';
    end if;
    raise exception 'not_allowed' using errcode = '42501';
  end if;
  return query select s.door_code, s.wifi_ssid, s.wifi_password from public.harbour_settings s where s.id = 1;
end
$$;
comment on function private.harbour_access() is 'The rule behind public.harbour_access (security definer, not exposed by the API).';
revoke execute on function private.harbour_access() from public;
grant execute on function private.harbour_access() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/harbour_access): runs as the caller, the rule above decides.
create function public.harbour_access()
returns TABLE(door_code text, wifi_ssid text, wifi_password text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.harbour_access()
$$;
comment on function public.harbour_access() is 'The door code and wifi for those allowed to see them; refuses (42501) everyone else.';
revoke execute on function public.harbour_access() from anon, public;

-- Whether harbour_access() would answer this caller: the door-code and wifi pages ask this first,
-- so a signed-in customer without a stay reads how to get the codes, without a refused (HTTP 403)
-- request. It tells nothing but the caller's own standing.
create function private.harbour_access_allowed()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.can_see_harbour_access()
$$;
comment on function private.harbour_access_allowed() is 'The rule behind public.harbour_access_allowed (security definer, not exposed by the API).';
revoke execute on function private.harbour_access_allowed() from public;
grant execute on function private.harbour_access_allowed() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/harbour_access_allowed): runs as the caller, the rule above decides.
create function public.harbour_access_allowed()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select private.harbour_access_allowed()
$$;
comment on function public.harbour_access_allowed() is 'Whether the caller may see the door code and wifi (harbour_access() answers instead of refusing).';
revoke execute on function public.harbour_access_allowed() from anon, public;

create function private.payment_mode_for(p_kind public.order_kind, p_walk_in boolean default false)
returns public.payment_mode
language sql
stable
security definer
set search_path = ''
as $$
  select case
           when coalesce(p_walk_in, false) then s.payment_mode_walk_in
           when p_kind = 'day' then s.payment_mode_day
           when p_kind = 'overnight' then s.payment_mode_overnight
           else s.payment_mode_fair
         end
  from public.harbour_settings s
  where s.id = 1
$$;
comment on function private.payment_mode_for(public.order_kind, boolean) is 'The rule behind public.payment_mode_for (security definer, not exposed by the API).';
revoke execute on function private.payment_mode_for(public.order_kind, boolean) from public;
grant execute on function private.payment_mode_for(public.order_kind, boolean) to anon, authenticated, service_role;

create function private.payment_hold()
returns interval
language sql
stable
security definer
set search_path = ''
as $$
  select make_interval(mins => s.payment_hold_minutes) from public.harbour_settings s where s.id = 1
$$;
comment on function private.payment_hold() is 'How long an unpaid order holds its berth when it must be paid online (harbour_settings.payment_hold_minutes).';
revoke execute on function private.payment_hold() from public;

-- The booking form says before confirming how the stay will be paid.
create function private.payment_terms(p_kind public.order_kind)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('mode', private.payment_mode_for(p_kind, false),
                            'hold_minutes', s.payment_hold_minutes)
  from public.harbour_settings s
  where s.id = 1
$$;
comment on function private.payment_terms(public.order_kind) is 'The rule behind public.payment_terms (security definer, not exposed by the API).';
revoke execute on function private.payment_terms(public.order_kind) from public;
grant execute on function private.payment_terms(public.order_kind) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/payment_terms): runs as the caller, the rule above decides.
create function public.payment_terms(p_kind public.order_kind)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.payment_terms(p_kind)
$$;
comment on function public.payment_terms(public.order_kind) is 'How a guest''s booking of this kind is paid, for the booking form: {mode, hold_minutes} (online_required: pay within hold_minutes or the booking lapses).';
revoke execute on function public.payment_terms(public.order_kind) from public;
grant execute on function public.payment_terms(public.order_kind) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/payment_mode_for): runs as the caller, the rule above decides.
create function public.payment_mode_for(p_kind public.order_kind, p_walk_in boolean DEFAULT false)
returns public.payment_mode
language sql
stable
security invoker
set search_path = ''
as $$
  select private.payment_mode_for(p_kind, p_walk_in)
$$;
comment on function public.payment_mode_for(public.order_kind, boolean) is 'How an order of this kind is paid (online_required, online_optional, desk); walk-ins (booked by staff) have their own setting. Admins change it in harbour_settings.';
revoke execute on function public.payment_mode_for(public.order_kind, boolean) from public;
grant execute on function public.payment_mode_for(public.order_kind, boolean) to anon, authenticated, service_role;

-- The start page's introduction of the harbour: public, the columns an admin edits for it.
create function private.harbour_intro()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'address_street', s.address_street, 'address_postal_code', s.address_postal_code, 'address_city', s.address_city,
    'latitude', s.latitude, 'longitude', s.longitude,
    'office_weekdays_opens', to_char(s.office_weekdays_opens, 'HH24:MI'), 'office_weekdays_closes', to_char(s.office_weekdays_closes, 'HH24:MI'),
    'office_weekend_opens', to_char(s.office_weekend_opens, 'HH24:MI'), 'office_weekend_closes', to_char(s.office_weekend_closes, 'HH24:MI'),
    'office_hours_note', s.office_hours_note, 'office_hours_note_en', s.office_hours_note_en,
    'rhine_km', s.rhine_km, 'vhf_channel', s.vhf_channel,
    'water_approach', s.water_approach, 'water_approach_en', s.water_approach_en,
    'phone', s.contact_phone, 'email', s.contact_email)
  from public.harbour_settings s
  where s.id = 1
$$;
comment on function private.harbour_intro() is 'The rule behind public.harbour_intro (security definer, not exposed by the API).';
revoke execute on function private.harbour_intro() from public;
grant execute on function private.harbour_intro() to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/harbour_intro): the start page reads it with a plain GET.
create function public.harbour_intro()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.harbour_intro()
$$;
comment on function public.harbour_intro() is 'The harbour''s address, office hours (HH:MI, Europe/Berlin), map position, Rhine km, VHF channel and approach by water (de, en), phone and e-mail for the public pages; everyone may read it.';
revoke execute on function public.harbour_intro() from public;
grant execute on function public.harbour_intro() to anon, authenticated, service_role;
