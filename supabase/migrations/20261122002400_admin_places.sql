-- Admin: berths, columns and the harbour plan (issue 12, items 3, 4 and 8).
-- A berth that has orders is never deleted (it is archived instead, kept for history); the
-- positions on the plan are exactly two finite coordinates inside the 1000 x 600 plan; the
-- columns serving a berth are replaced in one call.

-- ---------------------------------------------------------------- positions on the plan
alter table public.places
  add constraint places_position_on_plan check (
    position is null or (
      array_position(position, null) is null
      and position[1] between 0 and 1000 and position[2] between 0 and 600));
alter table public.additional_places
  add constraint additional_places_position_on_plan check (
    array_position(position, null) is null
    and position[1] between 0 and 1000 and position[2] between 0 and 600);

-- ---------------------------------------------------------------- no deletion with orders
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
revoke all on function private.refuse_place_delete_with_orders() from public;

create trigger places_refuse_delete_with_orders before delete on public.places
  for each row execute function private.refuse_place_delete_with_orders();

-- ---------------------------------------------------------------- columns of a berth
create function public.set_place_additional_places(p_place_id uuid, p_additional_place_ids uuid[])
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
    raise exception 'place_not_found' using errcode = 'P0002';
  end if;
  if exists (
    select 1 from unnest(coalesce(p_additional_place_ids, '{}')) i(id)
    where i.id is null or not exists (select 1 from public.additional_places a where a.id = i.id)
  ) then
    raise exception 'additional_place_not_found' using errcode = 'P0002';
  end if;
  delete from public.place_additional_places pa
   where pa.place_id = p_place_id and pa.additional_place_id <> all (coalesce(p_additional_place_ids, '{}'));
  insert into public.place_additional_places (place_id, additional_place_id)
  select distinct p_place_id, i.id from unnest(coalesce(p_additional_place_ids, '{}')) i(id)
  on conflict do nothing;
  return query select pa.additional_place_id from public.place_additional_places pa where pa.place_id = p_place_id;
end
$$;
comment on function public.set_place_additional_places(uuid, uuid[]) is 'Admins: the columns (electricity, water) that serve a berth, replaced in one step.';
revoke all on function public.set_place_additional_places(uuid, uuid[]) from public, anon, authenticated;
grant execute on function public.set_place_additional_places(uuid, uuid[]) to authenticated;
