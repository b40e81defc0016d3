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
