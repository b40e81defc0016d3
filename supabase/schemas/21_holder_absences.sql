-- Holders' absences (issue 43 deliverable 4, docs/adr/0054-holder-absences.md): the nights a
-- long-term holder is away, in which the berth is guest stock. Only the table lives here, before
-- 32_prices_availability.sql, whose SQL functions read it (a SQL function's body is checked
-- when it is created); the rules, the guard against a race and the API are in
-- 67_holder_absences.sql.

create table public.holder_absences (
  id uuid primary key default gen_random_uuid(),
  holder_id uuid not null references public.long_term_holders (id) on delete cascade,
  place_id uuid not null references public.places (id) on delete cascade,
  -- The first night away and the day back (the first night held again), as a stay's arrival
  -- and departure: the nights are [starts_on, ends_on).
  starts_on date not null,
  ends_on date not null,
  created_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (ends_on > starts_on),
  -- A holder's absences never overlap, so "one absence covers the stay" is the only test.
  constraint holder_absences_no_overlap exclude using gist (
    holder_id with =,
    daterange(starts_on, ends_on) with &&
  )
);

alter table public.holder_absences enable row level security;

comment on table public.holder_absences is 'The nights [starts_on, ends_on) a long-term holder is away: the berth is offered to guests then; changed only through save_holder_absence and delete_holder_absence.';

create index holder_absences_place_idx on public.holder_absences (place_id, starts_on);

create policy "holder_absences: holder reads own, staff all" on public.holder_absences
  for select to authenticated
  using (
    (select private.is_staff())
    or exists (select 1 from public.long_term_holders h where h.id = holder_id and h.user_id = (select auth.uid()))
  );

revoke insert, update, delete, truncate on public.holder_absences from anon, authenticated;

create trigger holder_absences_touch before update on public.holder_absences
  for each row execute function private.touch_updated_at();
