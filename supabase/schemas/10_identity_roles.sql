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

-- Two-factor sign-in for staff (issue 26): harbour_settings (45) says per role whether it is
-- required; then only a session whose JWT says aal2 counts, as Supabase documents for RLS
-- ((select auth.jwt() ->> 'aal') = 'aal2'). plpgsql: the settings table comes later in the schema.
create function private.staff_mfa_satisfied(p_admin boolean, p_harbor boolean)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_required boolean;
begin
  select (coalesce(p_admin, false) and s.mfa_required_admin) or (coalesce(p_harbor, false) and s.mfa_required_harbor)
    into v_required
  from public.harbour_settings s where s.id = 1;
  return not coalesce(v_required, false)
    or coalesce((select auth.jwt() ->> 'aal'), '') = 'aal2';
end
$$;
comment on function private.staff_mfa_satisfied(boolean, boolean) is 'True unless 2FA is required for one of the given staff role flags and the session (JWT aal claim) is not aal2.';
revoke execute on function private.staff_mfa_satisfied(boolean, boolean) from public;
grant execute on function private.staff_mfa_satisfied(boolean, boolean) to anon, authenticated, service_role;

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
            when 'admin' then r.admin and private.staff_mfa_satisfied(r.admin, r.harbor)
            when 'harbor' then r.harbor and private.staff_mfa_satisfied(r.admin, r.harbor)
            when 'user' then r."user"
            else false
          end
  )
$$;
comment on function private.has_role(text) is 'The caller is active and holds the role flag (admin, harbor or user) in user_roles, never in JWT claims; admin and harbor only in an aal2 session when 2FA is required for the person''s staff roles.';
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
      and private.staff_mfa_satisfied(r.admin, r.harbor)
  )
$$;
comment on function private.is_staff() is 'The caller is active harbour staff (harbor or admin flag), in an aal2 session when 2FA is required for the person''s staff roles.';
revoke execute on function private.is_staff() from public;
grant execute on function private.is_staff() to anon, authenticated, service_role;

-- The one check of every admin-only function (issue 41: admin_only and admin_required said the
-- same thing two ways): refuses everyone but an admin with 42501 admin_only.
create function private.require_admin()
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
end
$$;
comment on function private.require_admin() is 'Refuses everyone but an admin (42501 admin_only): the check every admin-only function makes first.';
revoke execute on function private.require_admin() from public;
grant execute on function private.require_admin() to anon, authenticated, service_role;

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

create function public.admin_list_users(p_search text default null, p_limit integer default 20, p_offset integer default 0,
  p_sort text default 'name', p_desc boolean default false, p_role text default null, p_active boolean default null)
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
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 100 or p_offset is null or p_offset < 0 then
    raise exception 'invalid_page' using errcode = '22023', hint = 'limit 1-100, offset >= 0';
  end if;
  if p_sort is null or p_desc is null or p_sort not in ('name', 'email', 'first_name', 'last_name', 'active')
     or (p_role is not null and p_role not in ('admin', 'harbor', 'user')) then
    raise exception 'invalid_sort' using errcode = '22023', hint = 'sort: name, email, first_name, last_name or active; role: admin, harbor or user';
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
  where (v_pattern is null
     or p.email ilike v_pattern
     or p.first_name ilike v_pattern
     or p.last_name ilike v_pattern
     or (coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')) ilike v_pattern)
    and (p_active is null or p.active = p_active)
    and (p_role is null
      or (p_role = 'admin' and coalesce(r.admin, false))
      or (p_role = 'harbor' and coalesce(r.harbor, false))
      or (p_role = 'user' and coalesce(r."user", false)))
  -- The chosen key first (the others are null and tie), then name, e-mail, id: a stable page.
  order by
    case when not p_desc then case p_sort
      when 'email' then lower(coalesce(p.email, '')) when 'first_name' then lower(coalesce(p.first_name, ''))
      when 'last_name' then lower(coalesce(p.last_name, '')) end end asc,
    case when p_desc then case p_sort
      when 'email' then lower(coalesce(p.email, '')) when 'first_name' then lower(coalesce(p.first_name, ''))
      when 'last_name' then lower(coalesce(p.last_name, '')) end end desc,
    case when not p_desc and p_sort = 'active' then p.active end asc,
    case when p_desc and p_sort = 'active' then p.active end desc,
    case when p_desc and p_sort = 'name' then lower(coalesce(p.last_name, '')) end desc,
    case when p_desc and p_sort = 'name' then lower(coalesce(p.first_name, '')) end desc,
    lower(coalesce(p.last_name, '')), lower(coalesce(p.first_name, '')), lower(coalesce(p.email, '')), p.id
  limit p_limit offset p_offset;
end
$$;
comment on function public.admin_list_users(text, integer, integer, text, boolean, text, boolean) is 'Admins: a page of accounts (profile, role flags, active) by e-mail or name, role and active, sorted by p_sort, with the total for paging.';
revoke execute on function public.admin_list_users(text, integer, integer, text, boolean, text, boolean) from anon, public;

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
  perform private.require_admin();
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
