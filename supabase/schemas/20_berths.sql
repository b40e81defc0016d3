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
  perform private.require_admin();
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

-- ------------------------------------------------------------------ berth photos (issue 24)
-- A berth's photos in the order admins give them (position 0 first). The objects live in the
-- public place-images bucket under places/<berth id>/; places.image_path stays the cover
-- (the first photo), kept by the trigger below, so the booking search keeps returning it.
create table public.place_photos (
  id uuid primary key default gen_random_uuid(),
  place_id uuid not null references public.places (id) on delete cascade,
  path text not null check (char_length(path) between 1 and 300),
  position integer not null default 0 check (position >= 0),
  created_at timestamptz not null default now()
);

alter table public.place_photos enable row level security;

comment on table public.place_photos is 'The photos of a berth (paths in the place-images bucket) in the order guests see them.';

create index place_photos_place_idx on public.place_photos (place_id, position);

create policy "place_photos: everyone reads photos of active berths" on public.place_photos
  for select to anon, authenticated
  using (exists (select 1 from public.places p where p.id = place_id and (not p.archived or (select private.is_staff()))));

create policy "place_photos: admin inserts" on public.place_photos
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "place_photos: admin updates" on public.place_photos
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "place_photos: admin deletes" on public.place_photos
  for delete to authenticated
  using ((select private.has_role('admin')));

create function private.place_photos_cover()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  v_place uuid := coalesce(new.place_id, old.place_id);
begin
  update public.places p
     set image_path = (select f.path from public.place_photos f where f.place_id = v_place order by f.position, f.created_at, f.id limit 1)
   where p.id = v_place
     and p.image_path is distinct from (select f.path from public.place_photos f where f.place_id = v_place order by f.position, f.created_at, f.id limit 1);
  if tg_op = 'UPDATE' and old.place_id <> new.place_id then
    update public.places p
       set image_path = (select f.path from public.place_photos f where f.place_id = old.place_id order by f.position, f.created_at, f.id limit 1)
     where p.id = old.place_id;
  end if;
  return null;
end
$$;
comment on function private.place_photos_cover() is 'Trigger: places.image_path is the berth''s first photo (the cover the search returns).';
revoke execute on function private.place_photos_cover() from public;

create trigger place_photos_cover after insert or update or delete on public.place_photos
  for each row execute function private.place_photos_cover();

-- The API endpoint (/rest/v1/rpc/reorder_place_photos): runs as the caller; RLS lets only
-- admins change rows (anyone else changes nothing).
create function public.reorder_place_photos(p_place_id uuid, p_photo_ids uuid[])
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  update public.place_photos f
     set position = x.ord::integer - 1
    from unnest(p_photo_ids) with ordinality as x(id, ord)
   where f.id = x.id and f.place_id = p_place_id;
$$;
comment on function public.reorder_place_photos(uuid, uuid[]) is 'Admins: the order of a berth''s photos, the ids first to last, in one step.';
revoke execute on function public.reorder_place_photos(uuid, uuid[]) from anon, public;
grant execute on function public.reorder_place_photos(uuid, uuid[]) to authenticated, service_role;
