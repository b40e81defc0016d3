-- Guests whose stays fall into a harbour closure (issue 43 item 2,
-- docs/adr/0053-rhine-gauge-and-harbour-status.md, "Guests in a closure"): a closure episode
-- while any day of harbour_status() is closed (gauge or staff override); every confirmed stay
-- with a night (a day stay: its day) on a closed day gets one notice per episode, with one e-mail
-- in the guest's language offering to keep, move or cancel free of charge; staff list the
-- affected stays with what each guest was told and chose. The free cancellation itself is
-- cancel_booking's, with the terms of 47_cancellation_policy.sql made free for a notified order.

-- ---------------------------------------------------------------------------------------------
-- Closure episodes
-- ---------------------------------------------------------------------------------------------

create table public.harbour_closures (
  id uuid primary key default gen_random_uuid(),
  -- The span of closed days seen while the episode lasted (Berlin days).
  first_day date not null,
  last_day date not null,
  started_at timestamptz not null,
  ended_at timestamptz,
  constraint harbour_closures_days check (last_day >= first_day),
  constraint harbour_closures_end check (ended_at is null or ended_at >= started_at)
);

alter table public.harbour_closures enable row level security;

comment on table public.harbour_closures is 'Closure episodes: from the first status with a closed day (gauge or override) until none is left; one notice per order and episode. Written only by private.sync_harbour_closures.';

-- At most one episode open.
create unique index harbour_closures_one_open on public.harbour_closures ((true)) where ended_at is null;

-- Public like the status it follows (a guest's booking page shows the closure of its notice).
create policy "harbour_closures: everyone reads" on public.harbour_closures
  for select to anon, authenticated
  using (true);

revoke insert, update, delete, truncate on public.harbour_closures from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Notices to guests
-- ---------------------------------------------------------------------------------------------

create table public.harbour_closure_notices (
  id uuid primary key default gen_random_uuid(),
  closure_id uuid not null references public.harbour_closures (id),
  order_id uuid not null references public.orders (id),
  -- The stay's closed days, kept current while the episode lasts.
  closed_days date[] not null,
  notified_at timestamptz not null,
  -- The e-mail queued in public.outbox (50_mail_engine.sql, declared after this file; null: the
  -- order has no usable address).
  outbox_id bigint,
  -- What the guest chose: keep, move (asks the harbour to move the stay) or cancel (cancel_booking).
  choice text constraint harbour_closure_notices_choice check (choice in ('keep', 'move', 'cancel')),
  chosen_at timestamptz,
  constraint harbour_closure_notices_once unique (order_id, closure_id),
  constraint harbour_closure_notices_chosen check ((choice is null) = (chosen_at is null))
);

alter table public.harbour_closure_notices enable row level security;

comment on table public.harbour_closure_notices is 'One notice per order and closure episode (the e-mail is sent once), with the stay''s closed days and the guest''s choice (keep, move, cancel).';

create index harbour_closure_notices_closure_idx on public.harbour_closure_notices (closure_id);

create policy "harbour_closure_notices: owner reads own, staff read all" on public.harbour_closure_notices
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

revoke insert, update, delete, truncate on public.harbour_closure_notices from anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Which stays a closure touches
-- ---------------------------------------------------------------------------------------------

-- The days of p_days a stay occupies: its nights (arrival day up to the day before departure);
-- a day stay its one day.
create function private.stay_closed_days(p_order public.orders, p_days date[])
returns date[]
language sql
stable
set search_path = ''
as $$
  select coalesce(array_agg(d order by d), '{}'::date[])
    from unnest(p_days) d
   where d >= private.berlin_date(p_order.starts_at)
     and (d < private.berlin_date(p_order.ends_at)
          or (p_order.kind = 'day' and d = private.berlin_date(p_order.starts_at)))
$$;
comment on function private.stay_closed_days(public.orders, date[]) is 'The days of p_days on which the stay has a night (a day stay: its day), in order.';
revoke execute on function private.stay_closed_days(public.orders, date[]) from public;

-- The e-mail of a notice, in the guest's language: the closed days, the three choices and the
-- booking page where the guest makes them.
create function private.queue_closure_mail(p_order public.orders, p_days date[])
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_locale text := private.order_locale(p_order);
  v_en boolean := private.order_locale(p_order) = 'en';
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_link text;
  v_days text;
begin
  if p_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_link := v_site || case when v_en then '/en' else '' end || '/order/' || p_order.id;
  select string_agg(case when v_en then to_char(d, 'FMDD Mon YYYY') else to_char(d, 'DD.MM.YYYY') end, ', ' order by d)
    into v_days from unnest(p_days) d;
  return private.queue_mail(
    'harbour_closure', p_order.email, v_locale,
    case when v_en
      then format('Harbour closed by high water: your booking %s', p_order.booking_number)
      else format('Hafen wegen Hochwasser geschlossen: Ihre Buchung %s', p_order.booking_number) end,
    private.mail_text(v_locale, concat_ws(' ', p_order.person ->> 'first_name', p_order.person ->> 'last_name'), concat_ws(E'\n',
      case when v_en
        then format('the Rhine at the Düsseldorf gauge is expected above high-water mark II: shipping is stopped and the harbour is closed on %s. Your stay at berth %s falls on these days.',
                    v_days, p_order.place_snapshot ->> 'name')
        else format('der Rhein am Pegel Düsseldorf steigt voraussichtlich über die Hochwassermarke II: Die Schifffahrt ist eingestellt, der Hafen ist am %s geschlossen. Ihr Aufenthalt am Liegeplatz %s fällt auf diese Tage.',
                    v_days, p_order.place_snapshot ->> 'name') end,
      '',
      case when v_en then 'You may choose:' else 'Sie haben die Wahl:' end,
      case when v_en then '- keep the booking (if the water falls in time, nothing changes),'
                     else '- die Buchung behalten (fällt das Wasser rechtzeitig, ändert sich nichts),' end,
      case when v_en then '- move it to other dates (the harbour office will contact you),'
                     else '- sie auf andere Tage verschieben (das Hafenbüro meldet sich bei Ihnen),' end,
      case when v_en then '- or cancel it free of charge, whatever the cancellation policy says: a card payment goes back to the card automatically.'
                     else '- oder sie kostenlos stornieren, unabhängig von den Stornobedingungen: Eine Kartenzahlung geht automatisch auf die Karte zurück.' end,
      '',
      case when v_en then 'Choose on your booking page: ' else 'Wählen Sie auf Ihrer Buchungsseite: ' end || v_link,
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || p_order.booking_number)),
    '[]'::jsonb,
    private.setting('harbour_email'),
    p_order.id);
end
$$;
comment on function private.queue_closure_mail(public.orders, date[]) is 'Queues the closure e-mail of an order (its language): the closed days of the stay, keep, move or cancel free of charge, the booking page; null without a usable address.';
revoke execute on function private.queue_closure_mail(public.orders, date[]) from public;

-- After every change of the status's inputs (a reading or forecast run recorded, an override set
-- or ended): the closed days of harbour_status() decide. Closed days and no episode open: one
-- starts (an episode ended less than 24 hours ago is taken up again, so a level swinging around
-- the mark does not mail twice); no closed day: the open episode ends. Every confirmed stay with
-- a night on a closed day gets its notice and e-mail once per episode; notices of the episode
-- keep the stay's closed days current. Returns how many notices were new.
create function private.sync_harbour_closures()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_days date[];
  v_closure public.harbour_closures;
  v_order public.orders;
  v_stay date[];
  v_new integer := 0;
begin
  select coalesce(array_agg(distinct s.day order by s.day), '{}'::date[]) into v_days
    from private.harbour_status() s where s.status = 'closed';
  -- One run at a time (two readings recorded at once wait for each other).
  perform pg_catalog.pg_advisory_xact_lock(hashtext('harbour_closures'));
  select * into v_closure from public.harbour_closures c where c.ended_at is null;
  if cardinality(v_days) = 0 then
    if v_closure.id is not null then
      update public.harbour_closures set ended_at = private.now() where id = v_closure.id;
    end if;
    return 0;
  end if;
  if v_closure.id is null then
    select * into v_closure from public.harbour_closures c
     where c.ended_at >= private.now() - interval '24 hours' order by c.ended_at desc limit 1;
    if v_closure.id is not null then
      update public.harbour_closures set ended_at = null where id = v_closure.id returning * into v_closure;
    else
      insert into public.harbour_closures (first_day, last_day, started_at)
      values (v_days[1], v_days[cardinality(v_days)], private.now())
      returning * into v_closure;
    end if;
  end if;
  update public.harbour_closures
     set first_day = least(first_day, v_days[1]), last_day = greatest(last_day, v_days[cardinality(v_days)])
   where id = v_closure.id and (first_day > v_days[1] or last_day < v_days[cardinality(v_days)]);
  for v_order in
    select o.* from public.orders o
     where o.status in ('confirmed', 'checked_in')
       and o.ends_at > (v_days[1]::timestamp at time zone 'Europe/Berlin')
       and o.starts_at < ((v_days[cardinality(v_days)] + 1)::timestamp at time zone 'Europe/Berlin')
     order by o.starts_at, o.id
  loop
    v_stay := private.stay_closed_days(v_order, v_days);
    continue when cardinality(v_stay) = 0;
    update public.harbour_closure_notices n set closed_days = v_stay
     where n.order_id = v_order.id and n.closure_id = v_closure.id and n.closed_days is distinct from v_stay;
    continue when exists (select 1 from public.harbour_closure_notices n where n.order_id = v_order.id and n.closure_id = v_closure.id);
    insert into public.harbour_closure_notices (closure_id, order_id, closed_days, notified_at, outbox_id)
    values (v_closure.id, v_order.id, v_stay, private.now(), private.queue_closure_mail(v_order, v_stay));
    v_new := v_new + 1;
  end loop;
  return v_new;
end
$$;
comment on function private.sync_harbour_closures() is 'Opens, extends or ends the closure episode by the closed days of harbour_status() and notifies each confirmed stay with a night on a closed day once per episode (notice and e-mail); the count of new notices.';
revoke execute on function private.sync_harbour_closures() from public;

create function private.on_harbour_status_input()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.sync_harbour_closures();
  return null;
end
$$;
comment on function private.on_harbour_status_input() is 'After a reading, a forecast run or an override is written: private.sync_harbour_closures, in the same transaction.';
revoke execute on function private.on_harbour_status_input() from public;

create trigger gauge_readings_sync_closures after insert or update on public.gauge_readings
  for each statement execute function private.on_harbour_status_input();

create trigger gauge_forecasts_sync_closures after insert or update on public.gauge_forecasts
  for each statement execute function private.on_harbour_status_input();

create trigger harbour_status_overrides_sync_closures after insert or update on public.harbour_status_overrides
  for each statement execute function private.on_harbour_status_input();

-- ---------------------------------------------------------------------------------------------
-- The free cancellation and the guest's choice
-- ---------------------------------------------------------------------------------------------

-- A notified order is cancelled free of charge (private.cancellation_terms): the offer the
-- e-mail made stands, even when the water falls again.
create function private.order_closure_notified(p_order_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.harbour_closure_notices n where n.order_id = p_order_id)
$$;
comment on function private.order_closure_notified(uuid) is 'The order was told of a harbour closure: its cancellation is free of charge (private.cancellation_terms).';
revoke execute on function private.order_closure_notified(uuid) from public;

-- A cancellation is the guest's third choice, whoever cancels.
create function private.note_closure_cancel()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.harbour_closure_notices n set choice = 'cancel', chosen_at = private.now()
   where n.order_id = new.id and n.choice is distinct from 'cancel';
  return null;
end
$$;
comment on function private.note_closure_cancel() is 'After an order is cancelled: its closure notices record the choice cancel.';
revoke execute on function private.note_closure_cancel() from public;

create trigger orders_note_closure_cancel after update of status on public.orders
  for each row when (new.status = 'cancelled' and old.status is distinct from 'cancelled')
  execute function private.note_closure_cancel();

create function private.answer_harbour_closure(p_notice_id uuid, p_choice text)
returns public.harbour_closure_notices
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_notice public.harbour_closure_notices;
  v_order public.orders;
begin
  select * into v_notice from public.harbour_closure_notices n where n.id = p_notice_id for update;
  if found then
    select * into v_order from public.orders o where o.id = v_notice.order_id;
  end if;
  if not found or (v_order.user_id is distinct from (select auth.uid()) and not private.is_staff()) then
    raise exception 'notice_not_found' using errcode = 'PT404';
  end if;
  if p_choice is null or p_choice not in ('keep', 'move') then
    raise exception 'closure_choice_invalid' using errcode = '22023', hint = 'keep or move; a cancellation is cancel_booking.';
  end if;
  if v_order.status not in ('confirmed', 'checked_in') then
    raise exception 'order_not_open' using errcode = 'P0001';
  end if;
  update public.harbour_closure_notices n set choice = p_choice, chosen_at = private.now()
   where n.id = p_notice_id returning * into v_notice;
  return v_notice;
end
$$;
comment on function private.answer_harbour_closure(uuid, text) is 'The rule behind public.answer_harbour_closure (security definer, not exposed by the API).';
revoke execute on function private.answer_harbour_closure(uuid, text) from public;
grant execute on function private.answer_harbour_closure(uuid, text) to authenticated, service_role;

create function public.answer_harbour_closure(p_notice_id uuid, p_choice text)
returns public.harbour_closure_notices
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.answer_harbour_closure(p_notice_id, p_choice)
$$;
comment on function public.answer_harbour_closure(uuid, text) is 'The order''s owner (or staff): keep the stay or ask the harbour to move it (p_choice keep or move); the free cancellation is cancel_booking. PT404 notice_not_found, 22023 closure_choice_invalid, P0001 order_not_open.';
revoke execute on function public.answer_harbour_closure(uuid, text) from anon, public;
grant execute on function public.answer_harbour_closure(uuid, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The staff list
-- ---------------------------------------------------------------------------------------------

create function private.harbour_closure_stays()
returns table (notice_id uuid, order_id uuid, booking_number text, first_name text, last_name text, place_name text,
               starts_at timestamptz, ends_at timestamptz, order_status public.order_status, closed_days date[],
               notified_at timestamptz, mail_status text, choice text, chosen_at timestamptz)
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
    select n.id, o.id, o.booking_number, o.person ->> 'first_name', o.person ->> 'last_name', o.place_snapshot ->> 'name',
           o.starts_at, o.ends_at, o.status, n.closed_days, n.notified_at,
           case when n.outbox_id is null then 'none' else coalesce(m.status, 'sent') end,
           n.choice, n.chosen_at
      from public.harbour_closures c
      join public.harbour_closure_notices n on n.closure_id = c.id
      join public.orders o on o.id = n.order_id
      left join public.outbox m on m.id = n.outbox_id
     where c.ended_at is null
     order by o.starts_at, o.booking_number;
end
$$;
comment on function private.harbour_closure_stays() is 'The rule behind public.harbour_closure_stays (security definer, not exposed by the API).';
revoke execute on function private.harbour_closure_stays() from public;
grant execute on function private.harbour_closure_stays() to authenticated, service_role;

create function public.harbour_closure_stays()
returns table (notice_id uuid, order_id uuid, booking_number text, first_name text, last_name text, place_name text,
               starts_at timestamptz, ends_at timestamptz, order_status public.order_status, closed_days date[],
               notified_at timestamptz, mail_status text, choice text, chosen_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.harbour_closure_stays()
$$;
comment on function public.harbour_closure_stays() is 'Staff: the stays of the closure in force with guest, berth, dates, closed days, whether the e-mail went out (pending, sending, sent, failed; none: no address) and the guest''s choice. 42501 staff_only.';
revoke execute on function public.harbour_closure_stays() from anon, public;
grant execute on function public.harbour_closure_stays() to authenticated, service_role;
