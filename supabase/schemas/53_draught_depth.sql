-- Draught against depth (issue 43 item 3, docs/adr/0053-rhine-gauge-and-harbour-status.md,
-- "Draught against depth"): a berth's water depth was measured at some level of the Düsseldorf
-- gauge and moves with it; the search leaves out a berth whose depth at the stay's lowest
-- forecast level (else the last known level) leaves less than the safety margin under the boat's
-- draught, and says how many it left out; bookings into such a berth are refused; guests and
-- holders already in a berth that the forecast makes too shallow get one e-mail per episode.

-- ---------------------------------------------------------------------------------------------
-- Draught and depth
-- ---------------------------------------------------------------------------------------------

-- The boat's draught (m) in the profile and the long-term holding, like length and width;
-- optional (rows from before it was asked); a booking keeps it in orders.boat ->> 'draught'.
alter table public.profiles add column boat_draught numeric(3, 2)
  constraint profiles_boat_draught check (boat_draught between 0.1 and 5.0);
alter table public.long_term_holders add column boat_draught numeric(3, 2)
  constraint long_term_holders_boat_draught check (boat_draught between 0.1 and 5.0);

-- The water depth at the berth (cm) when the Düsseldorf gauge read depth_reference_cm (cm); both
-- or neither. Unknown depth: the berth is offered whatever the level.
alter table public.places add column depth_cm integer
  constraint places_depth check (depth_cm between 0 and 2000);
alter table public.places add column depth_reference_cm integer
  constraint places_depth_reference_level check (depth_reference_cm between -100 and 2000);
alter table public.places add constraint places_depth_reference check ((depth_cm is null) = (depth_reference_cm is null));

comment on column public.places.depth_cm is 'Water depth at the berth (cm) measured when the Düsseldorf gauge read depth_reference_cm; null: unknown (never hides the berth).';
comment on column public.places.depth_reference_cm is 'The Düsseldorf gauge level (cm) at which depth_cm was measured.';

-- ---------------------------------------------------------------------------------------------
-- The safety margin
-- ---------------------------------------------------------------------------------------------

create table public.depth_settings (
  id smallint primary key default 1 check (id = 1),
  margin_cm integer not null default 30,
  updated_at timestamptz not null default now(),
  constraint depth_settings_margin check (margin_cm between 0 and 200)
);

alter table public.depth_settings enable row level security;

comment on table public.depth_settings is 'The one row of the under-keel safety margin (cm, default 30): water left under a boat''s keel at the lowest level of its stay; admins change it.';

create policy "depth_settings: everyone reads" on public.depth_settings
  for select to anon, authenticated
  using (true);

create policy "depth_settings: admin updates" on public.depth_settings
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

revoke insert, update, delete, truncate on public.depth_settings from anon;
revoke insert, delete, truncate on public.depth_settings from authenticated;

insert into public.depth_settings (id) values (1);

create trigger depth_settings_touch before update on public.depth_settings
  for each row execute function private.touch_updated_at();

-- Audited (38_audit.sql): who moved the margin, from what to what.
create trigger depth_settings_audit after insert or update or delete on public.depth_settings
  for each row execute function private.audit_row('id');

-- ---------------------------------------------------------------------------------------------
-- The formula
-- ---------------------------------------------------------------------------------------------

create function private.check_draught(p_draught numeric)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_draught is not null and (p_draught < 0.1 or p_draught > 5.0) then
    raise exception 'invalid_boat_draught' using errcode = '22023', hint = 'Boat draught 0.1-5.0 m.';
  end if;
end
$$;
comment on function private.check_draught(numeric) is 'Validates a boat draught (0.1-5.0 m; null: not given).';
revoke execute on function private.check_draught(numeric) from public;

-- The gauge value is not the water depth: it is the level above the gauge datum. The depth at a
-- berth moves one to one with it, so a depth measured at one level gives the depth at another.
create function private.depth_clearance(p_depth_cm integer, p_reference_cm integer, p_level_cm integer, p_draught numeric)
returns integer
language sql
immutable
set search_path = ''
as $$
  select p_depth_cm + (p_level_cm - p_reference_cm) - round(p_draught * 100)::integer
$$;
comment on function private.depth_clearance(integer, integer, integer, numeric) is 'Water under the keel (cm): the berth''s depth at the level (depth at reference + level - reference level) minus the draught (m); null when any is unknown.';
revoke execute on function private.depth_clearance(integer, integer, integer, numeric) from public;

-- The level a stay has to reckon with: the lowest forecast level (newest run) on the stay's
-- Berlin days; where the run does not reach the stay, the last known level. Null: no level yet.
create function private.stay_gauge_level(p_starts_at timestamptz, p_ends_at timestamptz)
returns table (level_cm integer, source text)
language sql
stable
security definer
set search_path = ''
as $$
  with run as (
    select max(f.initialized_at) as initialized_at from public.gauge_forecasts f
  ),
  forecast as (
    select min(f.level_cm) as level_cm
      from public.gauge_forecasts f, run
     where f.initialized_at = run.initialized_at
       and private.berlin_date(f.forecast_for) between private.berlin_date(p_starts_at) and private.berlin_date(p_ends_at)
  ),
  last_reading as (
    select r.level_cm from public.gauge_readings r order by r.measured_at desc limit 1
  )
  select coalesce(fc.level_cm, lr.level_cm),
         case when fc.level_cm is not null then 'forecast' when lr.level_cm is not null then 'now' end
    from forecast fc left join last_reading lr on true
$$;
comment on function private.stay_gauge_level(timestamptz, timestamptz) is 'The gauge level (cm) a stay reckons with: the lowest forecast level of the newest run on its Berlin days (source forecast), else the last known level (source now); null when no level is known.';
revoke execute on function private.stay_gauge_level(timestamptz, timestamptz) from public;

-- False only when the depth, the level and the draught are known and leave less than the margin:
-- an unknown depth or draught never hides a berth.
create function private.too_shallow(p_place public.places, p_level_cm integer, p_draught numeric, p_margin_cm integer)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(private.depth_clearance(p_place.depth_cm, p_place.depth_reference_cm, p_level_cm, p_draught) < p_margin_cm, false)
$$;
comment on function private.too_shallow(public.places, integer, numeric, integer) is 'The berth leaves less than p_margin_cm under a keel of p_draught m at p_level_cm; false when depth, level or draught is unknown.';
revoke execute on function private.too_shallow(public.places, integer, numeric, integer) from public;

-- ---------------------------------------------------------------------------------------------
-- Why the search left berths out
-- ---------------------------------------------------------------------------------------------

create function private.search_depth_notice(
  p_kind public.order_kind,
  p_arrival date,
  p_boat_length numeric,
  p_boat_width numeric,
  p_boat_draught numeric,
  p_departure date default null,
  p_day_start time default null,
  p_day_end time default null
)
returns table (too_shallow integer, level_cm integer, level_source text, margin_cm integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_period record;
  v_level record;
  v_margin integer := (select s.margin_cm from public.depth_settings s where s.id = 1);
begin
  perform private.check_boat(p_boat_length, p_boat_width);
  perform private.check_draught(p_boat_draught);
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  select * into v_level from private.stay_gauge_level(v_period.starts_at, v_period.ends_at);
  return query
    select count(*) filter (where private.too_shallow(p, v_level.level_cm, p_boat_draught, v_margin))::integer,
           v_level.level_cm, v_level.source, v_margin
      from private.bookable_places(p_kind, v_period.starts_at, v_period.ends_at, p_boat_length, p_boat_width, private.now()) p;
end
$$;
comment on function private.search_depth_notice(public.order_kind, date, numeric, numeric, numeric, date, time, time) is 'The rule behind public.search_depth_notice (security definer, not exposed by the API).';
revoke execute on function private.search_depth_notice(public.order_kind, date, numeric, numeric, numeric, date, time, time) from public;
grant execute on function private.search_depth_notice(public.order_kind, date, numeric, numeric, numeric, date, time, time) to anon, authenticated, service_role;

create function public.search_depth_notice(p_kind public.order_kind, p_arrival date, p_boat_length numeric, p_boat_width numeric, p_boat_draught numeric, p_departure date DEFAULT NULL::date, p_day_start time DEFAULT NULL::time, p_day_end time DEFAULT NULL::time)
returns TABLE(too_shallow integer, level_cm integer, level_source text, margin_cm integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.search_depth_notice(p_kind, p_arrival, p_boat_length, p_boat_width, p_boat_draught, p_departure, p_day_start, p_day_end)
$$;
comment on function public.search_depth_notice(public.order_kind, date, numeric, numeric, numeric, date, time, time) is 'Everyone: how many berths the search (search_available_places with p_boat_draught) leaves out as too shallow for the draught at the stay''s level, with that level (cm), its source (forecast or now) and the margin.';
revoke execute on function public.search_depth_notice(public.order_kind, date, numeric, numeric, numeric, date, time, time) from public;
grant execute on function public.search_depth_notice(public.order_kind, date, numeric, numeric, numeric, date, time, time) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Warnings to those already booked
-- ---------------------------------------------------------------------------------------------

-- One row per episode: from the run that first made the berth too shallow for the boat until a
-- run leaves enough water again (ended_at). One e-mail when an episode begins.
create table public.depth_warnings (
  id bigint generated always as identity primary key,
  order_id uuid references public.orders (id) on delete cascade,
  holder_id uuid references public.long_term_holders (id) on delete cascade,
  place_id uuid not null references public.places (id) on delete cascade,
  level_cm integer not null,
  clearance_cm integer not null,
  warned_at timestamptz not null,
  ended_at timestamptz,
  constraint depth_warnings_one_target check (num_nonnulls(order_id, holder_id) = 1),
  constraint depth_warnings_end check (ended_at is null or ended_at >= warned_at)
);

alter table public.depth_warnings enable row level security;

comment on table public.depth_warnings is 'Low-water warnings: a booked stay or a long-term holding whose berth the gauge forecast makes too shallow for the boat; one row (and one e-mail) per episode, ended when the water is deep enough again.';

create unique index depth_warnings_open_order on public.depth_warnings (order_id) where ended_at is null and order_id is not null;
create unique index depth_warnings_open_holder on public.depth_warnings (holder_id) where ended_at is null and holder_id is not null;
create index depth_warnings_place_idx on public.depth_warnings (place_id);

create policy "depth_warnings: staff read" on public.depth_warnings
  for select to authenticated
  using ((select private.is_staff()));

revoke insert, update, delete, truncate on public.depth_warnings from anon, authenticated;

-- The live stays and holdings whose berth the forecast makes too shallow for the boat, now.
-- Only what the forecast reaches: stays that begin by the Berlin day of the newest run's last
-- point (or are under way), holdings on the days from now to that day.
create function private.shallow_targets(p_now timestamptz, p_margin_cm integer)
returns table (order_id uuid, holder_id uuid, place_id uuid, level_cm integer, clearance_cm integer,
               email text, locale text, name text, place_name text, starts_at timestamptz, ends_at timestamptz,
               booking_number text, draught numeric)
language sql
stable
security definer
set search_path = ''
as $$
  with horizon as (
    select greatest(coalesce(max(f.forecast_for), p_now), p_now) as t
      from public.gauge_forecasts f
     where f.initialized_at = (select max(g.initialized_at) from public.gauge_forecasts g)
  )
  select o.id, null::uuid, p.id, l.level_cm,
         private.depth_clearance(p.depth_cm, p.depth_reference_cm, l.level_cm, (o.boat ->> 'draught')::numeric),
         o.email, private.order_locale(o), concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'),
         p.name, o.starts_at, o.ends_at, o.booking_number::text, (o.boat ->> 'draught')::numeric
    from public.orders o
    join public.places p on p.id = o.place_id
    cross join horizon
    cross join lateral private.stay_gauge_level(greatest(o.starts_at, p_now), o.ends_at) l
   where o.status in ('unverified', 'confirmed', 'checked_in')
     and o.ends_at > p_now and private.berlin_date(o.starts_at) <= private.berlin_date(horizon.t)
     and jsonb_typeof(o.boat -> 'draught') = 'number'
     and private.too_shallow(p, l.level_cm, (o.boat ->> 'draught')::numeric, p_margin_cm)
  union all
  select null::uuid, h.id, p.id, l.level_cm,
         private.depth_clearance(p.depth_cm, p.depth_reference_cm, l.level_cm, h.boat_draught),
         coalesce(h.email, pr.email), coalesce(pr.locale, 'de'), concat_ws(' ', h.first_name, h.last_name),
         p.name, p_now, horizon.t, null::text, h.boat_draught
    from public.long_term_holders h
    join public.places p on p.id = h.place_id
    left join public.profiles pr on pr.id = h.user_id
    cross join horizon
    cross join lateral private.stay_gauge_level(p_now, horizon.t) l
   where h.boat_draught is not null
     and h.starts_on <= private.berlin_date(horizon.t)
     and (h.ends_on is null or h.ends_on >= private.berlin_date(p_now))
     and private.too_shallow(p, l.level_cm, h.boat_draught, p_margin_cm)
$$;
comment on function private.shallow_targets(timestamptz, integer) is 'Live stays (reaching into the forecast) and current holdings whose berth is too shallow for the boat''s draught at their level, with what the warning e-mail needs.';
revoke execute on function private.shallow_targets(timestamptz, integer) from public;

create function private.warn_shallow_berths()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := private.now();
  v_margin integer := (select s.margin_cm from public.depth_settings s where s.id = 1);
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_row record;
  v_locale text;
  v_en boolean;
  v_count integer := 0;
begin
  -- Episodes whose berth is deep enough again (or whose stay is over or cancelled) end.
  update public.depth_warnings w set ended_at = v_now
   where w.ended_at is null
     and not exists (select 1 from private.shallow_targets(v_now, v_margin) t
                      where t.order_id is not distinct from w.order_id and t.holder_id is not distinct from w.holder_id);

  for v_row in
    select t.* from private.shallow_targets(v_now, v_margin) t
     where not exists (select 1 from public.depth_warnings w
                        where w.ended_at is null
                          and w.order_id is not distinct from t.order_id and w.holder_id is not distinct from t.holder_id)
  loop
    insert into public.depth_warnings (order_id, holder_id, place_id, level_cm, clearance_cm, warned_at)
    values (v_row.order_id, v_row.holder_id, v_row.place_id, v_row.level_cm, v_row.clearance_cm, v_now)
    on conflict do nothing;
    if not found or v_row.email is null or v_row.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
      continue;
    end if;
    v_locale := v_row.locale;
    v_en := v_locale = 'en';
    perform private.queue_mail(
      'depth_warning', v_row.email, v_locale,
      case when v_en then format('Low water: berth %s may be too shallow for your boat', v_row.place_name)
                     else format('Niedrigwasser: Liegeplatz %s ist womöglich zu flach für Ihr Boot', v_row.place_name) end,
      private.mail_text(v_locale, v_row.name, concat_ws(E'\n',
        case when v_en
          then format('the Rhine is forecast to fall to %s cm at the Düsseldorf gauge. At that level berth %s leaves %s cm of water under the keel of your boat (draught %s m); we ask for at least %s cm.',
                      v_row.level_cm, v_row.place_name, v_row.clearance_cm, v_row.draught, v_margin)
          else format('für den Rhein ist am Pegel Düsseldorf ein Stand von %s cm vorhergesagt. Dann bleiben am Liegeplatz %s %s cm Wasser unter dem Kiel Ihres Bootes (Tiefgang %s m); wir halten mindestens %s cm für nötig.',
                      v_row.level_cm, v_row.place_name, v_row.clearance_cm, replace(v_row.draught::text, '.', ','), v_margin) end,
        case when v_row.order_id is not null then concat_ws(E'\n',
          case when v_en then 'Your stay: ' else 'Ihr Aufenthalt: ' end
            || private.format_berlin(v_row.starts_at, v_locale) || ' – ' || private.format_berlin(v_row.ends_at, v_locale)
            || ' (' || v_row.booking_number || ')',
          case when v_en then 'Your booking: ' || v_site || '/en/order/' || v_row.order_id
                         else 'Ihre Buchung: ' || v_site || '/order/' || v_row.order_id end) end,
        '',
        case when v_en
          then 'Please get in touch with the harbour office: we can move you to a deeper berth. Simply reply to this e-mail.'
          else 'Bitte melden Sie sich beim Hafenbüro: wir können Ihnen einen tieferen Liegeplatz geben. Antworten Sie einfach auf diese E-Mail.' end)),
      '[]'::jsonb, private.setting('harbour_email'), v_row.order_id);
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
comment on function private.warn_shallow_berths() is 'Scheduled after each gauge fetch: opens a warning (and queues one e-mail in the recipient''s language) for each live stay or holding whose berth the forecast makes too shallow for the boat, ends warnings whose berth is deep enough again; a repeat sends nothing new. Returns the e-mails queued.';
revoke execute on function private.warn_shallow_berths() from public;
