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
  perform private.throttle_form('long_term_application');

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
         else 'Ihre Bewerbung um einen Langzeitliegeplatz im Hafen Düsseldorf' end,
    private.mail_text(v_locale, concat_ws(' ', v_row.first_name, v_row.last_name), concat_ws(E'\n',
      case when v_en then 'we have received your application for a long-term berth'
           else 'wir haben Ihre Bewerbung um einen Langzeitliegeplatz erhalten' end
        || coalesce(case when v_en then ' (berth ' else ' (Liegeplatz ' end || v_place || ')', '') || '.',
      case when v_en then format('Boat: %s (%s m × %s m)', v_boat_name, v_length, v_width)
           else format('Boot: %s (%s m × %s m)', v_boat_name, replace(v_length::text, '.', ','), replace(v_width::text, '.', ',')) end,
      case when v_en then format('Your place on the waiting list: %s', v_position)
           else format('Ihr Platz auf der Warteliste: %s', v_position) end,
      case when v_en then 'Application number: ' else 'Bewerbungsnummer: ' end || v_row.id,
      '',
      case when v_en then 'We will get back to you as soon as a fitting berth is free.'
           else 'Wir melden uns, sobald ein passender Liegeplatz frei wird.' end)),
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
  perform private.require_admin();
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
  perform private.require_admin();
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
         else 'Ihre Bewerbung um einen Langzeitliegeplatz im Hafen Düsseldorf' end,
    private.mail_text(v_row.locale, concat_ws(' ', v_row.first_name, v_row.last_name), concat_ws(E'\n',
      case when p_status = 'accepted'
           then case when v_en then 'good news: we can offer you a long-term berth.' else 'gute Nachricht: Wir können Ihnen einen Langzeitliegeplatz anbieten.' end
           else case when v_en then 'unfortunately we cannot offer you a long-term berth at present.' else 'leider können wir Ihnen derzeit keinen Langzeitliegeplatz anbieten.' end end,
      case when v_row.answer is not null then E'\n' || v_row.answer end)),
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
  v_draught numeric;
begin
  perform private.require_admin();
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
    v_draught := nullif(p_holder ->> 'boat_draught', '')::numeric;
  exception when others then
    raise exception 'invalid_holder' using errcode = '22023';
  end;
  perform private.check_draught(v_draught);
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
      and not coalesce(o.status in ('unverified', 'confirmed') and o.expires_at <= private.now(), false)
  ) then
    raise exception 'berth_has_bookings' using errcode = '23P01', hint = 'Move or cancel the bookings in that period first.';
  end if;

  insert into public.long_term_holders (place_id, user_id, email, first_name, last_name, starts_on, ends_on,
                                        boat_name, boat_tag, boat_length, boat_width, boat_draught, note)
  select p_place_id, v_user, v_email,
         coalesce(nullif(btrim(p_holder ->> 'first_name'), ''), pr.first_name),
         coalesce(nullif(btrim(p_holder ->> 'last_name'), ''), pr.last_name),
         p_starts_on, p_ends_on,
         coalesce(nullif(btrim(p_holder ->> 'boat_name'), ''), pr.boat_name),
         coalesce(nullif(btrim(p_holder ->> 'boat_tag'), ''), pr.boat_tag),
         coalesce(v_length, pr.boat_length), coalesce(v_width, pr.boat_width),
         coalesce(v_draught, pr.boat_draught),
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
  perform private.require_admin();
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

-- The thread of an application (message_replies, 51_contact_messages.sql): its column references
-- the applications, which are created after the replies' table.
alter table public.message_replies
  add constraint message_replies_application_id_fkey foreign key (application_id)
  references public.long_term_applications (id) on delete cascade;

create index message_replies_application_idx on public.message_replies (application_id, created_at);

-- Admins answer an application without deciding it (a question, an appointment, where it stands
-- on the list): the answer goes to the applicant by e-mail in the applicant's language, Reply-To
-- the harbour, quoting the application, and stays on it as its thread (issue 22, item 5).
create function private.reply_to_application(p_application_id uuid, p_body text)
returns public.message_replies
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_application public.long_term_applications;
  v_en boolean;
begin
  perform private.require_admin();
  select * into v_application from public.long_term_applications a where a.id = p_application_id for update;
  if not found then
    raise exception 'application_not_found' using errcode = 'PT404';
  end if;
  v_en := v_application.locale = 'en';
  return private.send_reply(
    null, p_application_id, v_application.email, v_application.locale,
    concat_ws(' ', v_application.first_name, v_application.last_name),
    case when v_en then 'Re: Your application for a long-term berth at Hafen Düsseldorf'
         else 'Re: Ihre Bewerbung um einen Langzeitliegeplatz im Hafen Düsseldorf' end,
    p_body,
    case when v_en then 'Your application of ' else 'Ihre Bewerbung vom ' end
      || private.format_berlin(v_application.created_at, v_application.locale)
      || case when v_en then ' (boat ' else ' (Boot ' end || coalesce(v_application.boat ->> 'name', '–') || ')'
      || case when v_application.message is not null then ':' else '.' end,
    v_application.message);
end
$$;
comment on function private.reply_to_application(uuid, text) is 'The rule behind public.reply_to_application (security definer, not exposed by the API).';
revoke execute on function private.reply_to_application(uuid, text) from public;
grant execute on function private.reply_to_application(uuid, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/reply_to_application): runs as the caller, the rule above decides.
create function public.reply_to_application(p_application_id uuid, p_body text)
returns public.message_replies
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.reply_to_application(p_application_id, p_body)
$$;
comment on function public.reply_to_application(uuid, text) is 'Admins answer a long-term application without deciding it: e-mailed to the applicant (Reply-To: the harbour) and kept on the application.';
revoke execute on function public.reply_to_application(uuid, text) from anon, public;
