-- The harbour status from the Rhine gauge DÜSSELDORF (issue 43 item 1,
-- docs/adr/0053-rhine-gauge-and-harbour-status.md): the fetch-gauge edge function records the
-- PEGELONLINE level and forecast (service role only); the status is open, restricted or closed by
-- the configurable thresholds, now and for each forecast day; staff may override it with a
-- reason and end the override. Everyone reads the status through harbour_status().

-- ---------------------------------------------------------------------------------------------
-- Thresholds
-- ---------------------------------------------------------------------------------------------

-- Defaults: the high-water marks of the Düsseldorf gauge in the Rheinschifffahrtspolizeiverordnung
-- (RheinSchPV § 10.01 No. 3): mark I 7.10 m (shipping restricted: keep to the middle third of the
-- river, at most 20 km/h), mark II 8.80 m (all shipping but ferries stopped).
create table public.gauge_settings (
  id smallint primary key default 1 check (id = 1),
  restricted_from_cm integer not null default 710,
  closed_from_cm integer not null default 880,
  updated_at timestamptz not null default now(),
  constraint gauge_settings_restricted check (restricted_from_cm between 100 and 1500),
  constraint gauge_settings_closed check (closed_from_cm between 100 and 1500),
  constraint gauge_settings_order check (restricted_from_cm < closed_from_cm)
);

alter table public.gauge_settings enable row level security;

comment on table public.gauge_settings is 'The one row of gauge thresholds (cm at the Düsseldorf gauge): restricted from restricted_from_cm (default mark I, 710), closed from closed_from_cm (default mark II, 880; RheinSchPV § 10.01); admins change them through set_gauge_thresholds().';

create policy "gauge_settings: everyone reads" on public.gauge_settings
  for select to anon, authenticated
  using (true);

revoke insert, update, delete, truncate on public.gauge_settings from anon, authenticated;

insert into public.gauge_settings (id) values (1);

create trigger gauge_settings_touch before update on public.gauge_settings
  for each row execute function private.touch_updated_at();

-- Audited (38_audit.sql): who moved a threshold, from what to what.
create trigger gauge_settings_audit after insert or update or delete on public.gauge_settings
  for each row execute function private.audit_row('id');

create function private.set_gauge_thresholds(p_restricted_from_cm integer, p_closed_from_cm integer)
returns public.gauge_settings
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.gauge_settings;
begin
  perform private.require_admin();
  if p_restricted_from_cm is null or p_closed_from_cm is null
     or p_restricted_from_cm not between 100 and 1500 or p_closed_from_cm not between 100 and 1500
     or p_restricted_from_cm >= p_closed_from_cm then
    raise exception 'gauge_thresholds_invalid' using errcode = '22023',
      hint = 'Both thresholds between 100 and 1500 cm, restricted below closed.';
  end if;
  update public.gauge_settings
     set restricted_from_cm = p_restricted_from_cm, closed_from_cm = p_closed_from_cm
   where id = 1
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.set_gauge_thresholds(integer, integer) is 'Admins: the levels (cm at the Düsseldorf gauge) from which the harbour is restricted and closed; others get 42501 admin_only, bad values 22023 gauge_thresholds_invalid.';
revoke execute on function private.set_gauge_thresholds(integer, integer) from public;
grant execute on function private.set_gauge_thresholds(integer, integer) to authenticated, service_role;

create function public.set_gauge_thresholds(p_restricted_from_cm integer, p_closed_from_cm integer)
returns public.gauge_settings
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_gauge_thresholds(p_restricted_from_cm, p_closed_from_cm)
$$;
comment on function public.set_gauge_thresholds(integer, integer) is 'Admins: the levels (cm at the Düsseldorf gauge) from which the harbour is restricted and closed (the rule: private.set_gauge_thresholds).';
revoke execute on function public.set_gauge_thresholds(integer, integer) from anon, public;
grant execute on function public.set_gauge_thresholds(integer, integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Readings and forecasts (written by fetch-gauge only)
-- ---------------------------------------------------------------------------------------------

create table public.gauge_readings (
  measured_at timestamptz primary key,
  level_cm integer not null constraint gauge_readings_level check (level_cm between -100 and 2000),
  -- PEGELONLINE's trend: -1 falling, 0 steady, 1 rising (null: not given).
  trend smallint constraint gauge_readings_trend check (trend between -1 and 1),
  recorded_at timestamptz not null default now()
);

alter table public.gauge_readings enable row level security;

comment on table public.gauge_readings is 'Levels of the Rhine at the Düsseldorf gauge (cm) with the time PEGELONLINE measured them; recorded by fetch-gauge (record_gauge_reading), read by everyone.';

create policy "gauge_readings: everyone reads" on public.gauge_readings
  for select to anon, authenticated
  using (true);

revoke insert, update, delete, truncate on public.gauge_readings from anon, authenticated;

create table public.gauge_forecasts (
  -- When the forecast was computed (PEGELONLINE's `initialized`), and the time it is for.
  initialized_at timestamptz not null,
  forecast_for timestamptz not null,
  level_cm integer not null constraint gauge_forecasts_level check (level_cm between -100 and 2000),
  -- PEGELONLINE's `type`: forecast (the first days) or estimate (further ahead, less certain).
  kind text not null constraint gauge_forecasts_kind check (kind in ('forecast', 'estimate')),
  recorded_at timestamptz not null default now(),
  primary key (initialized_at, forecast_for)
);

alter table public.gauge_forecasts enable row level security;

comment on table public.gauge_forecasts is 'The forecast levels (cm) of the Düsseldorf gauge (PEGELONLINE time series WV) per forecast run; the newest run decides the forecast days.';

create policy "gauge_forecasts: everyone reads" on public.gauge_forecasts
  for select to anon, authenticated
  using (true);

revoke insert, update, delete, truncate on public.gauge_forecasts from anon, authenticated;

-- One call per fetch: the current measurement and (when the service gave one) the forecast run
-- as [{initialized, timestamp, value, type}] in PEGELONLINE's shape. Repeating a call changes
-- nothing (same measurement time, same run); a corrected value for a time replaces the old one. Runs older than 30 days are dropped. Only the
-- service role may execute it (the grant is the check): no person writes a level.
create function public.record_gauge_reading(p_measured_at timestamptz, p_level_cm integer, p_trend smallint,
                                            p_forecast jsonb default null)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_new boolean;
begin
  if p_measured_at is null or p_level_cm is null or p_level_cm not between -100 and 2000
     or (p_trend is not null and p_trend not between -1 and 1)
     or p_measured_at > private.now() + interval '1 hour'
     or (p_forecast is not null and jsonb_typeof(p_forecast) <> 'array') then
    raise exception 'gauge_reading_invalid' using errcode = '22023';
  end if;
  -- PEGELONLINE's W series is raw data: a value it corrects for the same time replaces ours.
  insert into public.gauge_readings as r (measured_at, level_cm, trend, recorded_at)
  values (p_measured_at, p_level_cm, p_trend, private.now())
  on conflict (measured_at) do update set level_cm = excluded.level_cm, trend = excluded.trend, recorded_at = excluded.recorded_at
    where (r.level_cm, r.trend) is distinct from (excluded.level_cm, excluded.trend);
  v_new := found;
  if p_forecast is not null then
    insert into public.gauge_forecasts (initialized_at, forecast_for, level_cm, kind, recorded_at)
    select (f ->> 'initialized')::timestamptz, (f ->> 'timestamp')::timestamptz, round((f ->> 'value')::numeric)::integer,
           coalesce(f ->> 'type', 'forecast'), private.now()
      from jsonb_array_elements(p_forecast) f
     where f ? 'initialized' and f ? 'timestamp' and jsonb_typeof(f -> 'value') = 'number'
    on conflict (initialized_at, forecast_for) do update set level_cm = excluded.level_cm, kind = excluded.kind;
    delete from public.gauge_forecasts where initialized_at < private.now() - interval '30 days';
  end if;
  return v_new;
end
$$;
comment on function public.record_gauge_reading(timestamptz, integer, smallint, jsonb) is 'Service role only (fetch-gauge): records a measured level (cm) with its time and, when given, a forecast run [{initialized, timestamp, value, type}]; true when the measurement was new or corrected.';
revoke execute on function public.record_gauge_reading(timestamptz, integer, smallint, jsonb) from anon, authenticated, public;
grant execute on function public.record_gauge_reading(timestamptz, integer, smallint, jsonb) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Staff override
-- ---------------------------------------------------------------------------------------------

create table public.harbour_status_overrides (
  id uuid primary key default gen_random_uuid(),
  status text not null constraint harbour_status_overrides_status check (status in ('open', 'restricted', 'closed')),
  reason text not null constraint harbour_status_overrides_reason check (char_length(btrim(reason)) between 1 and 500),
  set_at timestamptz not null,
  set_by uuid,
  ended_at timestamptz,
  ended_by uuid,
  constraint harbour_status_overrides_end check (ended_at is null or ended_at >= set_at)
);

alter table public.harbour_status_overrides enable row level security;

comment on table public.harbour_status_overrides is 'Staff overrides of the gauge status (with the reason); one at a time is in force, until ended (ended_at). Written only by set_harbour_status_override and end_harbour_status_override.';

-- At most one override in force.
create unique index harbour_status_overrides_one_active on public.harbour_status_overrides ((true)) where ended_at is null;

create policy "harbour_status_overrides: staff read" on public.harbour_status_overrides
  for select to authenticated
  using ((select private.is_staff()));

revoke insert, update, delete, truncate on public.harbour_status_overrides from anon, authenticated;

-- Audited (38_audit.sql): who set or ended an override, with status and reason.
create trigger harbour_status_overrides_audit after insert or update or delete on public.harbour_status_overrides
  for each row execute function private.audit_row('id');

create function private.set_harbour_status_override(p_status text, p_reason text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_status is null or p_status not in ('open', 'restricted', 'closed') then
    raise exception 'harbour_status_invalid' using errcode = '22023';
  end if;
  if p_reason is null or char_length(btrim(p_reason)) not between 1 and 500 then
    raise exception 'invalid_reason' using errcode = '22023', hint = 'A reason of 1 to 500 characters.';
  end if;
  -- A new override replaces the one in force.
  update public.harbour_status_overrides
     set ended_at = private.now(), ended_by = (select auth.uid())
   where ended_at is null;
  insert into public.harbour_status_overrides (status, reason, set_at, set_by)
  values (p_status, btrim(p_reason), private.now(), (select auth.uid()))
  returning id into v_id;
  return v_id;
end
$$;
comment on function private.set_harbour_status_override(text, text) is 'Staff: the harbour status is p_status (open, restricted, closed) whatever the gauge says, now and on every forecast day, until ended; replaces an override in force. 42501 staff_only, 22023 invalid_reason.';
revoke execute on function private.set_harbour_status_override(text, text) from public;
grant execute on function private.set_harbour_status_override(text, text) to authenticated, service_role;

create function public.set_harbour_status_override(p_status text, p_reason text)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_harbour_status_override(p_status, p_reason)
$$;
comment on function public.set_harbour_status_override(text, text) is 'Staff: override the gauge status with a reason until ended (the rule: private.set_harbour_status_override).';
revoke execute on function public.set_harbour_status_override(text, text) from anon, public;
grant execute on function public.set_harbour_status_override(text, text) to authenticated, service_role;

create function private.end_harbour_status_override()
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  update public.harbour_status_overrides
     set ended_at = private.now(), ended_by = (select auth.uid())
   where ended_at is null;
  return found;
end
$$;
comment on function private.end_harbour_status_override() is 'Staff: ends the override in force (the gauge decides again); false when none was in force. 42501 staff_only.';
revoke execute on function private.end_harbour_status_override() from public;
grant execute on function private.end_harbour_status_override() to authenticated, service_role;

create function public.end_harbour_status_override()
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.end_harbour_status_override()
$$;
comment on function public.end_harbour_status_override() is 'Staff: end the status override in force (the rule: private.end_harbour_status_override).';
revoke execute on function public.end_harbour_status_override() from anon, public;
grant execute on function public.end_harbour_status_override() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The status
-- ---------------------------------------------------------------------------------------------

create function private.status_for_level(p_level_cm integer)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when p_level_cm is null then null
    when p_level_cm >= s.closed_from_cm then 'closed'
    when p_level_cm >= s.restricted_from_cm then 'restricted'
    else 'open'
  end
  from public.gauge_settings s
  where s.id = 1
$$;
comment on function private.status_for_level(integer) is 'open, restricted (from restricted_from_cm) or closed (from closed_from_cm) for a level in cm; null for no level.';
revoke execute on function private.status_for_level(integer) from public;

-- The first row is now (kind 'now': the last known level with its measurement time, however old;
-- no row of readings yet: status null). Then one row per Berlin day the newest forecast run
-- covers from now on (kind 'forecast': the day's highest forecast level and when it is expected).
-- An override in force sets every row's status and names its reason.
create function private.harbour_status()
returns table (kind text, day date, status text, level_cm integer, at timestamptz,
               forecast_initialized_at timestamptz, override_status text, override_reason text,
               restricted_from_cm integer, closed_from_cm integer)
language sql
stable
security definer
set search_path = ''
as $$
  with now_ as (select private.now() as t),
  last_reading as (
    select r.level_cm, r.measured_at from public.gauge_readings r order by r.measured_at desc limit 1
  ),
  run as (
    select max(f.initialized_at) as initialized_at from public.gauge_forecasts f
  ),
  points as (
    select private.berlin_date(f.forecast_for) as day, f.forecast_for, f.level_cm
      from public.gauge_forecasts f, run, now_
     where f.initialized_at = run.initialized_at and f.forecast_for >= now_.t
  ),
  days as (
    select distinct on (p.day) p.day, p.level_cm, p.forecast_for
      from points p
     order by p.day, p.level_cm desc, p.forecast_for
  ),
  override as (
    select o.status, o.reason from public.harbour_status_overrides o where o.ended_at is null
  ),
  rows_ as (
    select 'now'::text as kind, private.berlin_date(now_.t) as day, l.level_cm, l.measured_at as at,
           null::timestamptz as initialized_at, 0 as ord
      from now_ left join last_reading l on true
    union all
    select 'forecast', d.day, d.level_cm, d.forecast_for, run.initialized_at, 1
      from days d, run
  )
  select r.kind, r.day, coalesce(o.status, private.status_for_level(r.level_cm)), r.level_cm, r.at, r.initialized_at,
         o.status, o.reason, s.restricted_from_cm, s.closed_from_cm
    from rows_ r
    left join override o on true
    cross join public.gauge_settings s
   where s.id = 1
   order by r.ord, r.day
$$;
comment on function private.harbour_status() is 'The harbour status now (last known level and its time) and per forecast day (the day''s highest forecast level of the newest run), by the thresholds or the staff override in force.';
revoke execute on function private.harbour_status() from public;
grant execute on function private.harbour_status() to anon, authenticated, service_role;

create function public.harbour_status()
returns table (kind text, day date, status text, level_cm integer, at timestamptz,
               forecast_initialized_at timestamptz, override_status text, override_reason text,
               restricted_from_cm integer, closed_from_cm integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.harbour_status()
$$;
comment on function public.harbour_status() is 'Everyone: the harbour status (open, restricted, closed) now and for each forecast day, with level, time, thresholds and the staff override''s reason.';
revoke execute on function public.harbour_status() from public;
grant execute on function public.harbour_status() to anon, authenticated, service_role;

-- Asks fetch-gauge (through pg_net) to record the current level and forecast; scheduled every
-- 15 minutes (99_cron.sql), PEGELONLINE's measuring interval.
create function private.request_gauge_fetch()
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  -- private.request_edge_function is declared later (50_mail_engine.sql): plpgsql resolves it at call time.
  return private.request_edge_function('fetch-gauge', 30000);
end
$$;
comment on function private.request_gauge_fetch() is 'Asks fetch-gauge (through pg_net) to record the Düsseldorf gauge''s level and forecast; a no-op where pg_net or the project URL is missing.';
revoke execute on function private.request_gauge_fetch() from public;

-- ---------------------------------------------------------------------------------------------
-- What follows for bookings (issue 43 item 2)
-- ---------------------------------------------------------------------------------------------

-- The status of each day of a stay that harbour_status() knows: the days the stay's nights fall
-- on (a day stay: its day), each with the worst status of its rows (today: the level now and the
-- day's forecast). Days beyond the forecast are not listed: nothing is known of them yet.
create function private.stay_harbour_status(p_first date, p_last date)
returns table (day date, status text, level_cm integer, override_reason text)
language sql
stable
security definer
set search_path = ''
as $$
  select distinct on (h.day) h.day, h.status, h.level_cm, h.override_reason
    from private.harbour_status() h
   where h.day between p_first and p_last and h.status is not null
   order by h.day, case h.status when 'closed' then 0 when 'restricted' then 1 else 2 end, h.level_cm desc nulls last
$$;
comment on function private.stay_harbour_status(date, date) is 'Per Berlin day from p_first to p_last that the harbour status knows (now, forecast days, override): the worst status of the day, its level and the override''s reason.';
revoke execute on function private.stay_harbour_status(date, date) from public;
grant execute on function private.stay_harbour_status(date, date) to anon, authenticated, service_role;

-- The first day of a stay on which the harbour is closed (null: none known).
create function private.harbour_closed_day(p_first date, p_last date)
returns date
language sql
stable
security definer
set search_path = ''
as $$
  select min(s.day) from private.stay_harbour_status(p_first, p_last) s where s.status = 'closed'
$$;
comment on function private.harbour_closed_day(date, date) is 'The first day from p_first to p_last on which the harbour status is closed (forecast or now, override included); null when none is.';
revoke execute on function private.harbour_closed_day(date, date) from public;

-- The guests' booking paths refuse a stay into a closure (book_berth, search_available_places);
-- staff may still book one (a boat in the harbour that cannot leave the closed river): ADR 0053.
create function private.check_harbour_open(p_first date, p_last date)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_day date := private.harbour_closed_day(p_first, p_last);
begin
  if v_day is not null then
    raise exception 'harbour_closed' using errcode = '22023', hint = to_char(v_day, 'YYYY-MM-DD'),
      detail = 'The harbour is closed on ' || to_char(v_day, 'YYYY-MM-DD') || ' (the Rhine at or above the closing mark, or closed by the harbour).';
  end if;
end
$$;
comment on function private.check_harbour_open(date, date) is 'Raises 22023 harbour_closed (the first closed day in HINT) when the harbour status is closed on a day from p_first to p_last.';
revoke execute on function private.check_harbour_open(date, date) from public;

create function public.stay_harbour_status(p_arrival date, p_departure date default null)
returns table (day date, status text, level_cm integer, override_reason text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.stay_harbour_status(p_arrival, case when p_departure > p_arrival then p_departure - 1 else p_arrival end)
$$;
comment on function public.stay_harbour_status(date, date) is 'Everyone: the harbour status of each day of a stay (the nights from p_arrival to the night before p_departure; no departure: the day) that the gauge forecast or the override says something about; the search and booking flow show it beside the berths.';
revoke execute on function public.stay_harbour_status(date, date) from public;
grant execute on function public.stay_harbour_status(date, date) to anon, authenticated, service_role;
