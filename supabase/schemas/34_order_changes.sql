-- Changes to a booking: cancelling (with the cancellation policy, 47_cancellation_policy.sql),
-- moving to another berth, changing the period (rescheduling), the berths an order may move
-- to, whether the guest is told (p_notify), and the e-mail that tells the guest of a change.

create function private.cancel_booking(p_order_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_staff boolean := private.is_staff();
  v_order public.orders;
  v_terms jsonb;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found or (v_order.user_id is distinct from v_uid and not v_staff) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.status not in ('unverified', 'confirmed', 'checked_in') or (v_order.status = 'checked_in' and not v_staff) then
    raise exception 'order_not_cancellable' using errcode = 'P0001';
  end if;
  if not v_staff and private.now() >= v_order.starts_at then
    raise exception 'order_not_cancellable' using errcode = 'P0001', hint = 'Customers cancel before arrival.';
  end if;
  -- The cancellation policy (47_cancellation_policy.sql): the terms the dialog showed, kept
  -- share recorded in the same update (the invoice documents follow it); what goes back to the
  -- card is recorded as one refund request under a key derived from the order, which
  -- refund-payment sends (a retry is the same request: one refund).
  v_terms := private.cancellation_terms(v_order, v_staff and v_order.user_id is distinct from v_uid);
  update public.orders o set status = 'cancelled', cancelled_at = private.now(),
         cancellation_kept_cents = (v_terms ->> 'kept_cents')::integer
   where o.id = p_order_id returning * into v_order;
  update public.place_statuses s set cancelled = true where s.order_id = p_order_id and not s.cancelled;
  if (v_terms ->> 'back_card_cents')::integer > 0 and not (v_staff and v_order.user_id is distinct from v_uid) then
    insert into private.refund_requests (request_key, order_id, amount_cents, payment_intent, requested_by, requested_at)
    select private.cancellation_request_key(p_order_id), p_order_id, (v_terms ->> 'back_card_cents')::integer,
           r.payment_intent, v_uid, private.now()
      from private.online_refund_payment(p_order_id, (v_terms ->> 'back_card_cents')::bigint) r
    on conflict (request_key) do nothing;
  end if;
  return v_order;
end
$$;
comment on function private.cancel_booking(uuid) is 'The rule behind public.cancel_booking (security definer, not exposed by the API).';
revoke execute on function private.cancel_booking(uuid) from public;
grant execute on function private.cancel_booking(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/cancel_booking): runs as the caller, the rule above decides.
-- Staff may tick off the guest's e-mail for one change (issue 22): the public functions that
-- change a booking or refund take p_notify (default true) and set it for the rest of the request
-- (one transaction); the mail triggers read it (private.guest_mail_wanted). Only staff may
-- silence it; every call sets it explicitly, so a later call in the same transaction is not
-- silenced by an earlier one.
create function private.set_guest_mail(p_notify boolean)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not coalesce(p_notify, true) and not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501', hint = 'Only staff may send a change without telling the guest.';
  end if;
  perform set_config('hafen.guest_mail', case when coalesce(p_notify, true) then 'on' else 'off' end, true);
end
$$;
comment on function private.set_guest_mail(boolean) is 'Staff switch the guest e-mail of the current change off (p_notify = false) or on, for the rest of the transaction.';
revoke execute on function private.set_guest_mail(boolean) from public;
grant execute on function private.set_guest_mail(boolean) to authenticated, service_role;

create function private.guest_mail_wanted()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(nullif(current_setting('hafen.guest_mail', true), ''), 'on') <> 'off'
$$;
comment on function private.guest_mail_wanted() is 'False when staff ticked off the guest''s e-mail for the current change (private.set_guest_mail).';
revoke execute on function private.guest_mail_wanted() from public;

create function public.cancel_booking(p_order_id uuid, p_notify boolean DEFAULT true)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.cancel_booking(p_order_id);
$$;
comment on function public.cancel_booking(uuid, boolean) is 'Cancels an order and frees its berth: the owner before arrival (under the cancellation policy: the kept share recorded, the card refund of the rest recorded for refund-payment), staff any time (nothing kept); staff may leave the guest''s e-mail out (p_notify = false).';
revoke execute on function public.cancel_booking(uuid, boolean) from anon, public;

-- Whether staff may still move an order (berth or dates): open and not ended.
create function private.check_movable(p_order public.orders)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_order.status not in ('unverified', 'confirmed', 'checked_in') or p_order.ends_at <= private.now() then
    raise exception 'order_not_movable' using errcode = 'P0001';
  end if;
end
$$;
comment on function private.check_movable(public.orders) is 'Raises order_not_movable unless staff may still move the order (open, not ended): lock_movable_order and move_precheck.';
revoke execute on function private.check_movable(public.orders) from public;

-- An order staff may still move (berth or dates), locked for the change: open and not ended.
create function private.lock_movable_order(p_order_id uuid)
returns public.orders
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_order public.orders;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  perform private.check_movable(v_order);
  return v_order;
end
$$;
comment on function private.lock_movable_order(uuid) is 'The order, locked for update, if staff may still move it (open, not ended); raises order_not_found / order_not_movable otherwise.';
revoke execute on function private.lock_movable_order(uuid) from public;

-- The timeline's question before it offers a move (issue 40, item 3): for a stay and a period
-- (its own, or new dates as reschedule_booking would make them), every berth's verdict, by the
-- rule the moves themselves apply (berth_verdict). Dates the moves refuse raise the same error.
create function private.move_precheck(p_order_id uuid, p_arrival date, p_departure date)
returns table (place_id uuid, verdict text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_new jsonb;
  v_starts timestamptz;
  v_ends timestamptz;
  v_now timestamptz := private.now();
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  perform private.check_movable(v_order);
  if p_arrival is null then
    v_starts := v_order.starts_at;
    v_ends := v_order.ends_at;
  else
    v_new := private.reschedule_period(v_order, p_arrival, p_departure);
    v_starts := (v_new ->> 'starts_at')::timestamptz;
    v_ends := (v_new ->> 'ends_at')::timestamptz;
  end if;
  return query
    select p.id, private.berth_verdict(v_order, p, v_starts, v_ends, v_now)
      from public.places p
     where not p.archived or p.id = v_order.place_id
     order by p.name;
end
$$;
comment on function private.move_precheck(uuid, date, date) is 'The rule behind public.move_precheck (security definer, not exposed by the API).';
revoke execute on function private.move_precheck(uuid, date, date) from public;
grant execute on function private.move_precheck(uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/move_precheck): runs as the caller, the rule above decides.
create function public.move_precheck(p_order_id uuid, p_arrival date DEFAULT NULL::date, p_departure date DEFAULT NULL::date)
returns TABLE(place_id uuid, verdict text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.move_precheck(p_order_id, p_arrival, p_departure)
$$;
comment on function public.move_precheck(uuid, date, date) is 'Staff: for an open order and a period (its own; or new dates, as reschedule_booking would make them), each berth''s verdict by the moves'' own rule: fits, too_small, too_shallow, day_stay_not_allowed, day_guests_only, long_term, blocked, occupied. The timeline asks it when a drag starts.';
revoke execute on function public.move_precheck(uuid, date, date) from anon, public;

create function private.move_booking(p_order_id uuid, p_place_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_place public.places;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  v_order := private.lock_movable_order(p_order_id);
  if v_order.place_id = p_place_id then
    return v_order;
  end if;
  select * into v_place from public.places p where p.id = p_place_id and not p.archived;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  perform private.check_berth_for(v_order, v_place, v_order.starts_at, v_order.ends_at);
  perform private.expire_orders(p_place_id);
  begin
    update public.place_statuses s set place_id = p_place_id
     where s.order_id = p_order_id and not s.cancelled;
  -- Two transactions writing overlapping stays of one berth at the same moment can each wait
  -- for the other at the exclusion constraint (40P01): the one Postgres aborts lost the race.
  exception when exclusion_violation or deadlock_detected then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  update public.orders o set
    place_id = p_place_id,
    place_snapshot = jsonb_build_object('id', v_place.id, 'name', v_place.name, 'pier', v_place.pier,
                                        'width', v_place.width, 'length', v_place.length, 'one_day', v_place.one_day)
   where o.id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
comment on function private.move_booking(uuid, uuid) is 'The rule behind public.move_booking (security definer, not exposed by the API).';
revoke execute on function private.move_booking(uuid, uuid) from public;
grant execute on function private.move_booking(uuid, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/move_booking): runs as the caller, the rule above decides.
create function public.move_booking(p_order_id uuid, p_place_id uuid, p_notify boolean DEFAULT true)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.move_booking(p_order_id, p_place_id);
$$;
comment on function public.move_booking(uuid, uuid, boolean) is 'Staff move an open booking to another fitting, free berth (same times, same price); an overlap raises 23P01 berth_no_longer_available; p_notify = false leaves the guest''s e-mail out.';
revoke execute on function public.move_booking(uuid, uuid, boolean) from anon, public;

-- Staff change a stay's dates, and its berth with them if they like (issue 24: drag a bar on the
-- timeline to other days). The new dates follow the booking rules (private.stay_period: not in
-- the past, at most 90 nights, fair stays inside a fair period, a day stay keeps its window on
-- the new day); a checked-in stay keeps its arrival and may change its departure only. The price
-- is the booking price of the new dates (private.price_breakdown, as quote_booking and
-- book_berth), with the discount the order was booked with (its sale code and the value it had
-- then: a code changed or deleted since does not change an agreed booking); extras stay as
-- they are (price_cents = the berth quote's gross + the extras).
create function private.reschedule_period(p_order public.orders, p_arrival date, p_departure date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_period record;
  v_starts timestamptz;
  v_ends timestamptz;
  v_nights integer;
  v_quote jsonb;
  v_old_gross integer := coalesce((p_order.price_breakdown ->> 'gross_cents')::integer, p_order.price_cents);
begin
  if p_arrival is null then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if p_order.checked_in then
    -- The guest is here: the arrival is history, only the departure may change.
    if p_arrival <> private.berlin_date(p_order.starts_at) then
      raise exception 'checked_in_arrival_fixed' using errcode = 'P0001',
        hint = 'A checked-in stay keeps its arrival; only the departure may change.';
    end if;
    if p_order.kind = 'day' then
      if p_departure is not null and p_departure <> p_arrival then
        raise exception 'invalid_day_window' using errcode = '22023';
      end if;
      v_starts := p_order.starts_at;
      v_ends := p_order.ends_at;
      v_nights := 0;
    else
      -- The rules of private.stay_period for the departure (its arrival test does not apply).
      if p_departure is null or p_departure <= p_arrival then
        raise exception 'invalid_period' using errcode = '22023';
      end if;
      v_nights := p_departure - p_arrival;
      if v_nights > 90 then
        raise exception 'stay_too_long' using errcode = '22023', hint = 'At most 90 nights; long-term berths are by contract.';
      end if;
      if p_order.kind = 'fair' and not exists (
        select 1 from public.fair_periods f where f.starts_on <= p_arrival and f.ends_on >= p_departure - 1
      ) then
        raise exception 'outside_fair_period' using errcode = '22023';
      end if;
      v_starts := p_order.starts_at;
      v_ends := private.berlin_at(p_departure, time '12:00');
      if v_ends <= private.now() then
        raise exception 'period_in_past' using errcode = '22023';
      end if;
      if p_departure > private.booking_last_day() then
        raise exception 'beyond_booking_horizon' using errcode = '22023',
          hint = to_char(private.booking_last_day(), 'YYYY-MM-DD');
      end if;
    end if;
  else
    select * into v_period from private.stay_period(
      p_order.kind, p_arrival,
      case when p_order.kind = 'day' then null else p_departure end,
      case when p_order.kind = 'day' then (p_order.starts_at at time zone 'Europe/Berlin')::time end,
      case when p_order.kind = 'day' then (p_order.ends_at at time zone 'Europe/Berlin')::time end);
    v_starts := v_period.starts_at;
    v_ends := v_period.ends_at;
    v_nights := v_period.nights;
  end if;
  v_quote := private.price_breakdown(
    p_order.kind, v_nights, (p_order.boat ->> 'length')::numeric, p_order.sale_code,
    -- The code at its booked value, gross per night (a breakdown from before the gross price
    -- list, issue 40, held it net: its gross at the booked rate).
    case when p_order.sale_code is not null then coalesce(
      (p_order.price_breakdown ->> 'additional_costs_per_night_gross_cents')::integer,
      round((p_order.price_breakdown ->> 'additional_costs_per_night_cents')::numeric
            * (100 + coalesce((p_order.price_breakdown ->> 'vat_rate_percent')::numeric, 19)) / 100)::integer) end);
  return jsonb_build_object(
    'starts_at', v_starts,
    'ends_at', v_ends,
    'nights', v_nights,
    'quote', v_quote,
    'old_price_cents', p_order.price_cents,
    'price_cents', p_order.price_cents - v_old_gross + (v_quote ->> 'gross_cents')::integer);
end
$$;
comment on function private.reschedule_period(public.orders, date, date) is 'The new period and price of an order moved to other dates: stay_period''s rules (a checked-in stay: departure only), the booking price (price_breakdown) with the order''s sale code at its booked value, extras kept.';
revoke execute on function private.reschedule_period(public.orders, date, date) from public;

create function private.reschedule_quote(p_order_id uuid, p_arrival date, p_departure date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  return private.reschedule_period(v_order, p_arrival, p_departure);
end
$$;
comment on function private.reschedule_quote(uuid, date, date) is 'The rule behind public.reschedule_quote (security definer, not exposed by the API).';
revoke execute on function private.reschedule_quote(uuid, date, date) from public;
grant execute on function private.reschedule_quote(uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/reschedule_quote): runs as the caller, the rule above decides.
create function public.reschedule_quote(p_order_id uuid, p_arrival date, p_departure date DEFAULT NULL::date)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.reschedule_quote(p_order_id, p_arrival, p_departure)
$$;
comment on function public.reschedule_quote(uuid, date, date) is 'Staff: what reschedule_booking would make of an order on other dates (starts_at, ends_at, nights, the berth quote, old and new price_cents); checks the dates, not the berth.';
revoke execute on function public.reschedule_quote(uuid, date, date) from anon, public;

create function private.reschedule_booking(p_order_id uuid, p_place_id uuid, p_arrival date, p_departure date)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_place public.places;
  v_new jsonb;
  v_starts timestamptz;
  v_ends timestamptz;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  v_order := private.lock_movable_order(p_order_id);
  v_new := private.reschedule_period(v_order, p_arrival, p_departure);
  v_starts := (v_new ->> 'starts_at')::timestamptz;
  v_ends := (v_new ->> 'ends_at')::timestamptz;
  -- The berth: the same tests as move_booking, for the new dates (the current berth too: a
  -- long-term holder may start on a day the stay now covers).
  select * into v_place from public.places p
   where p.id = coalesce(p_place_id, v_order.place_id) and (not p.archived or p.id = v_order.place_id);
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  if v_starts = v_order.starts_at and v_ends = v_order.ends_at and v_place.id = v_order.place_id then
    return v_order;
  end if;
  perform private.check_berth_for(v_order, v_place, v_starts, v_ends);
  -- Lapsed open orders of the berth give way; then the exclusion constraint decides.
  perform private.expire_orders(v_place.id);
  begin
    update public.place_statuses s set place_id = v_place.id, starts_at = v_starts, ends_at = v_ends
     where s.order_id = p_order_id and not s.cancelled;
  -- Two transactions writing overlapping stays of one berth at the same moment can each wait
  -- for the other at the exclusion constraint (40P01): the one Postgres aborts lost the race.
  exception when exclusion_violation or deadlock_detected then
    raise exception 'berth_no_longer_available' using errcode = '23P01';
  end;
  update public.orders o set
    place_id = v_place.id,
    place_snapshot = jsonb_build_object('id', v_place.id, 'name', v_place.name, 'pier', v_place.pier,
                                        'width', v_place.width, 'length', v_place.length, 'one_day', v_place.one_day),
    starts_at = v_starts,
    ends_at = v_ends,
    price_cents = (v_new ->> 'price_cents')::integer,
    -- The new berth quote; what the booking added (booked_by_staff) stays.
    price_breakdown = o.price_breakdown || (v_new -> 'quote'),
    -- An open order still lapses as booked, at the latest at its (new) arrival.
    expires_at = case when o.expires_at is not null
                      then least(o.expires_at, greatest(v_starts, private.now() + interval '1 hour')) end
   where o.id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
comment on function private.reschedule_booking(uuid, uuid, date, date) is 'The rule behind public.reschedule_booking (security definer, not exposed by the API).';
revoke execute on function private.reschedule_booking(uuid, uuid, date, date) from public;
grant execute on function private.reschedule_booking(uuid, uuid, date, date) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/reschedule_booking): runs as the caller, the rule above decides.
create function public.reschedule_booking(p_order_id uuid, p_arrival date, p_departure date DEFAULT NULL::date, p_place_id uuid DEFAULT NULL::uuid, p_notify boolean DEFAULT true)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.reschedule_booking(p_order_id, p_place_id, p_arrival, p_departure);
$$;
comment on function public.reschedule_booking(uuid, date, date, uuid, boolean) is 'Staff move an open booking to other dates (and optionally another berth): the booking rules for the dates (a checked-in stay: departure only), fit, depth (berth_too_shallow), kind and long-term tests for the berth, an overlap raises 23P01 berth_no_longer_available; repriced as a new booking (sale code kept, extras unchanged); invoices follow (cancellation + new invoice); p_notify = false leaves the guest''s e-mail out.';
revoke execute on function public.reschedule_booking(uuid, date, date, uuid, boolean) from anon, public;

create function private.order_move_targets(p_order_id uuid)
returns table (place_id uuid, name text, pier text, width numeric, length numeric, one_day boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_length numeric;
  v_width numeric;
  v_draught numeric;
  v_level integer;
  v_margin integer := (select s.margin_cm from public.depth_settings s where s.id = 1);
  v_now timestamptz := private.now();
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.status not in ('unverified', 'confirmed', 'checked_in') or v_order.ends_at <= v_now then
    return;
  end if;
  v_length := (v_order.boat ->> 'length')::numeric;
  v_width := (v_order.boat ->> 'width')::numeric;
  v_draught := case when jsonb_typeof(v_order.boat -> 'draught') = 'number' then (v_order.boat ->> 'draught')::numeric end;
  v_level := (select l.level_cm from private.stay_gauge_level(greatest(v_order.starts_at, v_now), v_order.ends_at) l);
  -- The availability test of the search, and not too shallow for the order's draught (the
  -- verdict move_booking applies); move_booking stays the guard (a race still ends in 23P01).
  return query
    select p.id, p.name, p.pier, p.width, p.length, p.one_day
    from private.bookable_places(v_order.kind, v_order.starts_at, v_order.ends_at, v_length, v_width, v_now) p
    where p.id <> v_order.place_id
      and not private.too_shallow(p, v_level, v_draught, v_margin)
    order by p.width * p.length, p.length, p.name;
end
$$;
comment on function private.order_move_targets(uuid) is 'The rule behind public.order_move_targets (security definer, not exposed by the API).';
revoke execute on function private.order_move_targets(uuid) from public;
grant execute on function private.order_move_targets(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/order_move_targets): runs as the caller, the rule above decides.
create function public.order_move_targets(p_order_id uuid)
returns TABLE(place_id uuid, name text, pier text, width numeric, length numeric, one_day boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.order_move_targets(p_order_id)
$$;
comment on function public.order_move_targets(uuid) is 'Staff: the berths an open order could move to (fit, not too shallow for its draught at the stay''s level, one_day berths for day stays and only for them, no long-term holder, free for the whole stay), smallest first.';
revoke execute on function public.order_move_targets(uuid) from anon, public;

-- The guest hears of every change staff or the guest make to a booking (issue 22), in the
-- booking's language: a move (other berth or dates) with the updated calendar entry, a
-- cancellation with the entry that removes it. Fires after orders_record_event (trigger names
-- sort), so the .ics counts the move just recorded.
create function private.on_order_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_place text := new.place_snapshot ->> 'name';
  v_open constant public.order_status[] := array['unverified', 'confirmed', 'checked_in']::public.order_status[];
  v_cancelled boolean := new.status = 'cancelled' and old.status = any (v_open);
  v_moved boolean := new.status = any (v_open) and (new.place_id <> old.place_id or new.starts_at <> old.starts_at or new.ends_at <> old.ends_at);
  v_by_guest boolean := (select auth.uid()) is not distinct from new.user_id and new.user_id is not null;
  v_link text;
begin
  if not (v_cancelled or v_moved) or new.ends_at <= private.now() or not private.guest_mail_wanted()
     or new.email is null or new.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_locale := private.order_locale(new);
  v_en := v_locale = 'en';
  v_link := v_site || case when v_en then '/en' else '' end || '/order/' || new.id;
  perform private.queue_mail(
    case when v_cancelled then 'booking_cancelled' else 'booking_changed' end,
    new.email, v_locale,
    case when v_cancelled then case when v_en
        then format('Booking cancelled: berth %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'en'), new.booking_number)
        else format('Buchung storniert: Liegeplatz %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'de'), new.booking_number) end
      else case when v_en
        then format('Booking changed: berth %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'en'), new.booking_number)
        else format('Buchung geändert: Liegeplatz %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'de'), new.booking_number) end
    end,
    private.mail_text(v_locale, concat_ws(' ', new.person ->> 'first_name', new.person ->> 'last_name'), concat_ws(E'\n',
      case
        when v_cancelled and v_by_guest then case when v_en
          then format('as you asked, your booking %s has been cancelled. The berth is released.', new.booking_number)
          else format('wie gewünscht haben wir Ihre Buchung %s storniert. Der Liegeplatz ist freigegeben.', new.booking_number) end
        when v_cancelled then case when v_en
          then format('the harbour team has cancelled your booking %s. The berth is released. If you have questions, simply reply to this e-mail.', new.booking_number)
          else format('das Hafenteam hat Ihre Buchung %s storniert. Der Liegeplatz ist freigegeben. Bei Fragen antworten Sie einfach auf diese E-Mail.', new.booking_number) end
        else case when v_en
          then format('your booking %s has been changed. Your stay now:', new.booking_number)
          else format('Ihre Buchung %s wurde geändert. Ihr Aufenthalt jetzt:', new.booking_number) end
      end,
      '',
      case when v_en then 'Berth: ' else 'Liegeplatz: ' end || v_place
        || coalesce(case when v_en then ' (pier ' else ' (Steg ' end || (new.place_snapshot ->> 'pier') || ')', '')
        || case when v_moved and new.place_id <> old.place_id
             then case when v_en then ' (before: ' else ' (bisher: ' end || (old.place_snapshot ->> 'name') || ')' else '' end,
      case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(new.starts_at, v_locale),
      case when v_en then 'Departure: ' else 'Abreise: ' end || private.format_berlin(new.ends_at, v_locale),
      case when v_en then 'Boat: ' else 'Boot: ' end || coalesce(new.boat ->> 'name', ''),
      -- Other dates, other price (reschedule_booking): the new price and what it was; what is
      -- owed or paid back follows on the booking's page.
      case when v_moved and new.price_cents <> old.price_cents then
        case when v_en then 'Price: ' || private.format_eur(new.price_cents, 'en') || ' (before: ' || private.format_eur(old.price_cents, 'en') || ')'
             else 'Preis: ' || private.format_eur(new.price_cents, 'de') || ' (bisher: ' || private.format_eur(old.price_cents, 'de') || ')' end
      end,
      '',
      case when v_cancelled then case
          when new.payment_status = 'refunded' then case when v_en then 'The amount paid has been refunded.' else 'Der gezahlte Betrag wurde erstattet.' end
          when new.payment_status in ('paid', 'partially_refunded') then case when v_en
            then 'We will refund what you have paid; you will receive a separate message.'
            else 'Bereits Gezahltes erstatten wir Ihnen; Sie erhalten dazu eine eigene Nachricht.' end
          else case when v_en then 'There is nothing to pay.' else 'Es ist nichts zu bezahlen.' end
        end
      end,
      case when v_cancelled
        then case when v_en then 'The attached calendar entry removes the stay from your calendar.' else 'Der Kalendereintrag im Anhang entfernt den Aufenthalt aus Ihrem Kalender.' end
        else case when v_en then 'The attached calendar entry updates the stay in your calendar.' else 'Der Kalendereintrag im Anhang aktualisiert den Aufenthalt in Ihrem Kalender.' end
      end,
      '',
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || new.booking_number,
      case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_link)),
    jsonb_build_array(jsonb_build_object(
      'filename', case when v_en then 'booking-' else 'buchung-' end || v_place || '.ics',
      'content_type', 'text/calendar; charset=utf-8; method=' || case when v_cancelled then 'CANCEL' else 'PUBLISH' end,
      'content', private.booking_ics(new, v_locale))),
    private.setting('harbour_email'),
    new.id);
  return null;
end
$$;
comment on function private.on_order_changed() is 'After update on orders: tells the guest of a move (berth or dates; updated .ics) or a cancellation (.ics with METHOD:CANCEL) of an open booking that has not ended, by e-mail in the booking''s language.';
revoke execute on function private.on_order_changed() from public;

create trigger orders_tell_guest after update of status, place_id, starts_at, ends_at on public.orders
  for each row execute function private.on_order_changed();
