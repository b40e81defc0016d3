-- Payments: the ledger (public.payments, append-only), the order's payment status derived from
-- it, what an order owes and what is to be paid back, and the refund notice to the guest.
-- Stripe is in 35a_stripe_payments.sql, the invoice documents a payment issues in
-- 35b_invoice_documents.sql, refunds asked of Stripe in 35c_online_refunds.sql, money taken and
-- paid back at the desk in 35d_desk_payments.sql.

-- ---------------------------------------------------------------------------------------------
-- The payments ledger (issue 20). Every payment and refund is one row; no row is ever updated
-- or deleted (no grants, and a trigger refuses it to every role, the functions' owner too). A
-- correction is a new row that refers to the old one (refund_of): a refund names the payment it
-- refunds; a refund that Stripe reports failed after it had succeeded is reversed by a payment
-- row whose refund_of names that refund. The order's payment_status is derived from the rows.
create table public.payments (
  id uuid primary key default gen_random_uuid(),
  -- The order paid, or (fee_id) a long-term fee instalment (63_long_term_fees.sql): exactly one.
  order_id uuid references public.orders (id),
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
  -- For an online deposit return: the deposit (order_extras, 55_extras.sql) it paid back, named
  -- by the Stripe refund's metadata (recorded by private.record_online_refund). Its foreign key
  -- is declared in 56_deposits.sql, after the table it references.
  order_extra_id uuid,
  -- The long-term fee instalment paid (then order_id is null). Its foreign key is declared in
  -- 63_long_term_fees.sql, after the table it references.
  fee_id uuid,
  constraint payments_order_or_fee check ((order_id is null) <> (fee_id is null)),
  constraint payments_refund_refers check (kind = 'payment' or refund_of is not null),
  constraint payments_deposit_return_is_desk_refund check (not deposit_return or (kind = 'refund' and method in ('cash', 'bank_transfer', 'online'))),
  constraint payments_online_is_stripe check ((method = 'online') = (provider is not null)),
  constraint payments_refund_method check (kind = 'payment' or method in ('online', 'cash', 'bank_transfer')),
  constraint payments_refund_id_on_refunds check (provider_refund_id is null or kind = 'refund'),
  constraint payments_order_extra_is_deposit_return check (order_extra_id is null or deposit_return)
);

comment on column public.payments.order_extra_id is 'For an online deposit return: the order extra (the deposit) it paid back, named by the Stripe refund''s metadata; a retry of a failed deposit refund looks for it.';

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

create index payments_order_extra_idx on public.payments (order_extra_id) where order_extra_id is not null;

-- The policy (owners of the order or of the fee, staff all) is in 63_long_term_fees.sql, after
-- the fees table it names.

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
  for each row when (new.order_id is not null) execute function private.payments_check();

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
  for each row when (new.order_id is not null) execute function private.payments_derive_status();

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

-- A refund in the ledger (online through Stripe, or cash / transfer at the desk) is confirmed
-- to the guest: the amount, how it comes back, the booking.
create function private.queue_refund_notice()
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
  -- A returned deposit paid back has its own mail (private.queue_deposit_return_notice).
  if new.kind <> 'refund' or new.deposit_return or not private.guest_mail_wanted() then
    return null;
  end if;
  select * into v_order from public.orders o where o.id = new.order_id;
  if v_order.email is null or v_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_locale := private.order_locale(v_order);
  v_en := v_locale = 'en';
  perform private.queue_mail(
    'refund_notice', v_order.email, v_locale,
    case when v_en
      then format('Refund of %s: booking %s', private.format_eur(new.amount_cents, 'en'), v_order.booking_number)
      else format('Erstattung von %s: Buchung %s', private.format_eur(new.amount_cents, 'de'), v_order.booking_number) end,
    private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
      case new.method
        when 'online' then case when v_en
          then format('we have refunded %s to the card you paid with. Depending on your bank it shows on your statement within 5 to 10 days.', private.format_eur(new.amount_cents, 'en'))
          else format('wir haben Ihnen %s auf die Karte erstattet, mit der Sie bezahlt haben. Je nach Bank erscheint der Betrag in 5 bis 10 Tagen auf Ihrer Abrechnung.', private.format_eur(new.amount_cents, 'de')) end
        when 'bank_transfer' then case when v_en
          then format('we have refunded %s by bank transfer.', private.format_eur(new.amount_cents, 'en'))
          else format('wir haben Ihnen %s per Überweisung erstattet.', private.format_eur(new.amount_cents, 'de')) end
        else case when v_en
          then format('we have refunded %s to you at the harbour office.', private.format_eur(new.amount_cents, 'en'))
          else format('wir haben Ihnen %s im Hafenbüro erstattet.', private.format_eur(new.amount_cents, 'de')) end
      end,
      '',
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
      case when v_en then 'Berth: ' else 'Liegeplatz: ' end || (v_order.place_snapshot ->> 'name') || ', '
        || private.format_berlin(v_order.starts_at, v_locale),
      case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id)),
    '[]'::jsonb,
    private.setting('harbour_email'),
    v_order.id);
  return null;
end
$$;
comment on function private.queue_refund_notice() is 'After insert on payments: confirms a refund (online, cash or transfer) to the guest by e-mail in the booking''s language.';
revoke execute on function private.queue_refund_notice() from public;

create trigger payments_queue_refund_notice after insert on public.payments
  for each row when (new.order_id is not null) execute function private.queue_refund_notice();
