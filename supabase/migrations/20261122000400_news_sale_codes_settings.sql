-- News for the start page, sale codes for the booking, and the harbour's door code and wifi.

-- ---------------------------------------------------------------- news
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
  check (ends_at > starts_at)
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

-- ---------------------------------------------------------------- sale codes
create table public.sale_codes (
  id uuid primary key default gen_random_uuid(),
  code text not null check (char_length(code) between 3 and 40),
  type public.sale_code_type not null default 'set-additional-costs',
  value integer not null check (value >= 0),
  created_at timestamptz not null default now()
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

-- Wrong sale codes per session, to throttle guessing. Private: no API role reads it.
create table private.sale_code_attempts (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  attempted_at timestamptz not null default now()
);
alter table private.sale_code_attempts enable row level security;
comment on table private.sale_code_attempts is 'Wrong sale codes entered, per user, for throttling.';
create index sale_code_attempts_user_idx on private.sale_code_attempts (user_id, attempted_at);

-- ---------------------------------------------------------------- harbour settings
create table public.harbour_settings (
  id smallint primary key default 1 check (id = 1),
  door_code text not null default '',
  wifi_ssid text not null default '',
  wifi_password text not null default '',
  updated_at timestamptz not null default now()
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
