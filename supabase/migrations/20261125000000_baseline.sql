-- Baseline: the whole schema as supabase/schemas/*.sql declares it, in the same order (nothing
-- was deployed before it, so the 29 patch migrations it replaces were folded into the schema
-- files). From here on, change supabase/schemas and run `npm run db:diff -- <name>`; the
-- agreement test (tests/db/schema-agreement.test.ts) proves the two build the same database.

-- ================================================================ supabase/schemas/00_extensions_helpers.sql

-- Extensions, the private schema (not exposed by the API), the shared enums and the clock
-- every booking rule reads (private.now(), which tests may freeze per transaction).
-- The desired state: `npm run db:diff -- <name>` turns a change here into a migration.

-- btree_gist lets the exclusion constraint combine "same berth" (=) with "overlapping time" (&&).
create extension if not exists btree_gist with schema extensions;

-- Not exposed through the API (config.toml [api].schemas lists only public). The API roles
-- need USAGE because policies call the helpers below as the requesting role.
create schema if not exists private;

comment on schema private is 'Helpers for policies and functions; not exposed by the API.';

revoke all on schema private from public;

grant usage on schema private to anon, authenticated, service_role, supabase_auth_admin;

create type public.order_kind as enum ('day', 'overnight', 'fair');

comment on type public.order_kind is 'Kind of stay: a day window, overnight nights, or overnight nights inside a fair period.';

create type public.order_status as enum ('unverified', 'confirmed', 'checked_in', 'completed', 'cancelled', 'expired');

comment on type public.order_status is 'Order life cycle, see ARCHITECTURE.md "Order and berth states".';

create type public.payment_status as enum ('pending', 'paid', 'refunded');

comment on type public.payment_status is 'Payment life cycle, separate from the order status.';

create type public.place_status_type as enum ('reservation', 'rent', 'service');

comment on type public.place_status_type is 'Berth occupation: reservation (booked), rent (checked in), service (maintenance).';

create type public.additional_place_type as enum ('electric', 'water');

comment on type public.additional_place_type is 'Kind of column on the pier: electricity or water.';

create type public.sale_code_type as enum ('set-additional-costs');

comment on type public.sale_code_type is 'What a sale code does; the only type replaces the additional costs per night.';

-- The test-only frozen clock. A row counts only inside the very transaction that wrote it
-- (its top-level transaction id is stored), so a frozen time can never outlive a test, and
-- the API roles can neither read nor write this table (no grants, schema private).
create table private.test_clock (
  xact_id xid8 primary key,
  frozen_at timestamptz not null
);

alter table private.test_clock enable row level security;

comment on table private.test_clock is 'Frozen time for tests, honoured only within the writing transaction; no API role has access.';

create function private.now()
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select c.frozen_at from private.test_clock c where c.xact_id = pg_catalog.pg_current_xact_id_if_assigned()),
    pg_catalog.now()
  )
$$;
comment on function private.now() is 'now(), unless a test froze the clock in this transaction (private.freeze_clock).';
revoke execute on function private.now() from public;
grant execute on function private.now() to anon, authenticated, service_role;

create function private.freeze_clock(p_at timestamptz)
returns timestamptz
language sql
volatile
set search_path = ''
as $$
  insert into private.test_clock (xact_id, frozen_at)
  values (pg_catalog.pg_current_xact_id(), p_at)
  on conflict (xact_id) do update set frozen_at = excluded.frozen_at
  returning frozen_at
$$;
comment on function private.freeze_clock(timestamptz) is 'Tests only: freezes private.now() for the current transaction. Not executable by any API role.';
revoke execute on function private.freeze_clock(timestamptz) from public;

-- Stable, not immutable: time zone rules come from the server's tz database.
create function private.berlin_date(p_at timestamptz)
returns date
language sql
stable
set search_path = ''
as $$
  select (p_at at time zone 'Europe/Berlin')::date
$$;
comment on function private.berlin_date(timestamptz) is 'The calendar day of an instant in Düsseldorf (sessions run in UTC on hosted Supabase).';
revoke execute on function private.berlin_date(timestamptz) from public;
grant execute on function private.berlin_date(timestamptz) to anon, authenticated, service_role;

create function private.berlin_at(p_day date, p_time time)
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select pg_catalog.make_timestamptz(
    extract(year from p_day)::int, extract(month from p_day)::int, extract(day from p_day)::int,
    extract(hour from p_time)::int, extract(minute from p_time)::int, extract(second from p_time)::double precision,
    'Europe/Berlin')
$$;
comment on function private.berlin_at(date, time) is 'The instant of a wall-clock time on a day in Düsseldorf (DST aware).';
revoke execute on function private.berlin_at(date, time) from public;
grant execute on function private.berlin_at(date, time) to anon, authenticated, service_role;

-- ================================================================ supabase/schemas/05_settings.sql

-- Operator settings (harbour address, site URL, invoice issuer) in a table no API role can
-- read; functions read them through private.setting().

-- Operator settings that are not secrets worth the Vault: the harbour's address for messages,
-- the site's URL for links in e-mails, and (only where Vault is absent, i.e. the local stack)
-- the project URL and anon key the scheduler uses to call send-mail.
create table private.app_settings (
  key text primary key,
  value text not null
);

alter table private.app_settings enable row level security;

comment on table private.app_settings is 'Operator settings for mail: harbour_email, site_url, and locally project_url/anon_key for the send-mail schedule.';

insert into private.app_settings (key, value) values
  ('harbour_email', 'hafen@hafen-duesseldorf.de'),
  ('site_url', 'http://localhost:3000');

create function private.setting(p_key text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select s.value from private.app_settings s where s.key = p_key
$$;
comment on function private.setting(text) is 'An operator setting from private.app_settings (null when unset).';
revoke execute on function private.setting(text) from public;

-- What § 14 UStG wants on the invoice about the issuer. The VAT id here is the demo harbour's
-- placeholder until the operator sets the real one (README, hosted checklist).
insert into private.app_settings (key, value) values
  ('invoice_name', 'Hafen Düsseldorf'),
  ('invoice_street', 'Speditionstraße 25'),
  ('invoice_postal_code', '40221'),
  ('invoice_city', 'Düsseldorf'),
  ('invoice_vat_id', 'DE000000000'),
  ('invoice_email', 'hafen@hafen-duesseldorf.example')
on conflict (key) do nothing;

-- ================================================================ supabase/schemas/10_identity_roles.sql

-- Identity and roles: profiles and role flags of permanent users, the role checks every
-- policy calls (private.has_role, private.is_staff), the new-user trigger on auth.users, the
-- custom access-token hook, and the admin's user list.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  first_name text check (char_length(first_name) <= 100),
  last_name text check (char_length(last_name) <= 100),
  company text check (char_length(company) <= 100),
  phone text check (char_length(phone) <= 40),
  street text check (char_length(street) <= 200),
  postal_code text check (char_length(postal_code) <= 20),
  city text check (char_length(city) <= 100),
  country text check (char_length(country) <= 100),
  boat_name text check (char_length(boat_name) <= 60),
  boat_tag text check (char_length(boat_tag) <= 60),
  boat_length numeric(4, 1) check (boat_length between 1.0 and 60.0),
  boat_width numeric(4, 1) check (boat_width between 0.5 and 15.0),
  locale text not null default 'de' check (locale in ('de', 'en')),
  location text not null default 'duesseldorf',
  avatar_path text,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table public.profiles enable row level security;

comment on table public.profiles is 'A person with an account: contact and boat data to prefill bookings, language, active flag.';

create index profiles_email_idx on public.profiles (lower(email));

create table public.user_roles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  admin boolean not null default false,
  harbor boolean not null default false,
  "user" boolean not null default false,
  updated_at timestamptz not null default now()
);

alter table public.user_roles enable row level security;

comment on table public.user_roles is 'The role flags of a user (admin, harbor, user); policies read them through private helpers.';

create function private.is_active_user()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.profiles p
    where p.id = (select auth.uid()) and p.active
  )
$$;
comment on function private.is_active_user() is 'The caller has an account (profile) that is switched on.';
revoke execute on function private.is_active_user() from public;
grant execute on function private.is_active_user() to anon, authenticated, service_role;

create function private.has_role(p_role text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.user_roles r
    join public.profiles p on p.id = r.user_id
    where r.user_id = (select auth.uid())
      and p.active
      and case p_role
            when 'admin' then r.admin
            when 'harbor' then r.harbor
            when 'user' then r."user"
            else false
          end
  )
$$;
comment on function private.has_role(text) is 'The caller is active and holds the role flag (admin, harbor or user) in user_roles, never in JWT claims.';
revoke execute on function private.has_role(text) from public;
grant execute on function private.has_role(text) to anon, authenticated, service_role;

create function private.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.user_roles r
    join public.profiles p on p.id = r.user_id
    where r.user_id = (select auth.uid()) and p.active and (r.admin or r.harbor)
  )
$$;
comment on function private.is_staff() is 'The caller is active harbour staff (harbor or admin flag).';
revoke execute on function private.is_staff() from public;
grant execute on function private.is_staff() to anon, authenticated, service_role;

create function private.is_anonymous()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select u.is_anonymous from auth.users u where u.id = (select auth.uid())), false)
$$;
comment on function private.is_anonymous() is 'The caller is a Supabase anonymous session (a guest), read from auth.users.';
revoke execute on function private.is_anonymous() from public;
grant execute on function private.is_anonymous() to anon, authenticated, service_role;

-- One policy per operation and role (permissive policies OR together anyway; one is cheaper).
create policy "profiles: own, and staff read all" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select private.is_staff()));

create policy "profiles: own, and admins update all" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()) or (select private.has_role('admin')))
  with check (id = (select auth.uid()) or (select private.has_role('admin')));

create policy "profiles: auth admin read" on public.profiles
  for select to supabase_auth_admin
  using (true);

-- Column rules: only admins switch accounts on or off; nobody edits id, email (it follows
-- auth.users) or created_at through the API.
create function private.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if new.id is distinct from old.id or new.email is distinct from old.email
       or new.created_at is distinct from old.created_at then
      raise exception 'profile_field_read_only' using errcode = '42501';
    end if;
    if new.active is distinct from old.active and not (select private.has_role('admin')) then
      raise exception 'only_admins_change_active' using errcode = '42501';
    end if;
  end if;
  new.updated_at := now();
  return new;
end
$$;
comment on function private.guard_profile_update() is 'Keeps id, email and created_at read-only for API roles and lets only admins change active.';
revoke execute on function private.guard_profile_update() from public;

create trigger profiles_guard before update on public.profiles
  for each row execute function private.guard_profile_update();

create policy "user_roles: own, and admins read all" on public.user_roles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.has_role('admin')));

create policy "user_roles: admin update" on public.user_roles
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "user_roles: auth admin read" on public.user_roles
  for select to supabase_auth_admin
  using (true);

revoke insert, delete, truncate on public.user_roles from anon, authenticated;

grant select on public.user_roles, public.profiles to supabase_auth_admin;

create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
comment on function private.touch_updated_at() is 'Sets updated_at on every update.';
revoke execute on function private.touch_updated_at() from public;

create trigger user_roles_touch before update on public.user_roles
  for each row execute function private.touch_updated_at();

-- GoTrue inserts into auth.users as supabase_auth_admin: the function runs as its owner.
-- Anonymous sessions (guests) get no profile: "logged in" means a permanent account.
create function private.handle_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_locale text := case when v_meta ->> 'locale' in ('de', 'en') then v_meta ->> 'locale' else 'de' end;
begin
  if new.is_anonymous then
    return new;
  end if;
  if tg_op = 'INSERT' or not exists (select 1 from public.profiles p where p.id = new.id) then
    insert into public.profiles (id, email, first_name, last_name, locale)
    values (
      new.id,
      new.email,
      nullif(left(v_meta ->> 'first_name', 100), ''),
      nullif(left(v_meta ->> 'last_name', 100), ''),
      v_locale
    )
    on conflict (id) do nothing;
    insert into public.user_roles (user_id, "user") values (new.id, true)
    on conflict (user_id) do nothing;
  elsif new.email is distinct from old.email then
    update public.profiles set email = new.email where id = new.id;
  end if;
  return new;
end
$$;
comment on function private.handle_auth_user() is 'Creates profile and role record (user = true) for a new permanent auth user, and follows e-mail changes.';
revoke execute on function private.handle_auth_user() from public;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_auth_user();

create trigger on_auth_user_updated
  after update of email, is_anonymous on auth.users
  for each row execute function private.handle_auth_user();

-- Puts the role flags and the active flag into app_metadata of the JWT, for the UI only:
-- policies never read them.
create function public.custom_access_token_hook(event jsonb)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_claims jsonb := coalesce(event -> 'claims', '{}'::jsonb);
  v_app jsonb := coalesce(v_claims -> 'app_metadata', '{}'::jsonb);
  v_roles record;
  v_active boolean;
begin
  select r.admin, r.harbor, r."user" into v_roles
  from public.user_roles r where r.user_id = (event ->> 'user_id')::uuid;
  select p.active into v_active from public.profiles p where p.id = (event ->> 'user_id')::uuid;
  v_app := v_app || jsonb_build_object(
    'roles', jsonb_build_object(
      'admin', coalesce(v_roles.admin, false),
      'harbor', coalesce(v_roles.harbor, false),
      'user', coalesce(v_roles."user", false)
    ),
    'active', coalesce(v_active, false)
  );
  return jsonb_build_object('claims', v_claims || jsonb_build_object('app_metadata', v_app));
end
$$;
comment on function public.custom_access_token_hook(jsonb) is 'GoTrue custom access-token hook: adds role flags and active to app_metadata (UI hints only).';
revoke execute on function public.custom_access_token_hook(jsonb) from anon, authenticated, public, service_role;
grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin;

grant usage on schema public to supabase_auth_admin;

create function private.guard_own_admin_flag()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.user_id = (select auth.uid()) and old.admin and not new.admin then
    raise exception 'cannot_remove_own_admin'
      using errcode = 'P0001', hint = 'Another admin must remove your admin flag.';
  end if;
  return new;
end
$$;
comment on function private.guard_own_admin_flag() is 'An admin cannot remove the own admin flag (another admin must), so the harbour never locks itself out by accident.';
revoke execute on function private.guard_own_admin_flag() from public;

create trigger user_roles_keep_own_admin before update of admin on public.user_roles
  for each row execute function private.guard_own_admin_flag();

create function private.guard_own_active_flag()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.id = (select auth.uid()) and old.active and not new.active then
    raise exception 'cannot_deactivate_self'
      using errcode = 'P0001', hint = 'Another admin must switch your account off.';
  end if;
  return new;
end
$$;
comment on function private.guard_own_active_flag() is 'Nobody switches the own account off through the API (admins included): another admin must.';
revoke execute on function private.guard_own_active_flag() from public;

create trigger profiles_keep_own_active before update of active on public.profiles
  for each row execute function private.guard_own_active_flag();

create function public.admin_list_users(p_search text default null, p_limit integer default 20, p_offset integer default 0)
returns table (
  id uuid, email text, first_name text, last_name text,
  admin boolean, harbor boolean, "user" boolean, active boolean, total bigint
)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_search text := nullif(btrim(coalesce(p_search, '')), '');
  v_pattern text;
begin
  if not private.has_role('admin') then
    raise exception 'admin_required' using errcode = '42501';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 100 or p_offset is null or p_offset < 0 then
    raise exception 'invalid_page' using errcode = '22023', hint = 'limit 1-100, offset >= 0';
  end if;
  if v_search is not null then
    -- A literal search: % and _ typed by the admin match themselves.
    v_pattern := '%' || replace(replace(replace(left(v_search, 100), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  return query
  select p.id, p.email, p.first_name, p.last_name,
         coalesce(r.admin, false), coalesce(r.harbor, false), coalesce(r."user", false), p.active,
         count(*) over () as total
  from public.profiles p
  left join public.user_roles r on r.user_id = p.id
  where v_pattern is null
     or p.email ilike v_pattern
     or p.first_name ilike v_pattern
     or p.last_name ilike v_pattern
     or (coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')) ilike v_pattern
  order by lower(coalesce(p.last_name, '')), lower(coalesce(p.first_name, '')), lower(coalesce(p.email, '')), p.id
  limit p_limit offset p_offset;
end
$$;
comment on function public.admin_list_users(text, integer, integer) is 'Admins: a page of accounts (profile, role flags, active) by e-mail or name, with the total for paging.';
revoke execute on function public.admin_list_users(text, integer, integer) from anon, public;

-- Security invoker: the admin-only policies and the guard triggers above decide, the function
-- only makes profile, roles and active one transaction with readable errors.
create function public.admin_save_user(
  p_user_id uuid,
  p_first_name text,
  p_last_name text,
  p_phone text,
  p_company text,
  p_street text,
  p_postal_code text,
  p_city text,
  p_country text,
  p_admin boolean,
  p_harbor boolean,
  p_user boolean,
  p_active boolean
)
returns void
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if not private.has_role('admin') then
    raise exception 'admin_required' using errcode = '42501';
  end if;
  if p_admin is null or p_harbor is null or p_user is null or p_active is null then
    raise exception 'flags_required' using errcode = '22023';
  end if;
  update public.profiles set
    first_name = nullif(btrim(p_first_name), ''),
    last_name = nullif(btrim(p_last_name), ''),
    phone = nullif(btrim(p_phone), ''),
    company = nullif(btrim(p_company), ''),
    street = nullif(btrim(p_street), ''),
    postal_code = nullif(btrim(p_postal_code), ''),
    city = nullif(btrim(p_city), ''),
    country = nullif(btrim(p_country), ''),
    active = p_active
  where id = p_user_id;
  if not found then
    raise exception 'user_not_found' using errcode = 'P0001';
  end if;
  update public.user_roles set admin = p_admin, harbor = p_harbor, "user" = p_user
  where user_id = p_user_id;
  if not found then
    raise exception 'user_not_found' using errcode = 'P0001';
  end if;
end
$$;
comment on function public.admin_save_user(uuid, text, text, text, text, text, text, text, text, boolean, boolean, boolean, boolean) is 'Admins: saves a user''s person fields, role flags and active flag at once; the guards refuse removing the own admin flag or switching oneself off.';
revoke execute on function public.admin_save_user(uuid, text, text, text, text, text, text, text, text, boolean, boolean, boolean, boolean) from anon, public;

-- ================================================================ supabase/schemas/20_berths.sql

-- Berths (places), the columns on the pier (additional places), fair periods and the
-- long-term holders of a berth; admins edit them, everyone reads them.

create table public.places (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(name) between 1 and 100),
  pier text,
  description text not null default '',
  description_en text not null default '',
  image_path text,
  video_url text,
  width numeric(4, 1) not null default 0 check (width >= 0),
  length numeric(4, 1) not null default 0 check (length >= 0),
  one_day boolean not null default false,
  features text[] not null default '{}',
  position double precision[] check (position is null or cardinality(position) = 2),
  archived boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint places_position_on_plan check (
    position is null or (
    array_position(position, null) is null
    and position[1] between 0 and 1000 and position[2] between 0 and 600))
);

alter table public.places enable row level security;

comment on table public.places is 'A berth (Stellplatz): size, day-stay flag, features and its position on the harbour plan.';

create index places_fit_idx on public.places (length, width) where not archived;

create policy "places: everyone reads active berths" on public.places
  for select to anon, authenticated
  using (not archived or (select private.is_staff()));

create policy "places: admin inserts" on public.places
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "places: admin updates" on public.places
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "places: admin deletes" on public.places
  for delete to authenticated
  using ((select private.has_role('admin')));

create trigger places_touch before update on public.places
  for each row execute function private.touch_updated_at();

create table public.additional_places (
  id uuid primary key default gen_random_uuid(),
  type public.additional_place_type not null,
  name text not null check (char_length(name) between 1 and 100),
  position double precision[] not null check (cardinality(position) = 2),
  image_path text,
  created_at timestamptz not null default now(),
  constraint additional_places_position_on_plan check (
    array_position(position, null) is null
    and position[1] between 0 and 1000 and position[2] between 0 and 600)
);

-- Live on the harbour plan (supabase_realtime).
alter publication supabase_realtime add table public.additional_places;

alter table public.additional_places enable row level security;

comment on table public.additional_places is 'An electricity or water column on a pier, with its position on the harbour plan.';

create policy "additional_places: everyone reads" on public.additional_places
  for select to anon, authenticated
  using (true);

create policy "additional_places: admin inserts" on public.additional_places
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "additional_places: admin updates" on public.additional_places
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "additional_places: admin deletes" on public.additional_places
  for delete to authenticated
  using ((select private.has_role('admin')));

create table public.place_additional_places (
  place_id uuid not null references public.places (id) on delete cascade,
  additional_place_id uuid not null references public.additional_places (id) on delete cascade,
  primary key (place_id, additional_place_id)
);

alter table public.place_additional_places enable row level security;

comment on table public.place_additional_places is 'Which columns serve which berth.';

create index place_additional_places_additional_idx on public.place_additional_places (additional_place_id);

create policy "place_additional_places: everyone reads" on public.place_additional_places
  for select to anon, authenticated
  using (true);

create policy "place_additional_places: admin inserts" on public.place_additional_places
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "place_additional_places: admin deletes" on public.place_additional_places
  for delete to authenticated
  using ((select private.has_role('admin')));

create table public.long_term_holders (
  id uuid primary key default gen_random_uuid(),
  place_id uuid not null references public.places (id) on delete cascade,
  user_id uuid references auth.users (id) on delete set null,
  email text,
  first_name text,
  last_name text,
  starts_on date not null,
  ends_on date,
  boat_name text check (char_length(boat_name) <= 60),
  boat_tag text check (char_length(boat_tag) <= 60),
  boat_length numeric(4, 1) check (boat_length between 1.0 and 60.0),
  boat_width numeric(4, 1) check (boat_width between 0.5 and 15.0),
  note text,
  created_at timestamptz not null default now(),
  check (ends_on is null or ends_on >= starts_on)
);

alter table public.long_term_holders enable row level security;

comment on table public.long_term_holders is 'A seasonal (long-term) holder of a berth; such a berth is not bookable while held.';

create index long_term_holders_place_idx on public.long_term_holders (place_id, starts_on);

create index long_term_holders_user_idx on public.long_term_holders (user_id);

create policy "long_term_holders: holder reads own, staff read all" on public.long_term_holders
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

create policy "long_term_holders: admin inserts" on public.long_term_holders
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "long_term_holders: admin updates" on public.long_term_holders
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "long_term_holders: admin deletes" on public.long_term_holders
  for delete to authenticated
  using ((select private.has_role('admin')));

-- What the public may know (the spec's longTimeStart): that a berth is long-term occupied
-- from a date, without who holds it.
create function private.place_long_term_starts()
returns table (place_id uuid, long_term_start date)
language sql
stable
security definer
set search_path = ''
as $$
  select h.place_id, min(h.starts_on)
  from public.long_term_holders h
  join public.places p on p.id = h.place_id and not p.archived
  where h.ends_on is null or h.ends_on >= private.berlin_date(private.now())
  group by h.place_id
$$;
comment on function private.place_long_term_starts() is 'The rule behind public.place_long_term_starts (security definer, not exposed by the API).';
revoke execute on function private.place_long_term_starts() from public;
grant execute on function private.place_long_term_starts() to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/place_long_term_starts): runs as the caller, the rule above decides.
create function public.place_long_term_starts()
returns TABLE(place_id uuid, long_term_start date)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.place_long_term_starts()
$$;
comment on function public.place_long_term_starts() is 'Per berth, the date from which it is long-term occupied (current or future holders), without the holder.';
revoke execute on function public.place_long_term_starts() from public;

create table public.fair_periods (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 100),
  name_en text,
  starts_on date not null,
  ends_on date not null,
  created_at timestamptz not null default now(),
  check (ends_on > starts_on),
  constraint fair_periods_name_en_length check (char_length(name_en) <= 100),
  constraint fair_periods_length check (ends_on - starts_on <= 60)
);

alter table public.fair_periods enable row level security;

comment on table public.fair_periods is 'A trade fair (e.g. boot Düsseldorf) during which fair boater berths are booked; dates inclusive.';

create index fair_periods_dates_idx on public.fair_periods (starts_on, ends_on);

create policy "fair_periods: everyone reads" on public.fair_periods
  for select to anon, authenticated
  using (true);

create policy "fair_periods: admin inserts" on public.fair_periods
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "fair_periods: admin updates" on public.fair_periods
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "fair_periods: admin deletes" on public.fair_periods
  for delete to authenticated
  using ((select private.has_role('admin')));

create function private.refuse_place_delete_with_orders()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.orders o where o.place_id = old.id) then
    raise exception 'place_has_orders' using errcode = '23503',
      hint = 'A berth with orders is kept for history: archive it instead.';
  end if;
  return old;
end
$$;
comment on function private.refuse_place_delete_with_orders() is 'Trigger: a berth that has orders cannot be deleted (archive it instead); a clear error instead of the foreign-key message.';
revoke execute on function private.refuse_place_delete_with_orders() from public;

create trigger places_refuse_delete_with_orders before delete on public.places
  for each row execute function private.refuse_place_delete_with_orders();

create function private.set_place_additional_places(p_place_id uuid, p_additional_place_ids uuid[])
returns setof uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.has_role('admin') then
    raise exception 'admin_only' using errcode = '42501';
  end if;
  perform 1 from public.places p where p.id = p_place_id for update;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  if exists (
    select 1 from unnest(coalesce(p_additional_place_ids, '{}')) i(id)
    where i.id is null or not exists (select 1 from public.additional_places a where a.id = i.id)
  ) then
    raise exception 'additional_place_not_found' using errcode = 'PT404';
  end if;
  delete from public.place_additional_places pa
   where pa.place_id = p_place_id and pa.additional_place_id <> all (coalesce(p_additional_place_ids, '{}'));
  insert into public.place_additional_places (place_id, additional_place_id)
  select distinct p_place_id, i.id from unnest(coalesce(p_additional_place_ids, '{}')) i(id)
  on conflict do nothing;
  return query select pa.additional_place_id from public.place_additional_places pa where pa.place_id = p_place_id;
end
$$;
comment on function private.set_place_additional_places(uuid, uuid[]) is 'The rule behind public.set_place_additional_places (security definer, not exposed by the API).';
revoke execute on function private.set_place_additional_places(uuid, uuid[]) from public;
grant execute on function private.set_place_additional_places(uuid, uuid[]) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/set_place_additional_places): runs as the caller, the rule above decides.
create function public.set_place_additional_places(p_place_id uuid, p_additional_place_ids uuid[])
returns SETOF uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.set_place_additional_places(p_place_id, p_additional_place_ids)
$$;
comment on function public.set_place_additional_places(uuid, uuid[]) is 'Admins: the columns (electricity, water) that serve a berth, replaced in one step.';
revoke execute on function public.set_place_additional_places(uuid, uuid[]) from anon, public;

-- ================================================================ supabase/schemas/25_news.sql

-- News items (de + en) for the start page; admins write them.

create table public.news (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(title) between 1 and 200),
  short_description text not null default '',
  description text not null default '',
  title_en text not null default '',
  short_description_en text not null default '',
  description_en text not null default '',
  image_path text,
  location text not null default 'duesseldorf',
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  dates date[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (ends_at > starts_at),
  constraint news_title_en_length check (char_length(title_en) <= 200),
  constraint news_short_description_length check (char_length(short_description) <= 500 and char_length(short_description_en) <= 500),
  constraint news_description_length check (char_length(description) <= 10000 and char_length(description_en) <= 10000),
  constraint news_location_length check (char_length(location) between 1 and 100),
  constraint news_image_path_length check (char_length(image_path) <= 300),
  constraint news_dates_count check (coalesce(array_length(dates, 1), 0) <= 60)
);

alter table public.news enable row level security;

comment on table public.news is 'A news item (de + en) shown while now() lies between starts_at and ends_at.';

create index news_active_idx on public.news (starts_at, ends_at);

create policy "news: everyone reads active news, admins all" on public.news
  for select to anon, authenticated
  using ((starts_at <= now() and ends_at > now()) or (select private.has_role('admin')));

create policy "news: admin inserts" on public.news
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "news: admin updates" on public.news
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "news: admin deletes" on public.news
  for delete to authenticated
  using ((select private.has_role('admin')));

create trigger news_touch before update on public.news
  for each row execute function private.touch_updated_at();

-- ================================================================ supabase/schemas/30_orders_booking.sql

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
  constraint orders_refunded_is_cancelled check (payment_status <> 'refunded' or status in ('cancelled', 'expired'))
);

comment on constraint orders_refunded_is_cancelled on public.orders is 'A refunded order is a booking that does not take place: cancelled (or expired).';

-- Live in the harbour calendar and the order desk (INSERT and UPDATE; cancel = update).
alter publication supabase_realtime add table public.orders;

alter table public.orders enable row level security;

comment on table public.orders is 'A booking of a berth: who, when, price (cents) with breakdown, snapshots; changed only through functions.';

create index orders_user_idx on public.orders (user_id, starts_at desc);

create index orders_place_idx on public.orders (place_id, starts_at);

create index orders_unverified_idx on public.orders (expires_at) where status = 'unverified';

create index orders_email_idx on public.orders (lower(email)) where status = 'unverified';

create index orders_created_idx on public.orders (created_at desc);

create policy "orders: owner reads own (guests too), staff read all" on public.orders
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

-- No insert, update or delete policies: orders change only through the functions below.
revoke insert, update, delete, truncate on public.orders from anon, authenticated;

create trigger orders_touch before update on public.orders
  for each row execute function private.touch_updated_at();

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

-- The half-open time range of a stay, after the rules of ARCHITECTURE.md "Bookings".
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
end
$$;
comment on function private.stay_period(public.order_kind, date, date, time, time) is 'Validates a stay and returns its [starts_at, ends_at) in Europe/Berlin and its nights (date difference).';
revoke execute on function private.stay_period(public.order_kind, date, date, time, time) from public;

create function private.price_breakdown(
  p_kind public.order_kind,
  p_nights integer,
  p_boat_length numeric,
  p_sale_code text,
  p_additional_per_night integer
)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  with base as (
    select
      ceil(p_boat_length)::integer as metres,
      case when p_kind = 'day' then 0 else p_nights end as nights,
      coalesce(p_additional_per_night, 1000) as additional_per_night
  ), fees as (
    select
      b.*,
      case when p_kind = 'day' then b.metres * 100 else b.nights * b.metres * 200 end as berth_fee_cents,
      case when p_kind = 'day' then 0 else b.nights * b.additional_per_night end as additional_costs_cents
    from base b
  ), totals as (
    select f.*, f.berth_fee_cents + f.additional_costs_cents as net_cents
    from fees f
  )
  select jsonb_build_object(
    'kind', p_kind,
    'metres', t.metres,
    'nights', t.nights,
    'berth_fee_per_metre_cents', case when p_kind = 'day' then 100 else 200 end,
    'berth_fee_cents', t.berth_fee_cents,
    'additional_costs_per_night_cents', case when p_kind = 'day' then 0 else t.additional_per_night end,
    'additional_costs_cents', t.additional_costs_cents,
    'sale_code', p_sale_code,
    'net_cents', t.net_cents,
    'vat_rate_percent', 19,
    'vat_cents', round(t.net_cents * 19 / 100.0)::integer,
    'gross_cents', t.net_cents + round(t.net_cents * 19 / 100.0)::integer
  )
  from totals t
$$;
comment on function private.price_breakdown(public.order_kind, integer, numeric, text, integer) is 'ARCHITECTURE.md "Prices": metres rounded up, berth fee, additional costs or sale code value, net, 19 % VAT half up, gross; all cents.';
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

-- Unverified orders expire 24 hours after booking, at the latest at arrival, and free their
-- berth. Checked-in orders whose departure has passed are completed.
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
     where o.status = 'unverified' and o.expires_at <= v_now
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
comment on function private.expire_orders(uuid) is 'Expires stale unverified orders (all, or of one berth) and frees their berth; completes past checked-in orders.';
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
comment on function public.expire_unverified_orders() is 'Periodic cleanup (pg_cron on hosted, a timer in the local stack): expires stale unverified orders, completes past stays.';
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
  update public.orders o
     set user_id = v_uid, status = 'confirmed', expires_at = null
    from auth.users g
   where g.id = o.user_id and g.is_anonymous
     and lower(o.email) = v_email
     and o.status = 'unverified' and o.expires_at > private.now();
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
  update public.orders o set status = 'cancelled', cancelled_at = private.now()
   where o.id = p_order_id returning * into v_order;
  update public.place_statuses s set cancelled = true where s.order_id = p_order_id and not s.cancelled;
  return v_order;
end
$$;
comment on function private.cancel_booking(uuid) is 'The rule behind public.cancel_booking (security definer, not exposed by the API).';
revoke execute on function private.cancel_booking(uuid) from public;
grant execute on function private.cancel_booking(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/cancel_booking): runs as the caller, the rule above decides.
create function public.cancel_booking(p_order_id uuid)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.cancel_booking(p_order_id)
$$;
comment on function public.cancel_booking(uuid) is 'Cancels an order and frees its berth: the owner before arrival, staff any time.';
revoke execute on function public.cancel_booking(uuid) from anon, public;

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
  v_first date;
  v_last date;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.status not in ('unverified', 'confirmed', 'checked_in') or v_order.ends_at <= private.now() then
    raise exception 'order_not_movable' using errcode = 'P0001';
  end if;
  if v_order.place_id = p_place_id then
    return v_order;
  end if;
  select * into v_place from public.places p where p.id = p_place_id and not p.archived;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
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
comment on function private.move_booking(uuid, uuid) is 'The rule behind public.move_booking (security definer, not exposed by the API).';
revoke execute on function private.move_booking(uuid, uuid) from public;
grant execute on function private.move_booking(uuid, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/move_booking): runs as the caller, the rule above decides.
create function public.move_booking(p_order_id uuid, p_place_id uuid)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.move_booking(p_order_id, p_place_id)
$$;
comment on function public.move_booking(uuid, uuid) is 'Staff move an open booking to another fitting, free berth (same times, same price); an overlap raises 23P01 berth_no_longer_available.';
revoke execute on function public.move_booking(uuid, uuid) from anon, public;

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

-- The one availability test, inlined into its callers' queries. Inlining needs LANGUAGE sql,
-- not volatile, no SECURITY DEFINER and no SET clause, so this is the one function without a
-- pinned search_path: Supabase's advisor reports it (function_search_path_mutable, WARN), on
-- the allow-list of tests/db/splinter.test.ts. Safe because no API role may execute it, every
-- caller is a security definer function with search_path '', and the body names every object
-- with its schema (docs/decisions.md, "Database code quality").
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
comment on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) is 'The rule behind public.search_available_places (security definer, not exposed by the API).';
revoke execute on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) from public;
grant execute on function private.search_available_places(public.order_kind, date, numeric, numeric, date, time, time, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/search_available_places): runs as the caller, the rule above decides.
create function public.search_available_places(p_kind public.order_kind, p_arrival date, p_boat_length numeric, p_boat_width numeric, p_departure date DEFAULT NULL::date, p_day_start time DEFAULT NULL::time, p_day_end time DEFAULT NULL::time, p_sale_code text DEFAULT NULL::text)
returns TABLE(place_id uuid, name text, pier text, description text, description_en text, image_path text, width numeric, length numeric, one_day boolean, features text[], "position" double precision[], area numeric, price_cents integer, quote jsonb)
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
comment on function public.order_move_targets(uuid) is 'Staff: the berths an open order could move to (fit, one_day for day stays, no long-term holder, free for the whole stay), smallest first.';
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

-- ================================================================ supabase/schemas/35_payments_invoices.sql

-- Payment status (pending -> paid -> refunded, staff only) and the gapless invoices a
-- payment issues.

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
  -- The issuer is kept with each invoice as issued (an address change does not rewrite old ones).
  issuer jsonb,
  unique (year, number)
);

alter table public.invoices enable row level security;

comment on table public.invoices is 'The invoice of a paid order: number RE-<year>-<n> gapless per year, amounts and the recipient as billed (kept when an account is deleted, as tax law requires).';

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
create policy "invoices: owner reads own, staff all" on public.invoices
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

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
revoke execute on function private.issue_invoice() from public;

create trigger orders_issue_invoice after update of payment_status on public.orders
  for each row execute function private.issue_invoice();

create function private.invoice_issuer()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'name', private.setting('invoice_name'),
    'street', private.setting('invoice_street'),
    'postal_code', private.setting('invoice_postal_code'),
    'city', private.setting('invoice_city'),
    'vat_id', private.setting('invoice_vat_id'),
    'email', private.setting('invoice_email'))
$$;
comment on function private.invoice_issuer() is 'The issuer of invoices (name, address, VAT id, e-mail) from the operator settings.';
revoke execute on function private.invoice_issuer() from public;

create function private.invoice_set_issuer()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.issuer := coalesce(new.issuer, private.invoice_issuer());
  return new;
end
$$;
comment on function private.invoice_set_issuer() is 'Before insert on invoices: stamps the current issuer data onto the invoice.';
revoke execute on function private.invoice_set_issuer() from public;

create trigger invoices_set_issuer before insert on public.invoices
  for each row execute function private.invoice_set_issuer();

create function private.set_payment_status(p_order_id uuid, p_payment_status public.payment_status, p_payment_id text default null)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_cancel boolean;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if not (
    (v_order.payment_status = 'pending' and p_payment_status = 'paid')
    or (v_order.payment_status = 'paid' and p_payment_status = 'refunded')
    or v_order.payment_status = p_payment_status
  ) then
    raise exception 'invalid_payment_transition' using errcode = 'P0001', hint = 'pending -> paid -> refunded';
  end if;
  v_cancel := false;
  if v_order.payment_status = 'paid' and p_payment_status = 'refunded' then
    if v_order.status = 'completed' then
      raise exception 'order_not_refundable' using errcode = 'P0001',
        hint = 'A refund cancels a booking that does not take place; a completed stay is not refunded.';
    end if;
    v_cancel := v_order.status in ('unverified', 'confirmed', 'checked_in');
  end if;
  if v_cancel then
    update public.place_statuses s set cancelled = true where s.order_id = p_order_id and not s.cancelled;
  end if;
  -- One update: the history trigger records the status change, then the payment change.
  update public.orders o
     set payment_status = p_payment_status,
         payment_id = coalesce(p_payment_id, o.payment_id),
         status = case when v_cancel then 'cancelled'::public.order_status else o.status end,
         cancelled_at = case when v_cancel then private.now() else o.cancelled_at end
   where o.id = p_order_id returning * into v_order;
  return v_order;
end
$$;
comment on function private.set_payment_status(uuid, public.payment_status, text) is 'The rule behind public.set_payment_status (security definer, not exposed by the API).';
revoke execute on function private.set_payment_status(uuid, public.payment_status, text) from public;
grant execute on function private.set_payment_status(uuid, public.payment_status, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/set_payment_status): runs as the caller, the rule above decides.
create function public.set_payment_status(p_order_id uuid, p_payment_status public.payment_status, p_payment_id text DEFAULT NULL::text)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.set_payment_status(p_order_id, p_payment_status, p_payment_id)
$$;
comment on function public.set_payment_status(uuid, public.payment_status, text) is 'Staff record a payment (pending -> paid -> refunded); a refund cancels a still open booking and frees its berth, a completed stay is not refunded; nobody else changes payment fields.';
revoke execute on function public.set_payment_status(uuid, public.payment_status, text) from anon, public;

create function private.orders_refuse_payment_when_ended()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.payment_status = 'paid' and old.payment_status = 'pending' and new.status in ('cancelled', 'expired') then
    raise exception 'order_not_payable' using errcode = 'P0001',
      hint = 'A cancelled or expired booking cannot be marked paid: it does not take place, so no invoice is issued for it.';
  end if;
  return new;
end
$$;
comment on function private.orders_refuse_payment_when_ended() is 'Refuses pending -> paid on a cancelled or expired order, whoever writes.';
revoke execute on function private.orders_refuse_payment_when_ended() from public;

create trigger orders_refuse_payment_when_ended before update of payment_status on public.orders
  for each row execute function private.orders_refuse_payment_when_ended();

-- ================================================================ supabase/schemas/36_order_desk.sql

-- The harbour's order desk: internal notes and the history of every order.

create function private.staff_orders(
  p_status public.order_status default null,
  p_kind public.order_kind default null,
  p_from date default null,
  p_to date default null,
  p_query text default null,
  p_limit integer default 25,
  p_offset integer default 0
)
returns table (
  id uuid,
  created_at timestamptz,
  kind public.order_kind,
  status public.order_status,
  payment_status public.payment_status,
  starts_at timestamptz,
  ends_at timestamptz,
  place_name text,
  guest text,
  boat_name text,
  email text,
  price_cents integer,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
  v_query text := nullif(btrim(p_query), '');
  v_pattern text;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 100 or p_offset is null or p_offset < 0 or p_offset > 1000000 then
    raise exception 'invalid_paging' using errcode = '22023', hint = 'limit 1-100, offset >= 0';
  end if;
  if p_from is not null and p_to is not null and p_to < p_from then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if char_length(v_query) > 100 then
    raise exception 'invalid_query' using errcode = '22023', hint = 'At most 100 characters.';
  end if;
  -- Stays that touch the Berlin days [p_from, p_to].
  v_from := case when p_from is not null then private.berlin_at(p_from, time '00:00') end;
  v_to := case when p_to is not null then private.berlin_at(p_to + 1, time '00:00') end;
  v_pattern := case when v_query is not null
    then '%' || replace(replace(replace(lower(v_query), '\', '\\'), '%', '\%'), '_', '\_') || '%' end;
  return query
    select o.id, o.created_at, o.kind, o.status, o.payment_status, o.starts_at, o.ends_at,
           coalesce(p.name, o.place_snapshot ->> 'name'),
           nullif(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'), ''),
           o.boat ->> 'name', o.email, o.price_cents,
           count(*) over ()
    from public.orders o
    left join public.places p on p.id = o.place_id
    where (p_status is null or o.status = p_status)
      and (p_kind is null or o.kind = p_kind)
      and (v_from is null or o.ends_at > v_from)
      and (v_to is null or o.starts_at < v_to)
      and (v_pattern is null or lower(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name', o.boat ->> 'name', o.email))
                                  like v_pattern)
    order by o.created_at desc, o.id
    limit p_limit offset p_offset;
end
$$;
comment on function private.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer) is 'The rule behind public.staff_orders (security definer, not exposed by the API).';
revoke execute on function private.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer) from public;
grant execute on function private.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/staff_orders): runs as the caller, the rule above decides.
create function public.staff_orders(p_status public.order_status DEFAULT NULL::public.order_status, p_kind public.order_kind DEFAULT NULL::public.order_kind, p_from date DEFAULT NULL::date, p_to date DEFAULT NULL::date, p_query text DEFAULT NULL::text, p_limit integer DEFAULT 25, p_offset integer DEFAULT 0)
returns TABLE(id uuid, created_at timestamptz, kind public.order_kind, status public.order_status, payment_status public.payment_status, starts_at timestamptz, ends_at timestamptz, place_name text, guest text, boat_name text, email text, price_cents integer, total_count bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.staff_orders(p_status, p_kind, p_from, p_to, p_query, p_limit, p_offset)
$$;
comment on function public.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer) is 'Staff: orders newest first, filtered by status, kind, stay overlapping Berlin days [p_from, p_to] and a search over name, boat and e-mail; one page with the total count.';
revoke execute on function public.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer) from anon, public;

create table public.order_notes (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  body text not null check (char_length(btrim(body)) between 1 and 2000),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

alter table public.order_notes enable row level security;

comment on table public.order_notes is 'Internal notes of the harbour team on an order (never shown to the customer); written through add_order_note.';

create index order_notes_order_idx on public.order_notes (order_id, created_at);

create policy "order_notes: staff read" on public.order_notes
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.order_notes from anon;

revoke insert, update, delete, truncate on public.order_notes from authenticated;

create function private.add_order_note(p_order_id uuid, p_body text)
returns public.order_notes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_body text := btrim(coalesce(p_body, ''));
  v_note public.order_notes;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if char_length(v_body) < 1 or char_length(v_body) > 2000 then
    raise exception 'invalid_note' using errcode = '22023', hint = 'A note has 1-2000 characters.';
  end if;
  if not exists (select 1 from public.orders o where o.id = p_order_id) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  insert into public.order_notes (order_id, body, created_by, created_at)
  values (p_order_id, v_body, (select auth.uid()), private.now())
  returning * into v_note;
  return v_note;
end
$$;
comment on function private.add_order_note(uuid, text) is 'The rule behind public.add_order_note (security definer, not exposed by the API).';
revoke execute on function private.add_order_note(uuid, text) from public;
grant execute on function private.add_order_note(uuid, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/add_order_note): runs as the caller, the rule above decides.
create function public.add_order_note(p_order_id uuid, p_body text)
returns public.order_notes
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.add_order_note(p_order_id, p_body)
$$;
comment on function public.add_order_note(uuid, text) is 'Staff: adds an internal note (1-2000 characters) to an order.';
revoke execute on function public.add_order_note(uuid, text) from anon, public;

create table public.order_events (
  id bigint generated always as identity primary key,
  order_id uuid not null references public.orders (id) on delete cascade,
  event text not null check (event in ('created', 'status', 'payment', 'moved', 'checked_in')),
  from_value text,
  to_value text,
  actor uuid references auth.users (id) on delete set null,
  at timestamptz not null default now()
);

alter table public.order_events enable row level security;

comment on table public.order_events is 'The history of an order (created, status, payment, berth moves), written by a trigger; staff read it.';

create index order_events_order_idx on public.order_events (order_id, id);

create policy "order_events: staff read" on public.order_events
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.order_events from anon;

revoke insert, update, delete, truncate on public.order_events from authenticated;

create function private.record_order_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_at timestamptz := private.now();
begin
  if tg_op = 'INSERT' then
    insert into public.order_events (order_id, event, to_value, actor, at)
    values (new.id, 'created', new.status::text, v_actor, new.created_at);
    return null;
  end if;
  if new.status is distinct from old.status then
    insert into public.order_events (order_id, event, from_value, to_value, actor, at)
    values (new.id, 'status', old.status::text, new.status::text, v_actor, v_at);
  end if;
  if new.payment_status is distinct from old.payment_status then
    insert into public.order_events (order_id, event, from_value, to_value, actor, at)
    values (new.id, 'payment', old.payment_status::text, new.payment_status::text, v_actor, v_at);
  end if;
  if new.place_id is distinct from old.place_id then
    insert into public.order_events (order_id, event, from_value, to_value, actor, at)
    values (new.id, 'moved', old.place_snapshot ->> 'name', new.place_snapshot ->> 'name', v_actor, v_at);
  end if;
  return null;
end
$$;
comment on function private.record_order_event() is 'After insert or update on orders: records creation, status, payment and berth changes with the acting user.';
revoke execute on function private.record_order_event() from public;

create trigger orders_record_event after insert or update of status, payment_status, place_id on public.orders
  for each row execute function private.record_order_event();

-- ================================================================ supabase/schemas/40_calendar_realtime.sql

-- The harbour calendar (one row per Berlin day, paged for max_rows) and berth blocks.
-- Tables that feed it are in the supabase_realtime publication (see each table's file).

-- Why a berth is blocked by staff. The block itself is a 'service' row of place_statuses (so
-- the exclusion constraint covers it); this table only says whether it is maintenance or a
-- reservation the harbour holds back (a club visit, an event) without an order.
create table public.berth_blocks (
  place_status_id uuid primary key references public.place_statuses (id) on delete cascade,
  reason text not null check (reason in ('maintenance', 'reserved')),
  created_at timestamptz not null default now()
);

alter table public.berth_blocks enable row level security;

comment on table public.berth_blocks is 'The reason (maintenance or reserved) of a staff block, a service row of place_statuses; written by add_berth_block().';

create policy "berth_blocks: staff read" on public.berth_blocks
  for select to authenticated
  using ((select private.is_staff()));

revoke insert, update, delete, truncate on public.berth_blocks from anon, authenticated;

create function private.add_berth_block(
  p_place_id uuid,
  p_starts_at timestamptz,
  p_ends_at timestamptz,
  p_reason text default 'maintenance',
  p_note text default null
)
returns public.place_statuses
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.place_statuses;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_reason is null or p_reason not in ('maintenance', 'reserved') then
    raise exception 'invalid_block_reason' using errcode = '22023', hint = 'maintenance or reserved';
  end if;
  if p_starts_at is null or p_ends_at is null or p_ends_at <= p_starts_at then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if p_ends_at - p_starts_at > interval '400 days' then
    raise exception 'block_too_long' using errcode = '22023', hint = 'At most 400 days; long-term berths have holders.';
  end if;
  if char_length(p_note) > 2000 then
    raise exception 'note_too_long' using errcode = '22023', hint = 'At most 2000 characters.';
  end if;
  if not exists (select 1 from public.places p where p.id = p_place_id) then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  -- Stale unverified reservations give way, as in the booking functions.
  perform private.expire_orders(p_place_id);
  begin
    insert into public.place_statuses (place_id, type, starts_at, ends_at, note, created_by)
    values (p_place_id, 'service', p_starts_at, p_ends_at, nullif(btrim(p_note), ''), (select auth.uid()))
    returning * into v_row;
  exception when exclusion_violation then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  insert into public.berth_blocks (place_status_id, reason) values (v_row.id, p_reason);
  return v_row;
end
$$;
comment on function private.add_berth_block(uuid, timestamptz, timestamptz, text, text) is 'The rule behind public.add_berth_block (security definer, not exposed by the API).';
revoke execute on function private.add_berth_block(uuid, timestamptz, timestamptz, text, text) from public;
grant execute on function private.add_berth_block(uuid, timestamptz, timestamptz, text, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/add_berth_block): runs as the caller, the rule above decides.
create function public.add_berth_block(p_place_id uuid, p_starts_at timestamptz, p_ends_at timestamptz, p_reason text DEFAULT 'maintenance'::text, p_note text DEFAULT NULL::text)
returns public.place_statuses
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.add_berth_block(p_place_id, p_starts_at, p_ends_at, p_reason, p_note)
$$;
comment on function public.add_berth_block(uuid, timestamptz, timestamptz, text, text) is 'Staff block a berth (maintenance or reserved) for [starts_at, ends_at); an overlap raises 23P01 berth_no_longer_available.';
revoke execute on function public.add_berth_block(uuid, timestamptz, timestamptz, text, text) from anon, public;

create function private.cancel_berth_block(p_place_status_id uuid)
returns public.place_statuses
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.place_statuses;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  update public.place_statuses s set cancelled = true
   where s.id = p_place_status_id and s.type = 'service'
  returning * into v_row;
  if not found then
    raise exception 'block_not_found' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function private.cancel_berth_block(uuid) is 'The rule behind public.cancel_berth_block (security definer, not exposed by the API).';
revoke execute on function private.cancel_berth_block(uuid) from public;
grant execute on function private.cancel_berth_block(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/cancel_berth_block): runs as the caller, the rule above decides.
create function public.cancel_berth_block(p_place_status_id uuid)
returns public.place_statuses
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.cancel_berth_block(p_place_status_id)
$$;
comment on function public.cancel_berth_block(uuid) is 'Staff cancel a maintenance or reserved block (kept, flagged cancelled).';
revoke execute on function public.cancel_berth_block(uuid) from anon, public;

create function private.check_calendar_range(p_from date, p_to date)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_from is null or p_to is null or p_to < p_from then
    raise exception 'invalid_range' using errcode = '22023';
  end if;
  if p_to - p_from > 366 then
    raise exception 'range_too_long' using errcode = '22023', hint = 'At most 367 days per call.';
  end if;
end
$$;
comment on function private.check_calendar_range(date, date) is 'A calendar range is ordered and at most 367 days long.';
revoke execute on function private.check_calendar_range(date, date) from public;

create function private.calendar(p_from date, p_to date)
returns table (day date, places jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  perform private.check_calendar_range(p_from, p_to);
  return query select c.day, c.places from private.calendar_days(p_from, p_to, null) c;
end
$$;
comment on function private.calendar(date, date) is 'The rule behind public.calendar (security definer, not exposed by the API).';
revoke execute on function private.calendar(date, date) from public;
grant execute on function private.calendar(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/calendar): runs as the caller, the rule above decides.
create function public.calendar(p_from date, p_to date)
returns TABLE(day date, places jsonb)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.calendar(p_from, p_to)
$$;
comment on function public.calendar(date, date) is 'Staff: per day of [p_from, p_to] (Europe/Berlin) the occupied berths with their status type; one row per day (max_rows never cuts it), an empty list for a free day.';
revoke execute on function public.calendar(date, date) from anon, public;

create function private.place_calendar(p_place_id uuid, p_from date, p_to date)
returns table (day date, places jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  perform private.check_calendar_range(p_from, p_to);
  if not exists (select 1 from public.places p where p.id = p_place_id) then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  return query select c.day, c.places from private.calendar_days(p_from, p_to, p_place_id) c;
end
$$;
comment on function private.place_calendar(uuid, date, date) is 'The rule behind public.place_calendar (security definer, not exposed by the API).';
revoke execute on function private.place_calendar(uuid, date, date) from public;
grant execute on function private.place_calendar(uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/place_calendar): runs as the caller, the rule above decides.
create function public.place_calendar(p_place_id uuid, p_from date, p_to date)
returns TABLE(day date, places jsonb)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.place_calendar(p_place_id, p_from, p_to)
$$;
comment on function public.place_calendar(uuid, date, date) is 'Staff: the calendar of one berth, one row per day with its occupations.';
revoke execute on function public.place_calendar(uuid, date, date) from anon, public;

-- A month of 1,000 berths is ~7,300 occupations, spread over their days ~20,000 list items:
-- ~8 MB of JSON per month in the day-by-day shape (profiled on PGlite: the scan and joins take
-- ~50 ms, building jsonb per entry and per day the rest, parsing it in the client as much
-- again). So calendar_entries returns one flat row per occupation (no jsonb, no repetition per
-- day; ~4.5 times less data) and the page spreads them over the days it shows; calendar and
-- place_calendar keep their day shape but build each entry once as json text and parse a day's
-- list into jsonb once (string_agg), with work_mem for the per-day sort.
create function private.calendar_entries(p_from date, p_to date, p_place_id uuid)
returns table (
  id uuid, place_id uuid, type text, order_id uuid, order_status text, starts_at timestamptz,
  ends_at timestamptz, note text, boat_name text, guest text, block_reason text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz := private.berlin_at(p_from, time '00:00');
  v_to timestamptz := private.berlin_at(p_to + 1, time '00:00');
  v_now timestamptz := private.now();
begin
  return query
    select s.id, s.place_id, s.type::text, s.order_id, o.status::text, s.starts_at, s.ends_at, s.note,
           o.boat ->> 'name',
           nullif(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'), ''),
           b.reason
    from public.place_statuses s
    left join public.orders o on o.id = s.order_id
    left join public.berth_blocks b on b.place_status_id = s.id
    where not s.cancelled
      and s.starts_at < v_to
      and s.ends_at > v_from
      and (p_place_id is null or s.place_id = p_place_id)
      and not (o.status is not distinct from 'unverified' and o.expires_at <= v_now)
    union all
    select h.id, h.place_id, 'long_term', null, null,
           (h.starts_on::timestamp at time zone 'Europe/Berlin'),
           ((h.ends_on + 1)::timestamp at time zone 'Europe/Berlin'),
           h.note, h.boat_name, nullif(concat_ws(' ', h.first_name, h.last_name), ''), null
    from public.long_term_holders h
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
      and (p_place_id is null or h.place_id = p_place_id);
end
$$;
comment on function private.calendar_entries(date, date, uuid) is 'The live occupations (bookings, blocks, long-term holders) touching the Berlin days [p_from, p_to], one row each.';
revoke execute on function private.calendar_entries(date, date, uuid) from public;

create function private.calendar_entries(p_from date, p_to date)
returns table (
  id uuid, place_id uuid, type text, order_id uuid, order_status text, starts_at timestamptz,
  ends_at timestamptz, note text, boat_name text, guest text, block_reason text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  perform private.check_calendar_range(p_from, p_to);
  return query select * from private.calendar_entries(p_from, p_to, null);
end
$$;
comment on function private.calendar_entries(date, date) is 'The rule behind public.calendar_entries (security definer, not exposed by the API).';
revoke execute on function private.calendar_entries(date, date) from public;
grant execute on function private.calendar_entries(date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/calendar_entries): runs as the caller, the rule above decides.
create function public.calendar_entries(p_from date, p_to date)
returns TABLE(id uuid, place_id uuid, type text, order_id uuid, order_status text, starts_at timestamptz, ends_at timestamptz, note text, boat_name text, guest text, block_reason text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.calendar_entries(p_from, p_to)
$$;
comment on function public.calendar_entries(date, date) is 'Staff: every live occupation touching the Berlin days [p_from, p_to] once (ends_at null = open-ended long-term holding); the compact form of calendar() for the calendar page.';
revoke execute on function public.calendar_entries(date, date) from anon, public;

-- Day d covers [d 00:00, d+1 00:00) in Europe/Berlin: an overnight stay shows on its arrival
-- day through its departure day. Long-term holders show as type 'long_term'. Cancelled rows
-- and stale unverified reservations (which the booking functions ignore) do not show.
create function private.calendar_days(p_from date, p_to date, p_place_id uuid)
returns table (day date, places jsonb)
language plpgsql
stable
security definer
set search_path = ''
set work_mem = '64MB'
as $$
begin
  return query
  with entries as (
    select pl.name as place_name, e.starts_at,
           json_build_object(
             'id', e.id, 'place_id', e.place_id, 'place_name', pl.name, 'type', e.type,
             'order_id', e.order_id, 'order_status', e.order_status, 'starts_at', e.starts_at,
             'ends_at', e.ends_at, 'note', e.note, 'boat_name', e.boat_name, 'guest', e.guest,
             'block_reason', e.block_reason)::text as entry,
           greatest(p_from, (e.starts_at at time zone 'Europe/Berlin')::date) as first_day,
           least(p_to, coalesce(((e.ends_at - interval '1 microsecond') at time zone 'Europe/Berlin')::date, p_to)) as last_day
    from private.calendar_entries(p_from, p_to, p_place_id) e
    join public.places pl on pl.id = e.place_id
  ),
  per_day as (
    select x.first_day + i as day,
           ('[' || string_agg(x.entry, ',' order by x.place_name, x.starts_at) || ']')::jsonb as places
    from entries x
    cross join lateral generate_series(0, x.last_day - x.first_day) as i
    group by 1
  )
  select (p_from + i)::date, coalesce(pd.places, '[]'::jsonb)
  from generate_series(0, p_to - p_from) as i
  left join per_day pd on pd.day = p_from + i
  order by 1;
end
$$;
comment on function private.calendar_days(date, date, uuid) is 'One row per Berlin day of [p_from, p_to] with the live occupations of all berths (or one) as a jsonb list.';
revoke execute on function private.calendar_days(date, date, uuid) from public;

-- ================================================================ supabase/schemas/45_harbour_access.sql

-- Door code and wifi: one row, readable by admins; harbour_access() gives it to those
-- who may see it (staff, active long-term holders, checked-in verified guests).

create table public.harbour_settings (
  id smallint primary key default 1 check (id = 1),
  door_code text not null default '',
  wifi_ssid text not null default '',
  wifi_password text not null default '',
  updated_at timestamptz not null default now(),
  constraint harbour_settings_lengths check (
    char_length(door_code) <= 40 and char_length(wifi_ssid) <= 64 and char_length(wifi_password) <= 100)
);

alter table public.harbour_settings enable row level security;

comment on table public.harbour_settings is 'The one row of harbour access data (door code, wifi); others read it only through harbour_access().';

create policy "harbour_settings: admin reads" on public.harbour_settings
  for select to authenticated
  using ((select private.has_role('admin')));

create policy "harbour_settings: admin updates" on public.harbour_settings
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

revoke insert, delete, truncate on public.harbour_settings from anon, authenticated;

insert into public.harbour_settings (id) values (1);

create trigger harbour_settings_touch before update on public.harbour_settings
  for each row execute function private.touch_updated_at();

create function private.can_see_harbour_access()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_staff()
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
    )
$$;
comment on function private.can_see_harbour_access() is 'ARCHITECTURE.md "Who may see the door code and wifi": staff, active long-term holders, verified owners of a checked-in stay until departure.';
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

-- ================================================================ supabase/schemas/50_messages_outbox.sql

-- Mail that is not auth mail: the outbox (rendered in SQL, in the recipient's language),
-- booking confirmations, contact messages and service requests, and the call of the
-- send-mail edge function through pg_net.

create table public.outbox (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('booking_confirmation', 'contact_message', 'service_request',
                                     'application_receipt', 'application_answer')),
  recipient text not null check (recipient ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  reply_to text,
  locale text not null default 'de' check (locale in ('de', 'en')),
  subject text not null,
  body_text text not null,
  attachments jsonb not null default '[]'::jsonb check (jsonb_typeof(attachments) = 'array'),
  order_id uuid references public.orders (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);

alter table public.outbox enable row level security;

comment on table public.outbox is 'E-mails waiting for send-mail (SMTP), rendered in the recipient''s language; attachments are [{filename, content_type, content}].';

create index outbox_due_idx on public.outbox (next_attempt_at) where status in ('pending', 'sending');

create index outbox_order_idx on public.outbox (order_id);

create policy "outbox: admin reads" on public.outbox
  for select to authenticated
  using ((select private.has_role('admin')));

-- Only functions write it; send-mail reads and marks it as service_role (claim/complete below).
revoke insert, update, delete, truncate on public.outbox from anon, authenticated;

create function private.queue_mail(
  p_kind text,
  p_recipient text,
  p_locale text,
  p_subject text,
  p_body text,
  p_attachments jsonb default '[]'::jsonb,
  p_reply_to text default null,
  p_order_id uuid default null
)
returns bigint
language sql
volatile
security definer
set search_path = ''
as $$
  insert into public.outbox (kind, recipient, reply_to, locale, subject, body_text, attachments, order_id, next_attempt_at)
  values (p_kind, lower(btrim(p_recipient)), p_reply_to,
          case when p_locale in ('de', 'en') then p_locale else 'de' end,
          p_subject, p_body, coalesce(p_attachments, '[]'::jsonb), p_order_id, private.now())
  returning id
$$;
comment on function private.queue_mail(text, text, text, text, text, jsonb, text, uuid) is 'Puts one rendered e-mail into the outbox for send-mail.';
revoke execute on function private.queue_mail(text, text, text, text, text, jsonb, text, uuid) from public;

-- send-mail claims due rows (concurrency-safe: skip locked, a lease of 5 minutes) ...
create function public.claim_outbox(p_limit integer default 20)
returns setof public.outbox
language sql
volatile
security definer
set search_path = ''
as $$
  update public.outbox o
     set status = 'sending', attempts = o.attempts + 1, locked_until = private.now() + interval '5 minutes'
   where o.id in (
     select x.id from public.outbox x
     where (x.status = 'pending' and x.next_attempt_at <= private.now())
        or (x.status = 'sending' and x.locked_until < private.now())
     order by x.next_attempt_at, x.id
     limit least(greatest(coalesce(p_limit, 20), 1), 100)
     for update skip locked
   )
  returning o.*
$$;
comment on function public.claim_outbox(integer) is 'send-mail (service role): leases up to p_limit due e-mails for 5 minutes and counts the attempt.';
revoke execute on function public.claim_outbox(integer) from anon, authenticated, public;

-- ... and reports each result: sent, or retried with exponential backoff (1, 2, 4 ... 60
-- minutes), or failed for good after 8 attempts.
create function public.complete_outbox(p_id bigint, p_ok boolean, p_error text default null)
returns public.outbox
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.outbox;
begin
  update public.outbox o set
    status = case when p_ok then 'sent' when o.attempts >= 8 then 'failed' else 'pending' end,
    sent_at = case when p_ok then private.now() end,
    last_error = case when p_ok then null else left(p_error, 2000) end,
    locked_until = null,
    next_attempt_at = case when p_ok then o.next_attempt_at
                           else private.now() + least(interval '1 minute' * power(2, greatest(o.attempts - 1, 0)), interval '60 minutes') end
   where o.id = p_id and o.status = 'sending'
  returning * into v_row;
  if not found then
    raise exception 'outbox_row_not_sending' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function public.complete_outbox(bigint, boolean, text) is 'send-mail (service role): marks a leased e-mail sent, or schedules a retry with backoff (failed after 8 attempts).';
revoke execute on function public.complete_outbox(bigint, boolean, text) from anon, authenticated, public;

create function private.format_eur(p_cents bigint, p_locale text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_locale = 'en'
              then 'EUR ' || to_char(p_cents / 100.0, 'FM999,999,990.00')
              else translate(to_char(p_cents / 100.0, 'FM999,999,990.00'), ',.', '.,') || ' €' end
$$;
comment on function private.format_eur(bigint, text) is 'Cents as money for an e-mail: 1.234,56 € (de) or EUR 1,234.56 (en).';
revoke execute on function private.format_eur(bigint, text) from public;

create function private.format_berlin(p_at timestamptz, p_locale text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_locale = 'en'
              then to_char(p_at at time zone 'Europe/Berlin', 'FMDD Mon YYYY, HH24:MI')
              else to_char(p_at at time zone 'Europe/Berlin', 'DD.MM.YYYY, HH24:MI') || ' Uhr' end
$$;
comment on function private.format_berlin(timestamptz, text) is 'An instant as Düsseldorf wall-clock time for an e-mail, per language.';
revoke execute on function private.format_berlin(timestamptz, text) from public;

create function private.ics_text(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select replace(replace(replace(replace(replace(coalesce(p_text, ''), '\', '\\'), ';', '\;'), ',', '\,'), E'\r', ''), E'\n', '\n')
$$;
comment on function private.ics_text(text) is 'Escapes text for an iCalendar (RFC 5545) property value.';
revoke execute on function private.ics_text(text) from public;

create function private.ics_utc(p_at timestamptz)
returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(p_at at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"')
$$;
comment on function private.ics_utc(timestamptz) is 'An instant in iCalendar UTC form (20261122T130000Z).';
revoke execute on function private.ics_utc(timestamptz) from public;

create function private.order_locale(p_order public.orders)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    case when p_order.person ->> 'locale' in ('de', 'en') then p_order.person ->> 'locale' end,
    (select pr.locale from public.profiles pr where pr.id = p_order.user_id),
    (select case when u.raw_user_meta_data ->> 'locale' in ('de', 'en') then u.raw_user_meta_data ->> 'locale' end
       from auth.users u where u.id = p_order.user_id),
    'de')
$$;
comment on function private.order_locale(public.orders) is 'The language of an order''s guest: the language booked in (person.locale, set by create_booking and staff_create_booking), else profile, guest session metadata, German.';
revoke execute on function private.order_locale(public.orders) from public;

create function private.booking_ics(p_order public.orders, p_locale text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select concat_ws(E'\r\n',
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hafen Duesseldorf//Buchung//DE',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    'UID:' || p_order.id || '@hafen-duesseldorf.de',
    'DTSTAMP:' || private.ics_utc(p_order.created_at),
    'DTSTART:' || private.ics_utc(p_order.starts_at),
    'DTEND:' || private.ics_utc(p_order.ends_at),
    'SUMMARY:' || private.ics_text(case when p_locale = 'en' then 'Berth ' else 'Liegeplatz ' end
                                   || (p_order.place_snapshot ->> 'name') || ' – Hafen Düsseldorf'),
    'LOCATION:' || private.ics_text('Hafen Düsseldorf'),
    'DESCRIPTION:' || private.ics_text(
      case when p_locale = 'en' then 'Boat: ' else 'Boot: ' end || coalesce(p_order.boat ->> 'name', '')
      || E'\n' || case when p_locale = 'en' then 'Booking: ' else 'Buchung: ' end || p_order.id),
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR') || E'\r\n'
$$;
comment on function private.booking_ics(public.orders, text) is 'The stay as an iCalendar event (UTC times, CRLF lines) for the confirmation e-mail.';
revoke execute on function private.booking_ics(public.orders, text) from public;

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

create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('contact', 'service_request')),
  service text check (service in ('boat_lift', 'mechanic', 'diesel', 'ice', 'washing_machine', 'charter',
                                  'skipper_training', 'parking', 'other')),
  name text not null check (char_length(name) between 1 and 100),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  phone text check (char_length(phone) <= 40),
  locale text not null default 'de' check (locale in ('de', 'en')),
  message text not null check (char_length(message) between 10 and 2000),
  preferred_date date,
  boat jsonb,
  user_id uuid references auth.users (id) on delete set null,
  status text not null default 'open' check (status in ('open', 'done')),
  done_at timestamptz,
  done_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  check ((kind = 'service_request') = (service is not null)),
  check ((status = 'done') = (done_at is not null))
);

-- Staff see new contact messages and service requests without reloading (RLS decides per
-- subscriber: staff read all, senders their own).
alter publication supabase_realtime add table public.contact_messages;

alter table public.contact_messages enable row level security;

comment on table public.contact_messages is 'A contact message or a service request (boat lift, mechanic, diesel, ice ...) sent by anyone; staff mark it done.';

create index contact_messages_open_idx on public.contact_messages (status, created_at desc);

create index contact_messages_user_idx on public.contact_messages (user_id);

create index contact_messages_email_idx on public.contact_messages (lower(email), created_at);

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
create policy "contact_messages: sender reads own, staff all" on public.contact_messages
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

revoke insert, update, delete, truncate on public.contact_messages from anon, authenticated;

create function private.submit_message(
  p_kind text,
  p_service text,
  p_name text,
  p_email text,
  p_message text,
  p_phone text,
  p_locale text,
  p_preferred_date date,
  p_boat jsonb
)
returns public.contact_messages
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contact_messages;
  v_email text := lower(btrim(p_email));
  v_name text := btrim(p_name);
  v_message text := btrim(p_message);
  v_uid uuid := (select auth.uid());
  v_service_de text;
  v_service_en text;
  v_harbour text := private.setting('harbour_email');
begin
  if v_email is null or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invalid_email' using errcode = '22023';
  end if;
  if v_name is null or char_length(v_name) not between 1 and 100 then
    raise exception 'invalid_name' using errcode = '22023', hint = 'Name 1-100 characters.';
  end if;
  if v_message is null or char_length(v_message) not between 10 and 2000 then
    raise exception 'invalid_message' using errcode = '22023', hint = 'Message 10-2000 characters.';
  end if;
  if char_length(p_phone) > 40 then
    raise exception 'invalid_phone' using errcode = '22023';
  end if;
  if p_kind = 'service_request' and (p_service is null or p_service not in
       ('boat_lift', 'mechanic', 'diesel', 'ice', 'washing_machine', 'charter', 'skipper_training', 'parking', 'other')) then
    raise exception 'invalid_service' using errcode = '22023';
  end if;
  -- Anyone may write, but not flood the harbour: 5 messages per address (and per session) an hour.
  if (select count(*) from public.contact_messages m
      where (lower(m.email) = v_email or (v_uid is not null and m.user_id = v_uid))
        and m.created_at > private.now() - interval '1 hour') >= 5 then
    raise exception 'too_many_messages' using errcode = 'P0001', hint = 'At most 5 messages an hour.';
  end if;

  insert into public.contact_messages (kind, service, name, email, phone, locale, message, preferred_date, boat, user_id, created_at)
  values (p_kind, case when p_kind = 'service_request' then p_service end, v_name, v_email, nullif(btrim(p_phone), ''),
          case when p_locale in ('de', 'en') then p_locale else 'de' end, v_message, p_preferred_date,
          case when jsonb_typeof(p_boat) = 'object' then p_boat end, v_uid, private.now())
  returning * into v_row;

  select d, e into v_service_de, v_service_en from (values
    ('boat_lift', 'Bootskran', 'boat lift'), ('mechanic', 'Mechaniker', 'mechanic'), ('diesel', 'Diesel', 'diesel'),
    ('ice', 'Eis', 'ice'), ('washing_machine', 'Waschmaschine', 'washing machine'), ('charter', 'Charter', 'charter'),
    ('skipper_training', 'Skippertraining', 'skipper training'), ('parking', 'Parken', 'parking'), ('other', 'Sonstiges', 'other')
  ) as s(k, d, e) where s.k = v_row.service;

  -- To the harbour, in German (the harbour's language); replies go to the sender.
  if v_harbour is not null then
    perform private.queue_mail(
      case when p_kind = 'service_request' then 'service_request' else 'contact_message' end, v_harbour, 'de',
      case when p_kind = 'service_request'
           then format('Serviceanfrage (%s) von %s', v_service_de, v_row.name)
           else format('Kontaktanfrage von %s', v_row.name) end,
      concat_ws(E'\n',
        case when p_kind = 'service_request' then 'Neue Serviceanfrage: ' || v_service_de else 'Neue Nachricht über das Kontaktformular.' end,
        '',
        'Name: ' || v_row.name,
        'E-Mail: ' || v_row.email,
        'Telefon: ' || coalesce(v_row.phone, '–'),
        'Sprache: ' || v_row.locale,
        case when v_row.preferred_date is not null then 'Wunschtermin: ' || to_char(v_row.preferred_date, 'DD.MM.YYYY') end,
        case when v_row.boat is not null then 'Boot: ' || concat_ws(', ', v_row.boat ->> 'name',
             (v_row.boat ->> 'length') || ' m', (v_row.boat ->> 'width') || ' m') end,
        '',
        v_row.message,
        '',
        'Nachricht-ID: ' || v_row.id),
      '[]'::jsonb,
      v_row.email,
      null);
  end if;
  return v_row;
end
$$;
comment on function private.submit_message(text, text, text, text, text, text, text, date, jsonb) is 'Validates, throttles (5 an hour per address) and stores a contact message or service request, and e-mails the harbour.';
revoke execute on function private.submit_message(text, text, text, text, text, text, text, date, jsonb) from public;

create function private.send_contact_message(
  p_name text,
  p_email text,
  p_message text,
  p_phone text default null,
  p_locale text default 'de'
)
returns uuid
language sql
volatile
security definer
set search_path = ''
as $$
  select (private.submit_message('contact', null, p_name, p_email, p_message, p_phone, p_locale, null, null)).id
$$;
comment on function private.send_contact_message(text, text, text, text, text) is 'The rule behind public.send_contact_message (security definer, not exposed by the API).';
revoke execute on function private.send_contact_message(text, text, text, text, text) from public;
grant execute on function private.send_contact_message(text, text, text, text, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/send_contact_message): runs as the caller, the rule above decides.
create function public.send_contact_message(p_name text, p_email text, p_message text, p_phone text DEFAULT NULL::text, p_locale text DEFAULT 'de'::text)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.send_contact_message(p_name, p_email, p_message, p_phone, p_locale)
$$;
comment on function public.send_contact_message(text, text, text, text, text) is 'Anyone: sends a message to the harbour (stored for staff, e-mailed to the harbour); returns its id.';
revoke execute on function public.send_contact_message(text, text, text, text, text) from public;

create function private.request_service(
  p_service text,
  p_name text,
  p_email text,
  p_message text,
  p_phone text default null,
  p_preferred_date date default null,
  p_boat jsonb default null,
  p_locale text default 'de'
)
returns uuid
language sql
volatile
security definer
set search_path = ''
as $$
  select (private.submit_message('service_request', p_service, p_name, p_email, p_message, p_phone, p_locale, p_preferred_date, p_boat)).id
$$;
comment on function private.request_service(text, text, text, text, text, date, jsonb, text) is 'The rule behind public.request_service (security definer, not exposed by the API).';
revoke execute on function private.request_service(text, text, text, text, text, date, jsonb, text) from public;
grant execute on function private.request_service(text, text, text, text, text, date, jsonb, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/request_service): runs as the caller, the rule above decides.
create function public.request_service(p_service text, p_name text, p_email text, p_message text, p_phone text DEFAULT NULL::text, p_preferred_date date DEFAULT NULL::date, p_boat jsonb DEFAULT NULL::jsonb, p_locale text DEFAULT 'de'::text)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.request_service(p_service, p_name, p_email, p_message, p_phone, p_preferred_date, p_boat, p_locale)
$$;
comment on function public.request_service(text, text, text, text, text, date, jsonb, text) is 'Anyone: asks the harbour for a service (boat lift, mechanic, diesel, ice ...); stored for staff and e-mailed to the harbour.';
revoke execute on function public.request_service(text, text, text, text, text, date, jsonb, text) from public;

create function private.set_message_done(p_message_id uuid, p_done boolean default true)
returns public.contact_messages
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contact_messages;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  update public.contact_messages m set
    status = case when p_done then 'done' else 'open' end,
    done_at = case when p_done then coalesce(m.done_at, private.now()) end,
    done_by = case when p_done then coalesce(m.done_by, (select auth.uid())) end
   where m.id = p_message_id
  returning * into v_row;
  if not found then
    raise exception 'message_not_found' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function private.set_message_done(uuid, boolean) is 'The rule behind public.set_message_done (security definer, not exposed by the API).';
revoke execute on function private.set_message_done(uuid, boolean) from public;
grant execute on function private.set_message_done(uuid, boolean) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/set_message_done): runs as the caller, the rule above decides.
create function public.set_message_done(p_message_id uuid, p_done boolean DEFAULT true)
returns public.contact_messages
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.set_message_done(p_message_id, p_done)
$$;
comment on function public.set_message_done(uuid, boolean) is 'Staff mark a contact message or service request done (or open again).';
revoke execute on function public.set_message_done(uuid, boolean) from anon, public;

create function private.edge_setting(p_name text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_value text;
begin
  if to_regclass('vault.decrypted_secrets') is not null then
    begin
      execute 'select decrypted_secret from vault.decrypted_secrets where name = $1 limit 1' into v_value using p_name;
    exception when insufficient_privilege then
      v_value := null;
    end;
  end if;
  return coalesce(v_value, private.setting(p_name));
end
$$;
comment on function private.edge_setting(text) is 'project_url / anon_key / site_url for calling edge functions and linking to the app: from Vault where it exists, else private.app_settings.';
revoke execute on function private.edge_setting(text) from public;

create function private.request_mail_delivery()
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_url text := private.edge_setting('project_url');
  v_key text := private.edge_setting('anon_key');
  v_id bigint;
begin
  if v_url is null or to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null then
    return null;
  end if;
  execute 'select net.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := 30000)'
    into v_id
    using rtrim(v_url, '/') || '/functions/v1/send-mail',
          jsonb_build_object('source', 'database'),
          jsonb_strip_nulls(jsonb_build_object('Content-Type', 'application/json',
                                               'Authorization', 'Bearer ' || v_key, 'apikey', v_key));
  return v_id;
end
$$;
comment on function private.request_mail_delivery() is 'Asks send-mail (through pg_net) to deliver the outbox now; a no-op where pg_net or the project URL is missing.';
revoke execute on function private.request_mail_delivery() from public;

-- New mail goes out at once (pg_net sends after commit); the schedule (99_cron.sql) catches retries.
create function private.on_outbox_queued()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.request_mail_delivery();
  return null;
end
$$;
comment on function private.on_outbox_queued() is 'After mail is queued: one pg_net call to send-mail per statement.';
revoke execute on function private.on_outbox_queued() from public;

create trigger outbox_request_delivery after insert on public.outbox
  for each statement execute function private.on_outbox_queued();

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
  v_body := concat_ws(E'\n',
    case when v_en then format('Hello %s,', v_name) else format('Guten Tag %s,', v_name) end,
    '',
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
    case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || p_order.id,
    case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || p_order.id,
    case when p_order.status = 'unverified' then E'\n' || case when v_en
      then 'Please confirm your e-mail address within 24 hours (at the latest by your arrival): log in with your e-mail address and the code we send you, from any device. Otherwise the booking expires and the berth is released.'
      else 'Bitte bestätigen Sie Ihre E-Mail-Adresse innerhalb von 24 Stunden (spätestens bis zur Ankunft): Melden Sie sich mit Ihrer E-Mail-Adresse und dem Code an, den wir Ihnen senden – von jedem Gerät aus. Sonst verfällt die Buchung und der Liegeplatz wird freigegeben.' end end,
    '',
    case when v_en then 'Check-in is possible on the arrival day.' else 'Der Check-in ist am Ankunftstag möglich.' end,
    '',
    case when v_en then 'Kind regards' else 'Mit freundlichen Grüßen' end,
    'Hafen Düsseldorf');
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
comment on function private.queue_booking_confirmation(public.orders) is 'Queues the booking confirmation (guest''s language, price with VAT, verification hint for guests, .ics of the stay).';
revoke execute on function private.queue_booking_confirmation(public.orders) from public;

-- ================================================================ supabase/schemas/60_long_term.sql

-- Long-term berths: assigning and removing holders (with their history) and the
-- applications' waiting list.

create table public.long_term_holder_events (
  id bigint generated always as identity primary key,
  holder_id uuid not null,
  place_id uuid references public.places (id) on delete cascade,
  user_id uuid references auth.users (id) on delete set null,
  action text not null check (action in ('assigned', 'removed')),
  starts_on date not null,
  ends_on date,
  holder jsonb not null,
  actor uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

alter table public.long_term_holder_events enable row level security;

comment on table public.long_term_holder_events is 'History of long-term holders: every assignment and removal with a snapshot of the holder, who did it and when.';

create index long_term_holder_events_place_idx on public.long_term_holder_events (place_id, created_at);

create index long_term_holder_events_user_idx on public.long_term_holder_events (user_id);

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
create policy "long_term_holder_events: holder reads own, staff all" on public.long_term_holder_events
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

revoke insert, update, delete, truncate on public.long_term_holder_events from anon, authenticated;

create table public.long_term_applications (
  id uuid primary key default gen_random_uuid(),
  queue_number bigint generated always as identity unique,
  place_id uuid references public.places (id) on delete set null,
  user_id uuid references auth.users (id) on delete set null,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  first_name text not null check (char_length(first_name) between 1 and 100),
  last_name text not null check (char_length(last_name) between 1 and 100),
  phone text check (char_length(phone) <= 40),
  locale text not null default 'de' check (locale in ('de', 'en')),
  boat jsonb not null,
  desired_start date,
  message text check (char_length(message) <= 2000),
  status text not null default 'open' check (status in ('open', 'accepted', 'declined', 'withdrawn')),
  answer text check (char_length(answer) <= 2000),
  answered_at timestamptz,
  answered_by uuid references auth.users (id) on delete set null,
  holder_id uuid,
  created_at timestamptz not null default now(),
  check ((status = 'open') = (answered_at is null) or status = 'withdrawn')
);

-- Admins see new applications without reloading (RLS decides per subscriber).
alter publication supabase_realtime add table public.long_term_applications;

alter table public.long_term_applications enable row level security;

comment on table public.long_term_applications is 'An application for a long-term berth (a given one or any fitting one) with boat data; admins answer, open ones form the waiting list.';

create index long_term_applications_open_idx on public.long_term_applications (queue_number) where status = 'open';

create index long_term_applications_user_idx on public.long_term_applications (user_id);

create index long_term_applications_email_idx on public.long_term_applications (lower(email));

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
create policy "long_term_applications: applicant reads own, admins all" on public.long_term_applications
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.has_role('admin')));

revoke insert, update, delete, truncate on public.long_term_applications from anon, authenticated;

-- The waiting list is one queue in order of arrival (first come, first served, by queue_number):
-- the position of an open application counts the open applications received before it.
create function private.application_position(p_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when a.status = 'open' then (
    select count(*)::integer from public.long_term_applications b
    where b.status = 'open' and b.queue_number <= a.queue_number)
  end
  from public.long_term_applications a where a.id = p_id
$$;
comment on function private.application_position(uuid) is 'Waiting-list position of an open application (1 = next), null once answered.';
revoke execute on function private.application_position(uuid) from public;

create function private.apply_for_long_term_berth(
  p_email text,
  p_first_name text,
  p_last_name text,
  p_boat jsonb,
  p_place_id uuid default null,
  p_phone text default null,
  p_desired_start date default null,
  p_message text default null,
  p_locale text default 'de'
)
returns table (id uuid, waiting_position integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(p_email));
  v_uid uuid := (select auth.uid());
  v_locale text := case when p_locale in ('de', 'en') then p_locale else 'de' end;
  v_en boolean := p_locale = 'en';
  v_length numeric;
  v_width numeric;
  v_boat_name text := nullif(btrim(p_boat ->> 'name'), '');
  v_row public.long_term_applications;
  v_place text;
  v_position integer;
begin
  if v_email is null or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invalid_email' using errcode = '22023';
  end if;
  if nullif(btrim(p_first_name), '') is null or nullif(btrim(p_last_name), '') is null
     or char_length(btrim(p_first_name)) > 100 or char_length(btrim(p_last_name)) > 100 then
    raise exception 'invalid_name' using errcode = '22023', hint = 'First and last name 1-100 characters.';
  end if;
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
  if char_length(p_message) > 2000 then
    raise exception 'invalid_message' using errcode = '22023', hint = 'At most 2000 characters.';
  end if;
  if p_place_id is not null then
    select p.name into v_place from public.places p where p.id = p_place_id and not p.archived;
    if not found then
      raise exception 'place_not_found' using errcode = 'PT404';
    end if;
  end if;
  -- Anyone may apply, but an address holds at most 3 open applications.
  if (select count(*) from public.long_term_applications a
      where lower(a.email) = v_email and a.status = 'open') >= 3 then
    raise exception 'too_many_applications' using errcode = 'P0001', hint = 'At most 3 open applications per e-mail address.';
  end if;

  insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, phone, locale, boat,
                                             desired_start, message, created_at)
  values (p_place_id,
          case when v_uid is not null and not private.is_anonymous() then v_uid end,
          v_email, btrim(p_first_name), btrim(p_last_name), nullif(btrim(p_phone), ''), v_locale,
          jsonb_strip_nulls(jsonb_build_object('name', v_boat_name, 'tag', nullif(btrim(p_boat ->> 'tag'), ''),
                                               'length', v_length, 'width', v_width)),
          p_desired_start, nullif(btrim(p_message), ''), private.now())
  returning * into v_row;
  v_position := private.application_position(v_row.id);

  perform private.queue_mail(
    'application_receipt', v_row.email, v_locale,
    case when v_en then 'Your application for a long-term berth at Hafen Düsseldorf'
         else 'Ihre Bewerbung um einen Dauerliegeplatz im Hafen Düsseldorf' end,
    concat_ws(E'\n',
      case when v_en then format('Hello %s %s,', v_row.first_name, v_row.last_name)
           else format('Guten Tag %s %s,', v_row.first_name, v_row.last_name) end,
      '',
      case when v_en then 'we have received your application for a long-term berth'
           else 'wir haben Ihre Bewerbung um einen Dauerliegeplatz erhalten' end
        || coalesce(case when v_en then ' (berth ' else ' (Liegeplatz ' end || v_place || ')', '') || '.',
      case when v_en then format('Boat: %s (%s m × %s m)', v_boat_name, v_length, v_width)
           else format('Boot: %s (%s m × %s m)', v_boat_name, replace(v_length::text, '.', ','), replace(v_width::text, '.', ',')) end,
      case when v_en then format('Your place on the waiting list: %s', v_position)
           else format('Ihr Platz auf der Warteliste: %s', v_position) end,
      case when v_en then 'Application number: ' else 'Bewerbungsnummer: ' end || v_row.id,
      '',
      case when v_en then 'We will get back to you as soon as a fitting berth is free.'
           else 'Wir melden uns, sobald ein passender Liegeplatz frei wird.' end,
      '',
      case when v_en then 'Kind regards' else 'Mit freundlichen Grüßen' end,
      'Hafen Düsseldorf'),
    '[]'::jsonb, private.setting('harbour_email'), null);

  return query select v_row.id, v_position;
end
$$;
comment on function private.apply_for_long_term_berth(text, text, text, jsonb, uuid, text, date, text, text) is 'The rule behind public.apply_for_long_term_berth (security definer, not exposed by the API).';
revoke execute on function private.apply_for_long_term_berth(text, text, text, jsonb, uuid, text, date, text, text) from public;
grant execute on function private.apply_for_long_term_berth(text, text, text, jsonb, uuid, text, date, text, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/apply_for_long_term_berth): runs as the caller, the rule above decides.
create function public.apply_for_long_term_berth(p_email text, p_first_name text, p_last_name text, p_boat jsonb, p_place_id uuid DEFAULT NULL::uuid, p_phone text DEFAULT NULL::text, p_desired_start date DEFAULT NULL::date, p_message text DEFAULT NULL::text, p_locale text DEFAULT 'de'::text)
returns TABLE(id uuid, waiting_position integer)
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.apply_for_long_term_berth(p_email, p_first_name, p_last_name, p_boat, p_place_id, p_phone, p_desired_start, p_message, p_locale)
$$;
comment on function public.apply_for_long_term_berth(text, text, text, jsonb, uuid, text, date, text, text) is 'Anyone: applies for a long-term berth with e-mail and boat data; queues a receipt e-mail and returns the waiting-list position.';
revoke execute on function public.apply_for_long_term_berth(text, text, text, jsonb, uuid, text, date, text, text) from public;

create function private.long_term_application_status(p_id uuid)
returns table (id uuid, place_id uuid, place_name text, status text, waiting_position integer, created_at timestamptz, answered_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select a.id, a.place_id, p.name, a.status, private.application_position(a.id), a.created_at, a.answered_at
  from public.long_term_applications a
  left join public.places p on p.id = a.place_id
  where a.id = p_id
$$;
comment on function private.long_term_application_status(uuid) is 'The rule behind public.long_term_application_status (security definer, not exposed by the API).';
revoke execute on function private.long_term_application_status(uuid) from public;
grant execute on function private.long_term_application_status(uuid) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/long_term_application_status): runs as the caller, the rule above decides.
create function public.long_term_application_status(p_id uuid)
returns TABLE(id uuid, place_id uuid, place_name text, status text, waiting_position integer, created_at timestamptz, answered_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.long_term_application_status(p_id)
$$;
comment on function public.long_term_application_status(uuid) is 'Anyone holding an application id (the receipt names it): its state and waiting-list position, without personal data.';
revoke execute on function public.long_term_application_status(uuid) from public;

create function private.long_term_applications_queue()
returns table (
  id uuid, place_id uuid, place_name text, user_id uuid, email text, first_name text, last_name text,
  phone text, locale text, boat jsonb, desired_start date, message text, status text, answer text,
  answered_at timestamptz, holder_id uuid, created_at timestamptz, waiting_position integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.has_role('admin') then
    raise exception 'admin_only' using errcode = '42501';
  end if;
  return query
    select a.id, a.place_id, p.name, a.user_id, a.email, a.first_name, a.last_name, a.phone, a.locale, a.boat,
           a.desired_start, a.message, a.status, a.answer, a.answered_at, a.holder_id, a.created_at,
           case when a.status = 'open'
                then (row_number() over (partition by a.status = 'open' order by a.queue_number))::integer end
    from public.long_term_applications a
    left join public.places p on p.id = a.place_id
    order by a.status <> 'open', a.queue_number;
end
$$;
comment on function private.long_term_applications_queue() is 'The rule behind public.long_term_applications_queue (security definer, not exposed by the API).';
revoke execute on function private.long_term_applications_queue() from public;
grant execute on function private.long_term_applications_queue() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/long_term_applications_queue): runs as the caller, the rule above decides.
create function public.long_term_applications_queue()
returns TABLE(id uuid, place_id uuid, place_name text, user_id uuid, email text, first_name text, last_name text, phone text, locale text, boat jsonb, desired_start date, message text, status text, answer text, answered_at timestamptz, holder_id uuid, created_at timestamptz, waiting_position integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.long_term_applications_queue()
$$;
comment on function public.long_term_applications_queue() is 'Admins: all applications, open ones first in waiting-list order with their position.';
revoke execute on function public.long_term_applications_queue() from anon, public;

create function private.answer_long_term_application(p_id uuid, p_status text, p_answer text default null)
returns public.long_term_applications
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.long_term_applications;
  v_en boolean;
begin
  if not private.has_role('admin') then
    raise exception 'admin_only' using errcode = '42501';
  end if;
  if p_status is null or p_status not in ('accepted', 'declined') then
    raise exception 'invalid_answer' using errcode = '22023', hint = 'accepted or declined';
  end if;
  if char_length(p_answer) > 2000 then
    raise exception 'invalid_message' using errcode = '22023', hint = 'At most 2000 characters.';
  end if;
  update public.long_term_applications a set
    status = p_status, answer = nullif(btrim(p_answer), ''), answered_at = private.now(),
    answered_by = (select auth.uid())
   where a.id = p_id and a.status = 'open'
  returning * into v_row;
  if not found then
    raise exception 'application_not_open' using errcode = 'PT404';
  end if;
  v_en := v_row.locale = 'en';
  perform private.queue_mail(
    'application_answer', v_row.email, v_row.locale,
    case when v_en then 'Your application for a long-term berth at Hafen Düsseldorf'
         else 'Ihre Bewerbung um einen Dauerliegeplatz im Hafen Düsseldorf' end,
    concat_ws(E'\n',
      case when v_en then format('Hello %s %s,', v_row.first_name, v_row.last_name)
           else format('Guten Tag %s %s,', v_row.first_name, v_row.last_name) end,
      '',
      case when p_status = 'accepted'
           then case when v_en then 'good news: we can offer you a long-term berth.' else 'gute Nachricht: Wir können Ihnen einen Dauerliegeplatz anbieten.' end
           else case when v_en then 'unfortunately we cannot offer you a long-term berth at present.' else 'leider können wir Ihnen derzeit keinen Dauerliegeplatz anbieten.' end end,
      case when v_row.answer is not null then E'\n' || v_row.answer end,
      '',
      case when v_en then 'Kind regards' else 'Mit freundlichen Grüßen' end,
      'Hafen Düsseldorf'),
    '[]'::jsonb, private.setting('harbour_email'), null);
  return v_row;
end
$$;
comment on function private.answer_long_term_application(uuid, text, text) is 'The rule behind public.answer_long_term_application (security definer, not exposed by the API).';
revoke execute on function private.answer_long_term_application(uuid, text, text) from public;
grant execute on function private.answer_long_term_application(uuid, text, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/answer_long_term_application): runs as the caller, the rule above decides.
create function public.answer_long_term_application(p_id uuid, p_status text, p_answer text DEFAULT NULL::text)
returns public.long_term_applications
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.answer_long_term_application(p_id, p_status, p_answer)
$$;
comment on function public.answer_long_term_application(uuid, text, text) is 'Admins answer an open application (accepted or declined, with a text); the applicant is e-mailed in the own language.';
revoke execute on function public.answer_long_term_application(uuid, text, text) from anon, public;

create function private.assign_long_term_holder(
  p_place_id uuid,
  p_starts_on date,
  p_holder jsonb,
  p_ends_on date default null,
  p_application_id uuid default null
)
returns public.long_term_holders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.long_term_holders;
  v_user uuid;
  v_email text := lower(nullif(btrim(p_holder ->> 'email'), ''));
  v_length numeric;
  v_width numeric;
begin
  if not private.has_role('admin') then
    raise exception 'admin_only' using errcode = '42501';
  end if;
  if p_starts_on is null or (p_ends_on is not null and p_ends_on < p_starts_on) then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  perform 1 from public.places p where p.id = p_place_id for update;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  begin
    v_user := nullif(p_holder ->> 'user_id', '')::uuid;
    v_length := nullif(p_holder ->> 'boat_length', '')::numeric;
    v_width := nullif(p_holder ->> 'boat_width', '')::numeric;
  exception when others then
    raise exception 'invalid_holder' using errcode = '22023';
  end;
  if v_user is not null and not exists (select 1 from public.profiles pr where pr.id = v_user) then
    raise exception 'user_not_found' using errcode = 'PT404';
  end if;
  if v_user is null and v_email is not null then
    select pr.id into v_user from public.profiles pr where lower(pr.email) = v_email;
  end if;
  if v_email is null and v_user is not null then
    select lower(pr.email) into v_email from public.profiles pr where pr.id = v_user;
  end if;
  if v_user is null and v_email is null and nullif(btrim(p_holder ->> 'last_name'), '') is null then
    raise exception 'invalid_holder' using errcode = '22023', hint = 'A user, an e-mail address or a name.';
  end if;
  -- One holder at a time per berth.
  if exists (
    select 1 from public.long_term_holders h
    where h.place_id = p_place_id
      and h.starts_on <= coalesce(p_ends_on, 'infinity'::date)
      and coalesce(h.ends_on, 'infinity'::date) >= p_starts_on
  ) then
    raise exception 'berth_already_held' using errcode = '23P01';
  end if;
  -- Guests who booked the berth keep it: the holding must not overlap a live booking.
  if exists (
    select 1 from public.place_statuses s
    left join public.orders o on o.id = s.order_id
    where s.place_id = p_place_id and not s.cancelled and s.order_id is not null
      and s.ends_at > private.berlin_at(p_starts_on, time '00:00')
      and (p_ends_on is null or s.starts_at < private.berlin_at(p_ends_on + 1, time '00:00'))
      and not (o.status is not distinct from 'unverified' and o.expires_at <= private.now())
  ) then
    raise exception 'berth_has_bookings' using errcode = '23P01', hint = 'Move or cancel the bookings in that period first.';
  end if;

  insert into public.long_term_holders (place_id, user_id, email, first_name, last_name, starts_on, ends_on,
                                        boat_name, boat_tag, boat_length, boat_width, note)
  select p_place_id, v_user, v_email,
         coalesce(nullif(btrim(p_holder ->> 'first_name'), ''), pr.first_name),
         coalesce(nullif(btrim(p_holder ->> 'last_name'), ''), pr.last_name),
         p_starts_on, p_ends_on,
         coalesce(nullif(btrim(p_holder ->> 'boat_name'), ''), pr.boat_name),
         coalesce(nullif(btrim(p_holder ->> 'boat_tag'), ''), pr.boat_tag),
         coalesce(v_length, pr.boat_length), coalesce(v_width, pr.boat_width),
         nullif(btrim(p_holder ->> 'note'), '')
  from (select 1) one
  left join public.profiles pr on pr.id = v_user
  returning * into v_row;

  insert into public.long_term_holder_events (holder_id, place_id, user_id, action, starts_on, ends_on, holder, actor, created_at)
  values (v_row.id, v_row.place_id, v_row.user_id, 'assigned', v_row.starts_on, v_row.ends_on, to_jsonb(v_row),
          (select auth.uid()), private.now());

  if p_application_id is not null then
    update public.long_term_applications a set
      status = 'accepted', holder_id = v_row.id,
      answered_at = coalesce(a.answered_at, private.now()), answered_by = coalesce(a.answered_by, (select auth.uid()))
     where a.id = p_application_id and a.status in ('open', 'accepted');
    if not found then
      raise exception 'application_not_open' using errcode = 'PT404';
    end if;
  end if;
  return v_row;
end
$$;
comment on function private.assign_long_term_holder(uuid, date, jsonb, date, uuid) is 'The rule behind public.assign_long_term_holder (security definer, not exposed by the API).';
revoke execute on function private.assign_long_term_holder(uuid, date, jsonb, date, uuid) from public;
grant execute on function private.assign_long_term_holder(uuid, date, jsonb, date, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/assign_long_term_holder): runs as the caller, the rule above decides.
create function public.assign_long_term_holder(p_place_id uuid, p_starts_on date, p_holder jsonb, p_ends_on date DEFAULT NULL::date, p_application_id uuid DEFAULT NULL::uuid)
returns public.long_term_holders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.assign_long_term_holder(p_place_id, p_starts_on, p_holder, p_ends_on, p_application_id)
$$;
comment on function public.assign_long_term_holder(uuid, date, jsonb, date, uuid) is 'Admins make someone (user, e-mail or name, with boat data) the long-term holder of a berth from a date; refuses overlapping holders or bookings (23P01); history is kept.';
revoke execute on function public.assign_long_term_holder(uuid, date, jsonb, date, uuid) from anon, public;

create function private.remove_long_term_holder(p_holder_id uuid, p_last_day date default null)
returns public.long_term_holder_events
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.long_term_holders;
  v_last date := coalesce(p_last_day, private.berlin_date(private.now()));
  v_event public.long_term_holder_events;
begin
  if not private.has_role('admin') then
    raise exception 'admin_only' using errcode = '42501';
  end if;
  select * into v_row from public.long_term_holders h where h.id = p_holder_id for update;
  if not found then
    raise exception 'holder_not_found' using errcode = 'PT404';
  end if;
  if v_row.ends_on is not null and v_row.ends_on <= v_last then
    raise exception 'holder_already_ended' using errcode = 'P0001';
  end if;
  if v_last < v_row.starts_on then
    -- A holding that never began: nothing to keep in the table, the event keeps the snapshot.
    delete from public.long_term_holders h where h.id = p_holder_id;
  else
    update public.long_term_holders h set ends_on = v_last where h.id = p_holder_id returning * into v_row;
  end if;
  insert into public.long_term_holder_events (holder_id, place_id, user_id, action, starts_on, ends_on, holder, actor, created_at)
  values (v_row.id, v_row.place_id, v_row.user_id, 'removed', v_row.starts_on, v_last, to_jsonb(v_row),
          (select auth.uid()), private.now())
  returning * into v_event;
  return v_event;
end
$$;
comment on function private.remove_long_term_holder(uuid, date) is 'The rule behind public.remove_long_term_holder (security definer, not exposed by the API).';
revoke execute on function private.remove_long_term_holder(uuid, date) from public;
grant execute on function private.remove_long_term_holder(uuid, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/remove_long_term_holder): runs as the caller, the rule above decides.
create function public.remove_long_term_holder(p_holder_id uuid, p_last_day date DEFAULT NULL::date)
returns public.long_term_holder_events
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.remove_long_term_holder(p_holder_id, p_last_day)
$$;
comment on function public.remove_long_term_holder(uuid, date) is 'Admins end a long-term holding on a last day (default today, Europe/Berlin); the row stays as history (a holding that had not begun is deleted), an event records it.';
revoke execute on function public.remove_long_term_holder(uuid, date) from anon, public;

-- Harbour staff may not read applications (admins answer them), but the overview names the
-- open ones so the team knows someone waits: names, berth and date only.
create function private.open_long_term_applications(p_limit integer default 20)
returns table (id uuid, first_name text, last_name text, place_name text, created_at timestamptz, open_total integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  return query
    select a.id, a.first_name, a.last_name, p.name, a.created_at, (count(*) over ())::integer
    from public.long_term_applications a
    left join public.places p on p.id = a.place_id
    where a.status = 'open'
    order by a.created_at desc, a.queue_number desc
    limit least(greatest(coalesce(p_limit, 20), 1), 100);
end
$$;
comment on function private.open_long_term_applications(integer) is 'The rule behind public.open_long_term_applications (security definer, not exposed by the API).';
revoke execute on function private.open_long_term_applications(integer) from public;
grant execute on function private.open_long_term_applications(integer) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/open_long_term_applications): runs as the caller, the rule above decides.
create function public.open_long_term_applications(p_limit integer DEFAULT 20)
returns TABLE(id uuid, first_name text, last_name text, place_name text, created_at timestamptz, open_total integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.open_long_term_applications(p_limit)
$$;
comment on function public.open_long_term_applications(integer) is 'Staff: the newest open long-term applications (names, berth, date) and how many are open in all; the details stay with admins.';
revoke execute on function public.open_long_term_applications(integer) from anon, public;

-- ================================================================ supabase/schemas/70_hours.sql

-- Working hours of the harbour staff and their monthly totals.

create table public.working_hours (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  location text not null default 'duesseldorf' check (location = 'duesseldorf'),
  work_date date not null,
  start_time time not null,
  end_time time not null,
  break_minutes integer not null default 0 check (break_minutes between 0 and 600),
  minutes integer generated always as (
    (extract(epoch from (end_time - start_time)) / 60)::integer - break_minutes
  ) stored,
  note text check (char_length(note) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (end_time > start_time),
  check ((extract(epoch from (end_time - start_time)) / 60)::integer > break_minutes),
  -- One person cannot work two shifts at once (touching is fine: 08:00-12:00 and 12:00-16:00).
  constraint working_hours_no_overlap exclude using gist (
    user_id with =,
    tsrange(work_date + start_time, work_date + end_time) with &&
  )
);

alter table public.working_hours enable row level security;

comment on table public.working_hours is 'A shift of a harbour worker (date, start, end, break) under a location; minutes are computed.';

create index working_hours_user_date_idx on public.working_hours (user_id, work_date);

create index working_hours_date_idx on public.working_hours (work_date);

-- Staff change their own entries only while the month is open: the current and the last
-- month (Europe/Berlin), never a future month.
create function private.hours_open(p_work_date date)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_work_date >= (date_trunc('month', private.berlin_date(private.now())) - interval '1 month')::date
     and p_work_date < (date_trunc('month', private.berlin_date(private.now())) + interval '1 month')::date
$$;
comment on function private.hours_open(date) is 'The date lies in the current or the last month (Europe/Berlin): staff may still edit their hours there.';
revoke execute on function private.hours_open(date) from public;
grant execute on function private.hours_open(date) to authenticated;

-- One permissive policy per role and action (Supabase's advisor): staff their own rows (writes
-- only while the month is open), admins every row.
create policy "working_hours: staff read own, admins all" on public.working_hours
  for select to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_staff()))
         or (select private.has_role('admin')));

create policy "working_hours: staff insert own in open months, admins all" on public.working_hours
  for insert to authenticated
  with check ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
              or (select private.has_role('admin')));

create policy "working_hours: staff update own in open months, admins all" on public.working_hours
  for update to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
         or (select private.has_role('admin')))
  with check ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
              or (select private.has_role('admin')));

create policy "working_hours: staff delete own in open months, admins all" on public.working_hours
  for delete to authenticated
  using ((user_id = (select auth.uid()) and (select private.is_staff()) and private.hours_open(work_date))
         or (select private.has_role('admin')));

revoke all on public.working_hours from anon;

revoke truncate on public.working_hours from authenticated;

-- The computed and bookkeeping columns are not written by the API.
revoke insert, update on public.working_hours from authenticated;

grant insert (user_id, location, work_date, start_time, end_time, break_minutes, note) on public.working_hours to authenticated;

grant update (user_id, work_date, start_time, end_time, break_minutes, note) on public.working_hours to authenticated;

create trigger working_hours_touch before update on public.working_hours
  for each row execute function private.touch_updated_at();

create view public.working_hours_monthly
with (security_invoker = true)
as
select h.user_id,
       h.location,
       date_trunc('month', h.work_date)::date as month,
       count(*)::integer as entries,
       sum(h.minutes)::integer as minutes,
       round(sum(h.minutes) / 60.0, 2) as hours,
       pr.first_name,
       pr.last_name
from public.working_hours h
left join public.profiles pr on pr.id = h.user_id
group by h.user_id, h.location, date_trunc('month', h.work_date), pr.first_name, pr.last_name;

comment on view public.working_hours_monthly is 'Hours per person and month (what the reader may see: staff their own, admins everyone''s).';

revoke all on public.working_hours_monthly from anon;

grant select on public.working_hours_monthly to authenticated;

revoke insert, update, delete, truncate on public.working_hours_monthly from authenticated;

-- Writes to a read-only view are refused as a privilege error, not a server error: PostgREST
-- answers "cannot insert into view" (SQLSTATE 55000; a view with GROUP BY is not automatically
-- updatable) with HTTP 500. With INSTEAD OF triggers the view counts as updatable, so the
-- executor checks privileges first (none are granted: 42501 -> 401/403), and the trigger
-- refuses whoever does hold them.
create function private.refuse_view_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'read_only_view' using errcode = '42501', detail = tg_table_name || ' is read-only';
end
$$;
comment on function private.refuse_view_write() is 'INSTEAD OF trigger of read-only views: refuses every write with 42501.';
revoke execute on function private.refuse_view_write() from public;

create trigger working_hours_monthly_read_only
  instead of insert or update or delete on public.working_hours_monthly
  for each row execute function private.refuse_view_write();

-- ================================================================ supabase/schemas/75_account_data.sql

-- The customer's own data: export (one jsonb document) and account deletion.

create function private.export_my_data()
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
comment on function private.export_my_data() is 'The rule behind public.export_my_data (security definer, not exposed by the API).';
revoke execute on function private.export_my_data() from public;
grant execute on function private.export_my_data() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/export_my_data): runs as the caller, the rule above decides.
create function public.export_my_data()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.export_my_data()
$$;
comment on function public.export_my_data() is 'GDPR Art. 15/20: everything stored about the caller (account, profile, orders, invoices, holdings, applications, messages, hours) as one jsonb document.';
revoke execute on function public.export_my_data() from anon, public;

create function private.delete_my_account()
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
comment on function private.delete_my_account() is 'The rule behind public.delete_my_account (security definer, not exposed by the API).';
revoke execute on function private.delete_my_account() from public;
grant execute on function private.delete_my_account() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/delete_my_account): runs as the caller, the rule above decides.
create function public.delete_my_account()
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.delete_my_account()
$$;
comment on function public.delete_my_account() is 'GDPR Art. 17: deletes the caller''s account; open future bookings are cancelled, orders are kept anonymised for the books, invoices keep the billed recipient.';
revoke execute on function public.delete_my_account() from anon, public;

-- ================================================================ supabase/schemas/80_reports.sql

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
    left join public.orders o on o.id = s.order_id
    where not s.cancelled
      and s.starts_at < v_to and s.ends_at > v_from
      and (s.order_id is null or o.status in ('confirmed', 'checked_in', 'completed'))
    union all
    select b.size_class, null, h.starts_on, coalesce(h.ends_on, p_to)
    from public.long_term_holders h
    join berths b on b.id = h.place_id
    where h.starts_on <= p_to and (h.ends_on is null or h.ends_on >= p_from)
  ),
  counted as (
    select m.month_start, x.size_class,
           sum(least(x.d2, m.month_end) - greatest(x.d1, m.first_day) + 1) filter (where x.booked)::integer as booked,
           sum(least(x.d2, m.month_end) - greatest(x.d1, m.first_day) + 1) filter (where x.booked is null)::integer as long_term,
           sum(least(x.d2, m.month_end) - greatest(x.d1, m.first_day) + 1) filter (where not x.booked)::integer as blocked
    from spans x
    join months m on x.d1 <= m.month_end and x.d2 >= m.first_day
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

-- Sales (confirmed, checked_in, completed) whose arrival lies in the range, with the Berlin
-- arrival day and nights as plain columns.
create function private.report_revenue(p_from date, p_to date)
returns table (
  month date, kind public.order_kind, orders integer, net_cents bigint, vat_cents bigint, gross_cents bigint,
  paid_gross_cents bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  select date_trunc('month', (o.starts_at at time zone 'Europe/Berlin'))::date, o.kind, count(*)::integer,
         sum((o.price_breakdown ->> 'net_cents')::bigint)::bigint,
         sum((o.price_breakdown ->> 'vat_cents')::bigint)::bigint,
         sum(o.price_cents::bigint)::bigint,
         coalesce(sum(o.price_cents::bigint) filter (where o.payment_status = 'paid'), 0)::bigint
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= v_from and o.starts_at < v_to
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
comment on function public.report_revenue(date, date) is 'Admins: per arrival month and kind of stay the number of sales and net, VAT and gross cents, and how much of it is paid.';
revoke execute on function public.report_revenue(date, date) from anon, public;

create function private.report_average_stay(p_from date, p_to date)
returns table (kind public.order_kind, orders integer, nights integer, average_nights numeric, average_hours numeric, average_boat_length numeric)
language plpgsql
stable
security definer
set search_path = ''
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
    select o.kind,
           (o.ends_at at time zone 'Europe/Berlin')::date - (o.starts_at at time zone 'Europe/Berlin')::date as nights,
           extract(epoch from (o.ends_at - o.starts_at)) / 3600 as hours,
           (o.boat ->> 'length')::numeric as boat_length
    from public.orders o
    where o.status in ('confirmed', 'checked_in', 'completed')
      and o.starts_at >= v_from and o.starts_at < v_to
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
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  select nullif(btrim(o.person ->> 'country'), ''), count(*)::integer,
         count(distinct coalesce(nullif(lower(o.email), ''), o.user_id::text, o.id::text))::integer,
         sum((o.ends_at at time zone 'Europe/Berlin')::date - (o.starts_at at time zone 'Europe/Berlin')::date)::integer,
         sum(o.price_cents::bigint)::bigint
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= v_from and o.starts_at < v_to
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
comment on function public.report_guests_by_country(date, date) is 'Admins: per country of the booking person the sales, distinct guests (by e-mail), nights and gross cents; null = not given.';
revoke execute on function public.report_guests_by_country(date, date) from anon, public;

create function private.report_sale_codes(p_from date, p_to date)
returns table (code text, orders integer, nights integer, discount_cents bigint, net_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
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
    select upper(o.sale_code) as code, count(*)::integer as orders,
           sum((o.price_breakdown ->> 'nights')::integer)::integer as nights,
           sum((o.price_breakdown ->> 'nights')::bigint * 1000 - (o.price_breakdown ->> 'additional_costs_cents')::bigint)::bigint as discount,
           sum((o.price_breakdown ->> 'net_cents')::bigint)::bigint as net
    from public.orders o
    where o.sale_code is not null
      and o.status in ('confirmed', 'checked_in', 'completed')
      and o.starts_at >= v_from and o.starts_at < v_to
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
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin_range(p_from, p_to);
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(least(p_to, private.berlin_date(private.now())) + 1, time '00:00');
  return query
  select date_trunc('month', (o.starts_at at time zone 'Europe/Berlin'))::date, count(*)::integer,
         count(*) filter (where o.checked_in)::integer,
         round(100.0 * count(*) filter (where o.checked_in) / count(*), 1)
  from public.orders o
  where o.status in ('confirmed', 'checked_in', 'completed')
    and o.starts_at >= v_from and o.starts_at < v_to
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

-- ================================================================ supabase/schemas/90_storage.sql

-- Storage buckets for images and avatars, and their policies on storage.objects.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('place-images', 'place-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('news-images', 'news-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('additional-place-images', 'additional-place-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('avatars', 'avatars', false, 5242880, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- One policy per operation: public images (place, news, column) that only admins change, and
-- avatars in a folder named by the owner's id.
create policy "objects: public images, own avatars, staff all avatars" on storage.objects
  for select to anon, authenticated
  using (
    bucket_id in ('place-images', 'news-images', 'additional-place-images')
    or (bucket_id = 'avatars' and (
      (storage.foldername(name))[1] = (select auth.uid())::text or (select private.is_staff()))));

create policy "objects: admins upload images, owners their avatar" on storage.objects
  for insert to authenticated
  with check (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
        and (select private.is_active_user())));

create policy "objects: admins update images, owners their avatar" on storage.objects
  for update to authenticated
  using (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text))
  with check (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
        and (select private.is_active_user())));

create policy "objects: admins delete images, owners their avatar" on storage.objects
  for delete to authenticated
  using (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text));

-- ================================================================ supabase/schemas/95_privileges.sql

-- Privilege hygiene over every table above.

-- TRUNCATE ignores RLS, so the API roles lose it on every table of the schema (PostgREST
-- never truncates; this is defence in depth).
revoke truncate on all tables in schema public from anon, authenticated;

-- ================================================================ supabase/schemas/99_cron.sql

-- Schedules (pg_cron on hosted Supabase; the local stack's scheduler calls the same
-- functions): mail delivery every minute, expiry every five minutes.

-- Enables pg_cron and pg_net where the server offers them (so `supabase db push` sets up mail
-- delivery and order expiry without a dashboard step), then schedules both jobs (cron.schedule
-- replaces a job of the same name). Where they are not offered (PGlite, a bare Postgres; the
-- local stack brings its own stand-in), nothing changes.
do $$
begin
  if to_regprocedure('cron.schedule(text, text, text)') is null
     and exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron with schema pg_catalog;
      grant usage on schema cron to postgres;
    exception when others then
      raise notice 'pg_cron not enabled: %', sqlerrm;
    end;
  end if;
  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null
     and exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_net') then
    begin
      create extension if not exists pg_net with schema extensions;
    exception when others then
      raise notice 'pg_net not enabled: %', sqlerrm;
    end;
  end if;
  if to_regprocedure('cron.schedule(text, text, text)') is not null then
    -- cron.schedule replaces a job of the same name, so this is idempotent.
    perform cron.schedule('send-mail', '* * * * *', 'select private.request_mail_delivery()');
    perform cron.schedule('expire-unverified-orders', '*/5 * * * *', 'select public.expire_unverified_orders()');
  end if;
end
$$;
