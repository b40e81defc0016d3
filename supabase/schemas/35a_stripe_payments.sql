-- Stripe (online payment, issue 20): Checkout sessions, the Stripe events received (each
-- applied once, in order, a waiting one when what it needs arrives), online payments and
-- refunds as Stripe reports them into the ledger, and the payment receipt e-mail.

-- Stripe Checkout sessions of an order (the edge function create-checkout records them with
-- the service role); the owner and staff read them (the app reuses an open one).
create table public.checkout_sessions (
  id text primary key check (id ~ '^cs_[A-Za-z0-9_]+$' and char_length(id) <= 255),
  order_id uuid not null references public.orders (id),
  url text not null check (url ~ '^https?://' and char_length(url) <= 5000),
  amount_cents integer not null check (amount_cents > 0),
  status text not null default 'open' check (status in ('open', 'complete', 'expired')),
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  -- The payment intent Stripe names on the session (checkout.session.* events carry it; Stripe
  -- creates it when the guest pays). Only a payment_intent.succeeded of this intent pays the
  -- order: an intent no session of the order names records nothing.
  payment_intent text unique check (payment_intent ~ '^pi_[A-Za-z0-9_]+$' and char_length(payment_intent) <= 255)
);

alter table public.checkout_sessions enable row level security;

comment on table public.checkout_sessions is 'Stripe Checkout sessions of an order (cs_…, hosted page URL, amount, open/complete/expired); written only by service-role functions (record_checkout_session, record_stripe_event).';

create index checkout_sessions_order_idx on public.checkout_sessions (order_id, created_at desc);

create policy "checkout_sessions: owner reads own order's, staff all" on public.checkout_sessions
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

revoke all on public.checkout_sessions from anon;

revoke insert, update, delete, truncate on public.checkout_sessions from authenticated;

-- Every Stripe event received, by its id (evt_…): a replay finds its row and changes nothing.
-- An event that cannot be applied yet (a refund before its payment, a payment before its
-- session is recorded) waits here and is applied when what it needs arrives.
create table private.stripe_events (
  id text primary key,
  type text not null,
  payload jsonb not null,
  order_id uuid,
  payment_intent text,
  refund_id text,
  -- recorded (a ledger row), updated (a session's status), history (the order's history only),
  -- duplicate (already in the ledger through another event), waiting, ignored, rejected.
  outcome text not null default 'waiting'
    check (outcome in ('recorded', 'updated', 'history', 'duplicate', 'waiting', 'ignored', 'rejected')),
  detail text,
  received_at timestamptz not null default now(),
  applied_at timestamptz
);

alter table private.stripe_events enable row level security;

comment on table private.stripe_events is 'Stripe events received (idempotency by event id) with what they did; waiting ones are applied when their payment or session arrives. No API role reads it.';

create index stripe_events_waiting_idx on private.stripe_events (order_id, payment_intent) where outcome = 'waiting';

-- A refund's events by its id (whether a deposit refund in flight was reported failed,
-- private.deposit_refund_in_flight): without it each look reads every event ever received.
create index stripe_events_refund_idx on private.stripe_events (refund_id) where refund_id is not null;

revoke all on table private.stripe_events from public, anon, authenticated;

-- The guest (or staff) starts paying online: checks that the order can be paid online and
-- returns what the edge function create-checkout puts into the Checkout session, with the
-- open session to reuse (a second tab gets the same page, not a second charge).
create function private.begin_online_payment(p_order_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_staff boolean := private.is_staff();
  v_order public.orders;
  v_balance jsonb;
  v_amount integer;
  v_locale text;
  v_session public.checkout_sessions;
  v_dates text;
begin
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found or (v_order.user_id is distinct from v_uid and not v_staff) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if not v_staff and not private.is_anonymous() and not private.is_active_user() then
    raise exception 'account_inactive' using errcode = '42501';
  end if;
  -- A lapsed order (past its deadline, not yet swept by expire_orders) is not payable either.
  if v_order.status in ('cancelled', 'expired') or v_order.expires_at <= private.now() then
    raise exception 'order_not_payable' using errcode = 'P0001';
  end if;
  v_balance := private.order_balance_of(v_order);
  v_amount := (v_balance ->> 'outstanding_cents')::integer;
  if v_order.payment_status <> 'pending' or v_amount <= 0 then
    raise exception 'order_already_paid' using errcode = 'P0001';
  end if;
  if v_balance ->> 'payment_mode' = 'desk' then
    raise exception 'payment_desk_only' using errcode = 'P0001', hint = 'This order is paid at the harbour office.';
  end if;
  v_locale := private.order_locale(v_order);
  v_dates := case when v_locale = 'en' then to_char(v_order.starts_at at time zone 'Europe/Berlin', 'DD/MM/YYYY')
                  else to_char(v_order.starts_at at time zone 'Europe/Berlin', 'DD.MM.YYYY') end
    || case when v_order.kind = 'day' then ''
            when v_locale = 'en' then ' – ' || to_char(v_order.ends_at at time zone 'Europe/Berlin', 'DD/MM/YYYY')
            else ' – ' || to_char(v_order.ends_at at time zone 'Europe/Berlin', 'DD.MM.YYYY') end;
  select * into v_session from public.checkout_sessions c
   where c.order_id = v_order.id and c.status = 'open' and c.amount_cents = v_amount
     and c.expires_at > private.now() + interval '2 minutes'
   order by c.created_at desc
   limit 1;
  return jsonb_build_object(
    'order_id', v_order.id,
    'booking_reference', v_order.booking_number,
    'amount_cents', v_amount,
    'currency', 'eur',
    'email', nullif(v_order.email, ''),
    'locale', v_locale,
    'description', coalesce(private.setting('invoice_name'), 'Hafen')
      || case when v_locale = 'en' then ', berth ' else ', Liegeplatz ' end
      || coalesce(v_order.place_snapshot ->> 'name', '') || ', ' || v_dates,
    'open_session', case when v_session.id is null then null
                         else jsonb_build_object('id', v_session.id, 'url', v_session.url, 'expires_at', v_session.expires_at) end);
end
$$;
comment on function private.begin_online_payment(uuid) is 'The rule behind public.begin_online_payment (security definer, not exposed by the API).';
revoke execute on function private.begin_online_payment(uuid) from public;
grant execute on function private.begin_online_payment(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/begin_online_payment): runs as the caller, the rule above decides.
create function public.begin_online_payment(p_order_id uuid)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.begin_online_payment(p_order_id)
$$;
comment on function public.begin_online_payment(uuid) is 'The owner (or staff) starts paying an order online: refuses a paid, cancelled or expired order, a desk-only order and an inactive account; returns amount (the outstanding cents), e-mail, language, description and the open Checkout session to reuse.';
revoke execute on function public.begin_online_payment(uuid) from anon, public;

-- Applies the events that waited for this order or payment intent (in the order received).
create function private.apply_waiting_stripe_events(p_order_id uuid, p_payment_intent text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_id text;
begin
  for v_id in
    select e.id from private.stripe_events e
     where e.outcome = 'waiting'
       and (e.order_id = p_order_id or (p_payment_intent is not null and e.payment_intent = p_payment_intent))
     order by e.received_at, e.id
  loop
    perform private.apply_stripe_event(v_id);
  end loop;
end
$$;
comment on function private.apply_waiting_stripe_events(uuid, text) is 'Applies the Stripe events that waited for an order''s session or payment (e.g. a refund that came before its payment).';
revoke execute on function private.apply_waiting_stripe_events(uuid, text) from public;

create function private.record_checkout_session(p_order_id uuid, p_session_id text, p_url text, p_amount_cents integer, p_expires_at timestamptz)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_known public.checkout_sessions;
begin
  if p_session_id is null or p_session_id !~ '^cs_[A-Za-z0-9_]+$' or char_length(p_session_id) > 255
     or p_url is null or p_url !~ '^https?://' or char_length(p_url) > 5000
     or p_amount_cents is null or p_amount_cents <= 0 or p_expires_at is null then
    raise exception 'invalid_checkout_session' using errcode = '22023';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  select * into v_known from public.checkout_sessions c where c.id = p_session_id;
  if found then
    if v_known.order_id <> p_order_id or v_known.amount_cents <> p_amount_cents then
      raise exception 'invalid_checkout_session' using errcode = '22023', hint = 'The session is recorded for another order or amount.';
    end if;
    return;
  end if;
  if p_amount_cents > v_order.price_cents then
    raise exception 'amount_mismatch' using errcode = '22023', hint = 'A session never asks for more than the order''s price.';
  end if;
  insert into public.checkout_sessions (id, order_id, url, amount_cents, status, expires_at, created_at)
  values (p_session_id, p_order_id, p_url, p_amount_cents, 'open', p_expires_at, private.now());
  -- A guest paying in time keeps the berth while the Checkout page is open: the payment hold
  -- of an order that must be paid online runs at least to the session's end (never beyond the
  -- stay's end).
  if v_order.payment_mode = 'online_required' and v_order.payment_status = 'pending'
     and v_order.expires_at > private.now() and v_order.expires_at < least(p_expires_at, v_order.ends_at) then
    update public.orders o set expires_at = least(p_expires_at, o.ends_at) where o.id = p_order_id;
  end if;
  perform private.apply_waiting_stripe_events(p_order_id, null);
end
$$;
comment on function private.record_checkout_session(uuid, text, text, integer, timestamptz) is 'The rule behind public.record_checkout_session (security definer, not exposed by the API).';
revoke execute on function private.record_checkout_session(uuid, text, text, integer, timestamptz) from public;
grant execute on function private.record_checkout_session(uuid, text, text, integer, timestamptz) to service_role;

-- The API endpoint (/rest/v1/rpc/record_checkout_session): runs as the caller, the rule above decides.
create function public.record_checkout_session(p_order_id uuid, p_session_id text, p_url text, p_amount_cents integer, p_expires_at timestamptz)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.record_checkout_session(p_order_id, p_session_id, p_url, p_amount_cents, p_expires_at)
$$;
comment on function public.record_checkout_session(uuid, text, text, integer, timestamptz) is 'Service role only (create-checkout): records a Checkout session created for an order (idempotent for the same id), extends the payment hold of an order that must be paid online to the session''s end, then applies events that waited for it.';
revoke execute on function public.record_checkout_session(uuid, text, text, integer, timestamptz) from anon, authenticated, public;
grant execute on function public.record_checkout_session(uuid, text, text, integer, timestamptz) to service_role;

-- The payment intent a session event names, kept on the session (once: a session has one
-- intent). False (and the event rejected) when the session already names another intent.
create function private.note_session_payment_intent(p_event_id text, p_session public.checkout_sessions, p_payment_intent text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_payment_intent is null or p_payment_intent !~ '^pi_[A-Za-z0-9_]+$' or char_length(p_payment_intent) > 255 then
    return true;
  end if;
  if p_session.payment_intent is not null and p_session.payment_intent <> p_payment_intent then
    update private.stripe_events set detail = 'payment_intent_mismatch' where id = p_event_id;
    return false;
  end if;
  if exists (select 1 from public.checkout_sessions c where c.payment_intent = p_payment_intent and c.id <> p_session.id) then
    update private.stripe_events set detail = 'payment_intent_of_another_session' where id = p_event_id;
    return false;
  end if;
  update public.checkout_sessions c set payment_intent = p_payment_intent where c.id = p_session.id and c.payment_intent is null;
  return true;
end
$$;
comment on function private.note_session_payment_intent(text, public.checkout_sessions, text) is 'Keeps the payment intent a Checkout session event names on the session (once); refuses a second, different intent for the session or one intent for two sessions.';
revoke execute on function private.note_session_payment_intent(text, public.checkout_sessions, text) from public;

-- An online payment Stripe reports (checkout.session.completed / async_payment_succeeded, or
-- payment_intent.succeeded; whichever comes first records it, the other finds it). The amount
-- and currency must match the Checkout session recorded for the order (and so its price). A
-- session event names its payment intent, which is kept on the session; a payment intent's own
-- event is recorded only for the intent a session of that order names (else it waits for the
-- session's event, which records the payment and finds the intent's event a duplicate).
create function private.record_online_payment(p_event_id text, p_order_id uuid, p_amount integer, p_currency text,
                                              p_payment_intent text, p_session_id text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_session public.checkout_sessions;
  v_balance jsonb;
  v_note text;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    update private.stripe_events set detail = 'order_not_found' where id = p_event_id;
    return 'rejected';
  end if;
  if exists (select 1 from public.payments p
              where p.kind = 'payment' and p.refund_of is null
                and ((p_session_id is not null and p.checkout_session_id = p_session_id)
                     or (p_payment_intent is not null and p.provider_payment_id = p_payment_intent))) then
    return 'duplicate';
  end if;
  if p_session_id is not null then
    select * into v_session from public.checkout_sessions c where c.id = p_session_id;
    if not found then
      return 'waiting';
    end if;
    if v_session.order_id <> p_order_id then
      update private.stripe_events set detail = 'session_of_another_order' where id = p_event_id;
      return 'rejected';
    end if;
  else
    -- Only the intent Stripe named on one of this order's sessions.
    select * into v_session from public.checkout_sessions c
     where c.order_id = p_order_id and c.payment_intent = p_payment_intent;
    if not found then
      return 'waiting';
    end if;
  end if;
  if p_currency is distinct from 'eur' or p_amount is null or p_amount <> v_session.amount_cents
     or v_session.amount_cents is null or p_amount > v_order.price_cents then
    update private.stripe_events set detail = 'amount_mismatch' where id = p_event_id;
    return 'rejected';
  end if;
  -- The intent the session's event names is the session's (and no other session's).
  if p_session_id is not null and not private.note_session_payment_intent(p_event_id, v_session, p_payment_intent) then
    return 'rejected';
  end if;
  -- Nothing is charged twice, but a second charge that happened (two sessions paid in two
  -- tabs, or a payment that arrives after the booking was cancelled or expired) is money
  -- taken: it is recorded, noted, and shows as to_refund in order_balance and in the history.
  v_balance := private.order_balance_of(v_order);
  if v_order.status in ('cancelled', 'expired') and v_order.payment_status = 'pending' then
    v_note := 'to_refund: the booking had ended before the payment arrived';
  elsif (v_balance ->> 'outstanding_cents')::integer < p_amount then
    v_note := 'to_refund: the order was already paid';
  end if;
  insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id,
                               checkout_session_id, provider_event_id, recorded_by, recorded_at, note)
  values (p_order_id, 'payment', 'online', p_amount, 'eur', 'stripe', p_payment_intent,
          v_session.id, p_event_id, null, private.now(), v_note);
  update public.checkout_sessions c set status = 'complete' where c.id = v_session.id and c.status <> 'complete';
  return 'recorded';
end
$$;
comment on function private.record_online_payment(text, uuid, integer, text, text, text) is 'Records an online payment once (by session and payment intent), checked against the recorded Checkout session and the order''s price; waits while the session is not recorded; a second charge is recorded with a to_refund note.';
revoke execute on function private.record_online_payment(text, uuid, integer, text, text, text) from public;

-- A Stripe refund (refund.created, refund.updated, or one listed in charge.refunded). It counts
-- once, when its status is succeeded (unique by refund id); pending or requires_action count
-- nothing yet; failed or canceled count nothing, and if the refund had been recorded as
-- succeeded it is reversed by a new payment row. A refund whose payment is not in the ledger
-- yet waits for it.
create function private.record_online_refund(p_event_id text, p_refund jsonb)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_refund_id text := p_refund ->> 'id';
  v_status text := p_refund ->> 'status';
  v_amount integer;
  v_pi text := case jsonb_typeof(p_refund -> 'payment_intent') when 'string' then p_refund ->> 'payment_intent'
                                                               when 'object' then p_refund #>> '{payment_intent,id}' end;
  v_payment public.payments;
  v_recorded public.payments;
  v_deposit boolean := coalesce(p_refund #>> '{metadata,deposit_return}', '') = 'true';
begin
  begin
    v_amount := (p_refund ->> 'amount')::integer;
  exception when others then
    v_amount := null;
  end;
  update private.stripe_events set payment_intent = coalesce(payment_intent, v_pi), refund_id = coalesce(refund_id, v_refund_id)
   where id = p_event_id;
  if v_refund_id is null or v_pi is null or v_amount is null or v_amount <= 0 or lower(p_refund ->> 'currency') is distinct from 'eur' then
    update private.stripe_events set detail = 'invalid_refund' where id = p_event_id;
    return 'rejected';
  end if;
  select * into v_payment from public.payments p
   where p.kind = 'payment' and p.refund_of is null and p.method = 'online' and p.provider_payment_id = v_pi;
  if not found then
    return 'waiting';
  end if;
  -- One writer per order: a second event about the same refund (charge.refunded beside
  -- refund.updated) waits here and then finds the row.
  perform 1 from public.orders o where o.id = v_payment.order_id for update;
  update private.stripe_events set order_id = v_payment.order_id where id = p_event_id;
  select * into v_recorded from public.payments r where r.provider_refund_id = v_refund_id;
  if v_status = 'succeeded' then
    if v_recorded.id is not null then
      return 'duplicate';
    end if;
    -- A failure reported earlier (events out of order) wins: the refund did not happen.
    if exists (select 1 from private.stripe_events e
                where e.refund_id = v_refund_id and e.id <> p_event_id
                  and e.type like 'refund.%' and e.payload #>> '{data,object,status}' in ('failed', 'canceled')) then
      update private.stripe_events set detail = 'refund_failed_later' where id = p_event_id;
      return 'ignored';
    end if;
    begin
      -- A deposit given back through refund-payment (prepare_deposit_refund) says so in the
      -- refund's metadata: a deposit return, not a refund of the stay.
      insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id,
                                   provider_refund_id, provider_event_id, refund_of, recorded_by, recorded_at, deposit_return,
                                   order_extra_id, note)
      values (v_payment.order_id, 'refund', 'online', v_amount, 'eur', 'stripe', v_pi,
              v_refund_id, p_event_id, v_payment.id, null, private.now(), v_deposit,
              -- the deposit it paid back, if the metadata names one of this order's deposits
              case when v_deposit then (select e.id from public.order_extras e
                                         where e.id::text = p_refund #>> '{metadata,order_extra_id}'
                                           and e.order_id = v_payment.order_id and e.deposit) end,
              case when v_deposit then 'Pfandrückgabe (online)' end);
    exception when sqlstate 'P0001' then
      -- refund_exceeds_payment (Stripe refuses it; a sign of data out of step): kept for the
      -- operator, not in the ledger.
      update private.stripe_events set detail = sqlerrm where id = p_event_id;
      return 'rejected';
    end;
    return 'recorded';
  elsif v_status in ('failed', 'canceled') then
    if v_recorded.id is null or exists (select 1 from public.payments v where v.refund_of = v_recorded.id and v.kind = 'payment') then
      update private.stripe_events set detail = 'refund_' || v_status where id = p_event_id;
      return 'ignored';
    end if;
    insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id,
                                 provider_event_id, refund_of, recorded_by, recorded_at, note)
    values (v_payment.order_id, 'payment', 'online', v_recorded.amount_cents, 'eur', 'stripe', v_pi,
            p_event_id, v_recorded.id, null, private.now(), 'reversal: refund ' || v_refund_id || ' ' || v_status);
    return 'recorded';
  end if;
  update private.stripe_events set detail = 'refund_' || coalesce(v_status, 'unknown') where id = p_event_id;
  return 'ignored';
end
$$;
comment on function private.record_online_refund(text, jsonb) is 'Records a Stripe refund once when it succeeded (refund id unique), reverses a recorded one that failed later, waits for its payment; an over-refund (which Stripe itself refuses) is kept as rejected.';
revoke execute on function private.record_online_refund(text, jsonb) from public;

-- Applies one received event (again, for a waiting one) and stores what it did.
create function private.apply_stripe_event(p_event_id text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_event private.stripe_events;
  v_obj jsonb;
  v_order_text text;
  v_order_id uuid;
  v_pi text;
  v_amount integer;
  v_outcome text;
  v_refund jsonb;
  v_one text;
  v_session public.checkout_sessions;
  v_fee_id uuid;
begin
  select * into v_event from private.stripe_events e where e.id = p_event_id for update;
  v_obj := v_event.payload #> '{data,object}';
  v_order_text := coalesce(v_obj #>> '{metadata,order_id}', v_obj ->> 'client_reference_id');
  if v_order_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    v_order_id := v_order_text::uuid;
  end if;
  v_pi := case when v_event.type like 'payment_intent.%' then v_obj ->> 'id'
               when jsonb_typeof(v_obj -> 'payment_intent') = 'string' then v_obj ->> 'payment_intent'
               when jsonb_typeof(v_obj -> 'payment_intent') = 'object' then v_obj #>> '{payment_intent,id}' end;
  update private.stripe_events e set order_id = coalesce(e.order_id, v_order_id), payment_intent = coalesce(e.payment_intent, v_pi)
   where e.id = p_event_id;
  begin
    v_amount := coalesce(v_obj ->> 'amount_total', v_obj ->> 'amount_received', v_obj ->> 'amount')::integer;
  exception when others then
    v_amount := null;
  end;

  -- A long-term fee's SEPA debit (63_long_term_fees.sql): its intent's metadata names the fee,
  -- a dispute its intent.
  v_fee_id := private.stripe_event_fee(v_obj, v_pi);
  if v_fee_id is not null then
    v_outcome := private.apply_fee_stripe_event(p_event_id, v_fee_id);
  elsif v_event.type in ('checkout.session.completed', 'checkout.session.async_payment_succeeded') then
    if v_obj ->> 'payment_status' is distinct from 'paid' then
      update private.stripe_events set detail = 'not_paid_yet' where id = p_event_id;
      v_outcome := 'ignored';
      -- Paid later (a delayed method): the intent's own event may then record the payment.
      select * into v_session from public.checkout_sessions c where c.id = v_obj ->> 'id' and c.order_id = v_order_id;
      if found and v_pi is not null and private.note_session_payment_intent(p_event_id, v_session, v_pi) then
        for v_one in select e.id from private.stripe_events e
                      where e.outcome = 'waiting' and e.payment_intent = v_pi and e.id <> p_event_id
                        and e.type = 'payment_intent.succeeded'
                      order by e.received_at, e.id loop
          perform private.apply_stripe_event(v_one);
        end loop;
      end if;
    elsif v_order_id is null then
      update private.stripe_events set detail = 'no_order' where id = p_event_id;
      v_outcome := 'rejected';
    else
      v_outcome := private.record_online_payment(p_event_id, v_order_id, v_amount, lower(v_obj ->> 'currency'), v_pi, v_obj ->> 'id');
      if v_outcome = 'duplicate' then
        update public.checkout_sessions c set status = 'complete' where c.id = v_obj ->> 'id' and c.status <> 'complete';
      end if;
    end if;
  elsif v_event.type = 'payment_intent.succeeded' then
    if v_order_id is null then
      update private.stripe_events set detail = 'no_order' where id = p_event_id;
      v_outcome := 'rejected';
    else
      v_outcome := private.record_online_payment(p_event_id, v_order_id, v_amount, lower(v_obj ->> 'currency'), v_pi, null);
    end if;
  elsif v_event.type = 'checkout.session.expired' then
    update public.checkout_sessions c set status = 'expired' where c.id = v_obj ->> 'id' and c.status = 'open';
    v_outcome := case when found then 'updated' else 'ignored' end;
  elsif v_event.type = 'payment_intent.payment_failed' then
    if v_order_id is not null and exists (select 1 from public.orders o where o.id = v_order_id) then
      insert into public.order_events (order_id, event, from_value, to_value, actor, at)
      values (v_order_id, 'payment_failed', 'online',
              left(coalesce(v_obj #>> '{last_payment_error,decline_code}', v_obj #>> '{last_payment_error,code}', 'failed'), 100),
              null, private.now());
      v_outcome := 'history';
    else
      v_outcome := 'ignored';
    end if;
  elsif v_event.type in ('refund.created', 'refund.updated', 'refund.failed') then
    -- A card refund that fails after it succeeded comes as refund.updated and refund.failed
    -- (Stripe sends both): the first reverses it, the second finds the reversal.
    v_outcome := private.record_online_refund(p_event_id, v_obj);
  elsif v_event.type = 'charge.refunded' then
    -- Since API version 2022-11-15 a charge lists its refunds only when expanded; each refund
    -- also comes as refund.created / refund.updated, which record it.
    v_outcome := 'ignored';
    if jsonb_typeof(v_obj #> '{refunds,data}') = 'array' then
      for v_refund in select r from jsonb_array_elements(v_obj #> '{refunds,data}') r loop
        v_one := private.record_online_refund(p_event_id, v_refund || jsonb_build_object('payment_intent', coalesce(v_refund ->> 'payment_intent', v_pi)));
        v_outcome := case when v_one = 'waiting' or v_outcome = 'waiting' then 'waiting'
                          when v_one = 'recorded' or v_outcome = 'recorded' then 'recorded'
                          when v_one = 'duplicate' or v_outcome = 'duplicate' then 'duplicate'
                          else v_one end;
      end loop;
    end if;
  else
    v_outcome := 'ignored';
  end if;

  update private.stripe_events e
     set outcome = v_outcome,
         applied_at = case when v_outcome = 'waiting' then null else private.now() end
   where e.id = p_event_id;
  select * into v_event from private.stripe_events e where e.id = p_event_id;
  if v_outcome = 'recorded' then
    -- What waited for this payment (a refund that came first) follows it.
    perform private.apply_waiting_stripe_events(v_event.order_id, v_event.payment_intent);
  end if;
  return jsonb_build_object('event_id', v_event.id, 'type', v_event.type, 'outcome', v_event.outcome,
                            'detail', v_event.detail, 'order_id', v_event.order_id);
end
$$;
comment on function private.apply_stripe_event(text) is 'Applies one received Stripe event by its type (payments, refunds, session expiry, failed payments in the history) and stores its outcome; a recorded payment applies the events that waited for it.';
revoke execute on function private.apply_stripe_event(text) from public;

create function private.record_stripe_event(p_event jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_id text := p_event ->> 'id';
  v_known private.stripe_events;
begin
  if jsonb_typeof(p_event) is distinct from 'object' or v_id is null or v_id !~ '^evt_[A-Za-z0-9_]+$' or char_length(v_id) > 255
     or p_event ->> 'type' is null or char_length(p_event ->> 'type') > 100
     or jsonb_typeof(p_event #> '{data,object}') is distinct from 'object' then
    raise exception 'invalid_event' using errcode = '22023', hint = 'A Stripe event: id evt_…, type, data.object.';
  end if;
  -- Idempotent by event id: a replay (or a concurrent second delivery, which waits here for
  -- the first to commit) finds the row and changes nothing.
  insert into private.stripe_events (id, type, payload, received_at)
  values (v_id, p_event ->> 'type', p_event, private.now())
  on conflict (id) do nothing;
  if not found then
    select * into v_known from private.stripe_events e where e.id = v_id;
    return jsonb_build_object('event_id', v_known.id, 'type', v_known.type, 'outcome', v_known.outcome,
                              'detail', v_known.detail, 'order_id', v_known.order_id, 'replay', true);
  end if;
  return private.apply_stripe_event(v_id) || jsonb_build_object('replay', false);
end
$$;
comment on function private.record_stripe_event(jsonb) is 'The rule behind public.record_stripe_event (security definer, not exposed by the API).';
revoke execute on function private.record_stripe_event(jsonb) from public;
grant execute on function private.record_stripe_event(jsonb) to service_role;

-- The API endpoint (/rest/v1/rpc/record_stripe_event): runs as the caller, the rule above decides.
create function public.record_stripe_event(p_event jsonb)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.record_stripe_event(p_event)
$$;
comment on function public.record_stripe_event(jsonb) is 'Service role only (stripe-webhook, after verifying the signature): records a Stripe event once by its id and applies it; events out of order wait for what they need. Answers {event_id, type, outcome, detail, order_id, replay}.';
revoke execute on function public.record_stripe_event(jsonb) from anon, authenticated, public;
grant execute on function public.record_stripe_event(jsonb) to service_role;

-- The receipt of an online payment (issue 20): when Stripe's payment is in the ledger, the
-- guest gets it in the booking's language (amount, booking number, link to the order). A
-- second charge that must be refunded gets no receipt (staff refund it).
create function private.queue_payment_receipt()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
begin
  if new.kind <> 'payment' or new.method <> 'online' or new.refund_of is not null or new.note like 'to_refund:%' then
    return null;
  end if;
  select * into v_order from public.orders o where o.id = new.order_id;
  if v_order.email is null or v_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_locale := private.order_locale(v_order);
  v_en := v_locale = 'en';
  perform private.queue_mail(
    'payment_receipt', v_order.email, v_locale,
    case when v_en
      then format('Payment received: berth %s, %s', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'en'))
      else format('Zahlung erhalten: Liegeplatz %s, %s', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'de')) end,
    private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
      case when v_en then 'we have received your online payment. Thank you!' else 'wir haben Ihre Online-Zahlung erhalten. Vielen Dank!' end,
      '',
      case when v_en then 'Amount: ' else 'Betrag: ' end || private.format_eur(new.amount_cents, v_locale),
      case when v_en then 'Paid on: ' else 'Bezahlt am: ' end || private.format_berlin(new.recorded_at, v_locale),
      case when v_en then 'Payment reference: ' else 'Zahlungsreferenz: ' end || coalesce(new.provider_payment_id, new.id::text),
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
      case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id)),
    '[]'::jsonb,
    private.setting('harbour_email'),
    v_order.id);
  return null;
end
$$;
comment on function private.queue_payment_receipt() is 'After insert on payments: queues the receipt of an online payment to the guest (booking language; not for a second charge to be refunded).';
revoke execute on function private.queue_payment_receipt() from public;

create trigger payments_queue_receipt after insert on public.payments
  for each row when (new.order_id is not null) execute function private.queue_payment_receipt();
