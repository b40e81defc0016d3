-- The demo harbour on the Rhine in Düsseldorf: staff and customer accounts that can log in
-- (on the local stack and on `supabase start` alike), about 60 berths on piers A-E with their
-- electricity and water columns, news, the boot Düsseldorf fair period, sale codes, a
-- long-term holder, and past, current and future orders relative to the day of seeding.
--
-- Logins: admin@hafen.test / Admin1234, hafen@hafen.test / Hafen1234 (both with a TOTP second
-- factor, keys below and in the README), kunde@hafen.test / Kunde1234; anna.schmidt@hafen.test,
-- jan.devries@hafen.test, lisa.meyer@hafen.test / Kunde1234; inaktiv@hafen.test / Kunde1234 is
-- switched off.

-- ---------------------------------------------------------------- users (as GoTrue stores them)
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, phone_change, phone_change_token, reauthentication_token,
  raw_app_meta_data, raw_user_meta_data, is_super_admin, is_sso_user, is_anonymous,
  created_at, updated_at, last_sign_in_at
)
select
  '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
  extensions.crypt(u.password, extensions.gen_salt('bf', 10)), now() - interval '90 days',
  '', '', '', '', '', '', '', '',
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('first_name', u.first_name, 'last_name', u.last_name, 'locale', u.locale),
  false, false, false,
  now() - interval '90 days', now() - interval '90 days', now() - interval '1 day'
from (values
  ('a0000000-0000-4000-8000-000000000001'::uuid, 'admin@hafen.test', 'Admin1234', 'Andrea', 'Hafenmeister', 'de'),
  ('a0000000-0000-4000-8000-000000000002'::uuid, 'hafen@hafen.test', 'Hafen1234', 'Heinz', 'Poller', 'de'),
  ('a0000000-0000-4000-8000-000000000003'::uuid, 'kunde@hafen.test', 'Kunde1234', 'Klaus', 'Kunde', 'de'),
  ('a0000000-0000-4000-8000-000000000004'::uuid, 'anna.schmidt@hafen.test', 'Kunde1234', 'Anna', 'Schmidt', 'de'),
  ('a0000000-0000-4000-8000-000000000005'::uuid, 'jan.devries@hafen.test', 'Kunde1234', 'Jan', 'de Vries', 'en'),
  ('a0000000-0000-4000-8000-000000000006'::uuid, 'lisa.meyer@hafen.test', 'Kunde1234', 'Lisa', 'Meyer', 'de'),
  ('a0000000-0000-4000-8000-000000000007'::uuid, 'inaktiv@hafen.test', 'Kunde1234', 'Ingo', 'Inaktiv', 'de')
) as u(id, email, password, first_name, last_name, locale);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', now() - interval '1 day', u.created_at, u.created_at
from auth.users u
where u.email like '%@hafen.test';

-- A guest (anonymous session) with an unverified booking, as the booking flow leaves one.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, confirmation_token, recovery_token,
  email_change_token_new, email_change, raw_app_meta_data, raw_user_meta_data,
  is_super_admin, is_sso_user, is_anonymous, created_at, updated_at, last_sign_in_at
) values (
  '00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-0000000000a1', 'authenticated',
  'authenticated', null, '', '', '', '', '', '{}'::jsonb, '{}'::jsonb, false, false, true,
  now() - interval '2 hours', now() - interval '2 hours', now() - interval '2 hours'
);

-- The trigger made profiles and role records; now the staff flags and person data.
update public.user_roles set admin = true where user_id = 'a0000000-0000-4000-8000-000000000001';
update public.user_roles set harbor = true where user_id = 'a0000000-0000-4000-8000-000000000002';
update public.profiles p set
  phone = v.phone, street = v.street, postal_code = v.postal_code, city = v.city, country = v.country,
  boat_name = v.boat_name, boat_tag = v.boat_tag, boat_length = v.boat_length, boat_width = v.boat_width
from (values
  ('a0000000-0000-4000-8000-000000000001'::uuid, '+49 211 1234560', 'Am Yachthafen 1', '40221', 'Düsseldorf', 'Deutschland', null, null, null::numeric, null::numeric),
  ('a0000000-0000-4000-8000-000000000002'::uuid, '+49 211 1234561', 'Am Yachthafen 1', '40221', 'Düsseldorf', 'Deutschland', null, null, null, null),
  ('a0000000-0000-4000-8000-000000000003'::uuid, '+49 172 5550101', 'Rheinuferpromenade 12', '40213', 'Düsseldorf', 'Deutschland', 'Rheinperle', 'D-1234', 9.4, 3.2),
  ('a0000000-0000-4000-8000-000000000004'::uuid, '+49 160 5550102', 'Kaiserswerther Str. 80', '40477', 'Düsseldorf', 'Deutschland', 'Möwe', 'K-778', 11.8, 3.9),
  ('a0000000-0000-4000-8000-000000000005'::uuid, '+31 6 55501030', 'Prinsengracht 300', '1016 HW', 'Amsterdam', 'Nederland', 'Vrijheid', 'NL-4411', 14.6, 4.4),
  ('a0000000-0000-4000-8000-000000000006'::uuid, '+49 151 5550104', 'Lorettostr. 5', '40219', 'Düsseldorf', 'Deutschland', 'Lotte', 'D-9087', 7.2, 2.6),
  ('a0000000-0000-4000-8000-000000000007'::uuid, '+49 170 5550105', 'Kölner Str. 1', '40211', 'Düsseldorf', 'Deutschland', 'Alte Liebe', 'D-0001', 8.0, 3.0)
) as v(id, phone, street, postal_code, city, country, boat_name, boat_tag, boat_length, boat_width)
where p.id = v.id;
update public.profiles set active = false where id = 'a0000000-0000-4000-8000-000000000007';

-- ---------------------------------------------------------------- berths on piers A-E
-- Harbour plan: 1000 x 600 units, the quay along the top, piers running south from it, berths
-- on both sides of each pier.
insert into public.places (name, pier, description, description_en, width, length, one_day, features, position)
select
  b.pier || lpad(b.n::text, 2, '0'),
  b.pier,
  format('Liegeplatz %s%s an Steg %s, %s × %s m%s. %s', b.pier, lpad(b.n::text, 2, '0'), b.pier,
         replace(to_char(b.length, 'FM90.0'), '.', ','), replace(to_char(b.width, 'FM90.0'), '.', ','),
         case when b.one_day then ', nur für Tagesgäste' else '' end, b.de),
  format('Berth %s%s on pier %s, %s × %s m%s. %s', b.pier, lpad(b.n::text, 2, '0'), b.pier,
         to_char(b.length, 'FM90.0'), to_char(b.width, 'FM90.0'),
         case when b.one_day then ', day guests' else '' end, b.en),
  b.width, b.length, b.one_day, b.features,
  array[b.x + case when b.n % 2 = 1 then -28 else 28 end, 90 + ((b.n + 1) / 2) * 38]::double precision[]
from (
  -- Pier A: small boats, near the harbour entrance; the outer four for day guests.
  select 'A' as pier, n, 6.0 + (n - 1) * 0.2 as length, 2.5 + (n - 1) * 0.05 as width, n > 10 as one_day,
         array['electricity', 'water'] as features, 150 as x,
         'Kurzer Weg zum Hafenmeister.' as de, 'Short walk to the harbour office.' as en
  from generate_series(1, 14) n
  union all
  -- Pier B: 8-10 m
  select 'B', n, 8.0 + (n - 1) * 0.2, 3.0 + (n - 1) * 0.05, n in (1, 2),
         array['electricity', 'water', 'wifi'], 320,
         'Ruhige Lage mit Blick auf die Altstadt.', 'Quiet spot with a view of the old town.'
  from generate_series(1, 12) n
  union all
  -- Pier C: 10-13 m
  select 'C', n, 10.0 + (n - 1) * 0.25, 3.5 + (n - 1) * 0.05, false,
         array['electricity', 'water', 'wifi'], 490,
         'Gut geschützt hinter der Mole.', 'Well sheltered behind the breakwater.'
  from generate_series(1, 12) n
  union all
  -- Pier D: 13-16 m
  select 'D', n, 13.0 + (n - 1) * 0.3, 4.0 + (n - 1) * 0.05, false,
         array['electricity', 'water', 'wifi', 'lighting'], 660,
         'Breiter Steg, Strom mit 32 A.', 'Wide pier, 32 A shore power.'
  from generate_series(1, 10) n
  union all
  -- Pier E: the large berths up to 25 x 6 m, at the outer quay.
  select 'E', n, 16.0 + (n - 1) * 1.0, 4.6 + (n - 1) * 0.15, n = 1,
         array['electricity', 'water', 'wifi', 'lighting'], 830,
         'Außenkai für große Yachten, direkt am Fahrwasser.', 'Outer quay for large yachts, right on the fairway.'
  from generate_series(1, 10) n
) b;

-- Columns: per pier an electricity column every second pair of berths and a water column at
-- each end.
insert into public.additional_places (type, name, position)
select 'electric'::public.additional_place_type, format('Stromsäule %s%s', p.pier, k), array[p.x, 90 + k * 76]::double precision[]
from (values ('A', 150), ('B', 320), ('C', 490), ('D', 660), ('E', 830)) as p(pier, x),
     generate_series(1, 3) k
union all
select 'water', format('Wassersäule %s%s', p.pier, k), array[p.x, case k when 1 then 100 else 330 end]::double precision[]
from (values ('A', 150), ('B', 320), ('C', 490), ('D', 660), ('E', 830)) as p(pier, x),
     generate_series(1, 2) k;

insert into public.place_additional_places (place_id, additional_place_id)
select pl.id, ap.id
from public.places pl
join public.additional_places ap
  on ap.name in (
    format('Stromsäule %s%s', pl.pier, least(3, greatest(1, (substring(pl.name from 2)::int + 3) / 4))),
    format('Wassersäule %s%s', pl.pier, case when substring(pl.name from 2)::int <= 6 then 1 else 2 end)
  );

-- ---------------------------------------------------------------- fair, news, sale codes, settings
insert into public.fair_periods (name, name_en, starts_on, ends_on)
select 'boot Düsseldorf ' || y, 'boot Düsseldorf ' || y, make_date(y, 1, 17), make_date(y, 1, 25)
from (
  select case when (now() at time zone 'Europe/Berlin')::date <= make_date(extract(year from now() at time zone 'Europe/Berlin')::int, 1, 25)
              then extract(year from now() at time zone 'Europe/Berlin')::int
              else extract(year from now() at time zone 'Europe/Berlin')::int + 1 end as y
) t;

insert into public.news (title, short_description, description, title_en, short_description_en, description_en,
                         starts_at, ends_at, dates)
select
  'Zur boot Düsseldorf an den Rhein',
  'Messe-Liegeplätze für Aussteller und Besucher der boot.',
  'Während der boot Düsseldorf vom ' || to_char(f.starts_on, 'DD.MM.') || ' bis ' || to_char(f.ends_on, 'DD.MM.YYYY')
    || ' halten wir Messe-Liegeplätze bereit. Die Messe erreichen Sie mit der U78 in 20 Minuten.',
  'To boot Düsseldorf on the Rhine',
  'Fair berths for exhibitors and visitors of boot.',
  'During boot Düsseldorf from ' || to_char(f.starts_on, 'DD/MM') || ' to ' || to_char(f.ends_on, 'DD/MM/YYYY')
    || ' we keep fair berths for you. The U78 takes you to the fair grounds in 20 minutes.',
  now() - interval '7 days', private.berlin_at(f.ends_on + 1, time '00:00'),
  array[f.starts_on, f.ends_on]
from public.fair_periods f;

insert into public.news (title, short_description, description, title_en, short_description_en, description_en,
                         starts_at, ends_at)
values
  ('Winterlager 2026/27', 'Jetzt einen Platz im Winterlager sichern.',
   'Unser Kran hebt ab Mitte Oktober. Melden Sie Ihr Boot beim Hafenmeister an.',
   'Winter storage 2026/27', 'Reserve your winter storage place now.',
   'Our crane lifts boats from mid-October. Register your boat with the harbour master.',
   now() - interval '30 days', now() + interval '60 days'),
  ('Neue Stromsäulen an Steg D', '32 A für alle Liegeplätze an Steg D.',
   'Alle Liegeplätze an Steg D haben jetzt 32 A Landstrom.',
   'New power columns on pier D', '32 A shore power for every berth on pier D.',
   'Every berth on pier D now has 32 A shore power.',
   now() - interval '3 days', now() + interval '90 days'),
  ('Saisoneröffnung', 'Anlegen mit Musik.', 'Die Saisoneröffnung ist vorbei – danke fürs Kommen!',
   'Season opening', 'Mooring with music.', 'The season opening is over – thanks for coming!',
   now() - interval '200 days', now() - interval '170 days');

insert into public.sale_codes (code, type, value)
values ('RHEIN5', 'set-additional-costs', 500), ('FREUNDE', 'set-additional-costs', 0);

update public.harbour_settings
   set door_code = '4711#', wifi_ssid = 'Hafen-Duesseldorf-Gast', wifi_password = 'Rheinblick2026'
 where id = 1;

-- ---------------------------------------------------------------- two-factor sign-in for staff
-- Admins and harbour staff need a second factor (issue 26). The two staff accounts have a
-- verified TOTP factor (as GoTrue stores one after enrol + verify) whose keys are published in
-- the README, so a tester adds them to any authenticator app: admin@ IFSG22LOIR2WK43TMVWGI33SMYZDAMRW,
-- hafen@ JBQWMZLOIR2WK43TMVWGI33SMYZDAMRW (the base32 of "AdminDuesseldorf2026" and
-- "HafenDuesseldorf2026"). The test helpers compute their codes from the same keys.
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
values
  ('af000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'Authenticator', 'totp', 'verified',
   now() - interval '90 days', now() - interval '90 days', 'IFSG22LOIR2WK43TMVWGI33SMYZDAMRW'),
  ('af000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000002', 'Authenticator', 'totp', 'verified',
   now() - interval '90 days', now() - interval '90 days', 'JBQWMZLOIR2WK43TMVWGI33SMYZDAMRW');

update public.harbour_settings set mfa_required_admin = true, mfa_required_harbor = true where id = 1;

-- ---------------------------------------------------------------- long-term holder
insert into public.long_term_holders (place_id, user_id, email, first_name, last_name, starts_on, ends_on,
                                      boat_name, boat_tag, boat_length, boat_width, note)
select pl.id, 'a0000000-0000-4000-8000-000000000004', 'anna.schmidt@hafen.test', 'Anna', 'Schmidt',
       make_date(extract(year from now())::int, 4, 1), null, 'Möwe', 'K-778', 11.8, 3.9, 'Saisonvertrag, verlängert sich jährlich'
from public.places pl where pl.name = 'C05';

-- ---------------------------------------------------------------- orders relative to today
do $$
declare
  v_today date := private.berlin_date(now());
  r record;
  v_order uuid;
  v_quote jsonb;
  v_place public.places;
begin
  for r in
    select * from (values
      -- user, berth, kind, arrival offset, nights, status, payment, boat (name, length, width), day window
      ('a0000000-0000-4000-8000-000000000003'::uuid, 'B05', 'overnight', 0, 2, 'confirmed', 'pending', 'Rheinperle', 9.4, 3.2, null::time, null::time),
      ('a0000000-0000-4000-8000-000000000003'::uuid, 'B06', 'overnight', -40, 3, 'completed', 'paid', 'Rheinperle', 9.4, 3.2, null, null),
      ('a0000000-0000-4000-8000-000000000003'::uuid, 'B05', 'overnight', 21, 4, 'confirmed', 'pending', 'Rheinperle', 9.4, 3.2, null, null),
      ('a0000000-0000-4000-8000-000000000004'::uuid, 'C08', 'overnight', -10, 2, 'cancelled', 'pending', 'Möwe', 11.8, 3.9, null, null),
      ('a0000000-0000-4000-8000-000000000005'::uuid, 'D03', 'overnight', -1, 3, 'checked_in', 'paid', 'Vrijheid', 14.6, 4.4, null, null),
      ('a0000000-0000-4000-8000-000000000005'::uuid, 'D04', 'overnight', -120, 7, 'completed', 'paid', 'Vrijheid', 14.6, 4.4, null, null),
      ('a0000000-0000-4000-8000-000000000005'::uuid, 'E03', 'fair',
       (select min(f.starts_on) - private.berlin_date(now()) from public.fair_periods f)::int, 4, 'confirmed', 'pending', 'Vrijheid', 14.6, 4.4, null, null),
      ('a0000000-0000-4000-8000-000000000006'::uuid, 'A12', 'day', 1, 0, 'confirmed', 'pending', 'Lotte', 7.2, 2.6, time '10:00', time '14:00'),
      ('a0000000-0000-4000-8000-000000000006'::uuid, 'A07', 'overnight', 7, 1, 'confirmed', 'paid', 'Lotte', 7.2, 2.6, null, null),
      ('a0000000-0000-4000-8000-0000000000a1'::uuid, 'B08', 'overnight', 3, 2, 'unverified', 'pending', 'Seeschwalbe', 8.6, 3.1, null, null)
    ) as t(user_id, place, kind, arrival, nights, status, payment, boat_name, boat_length, boat_width, day_start, day_end)
  loop
    select * into v_place from public.places where name = r.place;
    v_quote := private.price_breakdown(r.kind::public.order_kind, r.nights, r.boat_length, null, null);
    insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, payment_status, price_cents,
                               price_breakdown, email, place_snapshot, boat, person, expires_at,
                               checked_in, checked_in_at, cancelled_at, created_at)
    select r.user_id, v_place.id, r.kind::public.order_kind,
           case when r.kind = 'day' then private.berlin_at(v_today + r.arrival, r.day_start)
                else private.berlin_at(v_today + r.arrival, time '14:00') end,
           case when r.kind = 'day' then private.berlin_at(v_today + r.arrival, r.day_end)
                else private.berlin_at(v_today + r.arrival + r.nights, time '12:00') end,
           r.status::public.order_status, r.payment::public.payment_status,
           (v_quote ->> 'gross_cents')::int, v_quote,
           coalesce(p.email, 'gast.seeschwalbe@hafen.test'),
           jsonb_build_object('id', v_place.id, 'name', v_place.name, 'pier', v_place.pier,
                              'width', v_place.width, 'length', v_place.length, 'one_day', v_place.one_day),
           jsonb_build_object('name', r.boat_name, 'length', r.boat_length, 'width', r.boat_width),
           jsonb_build_object('first_name', coalesce(p.first_name, 'Greta'), 'last_name', coalesce(p.last_name, 'Gast'),
                              'email', coalesce(p.email, 'gast.seeschwalbe@hafen.test')),
           case when r.status = 'unverified' then now() + interval '22 hours' end,
           r.status in ('checked_in', 'completed'),
           case when r.status in ('checked_in', 'completed') then private.berlin_at(v_today + r.arrival, time '15:10') end,
           case when r.status = 'cancelled' then now() - interval '15 days' end,
           now() - interval '1 day' * greatest(1, 14 - least(r.arrival, 0))
    from (select 1) one
    left join public.profiles p on p.id = r.user_id
    returning id into v_order;

    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at, cancelled, created_by)
    select o.place_id, o.id,
           case when o.status in ('checked_in', 'completed') then 'rent' else 'reservation' end::public.place_status_type,
           o.starts_at, o.ends_at, o.status = 'cancelled', o.user_id
    from public.orders o where o.id = v_order;

    -- A paid demo order has its payment in the ledger (cash at the desk), as staff record it.
    if r.payment = 'paid' then
      insert into public.payments (order_id, kind, method, amount_cents, currency, recorded_at)
      select o.id, 'payment', 'cash', o.price_cents, 'eur', o.created_at + interval '1 hour'
      from public.orders o where o.id = v_order;
    end if;
  end loop;

  -- Maintenance next week: a new fender board on E02.
  insert into public.place_statuses (place_id, type, starts_at, ends_at, note, created_by)
  select id, 'service', private.berlin_at(v_today + 5, time '08:00'), private.berlin_at(v_today + 8, time '17:00'),
         'Neue Fenderleiste / new fender board', 'a0000000-0000-4000-8000-000000000002'
  from public.places where name = 'E02';
end
$$;
