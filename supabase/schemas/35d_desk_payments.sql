-- Money at the desk: staff record a payment taken by card terminal, cash or transfer, and pay
-- money back in cash or by transfer (what Stripe could not refund first).

-- A desk payment or refund is safe to retry (ground rule 6; docs/adr/0030-payments-ledger.md):
-- the order desk sends a request key it keeps for the retries of one confirmed action (a second
-- click, a retry after a timeout). The first call records it with the ledger row it wrote; a
-- later call with the same key gets that row back and writes nothing, whatever happened in
-- between. A key names one action: reused for another order, kind, method or amount it is
-- refused (request_key_reused). Append-only; no API role reads it.
create table private.desk_requests (
  request_key uuid primary key,
  order_id uuid not null references public.orders (id),
  kind text not null check (kind in ('payment', 'refund')),
  method public.payment_method not null,
  -- As asked: null = the outstanding amount (a payment's default).
  amount_cents integer,
  -- The ledger row the call returned (a refund over several payments: the last of its rows).
  payment_id uuid not null references public.payments (id),
  requested_by uuid,
  requested_at timestamptz not null default now()
);

alter table private.desk_requests enable row level security;

comment on table private.desk_requests is 'Desk payments and refunds by the request key the order desk keeps for retries: a retry gets the ledger row of the first call back, never a second row. Written by record_desk_payment and record_desk_refund.';

create index desk_requests_order_idx on private.desk_requests (order_id);

create index desk_requests_payment_idx on private.desk_requests (payment_id);

revoke all on table private.desk_requests from public, anon, authenticated;

-- The ledger row a retried desk request wrote, or null for a new request; refuses a key reused
-- for another action. Called under the order's row lock, so a concurrent retry waits for the
-- first call and then finds its row.
create function private.desk_request_replay(p_request_key uuid, p_order_id uuid, p_kind text, p_method public.payment_method, p_amount_cents integer)
returns public.payments
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_request private.desk_requests;
  v_row public.payments;
begin
  if p_request_key is null then
    return null;
  end if;
  select * into v_request from private.desk_requests q where q.request_key = p_request_key;
  if not found then
    return null;
  end if;
  if v_request.order_id <> p_order_id or v_request.kind <> p_kind or v_request.method <> p_method
     or v_request.amount_cents is distinct from p_amount_cents then
    raise exception 'request_key_reused' using errcode = 'PT422',
      hint = 'This request key belongs to another payment or refund (another order, method or amount): a new one needs a new key.';
  end if;
  select * into v_row from public.payments p where p.id = v_request.payment_id;
  return v_row;
end
$$;
comment on function private.desk_request_replay(uuid, uuid, text, public.payment_method, integer) is 'The ledger row a desk request with this key already wrote (null: a new request); request_key_reused when the key names another action.';
revoke execute on function private.desk_request_replay(uuid, uuid, text, public.payment_method, integer) from public;

-- Staff record money taken at the desk: by card terminal, cash or transfer; the outstanding
-- amount unless told otherwise. The "mark paid" of the order page.
create function private.record_desk_payment(p_order_id uuid, p_method public.payment_method, p_amount_cents integer default null, p_note text default null, p_request_key uuid default null)
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
  -- A retry of a payment already recorded gets its row back (before the checks its first call
  -- changed: the order is paid by now).
  v_row := private.desk_request_replay(p_request_key, p_order_id, 'payment', p_method, p_amount_cents);
  if v_row.id is not null then
    return v_row;
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
  if p_request_key is not null then
    insert into private.desk_requests (request_key, order_id, kind, method, amount_cents, payment_id, requested_by, requested_at)
    values (p_request_key, p_order_id, 'payment', p_method, p_amount_cents, v_row.id, (select auth.uid()), private.now());
  end if;
  return v_row;
end
$$;
comment on function private.record_desk_payment(uuid, public.payment_method, integer, text, uuid) is 'The rule behind public.record_desk_payment (security definer, not exposed by the API).';
revoke execute on function private.record_desk_payment(uuid, public.payment_method, integer, text, uuid) from public;
grant execute on function private.record_desk_payment(uuid, public.payment_method, integer, text, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/record_desk_payment): runs as the caller, the rule above decides.
create function public.record_desk_payment(p_order_id uuid, p_method public.payment_method, p_amount_cents integer DEFAULT NULL::integer, p_note text DEFAULT NULL::text, p_request_key uuid DEFAULT NULL::uuid)
returns public.payments
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.record_desk_payment(p_order_id, p_method, p_amount_cents, p_note, p_request_key)
$$;
comment on function public.record_desk_payment(uuid, public.payment_method, integer, text, uuid) is 'Staff record a desk payment (card_terminal, cash, bank_transfer) of the outstanding amount or part of it; the order becomes paid when the price is in (the invoice is issued then). A retry with the same p_request_key returns the row of the first call and records nothing.';
revoke execute on function public.record_desk_payment(uuid, public.payment_method, integer, text, uuid) from anon, public;

-- Staff pay money back at the desk (cash or transfer): first what Stripe could not refund of
-- the order's online payments (a failed refund, owed to the guest since), then its desk
-- payments, newest first; an online payment is otherwise refunded through Stripe
-- (prepare_online_refund). p_deposit names the returned deposit (order_extras.id) the refund
-- pays back: it is then a deposit return (payments.deposit_return, order_extra_id).
create function private.record_desk_refund(p_order_id uuid, p_method public.payment_method, p_amount_cents integer, p_note text default null, p_deposit uuid default null, p_request_key uuid default null)
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
  -- A retry of a refund already made gets its (last) row back: nothing is paid back twice.
  v_row := private.desk_request_replay(p_request_key, p_order_id, 'refund', p_method, p_amount_cents);
  if v_row.id is not null then
    return v_row;
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
  if p_request_key is not null then
    insert into private.desk_requests (request_key, order_id, kind, method, amount_cents, payment_id, requested_by, requested_at)
    values (p_request_key, p_order_id, 'refund', p_method, p_amount_cents, v_row.id, (select auth.uid()), private.now());
  end if;
  return v_row;
end
$$;
comment on function private.record_desk_refund(uuid, public.payment_method, integer, text, uuid, uuid) is 'The rule behind public.record_desk_refund (security definer, not exposed by the API).';
revoke execute on function private.record_desk_refund(uuid, public.payment_method, integer, text, uuid, uuid) from public;
grant execute on function private.record_desk_refund(uuid, public.payment_method, integer, text, uuid, uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/record_desk_refund): runs as the caller, the rule above decides.
create function public.record_desk_refund(p_order_id uuid, p_method public.payment_method, p_amount_cents integer, p_note text DEFAULT NULL::text, p_notify boolean DEFAULT true, p_request_key uuid DEFAULT NULL::uuid)
returns public.payments
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.set_guest_mail(p_notify);
  select * from private.record_desk_refund(p_order_id, p_method, p_amount_cents, p_note, null, p_request_key);
$$;
comment on function public.record_desk_refund(uuid, public.payment_method, integer, text, boolean, uuid) is 'Staff refund desk payments in cash or by transfer (never more than was paid at the desk), and what Stripe could not refund of an online payment (a failed refund); a refund to zero cancels an open booking and frees its berth, a completed stay is not refunded in full; p_notify = false leaves the guest''s e-mails out. Returns the (last) refund row; a retry with the same p_request_key returns it again and pays nothing back twice.';
revoke execute on function public.record_desk_refund(uuid, public.payment_method, integer, text, boolean, uuid) from anon, public;
