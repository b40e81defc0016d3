-- Admin content (issue 12: news, users, sale codes, settings): the rules that must hold
-- whoever calls. An admin never removes the own admin flag or switches the own account off;
-- the user list and the user edit are one function each (search + paging; profile, roles and
-- active flag saved atomically); bounds on the texts admins type, so bad input is a 400 with a
-- named constraint, never a 500. Staff (harbor flag) already cannot write news, sale codes,
-- fair periods, harbour settings or roles (admin-only policies in 0200/0300/0400); the pgTAP
-- file 230-admin-content.sql proves it.

-- ---------------------------------------------------------------- no self-demotion
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
revoke all on function private.guard_own_admin_flag() from public;
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
revoke all on function private.guard_own_active_flag() from public;
create trigger profiles_keep_own_active before update of active on public.profiles
  for each row execute function private.guard_own_active_flag();

-- ---------------------------------------------------------------- bounds on admin input
alter table public.news
  add constraint news_title_en_length check (char_length(title_en) <= 200),
  add constraint news_short_description_length check (char_length(short_description) <= 500 and char_length(short_description_en) <= 500),
  add constraint news_description_length check (char_length(description) <= 10000 and char_length(description_en) <= 10000),
  add constraint news_location_length check (char_length(location) between 1 and 100),
  add constraint news_image_path_length check (char_length(image_path) <= 300),
  add constraint news_dates_count check (coalesce(array_length(dates, 1), 0) <= 60);

alter table public.sale_codes
  add constraint sale_codes_code_format check (code ~ '^[A-Za-z0-9_-]+$'),
  add constraint sale_codes_value_max check (value <= 100000);

alter table public.fair_periods
  add constraint fair_periods_name_en_length check (char_length(name_en) <= 100),
  add constraint fair_periods_length check (ends_on - starts_on <= 60);

alter table public.harbour_settings
  add constraint harbour_settings_lengths check (
    char_length(door_code) <= 40 and char_length(wifi_ssid) <= 64 and char_length(wifi_password) <= 100);

-- ---------------------------------------------------------------- the user list
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
revoke all on function public.admin_list_users(text, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_list_users(text, integer, integer) to authenticated;

-- ---------------------------------------------------------------- saving a user
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
revoke all on function public.admin_save_user(uuid, text, text, text, text, text, text, text, text, boolean, boolean, boolean, boolean) from public, anon, authenticated;
grant execute on function public.admin_save_user(uuid, text, text, text, text, text, text, text, text, boolean, boolean, boolean, boolean) to authenticated;
