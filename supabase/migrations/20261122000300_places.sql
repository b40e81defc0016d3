-- The harbour: berths, the electricity and water columns on the piers, which berth uses
-- which column, long-term holders, and fair periods.

-- ---------------------------------------------------------------- places (berths)
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
  updated_at timestamptz not null default now()
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

-- ---------------------------------------------------------------- additional places (columns)
create table public.additional_places (
  id uuid primary key default gen_random_uuid(),
  type public.additional_place_type not null,
  name text not null check (char_length(name) between 1 and 100),
  position double precision[] not null check (cardinality(position) = 2),
  image_path text,
  created_at timestamptz not null default now()
);
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

-- ---------------------------------------------------------------- long-term holders
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
create function public.place_long_term_starts()
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
comment on function public.place_long_term_starts() is 'Per berth, the date from which it is long-term occupied (current or future holders), without the holder.';
revoke all on function public.place_long_term_starts() from public, anon, authenticated;
grant execute on function public.place_long_term_starts() to anon, authenticated, service_role;

-- ---------------------------------------------------------------- fair periods
create table public.fair_periods (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 100),
  name_en text,
  starts_on date not null,
  ends_on date not null,
  created_at timestamptz not null default now(),
  check (ends_on > starts_on)
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
