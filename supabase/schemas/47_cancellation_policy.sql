-- The cancellation policy (issue 40 item 1, docs/adr/0010-cancellation-policy-and-money-owed.md):
-- a guest cancels free of charge until a number of hours before arrival, afterwards the harbour
-- keeps a share of the price. One function computes what a cancellation keeps and gives back,
-- and how (to the card automatically, at the harbour office): the cancel dialog's preview
-- (cancellation_quote) and cancel_booking both call it, so the two never disagree.

-- The policy's two columns of harbour_settings are declared in 45_harbour_access.sql.

-- What a cancellation kept is orders.cancellation_kept_cents (31_orders.sql).

-- The orders cancelled under the policy, for private.money_to_return (which looks at those
-- still holding money: paid or partly refunded).
create index orders_cancelled_kept_idx on public.orders (payment_status)
  where status = 'cancelled' and cancellation_kept_cents is not null;

create function private.cancellation_policy()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('free_hours', s.cancel_free_hours, 'fee_percent', s.cancel_fee_percent)
  from public.harbour_settings s where s.id = 1
$$;
comment on function private.cancellation_policy() is 'The rule behind public.cancellation_policy (security definer, not exposed by the API).';
revoke execute on function private.cancellation_policy() from public;
grant execute on function private.cancellation_policy() to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/cancellation_policy): everyone reads the policy (booking
-- summary, prices page).
create function public.cancellation_policy()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.cancellation_policy()
$$;
comment on function public.cancellation_policy() is 'The cancellation policy for everyone: {free_hours, fee_percent}: free until free_hours before arrival, then fee_percent of the price is kept.';
revoke execute on function public.cancellation_policy() from public;
grant execute on function public.cancellation_policy() to anon, authenticated, service_role;

-- The request key of a cancellation's card refund: derived from the order, so every retry of
-- the cancellation's refund (refund-payment with {cancellation_of}) is the same request and the
-- same Stripe Idempotency-Key (refund-<key>): at most one refund (ADR 0003, ADR 0010).
create function private.cancellation_request_key(p_order_id uuid)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select md5('cancellation:' || p_order_id::text)::uuid
$$;
comment on function private.cancellation_request_key(uuid) is 'The refund request key of an order''s cancellation (derived from the order: retries are the same request).';
revoke execute on function private.cancellation_request_key(uuid) from public;

-- What cancelling the order now would keep and give back. The harbour cancelling (p_by_harbour:
-- staff) keeps nothing; a guest cancels free until free_hours before arrival, later the policy's
-- share of the price is kept, never more than was paid (an unpaid share is not billed). What
-- comes back goes to the card of the online payment (up to what that payment has left), the
-- rest at the harbour office.
create function private.cancellation_terms(p_order public.orders, p_by_harbour boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_hours integer;
  v_percent integer;
  v_free_until timestamptz;
  v_free boolean;
  v_fee bigint;
  v_ledger record;
  v_net bigint;
  v_kept bigint;
  v_back bigint;
  v_card bigint;
  v_closure boolean;
begin
  select s.cancel_free_hours, s.cancel_fee_percent into v_hours, v_percent from public.harbour_settings s where s.id = 1;
  v_hours := coalesce(v_hours, 0);
  v_percent := coalesce(v_percent, 0);
  v_free_until := p_order.starts_at - make_interval(hours => v_hours);
  -- A stay told of a harbour closure (49_harbour_closures.sql) is cancelled free of charge.
  v_closure := private.order_closure_notified(p_order.id);
  v_free := p_by_harbour or v_percent = 0 or private.now() < v_free_until or v_closure;
  v_fee := case when v_free then 0 else round(p_order.price_cents * v_percent / 100.0)::bigint end;
  select * into v_ledger from private.order_ledger(p_order.id);
  v_net := greatest(v_ledger.paid_cents - v_ledger.refunded_cents, 0);
  v_kept := least(v_fee, v_net);
  v_back := v_net - v_kept;
  v_card := least(v_back, coalesce((select max(private.payment_refundable(p.id)) from public.payments p
                                     where p.order_id = p_order.id and p.kind = 'payment' and p.refund_of is null and p.method = 'online'), 0));
  return jsonb_build_object(
    'free_hours', v_hours, 'fee_percent', v_percent, 'free_until', v_free_until, 'free', v_free, 'closure', v_closure,
    'price_cents', p_order.price_cents, 'fee_cents', v_fee, 'paid_cents', v_net, 'kept_cents', v_kept,
    'back_cents', v_back, 'back_card_cents', v_card, 'back_desk_cents', v_back - v_card);
end
$$;
comment on function private.cancellation_terms(public.orders, boolean) is 'What cancelling an order now keeps (the policy''s share, at most what was paid; nothing when the harbour cancels, within the free window or after a closure notice) and gives back: to the card of its online payment, the rest at the harbour office.';
revoke execute on function private.cancellation_terms(public.orders, boolean) from public;

create function private.cancellation_quote(p_order_id uuid)
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
  return private.cancellation_terms(v_order, private.is_staff() and v_order.user_id is distinct from (select auth.uid()));
end
$$;
comment on function private.cancellation_quote(uuid) is 'The rule behind public.cancellation_quote (security definer, not exposed by the API).';
revoke execute on function private.cancellation_quote(uuid) from public;
grant execute on function private.cancellation_quote(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/cancellation_quote): the cancel dialog's preview.
create function public.cancellation_quote(p_order_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.cancellation_quote(p_order_id)
$$;
comment on function public.cancellation_quote(uuid) is 'The owner (or staff): what cancelling the order now would keep and give back, and how ({free_until, free, fee_percent, fee_cents, paid_cents, kept_cents, back_cents, back_card_cents, back_desk_cents}); cancel_booking applies the same terms.';
revoke execute on function public.cancellation_quote(uuid) from anon, public;

-- The card refund of a cancellation, for refund-payment ({cancellation_of}): the request
-- cancel_booking recorded under the order's key. The owner or staff may send it (again): it is
-- the same request every time, so at most one refund. A request whose refund is not known after
-- 15 minutes is not sent any more (the money then shows on the staff overview as owed, and staff
-- refund it); null amount: nothing goes back to the card.
create function private.prepare_cancellation_refund(p_order_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_request private.refund_requests;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found or (v_order.user_id is distinct from (select auth.uid()) and not private.is_staff()) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  select * into v_request from private.refund_requests q where q.request_key = private.cancellation_request_key(p_order_id);
  if not found then
    return jsonb_build_object('amount_cents', null);
  end if;
  if v_request.refund_id is null and v_request.requested_at < private.now() - interval '15 minutes' then
    raise exception 'request_key_expired' using errcode = 'PT409',
      hint = 'The card refund of this cancellation was not made in time: the harbour office pays it back.';
  end if;
  return jsonb_build_object('amount_cents', v_request.amount_cents, 'payment_intent', v_request.payment_intent,
                            'refund_id', v_request.refund_id, 'request_key', v_request.request_key,
                            'idempotency_key', 'refund-' || v_request.request_key::text);
end
$$;
comment on function private.prepare_cancellation_refund(uuid) is 'The rule behind public.prepare_cancellation_refund (security definer, not exposed by the API).';
revoke execute on function private.prepare_cancellation_refund(uuid) from public;
grant execute on function private.prepare_cancellation_refund(uuid) to authenticated, service_role;

create function public.prepare_cancellation_refund(p_order_id uuid)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.prepare_cancellation_refund(p_order_id)
$$;
comment on function public.prepare_cancellation_refund(uuid) is 'refund-payment for the owner or staff: the card refund cancel_booking recorded for the order ({amount_cents, payment_intent, refund_id, request_key, idempotency_key}; amount null: none), the same request on every retry; refused after 15 minutes without a refund (request_key_expired: the office pays it back).';
revoke execute on function public.prepare_cancellation_refund(uuid) from anon, public;

-- What of a cancellation's card refund is on its way: recorded by cancel_booking, not yet in the
-- ledger, not reported failed, and either made at Stripe or asked for less than 15 minutes ago.
-- That money is not owed at the desk; once in the ledger the order's net says the rest.
create function private.cancellation_refund_in_flight(p_order_id uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(q.amount_cents), 0)::bigint
  from private.refund_requests q
  where q.request_key = private.cancellation_request_key(p_order_id)
    and case when q.refund_id is null then q.requested_at >= private.now() - interval '15 minutes'
             else not exists (select 1 from public.payments r where r.provider_refund_id = q.refund_id)
                  and not private.stripe_refund_failed(q.refund_id) end
$$;
comment on function private.cancellation_refund_in_flight(uuid) is 'Cents of an order''s cancellation card refund still on its way (asked for within 15 minutes or made at Stripe, not yet in the ledger nor failed).';
revoke execute on function private.cancellation_refund_in_flight(uuid) from public;

-- The invoice lines of a cancellation's kept share: one line per VAT rate of what the stay
-- billed, the share split over the rates in proportion to their gross (the last rate takes the
-- rounding rest), gross-priced (unit_gross_cents), so the invoice adds up to the share exactly.
-- A cancellation fee is the consideration for the booked service and bears its VAT (ADR 0010).
create function private.cancellation_fee_lines(p_order public.orders)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_kept bigint := coalesce(p_order.cancellation_kept_cents, 0);
  v_breakdown jsonb := private.invoice_vat_breakdown(private.order_billable_lines(p_order));
  v_total bigint;
  v_count integer;
  v_rate record;
  v_i integer := 0;
  v_left bigint := coalesce(p_order.cancellation_kept_cents, 0);
  v_part bigint;
  v_lines jsonb := '[]'::jsonb;
  v_place text := coalesce(p_order.place_snapshot ->> 'name', '');
begin
  if v_kept <= 0 then
    return '[]'::jsonb;
  end if;
  select coalesce(sum((v ->> 'gross_cents')::bigint), 0), count(*) into v_total, v_count
    from jsonb_array_elements(v_breakdown) v where (v ->> 'gross_cents')::bigint > 0;
  if v_count = 0 then
    v_breakdown := jsonb_build_array(jsonb_build_object('vat_rate', coalesce((p_order.price_breakdown ->> 'vat_rate_percent')::numeric, 19), 'gross_cents', v_kept));
    v_total := v_kept;
    v_count := 1;
  end if;
  for v_rate in
    select (v ->> 'vat_rate')::numeric as rate, (v ->> 'gross_cents')::bigint as gross
      from jsonb_array_elements(v_breakdown) v
     where (v ->> 'gross_cents')::bigint > 0
     order by (v ->> 'vat_rate')::numeric desc
  loop
    v_i := v_i + 1;
    v_part := case when v_i = v_count then v_left else round(v_kept * v_rate.gross / v_total::numeric)::bigint end;
    v_left := v_left - v_part;
    v_lines := v_lines || jsonb_build_object(
      'position', v_i, 'code', 'cancellation_fee',
      'description', 'Stornierungsentgelt Liegeplatz ' || v_place
                     || case when v_count > 1 then ', ' || rtrim(to_char(v_rate.rate, 'FM990.##'), '.') || ' % USt.' else '' end,
      'description_en', 'Cancellation fee, berth ' || v_place
                        || case when v_count > 1 then ', ' || rtrim(to_char(v_rate.rate, 'FM990.##'), '.') || ' % VAT' else '' end,
      'quantity', 1, 'unit', 'piece',
      'unit_gross_cents', v_part,
      'unit_price_cents', v_part - round(v_part * v_rate.rate / (100 + v_rate.rate))::bigint,
      'vat_rate', v_rate.rate,
      'net_cents', v_part - round(v_part * v_rate.rate / (100 + v_rate.rate))::bigint);
  end loop;
  return v_lines;
end
$$;
comment on function private.cancellation_fee_lines(public.orders) is 'Invoice lines of the share a cancellation kept (orders.cancellation_kept_cents): one gross-priced line per VAT rate of the stay''s lines, in proportion to their gross.';
revoke execute on function private.cancellation_fee_lines(public.orders) from public;
