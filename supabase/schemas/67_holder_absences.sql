-- Holders' absences (issue 43 deliverable 4, docs/adr/0054-holder-absences.md). The table is in
-- 21_holder_absences.sql; the availability rules (bookable_places, berth_verdict, book_berth)
-- let a held berth to guests for a stay that one absence of its holder covers.
--
-- No double booking between a holder coming back and a guest: a guest's stay on a held berth is
-- written only while the absence that covers it is locked FOR SHARE (the trigger on
-- place_statuses below, whatever function writes the stay), and the holder's change locks the
-- absence FOR UPDATE before it looks for guests in the nights it gives up. Whoever comes second
-- waits for the first to commit and then sees its work: the guest finds the absence shortened
-- (Postgres rechecks the locked row's condition) and is refused; the holder finds the guest's
-- stay and is refused.

-- Audited like every other master-data change (docs/adr/0034-audit-trail.md).
create trigger holder_absences_audit after insert or update or delete on public.holder_absences
  for each row execute function private.audit_row('id');

-- The nights of [p_first, p_end) in which the berth has a live guest stay (cancelled ones do
-- not count; an open order past its expiry still does until expire_orders cancels it: the
-- holder waits a minute rather than a guest losing a berth being paid for).
create function private.let_nights(p_place_id uuid, p_first date, p_end date)
returns date[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct d.night order by d.night), '{}')
  from public.place_statuses s
  cross join lateral (
    select g::date as night
    from generate_series(private.berlin_date(s.starts_at),
                         greatest(private.berlin_date(s.starts_at), private.berlin_date(s.ends_at) - 1), interval '1 day') g
  ) d
  where s.place_id = p_place_id
    and not s.cancelled
    and s.order_id is not null
    and s.ends_at > private.berlin_at(p_first, time '00:00')
    and s.starts_at < private.berlin_at(p_end, time '00:00')
    and d.night >= p_first and d.night < p_end
$$;
comment on function private.let_nights(uuid, date, date) is 'The nights in [p_first, p_end) in which a berth has a live guest stay (for a holder''s absence: the nights already let).';
revoke execute on function private.let_nights(uuid, date, date) from public;

-- The guard: a guest's stay on a berth that a long-term holder holds on one of its nights is
-- written only inside one absence of that holder, which it locks FOR SHARE until commit.
create function private.guard_stay_on_held_berth()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_first date;
  v_last date;
  v_holder uuid;
begin
  if new.order_id is null or new.cancelled then
    return new;
  end if;
  if tg_op = 'UPDATE' and not old.cancelled and old.place_id = new.place_id
     and old.starts_at = new.starts_at and old.ends_at = new.ends_at then
    return new;
  end if;
  v_first := private.berlin_date(new.starts_at);
  v_last := greatest(v_first, private.berlin_date(new.ends_at) - 1);
  for v_holder in
    select h.id from public.long_term_holders h
    where h.place_id = new.place_id and h.starts_on <= v_last and (h.ends_on is null or h.ends_on >= v_first)
  loop
    perform 1 from public.holder_absences a
    where a.holder_id = v_holder and a.starts_on <= v_first and a.ends_on > v_last
    for share;
    if not found then
      raise exception 'berth_no_longer_available' using errcode = '23P01', detail = 'long_term';
    end if;
  end loop;
  return new;
end
$$;
comment on function private.guard_stay_on_held_berth() is 'BEFORE trigger on place_statuses: a live guest stay on a held berth needs one absence of the holder covering its nights, locked FOR SHARE (else 23P01 berth_no_longer_available), so a holder''s return cannot slip in between check and write.';
revoke execute on function private.guard_stay_on_held_berth() from public;

create trigger place_statuses_held_berth before insert or update on public.place_statuses
  for each row execute function private.guard_stay_on_held_berth();

-- May the caller change this holder's absences: the holder (their account) or harbour staff.
create function private.lock_holder_for_absence(p_holder_id uuid)
returns public.long_term_holders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_holder public.long_term_holders;
begin
  select * into v_holder from public.long_term_holders h where h.id = p_holder_id for share;
  if not found or not (v_holder.user_id = (select auth.uid()) or private.is_staff()) then
    raise exception 'holder_not_found' using errcode = 'PT404';
  end if;
  return v_holder;
end
$$;
comment on function private.lock_holder_for_absence(uuid) is 'The holding, locked FOR SHARE, if the caller is its holder or staff; else holder_not_found (PT404, also for someone else''s holding).';
revoke execute on function private.lock_holder_for_absence(uuid) from public;

-- Enter (p_absence_id null) or change an absence. Nights already past stay as they were; the
-- absence lies within the holding; nights given back must not be let.
create function private.save_holder_absence(p_holder_id uuid, p_starts_on date, p_ends_on date, p_absence_id uuid default null)
returns public.holder_absences
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_holder public.long_term_holders;
  v_old public.holder_absences;
  v_row public.holder_absences;
  v_today date := private.berlin_date(private.now());
  v_let date[];
begin
  v_holder := private.lock_holder_for_absence(p_holder_id);
  if p_starts_on is null or p_ends_on is null or p_ends_on <= p_starts_on then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if p_starts_on < v_holder.starts_on or (v_holder.ends_on is not null and p_ends_on - 1 > v_holder.ends_on) then
    raise exception 'absence_outside_contract' using errcode = '22023',
      detail = v_holder.starts_on::text || ',' || coalesce(v_holder.ends_on::text, '');
  end if;
  if p_absence_id is null then
    if p_starts_on < v_today then
      raise exception 'absence_in_past' using errcode = '22023';
    end if;
    begin
      insert into public.holder_absences (holder_id, place_id, starts_on, ends_on)
      values (v_holder.id, v_holder.place_id, p_starts_on, p_ends_on)
      returning * into v_row;
    exception when exclusion_violation then
      raise exception 'absence_overlaps' using errcode = '23P01';
    end;
    return v_row;
  end if;

  select * into v_old from public.holder_absences a where a.id = p_absence_id and a.holder_id = v_holder.id for update;
  if not found then
    raise exception 'absence_not_found' using errcode = 'PT404';
  end if;
  -- The past is not rewritten: a start before today stays, and no night before today is added.
  if (v_old.starts_on < v_today or p_starts_on < v_today) and p_starts_on <> v_old.starts_on then
    raise exception 'absence_in_past' using errcode = '22023';
  end if;
  if p_ends_on < v_today and p_ends_on <> v_old.ends_on then
    raise exception 'absence_in_past' using errcode = '22023';
  end if;
  -- The nights given back (before the new start, from the new end) must not be let.
  select array(select unnest(private.let_nights(v_old.place_id, v_old.starts_on, least(p_starts_on, v_old.ends_on)))
               union select unnest(private.let_nights(v_old.place_id, greatest(p_ends_on, v_old.starts_on), v_old.ends_on))
               order by 1)
    into v_let;
  if cardinality(v_let) > 0 then
    raise exception 'absence_nights_let' using errcode = '23P01', detail = array_to_string(v_let, ','),
      hint = 'These nights are let to guests; the absence must keep them.';
  end if;
  begin
    update public.holder_absences a set starts_on = p_starts_on, ends_on = p_ends_on
     where a.id = v_old.id
    returning * into v_row;
  exception when exclusion_violation then
    raise exception 'absence_overlaps' using errcode = '23P01';
  end;
  return v_row;
end
$$;
comment on function private.save_holder_absence(uuid, date, date, uuid) is 'The rule behind public.save_holder_absence (security definer, not exposed by the API).';
revoke execute on function private.save_holder_absence(uuid, date, date, uuid) from public;
grant execute on function private.save_holder_absence(uuid, date, date, uuid) to authenticated, service_role;

create function public.save_holder_absence(p_holder_id uuid, p_starts_on date, p_ends_on date, p_absence_id uuid DEFAULT NULL::uuid)
returns public.holder_absences
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.save_holder_absence(p_holder_id, p_starts_on, p_ends_on, p_absence_id)
$$;
comment on function public.save_holder_absence(uuid, date, date, uuid) is 'The holder (or staff for them) enters or changes an absence [starts_on, ends_on) within the holding: holder_not_found, invalid_period, absence_outside_contract, absence_in_past, absence_overlaps, absence_nights_let (23P01, the let nights in DETAIL).';
revoke execute on function public.save_holder_absence(uuid, date, date, uuid) from anon, public;
grant execute on function public.save_holder_absence(uuid, date, date, uuid) to authenticated;

-- Delete an absence (the holder comes back for all of it): refused if a night from today on is let;
-- an absence already under way is instead ended today (its past nights stay).
create function private.delete_holder_absence(p_absence_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_old public.holder_absences;
  v_today date := private.berlin_date(private.now());
  v_let date[];
begin
  select * into v_old from public.holder_absences a where a.id = p_absence_id;
  if not found then
    raise exception 'absence_not_found' using errcode = 'PT404';
  end if;
  perform private.lock_holder_for_absence(v_old.holder_id);
  select * into v_old from public.holder_absences a where a.id = p_absence_id for update;
  if not found then
    raise exception 'absence_not_found' using errcode = 'PT404';
  end if;
  v_let := private.let_nights(v_old.place_id, greatest(v_old.starts_on, v_today), v_old.ends_on);
  if cardinality(v_let) > 0 then
    raise exception 'absence_nights_let' using errcode = '23P01', detail = array_to_string(v_let, ','),
      hint = 'These nights are let to guests; the absence must keep them.';
  end if;
  if v_old.starts_on < v_today then
    if v_old.ends_on > v_today then
      update public.holder_absences a set ends_on = v_today where a.id = v_old.id;
    end if;
  else
    delete from public.holder_absences a where a.id = v_old.id;
  end if;
end
$$;
comment on function private.delete_holder_absence(uuid) is 'The rule behind public.delete_holder_absence (security definer, not exposed by the API).';
revoke execute on function private.delete_holder_absence(uuid) from public;
grant execute on function private.delete_holder_absence(uuid) to authenticated, service_role;

create function public.delete_holder_absence(p_absence_id uuid)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.delete_holder_absence(p_absence_id)
$$;
comment on function public.delete_holder_absence(uuid) is 'The holder (or staff) withdraws an absence; one under way ends today: absence_not_found, absence_nights_let (23P01, the let nights in DETAIL).';
revoke execute on function public.delete_holder_absence(uuid) from anon, public;
grant execute on function public.delete_holder_absence(uuid) to authenticated;

-- A holding's absences with the nights already let (the holder may not read the guests' stays).
create function private.holder_absence_list(p_holder_id uuid)
returns table (id uuid, starts_on date, ends_on date, let_nights date[])
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.long_term_holders h
                 where h.id = p_holder_id and (h.user_id = (select auth.uid()) or private.is_staff())) then
    raise exception 'holder_not_found' using errcode = 'PT404';
  end if;
  return query
    select a.id, a.starts_on, a.ends_on, private.let_nights(a.place_id, a.starts_on, a.ends_on)
    from public.holder_absences a where a.holder_id = p_holder_id
    order by a.starts_on;
end
$$;
comment on function private.holder_absence_list(uuid) is 'The rule behind public.holder_absence_list (security definer, not exposed by the API).';
revoke execute on function private.holder_absence_list(uuid) from public;
grant execute on function private.holder_absence_list(uuid) to authenticated, service_role;

create function public.holder_absence_list(p_holder_id uuid)
returns TABLE(id uuid, starts_on date, ends_on date, let_nights date[])
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.holder_absence_list(p_holder_id)
$$;
comment on function public.holder_absence_list(uuid) is 'A holding''s absences, each with the nights already let to guests (holder or staff; else holder_not_found).';
revoke execute on function public.holder_absence_list(uuid) from anon, public;
grant execute on function public.holder_absence_list(uuid) to authenticated;

-- Which berths a stay would take from a holder's absence (the search's mark "let from the
-- holder's absence"): held on a night of [p_arrival, p_departure) and covered by an absence.
-- Says nothing about who holds the berth.
create function private.absence_let_places(p_arrival date, p_departure date)
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select distinct h.place_id
  from public.long_term_holders h
  join public.holder_absences a on a.holder_id = h.id
  where h.starts_on <= greatest(p_arrival, p_departure - 1)
    and (h.ends_on is null or h.ends_on >= p_arrival)
    and a.starts_on <= p_arrival and a.ends_on > greatest(p_arrival, p_departure - 1)
$$;
comment on function private.absence_let_places(date, date) is 'The rule behind public.absence_let_places (security definer, not exposed by the API).';
revoke execute on function private.absence_let_places(date, date) from public;
grant execute on function private.absence_let_places(date, date) to anon, authenticated, service_role;

create function public.absence_let_places(p_arrival date, p_departure date)
returns setof uuid
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.absence_let_places(p_arrival, p_departure)
$$;
comment on function public.absence_let_places(date, date) is 'Berths whose long-term holder is away for the whole stay [p_arrival, p_departure) (the search marks them "let from the holder''s absence"), without the holder.';
revoke execute on function public.absence_let_places(date, date) from public;
grant execute on function public.absence_let_places(date, date) to anon, authenticated;
