-- Refunds (issue 11 leftover; docs/decisions.md "Refunds").
--
-- A refund gives back the whole amount of a paid order (the model has no partial refunds).
-- The rule: a refunded order is a booking that does not take place. So
--   * a refunded order is cancelled (or had expired): a check constraint, whoever writes;
--   * refunding a paid order that is still open (unverified, confirmed, checked in) cancels it
--     in the same step and frees its berth, as cancel_booking does for staff;
--   * a completed stay is not refunded here ('order_not_refundable'): money back after a stay
--     that took place is a goodwill credit note, outside this system.
-- Only staff refund (set_payment_status is staff only); the history (order_events) gets the
-- status and the payment change from the existing trigger orders_record_event, with the actor.

-- Rows from before the rule (set_payment_status could refund an open order): cancel them and
-- free their berth, so the constraint below holds on an existing database.
with fixed as (
  update public.orders o
     set status = 'cancelled', cancelled_at = coalesce(o.cancelled_at, private.now())
   where o.payment_status = 'refunded' and o.status not in ('cancelled', 'expired')
  returning o.id
)
update public.place_statuses s set cancelled = true
  from fixed where s.order_id = fixed.id and not s.cancelled;

alter table public.orders
  add constraint orders_refunded_is_cancelled check (payment_status <> 'refunded' or status in ('cancelled', 'expired'));
comment on constraint orders_refunded_is_cancelled on public.orders is 'A refunded order is a booking that does not take place: cancelled (or expired).';

create or replace function public.set_payment_status(p_order_id uuid, p_payment_status public.payment_status, p_payment_id text default null)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_cancel boolean;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if not (
    (v_order.payment_status = 'pending' and p_payment_status = 'paid')
    or (v_order.payment_status = 'paid' and p_payment_status = 'refunded')
    or v_order.payment_status = p_payment_status
  ) then
    raise exception 'invalid_payment_transition' using errcode = 'P0001', hint = 'pending -> paid -> refunded';
  end if;
  v_cancel := false;
  if v_order.payment_status = 'paid' and p_payment_status = 'refunded' then
    if v_order.status = 'completed' then
      raise exception 'order_not_refundable' using errcode = 'P0001',
        hint = 'A refund cancels a booking that does not take place; a completed stay is not refunded.';
    end if;
    v_cancel := v_order.status in ('unverified', 'confirmed', 'checked_in');
  end if;
  if v_cancel then
    update public.place_statuses s set cancelled = true where s.order_id = p_order_id and not s.cancelled;
  end if;
  -- One update: the history trigger records the status change, then the payment change.
  update public.orders o
     set payment_status = p_payment_status,
         payment_id = coalesce(p_payment_id, o.payment_id),
         status = case when v_cancel then 'cancelled'::public.order_status else o.status end,
         cancelled_at = case when v_cancel then private.now() else o.cancelled_at end
   where o.id = p_order_id returning * into v_order;
  return v_order;
end
$$;
comment on function public.set_payment_status(uuid, public.payment_status, text) is 'Staff record a payment (pending -> paid -> refunded); a refund cancels a still open booking and frees its berth, a completed stay is not refunded; nobody else changes payment fields.';
