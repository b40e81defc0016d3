-- Payments: the ledger (public.payments, append-only), the order's payment status derived
-- from it, Stripe Checkout sessions and the Stripe events received (online payment, issue 20),
-- the desk's payments and refunds.

-- The invoice documents a payment issues are in 35b_invoice_documents.sql (issue 21).

-- ---------------------------------------------------------------------------------------------
-- The payments ledger (issue 20). Every payment and refund is one row; no row is ever updated
-- or deleted (no grants, and a trigger refuses it to every role, the functions' owner too). A
-- correction is a new row that refers to the old one (refund_of): a refund names the payment it
-- refunds; a refund that Stripe reports failed after it had succeeded is reversed by a payment
-- row whose refund_of names that refund. The order's payment_status is derived from the rows.
create table public.payments (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id),
  kind text not null check (kind in ('payment', 'refund')),
  method public.payment_method not null,
  amount_cents integer not null check (amount_cents > 0),
  currency text not null default 'eur' check (currency = 'eur'),
  provider text check (provider = 'stripe'),
  provider_payment_id text,
  provider_refund_id text,
  checkout_session_id text,
  provider_event_id text,
  refund_of uuid references public.payments (id),
  -- Who recorded it (null = Stripe's webhook). Kept when the account is deleted: no foreign key.
  recorded_by uuid,
  recorded_at timestamptz not null default now(),
  note text check (char_length(note) <= 500),
  -- A refund that pays a returned deposit back (return_deposit): not a reduction of the price.
  deposit_return boolean not null default false,
  constraint payments_refund_refers check (kind = 'payment' or refund_of is not null),
  constraint payments_deposit_return_is_desk_refund check (not deposit_return or (kind = 'refund' and method in ('cash', 'bank_transfer', 'online'))),
  constraint payments_online_is_stripe check ((method = 'online') = (provider is not null)),
  constraint payments_refund_method check (kind = 'payment' or method in ('online', 'cash', 'bank_transfer')),
  constraint payments_refund_id_on_refunds check (provider_refund_id is null or kind = 'refund')
);

-- Live in the order desk's payments panel and on the guest's order page (INSERT only: rows
-- never change; RLS decides per subscriber: owners their order's rows, staff all).
alter publication supabase_realtime add table public.payments;

alter table public.payments enable row level security;

comment on table public.payments is 'The ledger: every payment and refund of an order (cents, EUR), append-only; online rows are written only by the Stripe webhook (record_stripe_event), desk rows by staff (record_desk_payment, record_desk_refund). orders.payment_status is derived from it.';
comment on column public.payments.deposit_return is 'A refund that pays back a returned deposit (return_deposit at the desk; online through refund-payment, marked by the Stripe refund''s metadata): the deposit left the price, so it is neither a price reduction (no credit note) nor a partial refund of the stay.';
comment on column public.payments.refund_of is 'The row this one corrects: for a refund the payment it refunds; for a payment the refund it reverses (a refund Stripe reported failed after it had succeeded).';

-- One ledger payment per Checkout session and per PaymentIntent, one refund row per Stripe
-- refund, one reversal per refund: the unique indexes make a replayed or doubled event harmless.
create unique index payments_checkout_session_key on public.payments (checkout_session_id)
  where kind = 'payment' and checkout_session_id is not null;

create unique index payments_provider_payment_key on public.payments (provider_payment_id)
  where kind = 'payment' and refund_of is null and provider_payment_id is not null;

create unique index payments_provider_refund_key on public.payments (provider_refund_id)
  where provider_refund_id is not null;

create unique index payments_reversal_key on public.payments (refund_of) where kind = 'payment';

create index payments_order_idx on public.payments (order_id, recorded_at);

-- The rows that mean money must go back (a reversed refund, a payment noted to_refund), for
-- private.money_to_return: a handful among all payments.
create index payments_to_return_idx on public.payments (order_id)
  where kind = 'payment' and (refund_of is not null or note like 'to_refund:%');

create index payments_refund_of_idx on public.payments (refund_of) where refund_of is not null;

create policy "payments: owner reads own order's, staff all" on public.payments
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

revoke all on public.payments from anon;

-- Realtime (issue 39): the primary key only, so that RLS decides what anon receives (nothing: no
-- policy names anon). Supabase Realtime's apply_rls sends a role that may not select a table's
-- primary key an "Error 401: Unauthorized" record for every insert, without asking RLS: every
-- visitor with the anon key could watch payments happen. Over the API, select=id answers no rows.
grant select (id) on public.payments to anon;

revoke insert, update, delete, truncate, references, trigger on public.payments from authenticated, service_role;

create trigger payments_immutable before update or delete on public.payments
  for each row execute function private.refuse_change('payments_immutable', 'The ledger is append-only: record a correcting row (a refund, or a reversal) instead.');

create trigger payments_no_truncate before truncate on public.payments
  for each statement execute function private.refuse_change('payments_immutable', 'The ledger is append-only: record a correcting row (a refund, or a reversal) instead.');

-- What the ledger says about an order: paid = payments (reversals not counted), refunded =
-- refunds minus reversed refunds, net = paid - refunded.
create function private.order_ledger(p_order_id uuid, out paid_cents bigint, out refunded_cents bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(p.amount_cents) filter (where p.kind = 'payment' and p.refund_of is null), 0)::bigint,
         (coalesce(sum(p.amount_cents) filter (where p.kind = 'refund'), 0)
          - coalesce(sum(p.amount_cents) filter (where p.kind = 'payment' and p.refund_of is not null), 0))::bigint
  from public.payments p
  where p.order_id = p_order_id
$$;
comment on function private.order_ledger(uuid) is 'Sums of an order''s ledger: paid (payments) and refunded (refunds minus reversed refunds), cents.';
revoke execute on function private.order_ledger(uuid) from public;

-- What of the refunds paid returned deposits back: money that left with the deposit's line,
-- so the rules about refunds of the stay (partially refunded, credit notes, nothing more owed
-- after a refund) leave it out. A deposit refund Stripe reported failed after it had succeeded
-- is reversed by a payment row (refund_of): that money did not leave, so it is not counted.
create function private.order_deposit_returns(p_order_id uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(r.amount_cents), 0)::bigint
  from public.payments r
  where r.order_id = p_order_id and r.kind = 'refund' and r.deposit_return
    and not exists (select 1 from public.payments v where v.refund_of = r.id and v.kind = 'payment')
$$;
comment on function private.order_deposit_returns(uuid) is 'Cents of an order''s refunds that paid returned deposits back (payments.deposit_return), not counting refunds reversed after Stripe reported them failed.';
revoke execute on function private.order_deposit_returns(uuid) from public;

-- What of one payment can still be refunded: its amount minus its refunds, plus the refunds
-- that were reversed.
create function private.payment_refundable(p_payment_id uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select (p.amount_cents
          - coalesce((select sum(r.amount_cents) from public.payments r where r.refund_of = p.id and r.kind = 'refund'), 0)
          + coalesce((select sum(v.amount_cents) from public.payments v join public.payments r on v.refund_of = r.id
                      where r.refund_of = p.id and r.kind = 'refund' and v.kind = 'payment'), 0))::bigint
  from public.payments p
  where p.id = p_payment_id and p.kind = 'payment' and p.refund_of is null
$$;
comment on function private.payment_refundable(uuid) is 'Cents of a payment that can still be refunded (amount minus its refunds plus reversed refunds).';
revoke execute on function private.payment_refundable(uuid) from public;

-- What of one payment can go back in cash or by transfer: all that is left of a desk payment;
-- of an online payment only what the guest is owed because Stripe could not refund it. The
-- rest of an online payment goes back through Stripe, to the card it came from.
-- - Refunds of the stay: what failed (was reversed), less what the desk paid back and what
--   later online refunds settled (private.online_refund_requests: a refund asked for while a
--   failed one was owed pays that first; counted from the moment Stripe made it, so the desk
--   does not pay the same money while the webhook has not told yet).
-- - Each returned deposit (its refunds name it): its amount when every online refund of it
--   was reversed, less what the desk paid back; nothing while a retry to the card is in flight
--   (private.deposit_refund_in_flight) or once one went through.
-- Not per part: a desk refund without a deposit may pay a failed deposit back, and the sum is
-- what the desk may pay. plpgsql: the tables it reads are declared after it.
create function private.payment_desk_refundable(p_payment_id uuid)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_payment public.payments;
  v_stay bigint;
  v_deposits bigint;
begin
  select * into v_payment from public.payments p where p.id = p_payment_id and p.kind = 'payment' and p.refund_of is null;
  if not found then
    return null;
  end if;
  if v_payment.method <> 'online' then
    return private.payment_refundable(p_payment_id);
  end if;
  if not exists (select 1 from public.payments r join public.payments v on v.refund_of = r.id and v.kind = 'payment'
                  where r.refund_of = p_payment_id and r.kind = 'refund') then
    -- Nothing failed (the common case).
    return 0;
  end if;
  v_stay := private.stay_refunds_owed(p_payment_id);
  select coalesce(sum(greatest(0, least(x.reversed, x.largest) - (x.online - x.reversed) - x.desk)), 0) into v_deposits
    from (select r.order_extra_id,
                 coalesce(sum(r.amount_cents) filter (where r.method = 'online'), 0) as online,
                 coalesce(max(r.amount_cents) filter (where r.method = 'online'), 0) as largest,
                 coalesce(sum(r.amount_cents) filter (where r.method <> 'online'), 0) as desk,
                 coalesce(sum((select sum(v.amount_cents) from public.payments v where v.refund_of = r.id and v.kind = 'payment')), 0) as reversed
            from public.payments r
           where r.refund_of = p_payment_id and r.kind = 'refund' and r.deposit_return
           group by r.order_extra_id) x
   where x.order_extra_id is null or not private.deposit_refund_in_flight(x.order_extra_id);
  return greatest(0, least(private.payment_refundable(p_payment_id), v_stay + v_deposits));
end
$$;
comment on function private.payment_desk_refundable(uuid) is 'Cents of a payment that can go back in cash or by transfer: what is left of a desk payment; of an online payment what the guest is owed because refunds failed (reversed), less what the desk and later online refunds paid back.';
revoke execute on function private.payment_desk_refundable(uuid) from public;

-- The rules every ledger row obeys, whoever inserts it: the order exists (and is locked, so
-- rows of one order are written one after the other); a refund names a payment of the same
-- order, refunds it the way it was paid (online by Stripe, a desk payment in cash or by
-- transfer; in cash or by transfer also what Stripe could not refund of an online payment,
-- private.payment_desk_refundable) and never more than is left of it; staff never bring a completed stay to zero
-- (issue 11: money back after a stay that took place is a credit note, outside this system).
-- A refund Stripe reports (recorded_by null) is money that has left: it is recorded whatever
-- the stay's state, since the ledger is the truth (only Stripe's dashboard can make one the
-- app refused). A reversal names a refund of the same order.
create function private.payments_check()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_of public.payments;
  v_ledger record;
begin
  select * into v_order from public.orders o where o.id = new.order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if new.refund_of is not null then
    select * into v_of from public.payments p where p.id = new.refund_of;
    if not found or v_of.order_id <> new.order_id then
      raise exception 'invalid_refund' using errcode = '22023', hint = 'refund_of names a row of the same order.';
    end if;
  end if;
  if new.kind = 'refund' then
    if v_of.id is null or v_of.kind <> 'payment' or v_of.refund_of is not null then
      raise exception 'invalid_refund' using errcode = '22023', hint = 'A refund names the payment it refunds.';
    end if;
    if new.method = 'online' and v_of.method <> 'online' then
      raise exception 'invalid_refund_method' using errcode = '22023',
        hint = 'An online payment is refunded through Stripe, a desk payment in cash or by bank transfer.';
    end if;
    if new.method <> 'online' and v_of.method = 'online' and new.amount_cents > private.payment_desk_refundable(v_of.id) then
      raise exception 'invalid_refund_method' using errcode = '22023',
        hint = 'An online payment is refunded through Stripe; in cash or by transfer only what Stripe could not refund.';
    end if;
    if new.amount_cents > private.payment_refundable(v_of.id) then
      raise exception 'refund_exceeds_payment' using errcode = 'P0001',
        hint = 'A refund never exceeds what is left of the payment it refunds.';
    end if;
    select * into v_ledger from private.order_ledger(new.order_id);
    if v_order.status = 'completed' and new.recorded_by is not null
       and v_ledger.paid_cents - v_ledger.refunded_cents - new.amount_cents <= 0 then
      raise exception 'order_not_refundable' using errcode = 'P0001',
        hint = 'A completed stay is not refunded in full.';
    end if;
  elsif v_of.id is not null and (v_of.kind <> 'refund' or v_of.method <> new.method) then
    raise exception 'invalid_refund' using errcode = '22023', hint = 'A reversal names the refund it reverses.';
  end if;
  return new;
end
$$;
comment on function private.payments_check() is 'Before insert on payments: the order exists (locked), refunds name a payment of the order, use its channel (or the desk for what Stripe could not refund), stay within what is left of it; staff never refund a completed stay in full (a refund Stripe reports is recorded); reversals name a refund.';
revoke execute on function private.payments_check() from public;

create trigger payments_check before insert on public.payments
  for each row execute function private.payments_check();

-- After each ledger row the order's payment_status is derived again:
--   nothing paid -> pending; everything paid back -> refunded; part paid back ->
--   partially_refunded; the price paid -> paid; less than the price -> pending (outstanding).
-- A returned deposit paid back (payments.deposit_return) counts neither as paid nor as refunded.
-- A payment that arrives for an order already cancelled or expired keeps it pending (no
-- invoice for a booking that does not take place; the money is to be refunded, see
-- order_balance). Money in clears an unverified order's expiry: a paid order never expires.
-- A refund that brings an open booking to zero cancels it and frees its berth (issue 11).
create function private.payments_derive_status()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_ledger record;
  v_deposits bigint;
  v_paid bigint;
  v_refunded bigint;
  v_status public.payment_status;
  v_cancel boolean;
begin
  select * into v_order from public.orders o where o.id = new.order_id;
  select * into v_ledger from private.order_ledger(new.order_id);
  -- A returned deposit's money went back with its line: neither paid for the stay nor refunded.
  v_deposits := private.order_deposit_returns(new.order_id);
  v_paid := v_ledger.paid_cents - v_deposits;
  v_refunded := v_ledger.refunded_cents - v_deposits;
  v_status := case
    when v_paid <= 0 then 'pending'
    when v_refunded >= v_paid then 'refunded'
    when v_refunded > 0 then 'partially_refunded'
    when v_paid >= v_order.price_cents
         and not (v_order.status in ('cancelled', 'expired') and v_order.payment_status = 'pending') then 'paid'
    when v_order.payment_status = 'paid' then 'paid'
    else 'pending'
  end::public.payment_status;
  v_cancel := v_status = 'refunded' and v_order.status in ('unverified', 'confirmed', 'checked_in');
  if v_cancel then
    update public.place_statuses s set cancelled = true where s.order_id = v_order.id and not s.cancelled;
  end if;
  -- One update: the history trigger records the status change, then the payment change.
  update public.orders o
     set payment_status = v_status,
         payment_id = coalesce(o.payment_id, new.provider_payment_id),
         expires_at = case when v_ledger.paid_cents > 0 then null else o.expires_at end,
         status = case when v_cancel then 'cancelled'::public.order_status else o.status end,
         cancelled_at = case when v_cancel then private.now() else o.cancelled_at end
   where o.id = v_order.id
     and (o.payment_status is distinct from v_status or v_cancel
          or (v_ledger.paid_cents > 0 and o.expires_at is not null)
          or (o.payment_id is null and new.provider_payment_id is not null));
  return null;
end
$$;
comment on function private.payments_derive_status() is 'After insert on payments: derives the order''s payment_status from the ledger (pending, paid, partially_refunded, refunded), clears the expiry once money is in, cancels an open booking refunded to zero and frees its berth.';
revoke execute on function private.payments_derive_status() from public;

-- Named to fire after payments_history (36_order_desk.sql): the history shows the ledger row
-- before the status change it causes.
create trigger payments_update_order after insert on public.payments
  for each row execute function private.payments_derive_status();

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

-- Refunds of the stay Stripe made when refund-payment asked (its refund id), noted by
-- refund-payment with the service role as soon as Stripe answers (note_online_refund_requested).
-- settles_cents is what of it pays back a refund that failed before (owed to the guest then,
-- private.payment_desk_refundable): from that moment the desk does not pay that money too,
-- whether or not the webhook has recorded the refund yet. Append-only; no API role reads it.
create table private.online_refund_requests (
  id bigint generated always as identity primary key,
  payment_id uuid not null references public.payments (id),
  refund_id text not null unique check (refund_id ~ '^re_[A-Za-z0-9_]+$' and char_length(refund_id) <= 255),
  amount_cents integer not null check (amount_cents > 0),
  settles_cents integer not null check (settles_cents between 0 and amount_cents),
  requested_at timestamptz not null default now()
);

alter table private.online_refund_requests enable row level security;

comment on table private.online_refund_requests is 'Refunds of the stay Stripe made when refund-payment asked, with what of each pays back a failed refund (settles_cents). Written only by note_online_refund_requested (service role).';

create index online_refund_requests_payment_idx on private.online_refund_requests (payment_id);

revoke all on table private.online_refund_requests from public, anon, authenticated;

-- Whether Stripe reported a refund failed or cancelled (one of its refund events says so). The
-- in-flight checks of noted refunds ask it (private.refund_request_counts,
-- private.deposit_refund_in_flight); by the index stripe_events_refund_idx.
create function private.stripe_refund_failed(p_refund_id text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (select 1 from private.stripe_events e
                  where e.refund_id = p_refund_id and e.type like 'refund.%'
                    and e.payload #>> '{data,object,status}' in ('failed', 'canceled'))
$$;
comment on function private.stripe_refund_failed(text) is 'Whether one of a refund''s Stripe events reports it failed or cancelled.';
revoke execute on function private.stripe_refund_failed(text) from public;

-- Whether a refund Stripe made counts as given: it is in the ledger (even if reversed later: the
-- reversal then counts too), or it is in flight (neither in the ledger nor reported failed or
-- cancelled yet). A refund that failed before it was ever recorded gave nothing.
create function private.refund_request_counts(p_refund_id text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.payments r where r.provider_refund_id = p_refund_id)
         or not private.stripe_refund_failed(p_refund_id)
$$;
comment on function private.refund_request_counts(text) is 'Whether a refund Stripe made is in the ledger or still in flight (not reported failed or cancelled before it was recorded).';
revoke execute on function private.refund_request_counts(text) from public;

-- What the guest is owed of an online payment because refunds of the stay failed: what they
-- returned (reversals), less what the desk paid back of it and what later online refunds
-- settled (counted ones only). p_except leaves one refund out (one being noted: the webhook
-- may have recorded and reversed it already). Negative when a desk refund paid a failed
-- deposit back (private.payment_desk_refundable adds the deposits').
create function private.stay_refunds_owed(p_payment_id uuid, p_except text default null)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select (coalesce((select sum(v.amount_cents) from public.payments r join public.payments v on v.refund_of = r.id and v.kind = 'payment'
                     where r.refund_of = p_payment_id and r.kind = 'refund' and not r.deposit_return
                       and r.provider_refund_id is distinct from p_except), 0)
          - coalesce((select sum(d.amount_cents) from public.payments d
                       where d.refund_of = p_payment_id and d.kind = 'refund' and d.method <> 'online' and not d.deposit_return), 0)
          - coalesce((select sum(q.settles_cents) from private.online_refund_requests q
                       where q.payment_id = p_payment_id and private.refund_request_counts(q.refund_id)), 0))::bigint
$$;
comment on function private.stay_refunds_owed(uuid, text) is 'Cents of an online payment owed to the guest because refunds of the stay failed, less what the desk and later online refunds paid back (p_except: a refund left out).';
revoke execute on function private.stay_refunds_owed(uuid, text) from public;

-- Money the harbour holds but must pay back, from an order's state and its ledger's net
-- (paid minus refunded): a second charge (more than the price), a payment for a booking that was
-- cancelled or expired before it arrived (all of it), or what a cancellation under the policy
-- gives back (the net beyond the share kept, orders.cancellation_kept_cents). One rule for
-- order_balance and money_to_return; plain SQL, so the planner inlines it into money_to_return's
-- set-based query.
create function private.to_refund_cents(p_status public.order_status, p_payment_status public.payment_status,
                                        p_price_cents integer, p_net_cents bigint, p_kept_cents integer)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select case when p_status in ('cancelled', 'expired') and p_payment_status = 'pending' then greatest(p_net_cents, 0)
              when p_status = 'cancelled' and p_kept_cents is not null then greatest(p_net_cents - p_kept_cents, 0)
              else greatest(p_net_cents - p_price_cents, 0) end::bigint
$$;
comment on function private.to_refund_cents(public.order_status, public.payment_status, integer, bigint, integer) is 'Cents the harbour must pay back of an order''s net: all of it when the order ended before its payment arrived, what exceeds the share kept when it was cancelled under the policy, else what exceeds the price.';
revoke execute on function private.to_refund_cents(public.order_status, public.payment_status, integer, bigint, integer) from public;

-- What the order owes and what is to be paid back (the staff panel and the checkout read it).
create function private.order_balance_of(p_order public.orders)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ledger record;
  v_net bigint;
  v_ended boolean := p_order.status in ('cancelled', 'expired');
begin
  select * into v_ledger from private.order_ledger(p_order.id);
  v_net := v_ledger.paid_cents - v_ledger.refunded_cents;
  return jsonb_build_object(
    'price_cents', p_order.price_cents,
    'paid_cents', v_ledger.paid_cents,
    'refunded_cents', v_ledger.refunded_cents,
    'net_cents', v_net,
    -- After a refund of the stay nothing more is owed; a returned deposit paid back is no such
    -- refund (an extra added after it is owed).
    'outstanding_cents', case when v_ended or v_ledger.refunded_cents - private.order_deposit_returns(p_order.id) > 0 then 0
                              else greatest(p_order.price_cents - v_net, 0) end,
    -- Money the harbour holds but must pay back: a second charge, or a payment for a
    -- booking that was cancelled or expired before it arrived.
    -- (A cancellation's card refund on its way is not owed here: it comes back by itself.)
    'to_refund_cents', greatest(private.to_refund_cents(p_order.status, p_order.payment_status, p_order.price_cents, v_net,
                                                        p_order.cancellation_kept_cents)
                                - private.cancellation_refund_in_flight(p_order.id), 0),
    'refundable_online_cents', coalesce((select sum(private.payment_refundable(p.id)) from public.payments p
      where p.order_id = p_order.id and p.kind = 'payment' and p.refund_of is null and p.method = 'online'), 0),
    -- In cash or by transfer: desk payments, and what Stripe could not refund of online ones.
    'refundable_desk_cents', coalesce((select sum(private.payment_desk_refundable(p.id)) from public.payments p
      where p.order_id = p_order.id and p.kind = 'payment' and p.refund_of is null), 0),
    'payment_mode', p_order.payment_mode,
    -- An unpaid order that must be paid online lapses then (null: it does not lapse for want of payment).
    'pay_by', case when p_order.payment_mode = 'online_required' and p_order.payment_status = 'pending'
                   and p_order.status in ('unverified', 'confirmed') then p_order.expires_at end);
end
$$;
comment on function private.order_balance_of(public.orders) is 'An order''s money: price, paid, refunded, net, outstanding, to refund (double charge or paid after it ended), refundable online and at the desk, its payment mode (as booked) and the deadline to pay by when it must be paid online.';
revoke execute on function private.order_balance_of(public.orders) from public;

create function private.order_balance(p_order_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
begin
  select * into v_order from public.orders o where o.id = p_order_id;
  if not found or (v_order.user_id is distinct from (select auth.uid()) and not private.is_staff()) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  return private.order_balance_of(v_order);
end
$$;
comment on function private.order_balance(uuid) is 'The rule behind public.order_balance (security definer, not exposed by the API).';
revoke execute on function private.order_balance(uuid) from public;
grant execute on function private.order_balance(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/order_balance): runs as the caller, the rule above decides.
create function public.order_balance(p_order_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.order_balance(p_order_id)
$$;
comment on function public.order_balance(uuid) is 'The owner or staff: an order''s price, paid, refunded, net, outstanding and to-refund cents, what can be refunded online and at the desk, and its payment mode.';
revoke execute on function public.order_balance(uuid) from anon, public;

-- Money the harbour holds but must pay back, for the harbour team's overview: a second charge
-- or a payment for a booking cancelled or expired before it arrived (order_balance's
-- to_refund_cents), and refunds the guest's bank did not take that the desk has not paid back
-- (private.payment_desk_refundable of the online payments). Only orders whose ledger has such a
-- row are looked at: a payment noted to_refund, a reversal, or a payment on an ended order.
create function private.money_to_return(p_limit integer default 20)
returns table (order_id uuid, booking_number text, first_name text, last_name text, place_name text,
               to_refund_cents bigint, failed_refund_cents bigint, open_total integer)
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
    with candidates as (
      select p.order_id from public.payments p
       where p.kind = 'payment' and (p.refund_of is not null or p.note like 'to_refund:%')
      union
      select o.id from public.orders o
       where o.status in ('cancelled', 'expired') and o.payment_status = 'pending'
         and exists (select 1 from public.payments p where p.order_id = o.id and p.kind = 'payment')
      union
      -- Cancelled under the policy with money still held (orders_cancelled_kept_idx).
      select o.id from public.orders o
       where o.status = 'cancelled' and o.cancellation_kept_cents is not null and o.payment_status in ('paid', 'partially_refunded')
    ), owed as (
      select o.id, o.booking_number, o.person ->> 'first_name' as first_name, o.person ->> 'last_name' as last_name,
             o.place_snapshot ->> 'name' as place_name,
             greatest(private.to_refund_cents(o.status, o.payment_status, o.price_cents, l.net, o.cancellation_kept_cents)
                      - private.cancellation_refund_in_flight(o.id), 0) as to_refund, l.failed, o.created_at
        from candidates c
        join public.orders o on o.id = c.order_id
        -- Each candidate's ledger by its index (private.order_ledger's sums: net = payments -
        -- refunds + reversals), and what failed refunds returned that the desk has not paid
        -- back (payment_desk_refundable, asked only of online payments with a reversed refund:
        -- for any other it is 0).
        cross join lateral (
          select (coalesce(sum(p.amount_cents) filter (where p.kind = 'payment'), 0)
                  - coalesce(sum(p.amount_cents) filter (where p.kind = 'refund'), 0))::bigint as net,
                 coalesce(sum(private.payment_desk_refundable(p.id))
                            filter (where p.kind = 'payment' and p.refund_of is null and p.method = 'online'
                                      and exists (select 1 from public.payments r
                                                   where r.refund_of = p.id and r.kind = 'refund'
                                                     and exists (select 1 from public.payments v where v.refund_of = r.id and v.kind = 'payment'))),
                          0)::bigint as failed
            from public.payments p
           where p.order_id = c.order_id
        ) l
    )
    -- A failed refund of money the order held beyond its price (a returned deposit, a second
    -- charge) is that excess again: counted once, as the failed refund. (Not exact when a
    -- failed goodwill refund and an excess meet on one order: the list then shows the larger
    -- of the two until one is paid back.)
    select w.id, w.booking_number, w.first_name, w.last_name, w.place_name, greatest(w.to_refund - w.failed, 0), w.failed,
           (count(*) over ())::integer
      from owed w
     where w.to_refund > 0 or w.failed > 0
     order by w.created_at, w.id
     limit least(greatest(coalesce(p_limit, 20), 1), 100);
end
$$;
comment on function private.money_to_return(integer) is 'The rule behind public.money_to_return (security definer, not exposed by the API).';
revoke execute on function private.money_to_return(integer) from public;
grant execute on function private.money_to_return(integer) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/money_to_return): runs as the caller, the rule above decides.
create function public.money_to_return(p_limit integer DEFAULT 20)
returns TABLE(order_id uuid, booking_number text, first_name text, last_name text, place_name text,
              to_refund_cents bigint, failed_refund_cents bigint, open_total integer)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.money_to_return(p_limit)
$$;
comment on function public.money_to_return(integer) is 'Staff: the orders (oldest first) where the harbour holds money that must go back (a second charge, a payment on a cancelled or expired booking, a refund the guest''s bank did not take), how much of each, and how many such orders there are.';
revoke execute on function public.money_to_return(integer) from anon, public;

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

  if v_event.type in ('checkout.session.completed', 'checkout.session.async_payment_succeeded') then
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

-- Staff record money taken at the desk: by card terminal, cash or transfer; the outstanding
-- amount unless told otherwise. The "mark paid" of the order page.
create function private.record_desk_payment(p_order_id uuid, p_method public.payment_method, p_amount_cents integer default null, p_note text default null)
returns public.payments
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_outstanding integer;
  v_amount integer;
  v_note text := nullif(btrim(p_note), '');
  v_row public.payments;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_method is null or p_method = 'online' then
    raise exception 'invalid_payment_method' using errcode = '22023', hint = 'Desk payments: card_terminal, cash or bank_transfer; online ones come from Stripe.';
  end if;
  if char_length(v_note) > 500 then
    raise exception 'invalid_note' using errcode = '22023', hint = 'A note has at most 500 characters.';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.status in ('cancelled', 'expired') then
    raise exception 'order_not_payable' using errcode = 'P0001',
      hint = 'A cancelled or expired booking cannot be marked paid: it does not take place, so no invoice is issued for it.';
  end if;
  v_outstanding := (private.order_balance_of(v_order) ->> 'outstanding_cents')::integer;
  -- A paid order owes again when an extra was added after it was paid (55_extras.sql).
  if v_order.payment_status not in ('pending', 'paid') or v_outstanding <= 0 then
    raise exception 'order_already_paid' using errcode = 'P0001';
  end if;
  v_amount := coalesce(p_amount_cents, v_outstanding);
  if v_amount <= 0 or v_amount > v_outstanding then
    raise exception 'invalid_amount' using errcode = '22023', hint = 'Between 1 cent and the outstanding amount.';
  end if;
  insert into public.payments (order_id, kind, method, amount_cents, currency, recorded_by, recorded_at, note)
  values (p_order_id, 'payment', p_method, v_amount, 'eur', (select auth.uid()), private.now(), v_note)
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.record_desk_payment(uuid, public.payment_method, integer, text) is 'The rule behind public.record_desk_payment (security definer, not exposed by the API).';
revoke execute on function private.record_desk_payment(uuid, public.payment_method, integer, text) from public;
grant execute on function private.record_desk_payment(uuid, public.payment_method, integer, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/record_desk_payment): runs as the caller, the rule above decides.
create function public.record_desk_payment(p_order_id uuid, p_method public.payment_method, p_amount_cents integer DEFAULT NULL::integer, p_note text DEFAULT NULL::text)
returns public.payments
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.record_desk_payment(p_order_id, p_method, p_amount_cents, p_note)
$$;
comment on function public.record_desk_payment(uuid, public.payment_method, integer, text) is 'Staff record a desk payment (card_terminal, cash, bank_transfer) of the outstanding amount or part of it; the order becomes paid when the price is in (the invoice is issued then).';
revoke execute on function public.record_desk_payment(uuid, public.payment_method, integer, text) from anon, public;

-- Staff pay money back at the desk (cash or transfer): first what Stripe could not refund of
-- the order's online payments (a failed refund, owed to the guest since), then its desk
-- payments, newest first; an online payment is otherwise refunded through Stripe
-- (prepare_online_refund). p_deposit names the returned deposit (order_extras.id) the refund
-- pays back: it is then a deposit return (payments.deposit_return, order_extra_id).
create function private.record_desk_refund(p_order_id uuid, p_method public.payment_method, p_amount_cents integer, p_note text default null, p_deposit uuid default null)
returns public.payments
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_note text := nullif(btrim(p_note), '');
  v_left integer := p_amount_cents;
  v_payment record;
  v_part integer;
  v_row public.payments;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_method is null or p_method not in ('cash', 'bank_transfer') then
    raise exception 'invalid_payment_method' using errcode = '22023', hint = 'Desk refunds: cash or bank_transfer.';
  end if;
  if p_amount_cents is null or p_amount_cents <= 0 then
    raise exception 'invalid_amount' using errcode = '22023';
  end if;
  if char_length(v_note) > 500 then
    raise exception 'invalid_note' using errcode = '22023', hint = 'A note has at most 500 characters.';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if p_deposit is not null and not exists (select 1 from public.order_extras e
                                           where e.id = p_deposit and e.order_id = p_order_id and e.deposit and e.returned_at is not null) then
    raise exception 'order_extra_not_found' using errcode = 'PT404', hint = 'A deposit return names a returned deposit of the order.';
  end if;
  if not exists (select 1 from public.payments p where p.order_id = p_order_id and p.kind = 'payment' and p.refund_of is null
                    and (p.method <> 'online' or private.payment_desk_refundable(p.id) > 0)) then
    if exists (select 1 from public.payments p where p.order_id = p_order_id and p.kind = 'payment') then
      raise exception 'refund_online_payment' using errcode = 'P0001', hint = 'An online payment is refunded through Stripe.';
    end if;
    raise exception 'nothing_to_refund' using errcode = 'P0001';
  end if;
  if p_amount_cents > (private.order_balance_of(v_order) ->> 'refundable_desk_cents')::integer then
    raise exception 'refund_exceeds_payment' using errcode = 'P0001', hint = 'A refund never exceeds what was paid at the desk.';
  end if;
  -- What Stripe could not refund of online payments first (the money the guest is owed since
  -- a refund failed: it leaves the overview's "money to pay back"), then desk payments.
  for v_payment in
    select p.id, private.payment_desk_refundable(p.id) as refundable from public.payments p
     where p.order_id = p_order_id and p.kind = 'payment' and p.refund_of is null
     order by p.method <> 'online', p.recorded_at desc, p.id
  loop
    exit when v_left <= 0;
    continue when v_payment.refundable <= 0;
    v_part := least(v_left, v_payment.refundable);
    insert into public.payments (order_id, kind, method, amount_cents, currency, refund_of, recorded_by, recorded_at, note, deposit_return, order_extra_id)
    values (p_order_id, 'refund', p_method, v_part, 'eur', v_payment.id, (select auth.uid()), private.now(), v_note, p_deposit is not null, p_deposit)
    returning * into v_row;
    v_left := v_left - v_part;
  end loop;
  return v_row;
end
$$;
comment on function private.record_desk_refund(uuid, public.payment_method, integer, text, uuid) is 'The rule behind public.record_desk_refund (security definer, not exposed by the API).';
revoke execute on function private.record_desk_refund(uuid, public.payment_method, integer, text, uuid) from public;
grant execute on function private.record_desk_refund(uuid, public.payment_method, integer, text, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/record_desk_refund): runs as the caller, the rule above decides.
create function public.record_desk_refund(p_order_id uuid, p_method public.payment_method, p_amount_cents integer, p_note text DEFAULT NULL::text, p_notify boolean DEFAULT true)
returns public.payments
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.record_desk_refund(p_order_id, p_method, p_amount_cents, p_note);
$$;
comment on function public.record_desk_refund(uuid, public.payment_method, integer, text, boolean) is 'Staff refund desk payments in cash or by transfer (never more than was paid at the desk), and what Stripe could not refund of an online payment (a failed refund); a refund to zero cancels an open booking and frees its berth, a completed stay is not refunded in full; p_notify = false leaves the guest''s e-mails out. Returns the (last) refund row.';
revoke execute on function public.record_desk_refund(uuid, public.payment_method, integer, text, boolean) from anon, public;

-- Staff refund (part of) an online payment: the rules are checked here, the edge function
-- refund-payment then asks Stripe; the ledger follows Stripe's refund events.
-- The online payment a refund of p_cents goes to (a refund of the stay, a deposit's return):
-- the order's Stripe payment with enough left (else the latest); refused when the order has no
-- online payment (a desk payment goes back in cash or by transfer) or that payment has less
-- left than the refund.
create function private.online_refund_payment(p_order_id uuid, p_cents bigint, out payment_intent text, out refundable_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  select p.provider_payment_id, private.payment_refundable(p.id) into payment_intent, refundable_cents
    from public.payments p
   where p.order_id = p_order_id and p.kind = 'payment' and p.refund_of is null and p.method = 'online'
   order by private.payment_refundable(p.id) >= p_cents desc, p.recorded_at desc, p.id
   limit 1;
  if not found then
    raise exception 'no_online_payment' using errcode = 'P0001', hint = 'Paid at the desk: refunded in cash or by transfer (record_desk_refund, return_deposit).';
  end if;
  if refundable_cents < p_cents then
    raise exception 'refund_exceeds_payment' using errcode = 'P0001', hint = 'A refund never exceeds what is left of the online payment.';
  end if;
end
$$;
comment on function private.online_refund_payment(uuid, bigint) is 'The Stripe payment intent a refund of p_cents goes to and what it has left; refuses an order without an online payment and a payment with too little left.';
revoke execute on function private.online_refund_payment(uuid, bigint) from public;

-- A refund of the stay as the caller asked for it, by the request key the caller keeps (the
-- app's refund dialog makes one when staff confirm a refund and sends it again with every retry
-- of that refund: a double click, a retry after a timeout). Ground rule 6: money is safe to
-- retry. The first call records the request (prepare_online_refund); every later call with the
-- same key gets that request back, whatever was recorded in between, and refund-payment asks
-- Stripe with the Idempotency-Key refund-<request_key> (or, once the refund is known, Stripe is
-- not asked to make one at all): one request, at most one Stripe refund. refund_id is set when
-- refund-payment notes the refund Stripe made (note_online_refund_requested). Append-only but
-- for that; no API role reads it.
create table private.refund_requests (
  request_key uuid primary key,
  order_id uuid not null references public.orders (id),
  amount_cents integer not null check (amount_cents > 0),
  payment_intent text not null,
  requested_by uuid,
  requested_at timestamptz not null default now(),
  refund_id text unique check (refund_id ~ '^re_[A-Za-z0-9_]+$' and char_length(refund_id) <= 255)
);

alter table private.refund_requests enable row level security;

comment on table private.refund_requests is 'Refunds of the stay asked for through refund-payment, one per request key the caller keeps (retries of one request get the same refund, never a second); refund_id once Stripe made it. Written by prepare_online_refund and note_online_refund_requested.';

create index refund_requests_order_idx on private.refund_requests (order_id);

revoke all on table private.refund_requests from public, anon, authenticated;

-- Stripe keeps an Idempotency-Key for at least 24 hours; a request whose refund is not known
-- after 23 hours is not sent again under its key (Stripe might make a second refund then).
create function private.prepare_online_refund(p_order_id uuid, p_amount_cents integer, p_request_key uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_payment record;
  v_ledger record;
  v_request private.refund_requests;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_amount_cents is null or p_amount_cents <= 0 then
    raise exception 'invalid_amount' using errcode = '22023';
  end if;
  if p_request_key is null then
    raise exception 'invalid_request_key' using errcode = '22023', hint = 'A refund names its request key (a UUID the caller keeps for retries).';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  -- Under the order's lock: a second call with the key waits for the first and finds its row.
  select * into v_request from private.refund_requests q where q.request_key = p_request_key;
  if found then
    if v_request.order_id <> p_order_id or v_request.amount_cents <> p_amount_cents then
      raise exception 'request_key_reused' using errcode = 'PT422',
        hint = 'This request key belongs to another refund (another order or amount): a new refund needs a new key.';
    end if;
    if v_request.refund_id is null and v_request.requested_at < private.now() - interval '23 hours' then
      raise exception 'request_key_expired' using errcode = 'PT409',
        hint = 'Stripe''s answer to this request is no longer known: look at the order''s payments before asking for a new refund.';
    end if;
    return jsonb_build_object('payment_intent', v_request.payment_intent, 'refund_id', v_request.refund_id, 'replay', true,
                              'idempotency_key', 'refund-' || p_request_key::text);
  end if;
  select r.payment_intent, r.refundable_cents as refundable into v_payment from private.online_refund_payment(p_order_id, p_amount_cents) r;
  select * into v_ledger from private.order_ledger(p_order_id);
  if v_order.status = 'completed' and v_ledger.paid_cents - v_ledger.refunded_cents - p_amount_cents <= 0 then
    raise exception 'order_not_refundable' using errcode = 'P0001', hint = 'A completed stay is not refunded in full.';
  end if;
  -- A refund Stripe made for this order but did not report yet is not counted in what is left
  -- of the payment: only the request key tells a retry from a new refund.
  insert into private.refund_requests (request_key, order_id, amount_cents, payment_intent, requested_by, requested_at)
  values (p_request_key, p_order_id, p_amount_cents, v_payment.payment_intent, (select auth.uid()), private.now());
  -- The Idempotency-Key is the request's: a retry of this request (the same key) gets Stripe's
  -- answer to it, a new refund after one failed (a new key) is a new refund at Stripe.
  return jsonb_build_object('payment_intent', v_payment.payment_intent, 'refund_id', null, 'replay', false,
                            'idempotency_key', 'refund-' || p_request_key::text);
end
$$;
comment on function private.prepare_online_refund(uuid, integer, uuid) is 'The rule behind public.prepare_online_refund (security definer, not exposed by the API).';
revoke execute on function private.prepare_online_refund(uuid, integer, uuid) from public;
grant execute on function private.prepare_online_refund(uuid, integer, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/prepare_online_refund): runs as the caller, the rule above decides.
create function public.prepare_online_refund(p_order_id uuid, p_amount_cents integer, p_request_key uuid)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.prepare_online_refund(p_order_id, p_amount_cents, p_request_key)
$$;
comment on function public.prepare_online_refund(uuid, integer, uuid) is 'Staff: checks an online refund (an online payment with enough left, a completed stay not in full) and records it by the caller''s request key; returns {payment_intent, refund_id, replay, idempotency_key} for refund-payment. The same key again returns the same request (replay, with its refund once known); with another order or amount it is refused (request_key_reused). The ledger follows Stripe''s refund events.';
revoke execute on function public.prepare_online_refund(uuid, integer, uuid) from anon, public;

-- refund-payment notes the refund of the stay Stripe made (service role only), before the
-- webhook tells whether it succeeded. What of it pays back a refund that failed before is
-- fixed now, under the order's lock (so a desk refund waits or goes first): the money owed
-- since that failure (private.payment_desk_refundable, refunds of the stay only), up to the
-- amount. Stripe answers a repeated request (the same Idempotency-Key) with the same refund:
-- noted once.
create function private.note_online_refund_requested(p_payment_intent text, p_refund_id text, p_amount_cents integer, p_request_key uuid default null)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_payment public.payments;
  v_owed bigint;
begin
  if p_refund_id is null or p_refund_id !~ '^re_[A-Za-z0-9_]+$' or char_length(p_refund_id) > 255 then
    raise exception 'invalid_refund_id' using errcode = '22023';
  end if;
  if p_amount_cents is null or p_amount_cents <= 0 then
    raise exception 'invalid_amount' using errcode = '22023';
  end if;
  select * into v_payment from public.payments p
   where p.provider_payment_id = p_payment_intent and p.kind = 'payment' and p.refund_of is null and p.method = 'online'
   order by p.recorded_at limit 1;
  if not found then
    raise exception 'payment_not_found' using errcode = 'PT404';
  end if;
  perform 1 from public.orders o where o.id = v_payment.order_id for update;
  -- The request it answers knows its refund from now on: a retry gets it without asking Stripe.
  update private.refund_requests q set refund_id = p_refund_id
   where q.request_key = p_request_key and q.order_id = v_payment.order_id and q.refund_id is null;
  if exists (select 1 from private.online_refund_requests q where q.refund_id = p_refund_id) then
    return;
  end if;
  v_owed := private.stay_refunds_owed(v_payment.id, p_refund_id);
  insert into private.online_refund_requests (payment_id, refund_id, amount_cents, settles_cents)
  values (v_payment.id, p_refund_id, p_amount_cents, least(p_amount_cents, greatest(v_owed, 0)));
end
$$;
comment on function private.note_online_refund_requested(text, text, integer, uuid) is 'The rule behind public.note_online_refund_requested (security definer, not exposed by the API).';
revoke execute on function private.note_online_refund_requested(text, text, integer, uuid) from public;
grant execute on function private.note_online_refund_requested(text, text, integer, uuid) to service_role;

create function public.note_online_refund_requested(p_payment_intent text, p_refund_id text, p_amount_cents integer, p_request_key uuid DEFAULT NULL::uuid)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.note_online_refund_requested(p_payment_intent, p_refund_id, p_amount_cents, p_request_key)
$$;
comment on function public.note_online_refund_requested(text, text, integer, uuid) is 'refund-payment (service role): Stripe made this refund of the stay (for the request p_request_key); what of it pays back a failed refund is no longer owed at the desk, from now on.';
revoke execute on function public.note_online_refund_requested(text, text, integer, uuid) from anon, authenticated, public;
grant execute on function public.note_online_refund_requested(text, text, integer, uuid) to service_role;

create function private.orders_refuse_payment_when_ended()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.payment_status = 'paid' and old.payment_status = 'pending' and new.status in ('cancelled', 'expired') then
    raise exception 'order_not_payable' using errcode = 'P0001',
      hint = 'A cancelled or expired booking cannot be marked paid: it does not take place, so no invoice is issued for it.';
  end if;
  return new;
end
$$;
comment on function private.orders_refuse_payment_when_ended() is 'Refuses pending -> paid on a cancelled or expired order, whoever writes.';
revoke execute on function private.orders_refuse_payment_when_ended() from public;

create trigger orders_refuse_payment_when_ended before update of payment_status on public.orders
  for each row execute function private.orders_refuse_payment_when_ended();
