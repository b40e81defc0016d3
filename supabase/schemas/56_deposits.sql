-- Deposits (Pfand, issue 21): staff take a deposit's item back and return the deposit in cash,
-- by transfer or online (a Stripe refund through refund-payment, which may be refused, fail and
-- be retried, or be paid at the desk instead), the guest's e-mail about it, and the deposits
-- still to be paid back.

-- The ledger's online deposit returns name the deposit they paid back (payments.order_extra_id,
-- declared with the ledger in 35_payments_ledger.sql): its foreign key, now that order_extras exists.
alter table public.payments
  add constraint payments_order_extra_id_fkey foreign key (order_extra_id) references public.order_extras (id);

-- A deposit refund Stripe refused when refund-payment asked for it (a 4xx: Stripe keeps that
-- answer under the request's Idempotency-Key for 24 hours), noted by refund-payment with the
-- service role, so the next attempt asks with a new key (private.deposit_refund_attempt).
-- Append-only; no API role reads it.
create table private.deposit_refund_refusals (
  id bigint generated always as identity primary key,
  order_extra_id uuid not null references public.order_extras (id),
  code text not null check (char_length(code) between 1 and 200),
  refused_at timestamptz not null default now()
);

alter table private.deposit_refund_refusals enable row level security;

comment on table private.deposit_refund_refusals is 'Deposit refunds Stripe refused when refund-payment asked (its error code): each moves the next attempt to a new Idempotency-Key. Written only by note_deposit_refund_refused (service role).';

create index deposit_refund_refusals_extra_idx on private.deposit_refund_refusals (order_extra_id);

-- The deposit refunds Stripe made when refund-payment asked (its refund id), noted by
-- refund-payment with the service role as soon as Stripe answers. A refund noted here that is
-- neither in the ledger nor reported failed is in flight (the webhook has not told yet): the
-- deposit is then not paid back at the desk as well (private.deposit_refund_in_flight).
-- Append-only; no API role reads it.
create table private.deposit_refund_requests (
  id bigint generated always as identity primary key,
  order_extra_id uuid not null references public.order_extras (id),
  refund_id text not null unique check (refund_id ~ '^re_[A-Za-z0-9_]+$' and char_length(refund_id) <= 255),
  requested_at timestamptz not null default now()
);

alter table private.deposit_refund_requests enable row level security;

comment on table private.deposit_refund_requests is 'Deposit refunds Stripe made when refund-payment asked (refund id): one not yet in the ledger and not reported failed is in flight. Written only by note_deposit_refund_requested (service role).';

create index deposit_refund_requests_extra_idx on private.deposit_refund_requests (order_extra_id);

-- The guest hears that their deposit went back (issue 21): what was returned, how (cash at the
-- harbour office, by transfer, or to the card they paid with online) and when, in the
-- booking's language. Queued by the return itself, so the ledger's generic refund notice
-- leaves deposit returns out (private.queue_refund_notice).
create function private.queue_deposit_return_notice(p_order public.orders, p_extra public.order_extras,
                                                    p_method public.payment_method, p_cents bigint)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_item text;
  v_eur text;
begin
  if p_cents <= 0 or not private.guest_mail_wanted()
     or p_order.email is null or p_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return;
  end if;
  v_locale := private.order_locale(p_order);
  v_en := v_locale = 'en';
  v_item := p_extra.quantity || ' × ' || case when v_en then p_extra.name_en else p_extra.name end;
  v_eur := private.format_eur(p_cents, v_locale);
  perform private.queue_mail(
    'deposit_return', p_order.email, v_locale,
    case when v_en then format('Deposit returned: %s, booking %s', v_eur, p_order.booking_number)
         else format('Pfand zurückgegeben: %s, Buchung %s', v_eur, p_order.booking_number) end,
    private.mail_text(v_locale, concat_ws(' ', p_order.person ->> 'first_name', p_order.person ->> 'last_name'), concat_ws(E'\n',
      case when v_en then format('you have returned %s. Your deposit of %s goes back to you:', v_item, v_eur)
           else format('Sie haben %s zurückgegeben. Ihr Pfand von %s geht an Sie zurück:', v_item, v_eur) end,
      case p_method
        when 'online' then case when v_en
          then 'we are refunding it to the card you paid with online (Stripe). Depending on your bank it shows on your statement within 5 to 10 days.'
          else 'Wir erstatten es auf die Karte, mit der Sie online bezahlt haben (Stripe). Je nach Bank erscheint der Betrag in 5 bis 10 Tagen auf Ihrer Abrechnung.' end
        when 'bank_transfer' then case when v_en then 'we are refunding it by bank transfer.'
          else 'Wir überweisen es Ihnen.' end
        else case when v_en then 'it was paid out to you in cash at the harbour office.'
          else 'Es wurde Ihnen im Hafenbüro bar ausgezahlt.' end
      end,
      case when v_en then 'Returned on: ' else 'Zurückgegeben am: ' end || private.format_berlin(coalesce(p_extra.returned_at, private.now()), v_locale),
      '',
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || p_order.booking_number,
      case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || p_order.id)),
    '[]'::jsonb,
    private.setting('harbour_email'),
    p_order.id);
end
$$;
comment on function private.queue_deposit_return_notice(public.orders, public.order_extras, public.payment_method, bigint) is 'Queues the e-mail that tells the guest a deposit went back: the item, the amount, how (cash, transfer, card via Stripe) and when, in the booking''s language.';
revoke execute on function private.queue_deposit_return_notice(public.orders, public.order_extras, public.payment_method, bigint) from public;

-- Staff take a deposit's item back (the cooler, the barrier key): the deposit no longer bills
-- (an invoiced order's documents are corrected: cancellation and new invoice), and what the
-- guest paid for it goes back: in cash or by transfer as a refund in the ledger (a cash refund
-- enters the cash book), or, with p_method online, to the card the guest paid with online:
-- the step checks the online payment can take it and answers what refund-payment then asks
-- Stripe for (the ledger row follows Stripe's refund event, marked as a deposit return by the
-- refund's metadata). Nothing paid yet: nothing to pay back. The guest is told by e-mail.
-- Answers {extra, order_id, back_cents, payment_intent, refundable_cents}.
create function private.return_deposit_step(p_order_extra_id uuid, p_method public.payment_method)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.order_extras;
  v_order public.orders;
  v_amount integer;
  v_ledger record;
  v_back bigint;
  v_pi text;
  v_refundable bigint;
begin
  perform private.extras_check_staff();
  if p_method is null or p_method not in ('cash', 'bank_transfer', 'online') then
    raise exception 'invalid_payment_method' using errcode = '22023', hint = 'A deposit goes back in cash, by bank transfer or to the card it was paid with online.';
  end if;
  v_order := private.lock_extra_order(p_order_extra_id);
  select * into v_row from public.order_extras e where e.id = p_order_extra_id;
  if not v_row.deposit then
    raise exception 'not_a_deposit' using errcode = 'P0001';
  end if;
  if v_row.removed_at is not null or v_row.returned_at is not null then
    raise exception 'order_extra_closed' using errcode = 'P0001', hint = 'Already removed or returned.';
  end if;
  v_amount := v_row.quantity * v_row.unit_price_cents;
  update public.order_extras e set returned_at = private.now(), returned_by = (select auth.uid()), returned_method = p_method
   where e.id = v_row.id returning * into v_row;
  update public.orders o set price_cents = o.price_cents - v_amount where o.id = v_order.id
  returning * into v_order;
  -- Pay back what the harbour now holds beyond the price, up to the deposit.
  select * into v_ledger from private.order_ledger(v_order.id);
  v_back := greatest(0, least(v_amount, v_ledger.paid_cents - v_ledger.refunded_cents - v_order.price_cents));
  if v_back > 0 and p_method = 'online' then
    select r.payment_intent, r.refundable_cents into v_pi, v_refundable from private.online_refund_payment(v_order.id, v_back) r;
  elsif v_back > 0 then
    perform private.record_desk_refund(v_order.id, p_method, v_back::integer,
                                       'Pfandrückgabe: ' || v_row.quantity || ' × ' || v_row.name, v_row.id);
  end if;
  perform private.queue_deposit_return_notice(v_order, v_row, p_method, v_back);
  return jsonb_build_object('extra', to_jsonb(v_row), 'order_id', v_order.id, 'back_cents', v_back,
                            'payment_intent', v_pi, 'refundable_cents', v_refundable);
end
$$;
comment on function private.return_deposit_step(uuid, public.payment_method) is 'Takes a deposit back (no longer billed, documents corrected), pays back what is held beyond the price (cash/transfer: ledger and cash book; online: checked, then refunded by refund-payment) and mails the guest. Answers {extra, order_id, back_cents, payment_intent, refundable_cents}.';
revoke execute on function private.return_deposit_step(uuid, public.payment_method) from public;

-- A deposit returned online whose refund the guest's bank did not take (Stripe reported it
-- failed and the ledger booked it back): staff pay it back in cash or by transfer instead. The
-- refund is a deposit return naming the deposit (so the deposit is paid back, the stay stays
-- paid and no credit note follows), refers to the online payment whose refund failed (the
-- ledger allows the desk exactly that much, private.payment_desk_refundable), and the guest
-- is told how the deposit comes back. While Stripe's refund is pending or was refused nothing
-- failed: the card refund is retried (prepare_deposit_refund), never paid twice.
create function private.repay_deposit_at_desk(p_order_extra_id uuid, p_method public.payment_method)
returns public.order_extras
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.order_extras;
  v_order public.orders;
  v_back bigint;
begin
  perform private.extras_check_staff();
  if p_method is null or p_method not in ('cash', 'bank_transfer') then
    raise exception 'invalid_payment_method' using errcode = '22023', hint = 'Cash or bank transfer.';
  end if;
  v_order := private.lock_extra_order(p_order_extra_id);
  select * into v_row from public.order_extras e where e.id = p_order_extra_id;
  v_back := private.deposit_refund_due(v_row);
  if v_back <= 0 then
    raise exception 'order_extra_closed' using errcode = 'P0001', hint = 'Not returned online, or already paid back.';
  end if;
  if not private.deposit_refund_failed(v_row.id) then
    raise exception 'deposit_refund_not_failed' using errcode = 'P0001',
      hint = 'Stripe has not reported the card refund failed, or a retry of it is in flight: wait for Stripe, or retry it through refund-payment.';
  end if;
  perform private.record_desk_refund(v_order.id, p_method, v_back::integer,
                                     'Pfandrückgabe: ' || v_row.quantity || ' × ' || v_row.name || ' (Kartenerstattung fehlgeschlagen)', v_row.id);
  update public.order_extras e set returned_method = p_method where e.id = v_row.id returning * into v_row;
  perform private.queue_deposit_return_notice(v_order, v_row, p_method, v_back);
  return v_row;
end
$$;
comment on function private.repay_deposit_at_desk(uuid, public.payment_method) is 'Pays a deposit back in cash or by transfer after its online refund failed: a deposit return in the ledger naming the deposit, returned_method updated, the guest mailed.';
revoke execute on function private.repay_deposit_at_desk(uuid, public.payment_method) from public;

create function private.return_deposit(p_order_extra_id uuid, p_method public.payment_method)
returns public.order_extras
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_method = 'online' then
    raise exception 'deposit_refund_online' using errcode = '22023',
      hint = 'A deposit paid online goes back through refund-payment (order_extra_id), which refunds it at Stripe.';
  end if;
  if exists (select 1 from public.order_extras e where e.id = p_order_extra_id and e.returned_method = 'online') then
    return private.repay_deposit_at_desk(p_order_extra_id, p_method);
  end if;
  return jsonb_populate_record(null::public.order_extras, private.return_deposit_step(p_order_extra_id, p_method) -> 'extra');
end
$$;
comment on function private.return_deposit(uuid, public.payment_method) is 'The rule behind public.return_deposit (security definer, not exposed by the API).';
revoke execute on function private.return_deposit(uuid, public.payment_method) from public;
grant execute on function private.return_deposit(uuid, public.payment_method) to authenticated, service_role;

create function public.return_deposit(p_order_extra_id uuid, p_method public.payment_method)
returns public.order_extras
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.return_deposit(p_order_extra_id, p_method)
$$;
comment on function public.return_deposit(uuid, public.payment_method) is 'Staff take back a deposit''s item: the deposit no longer bills (documents corrected) and what was paid for it is refunded in cash or by transfer (ledger, cash book); the guest is mailed. A deposit paid online goes back through refund-payment; one whose card refund failed is paid back here in cash or by transfer.';
revoke execute on function public.return_deposit(uuid, public.payment_method) from anon, public;

-- Which attempt at refunding a deposit online this is: 0 at first, one more for each refund of
-- it Stripe reported failed or cancelled (its refund events name the deposit in their
-- metadata) and each refusal refund-payment noted. refund-payment puts it in the
-- Idempotency-Key: a repeated request (a double click, a retry after a timeout) reuses the key
-- and Stripe answers with the same refund; after a failure a new key asks again.
create function private.deposit_refund_attempt(p_order_extra_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select ((select count(distinct e.refund_id) from private.stripe_events e
            where e.type like 'refund.%'
              and e.payload #>> '{data,object,metadata,order_extra_id}' = p_order_extra_id::text
              and e.payload #>> '{data,object,status}' in ('failed', 'canceled'))
          + (select count(*) from private.deposit_refund_refusals f where f.order_extra_id = p_order_extra_id))::integer
$$;
comment on function private.deposit_refund_attempt(uuid) is 'The attempt number of a deposit''s online refund: failed or cancelled Stripe refunds of it plus refusals noted by refund-payment.';
revoke execute on function private.deposit_refund_attempt(uuid) from public;

-- Whether a refund of the deposit Stripe made is in flight: refund-payment noted it, and it is
-- neither in the ledger nor reported failed or cancelled (the webhook has not told yet).
create function private.deposit_refund_in_flight(p_order_extra_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.deposit_refund_requests q
                  where q.order_extra_id = p_order_extra_id
                    and not exists (select 1 from public.payments r where r.provider_refund_id = q.refund_id)
                    and not private.stripe_refund_failed(q.refund_id))
$$;
comment on function private.deposit_refund_in_flight(uuid) is 'Whether a deposit refund refund-payment asked Stripe for is neither in the ledger nor reported failed yet.';
revoke execute on function private.deposit_refund_in_flight(uuid) from public;

-- Whether the deposit's refund failed: one Stripe made was reversed in the ledger (a payment
-- refers to it, private.record_online_refund) and no later one is in flight (a retry to the
-- card that may still succeed: the desk does not pay it back as well).
create function private.deposit_refund_failed(p_order_extra_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.payments r
                  where r.order_extra_id = p_order_extra_id and r.kind = 'refund'
                    and exists (select 1 from public.payments v where v.refund_of = r.id and v.kind = 'payment'))
         and not private.deposit_refund_in_flight(p_order_extra_id)
$$;
comment on function private.deposit_refund_failed(uuid) is 'Whether a refund of the deposit was reversed in the ledger because Stripe reported it failed, and no retry of it is in flight.';
revoke execute on function private.deposit_refund_failed(uuid) from public;

-- What of a deposit returned online is still to be paid back to the card: its amount, as far
-- as the harbour holds more than the price, when no refund of it is in the ledger (or the one
-- there was reversed because Stripe reported it failed). 0 for any other deposit.
create function private.deposit_refund_due(p_row public.order_extras)
returns bigint
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_price integer;
  v_ledger record;
begin
  if p_row.returned_method is distinct from 'online'
     or exists (select 1 from public.payments r
                 where r.order_extra_id = p_row.id and r.kind = 'refund'
                   and not exists (select 1 from public.payments v where v.refund_of = r.id and v.kind = 'payment')) then
    return 0;
  end if;
  select o.price_cents into v_price from public.orders o where o.id = p_row.order_id;
  select * into v_ledger from private.order_ledger(p_row.order_id);
  return greatest(0, least(p_row.quantity * p_row.unit_price_cents, v_ledger.paid_cents - v_ledger.refunded_cents - v_price));
end
$$;
comment on function private.deposit_refund_due(public.order_extras) is 'Cents of a deposit returned online still to go back to the card: no live refund of it in the ledger, up to what is held beyond the price; 0 otherwise.';
revoke execute on function private.deposit_refund_due(public.order_extras) from public;

-- The refund-payment edge function's first step for a deposit paid online (body
-- {order_extra_id}): takes the deposit back as above and answers what to refund at Stripe. For
-- a deposit already returned online whose refund is not in the ledger (Stripe could not be
-- reached, refused it, or reported it failed), it answers the same again without taking the
-- deposit back twice or mailing the guest again: staff retry the refund.
create function private.prepare_deposit_refund(p_order_extra_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.order_extras;
  v_order public.orders;
  v_back bigint;
  v_pi text;
  v_refundable bigint;
begin
  perform private.extras_check_staff();
  select * into v_row from public.order_extras e where e.id = p_order_extra_id;
  if found and v_row.returned_at is not null then
    v_order := private.lock_extra_order(p_order_extra_id);
    select * into v_row from public.order_extras e where e.id = p_order_extra_id;
    v_back := private.deposit_refund_due(v_row);
    if v_back <= 0 then
      raise exception 'order_extra_closed' using errcode = 'P0001', hint = 'Already returned and paid back.';
    end if;
    select r.payment_intent, r.refundable_cents into v_pi, v_refundable from private.online_refund_payment(v_order.id, v_back) r;
    return jsonb_build_object('order_id', v_order.id, 'order_extra_id', v_row.id, 'back_cents', v_back, 'payment_intent', v_pi,
                              'refundable_cents', v_refundable, 'attempt', private.deposit_refund_attempt(v_row.id), 'retry', true);
  end if;
  return (select r - 'extra' || jsonb_build_object('order_extra_id', r #>> '{extra,id}', 'attempt', private.deposit_refund_attempt(p_order_extra_id), 'retry', false)
            from private.return_deposit_step(p_order_extra_id, 'online') r);
end
$$;
comment on function private.prepare_deposit_refund(uuid) is 'The rule behind public.prepare_deposit_refund (security definer, not exposed by the API).';
revoke execute on function private.prepare_deposit_refund(uuid) from public;
grant execute on function private.prepare_deposit_refund(uuid) to authenticated, service_role;

create function public.prepare_deposit_refund(p_order_extra_id uuid)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.prepare_deposit_refund(p_order_extra_id)
$$;
comment on function public.prepare_deposit_refund(uuid) is 'Staff (through refund-payment): take back a deposit paid online, or retry its refund when none is in the ledger; answers {order_id, order_extra_id, back_cents, payment_intent, refundable_cents, attempt, retry} for the Stripe refund, whose event the ledger records as a deposit return.';
revoke execute on function public.prepare_deposit_refund(uuid) from anon, public;

-- refund-payment notes a deposit refund Stripe refused (service role only: staff cannot move
-- the attempt on and so make a second refund while the first is still pending at Stripe).
create function private.note_deposit_refund_refused(p_order_extra_id uuid, p_code text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_order_extra_id is null or not exists (select 1 from public.order_extras e where e.id = p_order_extra_id and e.deposit) then
    raise exception 'order_extra_not_found' using errcode = 'PT404';
  end if;
  insert into private.deposit_refund_refusals (order_extra_id, code)
  values (p_order_extra_id, left(coalesce(nullif(btrim(p_code), ''), 'stripe_error'), 200));
end
$$;
comment on function private.note_deposit_refund_refused(uuid, text) is 'The rule behind public.note_deposit_refund_refused (security definer, not exposed by the API).';
revoke execute on function private.note_deposit_refund_refused(uuid, text) from public;
grant execute on function private.note_deposit_refund_refused(uuid, text) to service_role;

create function public.note_deposit_refund_refused(p_order_extra_id uuid, p_code text)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.note_deposit_refund_refused(p_order_extra_id, p_code)
$$;
comment on function public.note_deposit_refund_refused(uuid, text) is 'refund-payment (service role): Stripe refused a deposit''s refund with this code; the next attempt asks with a new Idempotency-Key.';
revoke execute on function public.note_deposit_refund_refused(uuid, text) from anon, authenticated, public;
grant execute on function public.note_deposit_refund_refused(uuid, text) to service_role;

-- refund-payment notes the deposit refund Stripe made (service role only), before the webhook
-- tells whether it succeeded: until then the desk does not pay the deposit back as well.
-- Stripe answers a repeated request (the same Idempotency-Key) with the same refund: noted once.
create function private.note_deposit_refund_requested(p_order_extra_id uuid, p_refund_id text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_order_extra_id is null or not exists (select 1 from public.order_extras e where e.id = p_order_extra_id and e.deposit) then
    raise exception 'order_extra_not_found' using errcode = 'PT404';
  end if;
  if p_refund_id is null or p_refund_id !~ '^re_[A-Za-z0-9_]+$' or char_length(p_refund_id) > 255 then
    raise exception 'invalid_refund_id' using errcode = '22023';
  end if;
  insert into private.deposit_refund_requests (order_extra_id, refund_id)
  values (p_order_extra_id, p_refund_id)
  on conflict (refund_id) do nothing;
end
$$;
comment on function private.note_deposit_refund_requested(uuid, text) is 'The rule behind public.note_deposit_refund_requested (security definer, not exposed by the API).';
revoke execute on function private.note_deposit_refund_requested(uuid, text) from public;
grant execute on function private.note_deposit_refund_requested(uuid, text) to service_role;

create function public.note_deposit_refund_requested(p_order_extra_id uuid, p_refund_id text)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.note_deposit_refund_requested(p_order_extra_id, p_refund_id)
$$;
comment on function public.note_deposit_refund_requested(uuid, text) is 'refund-payment (service role): Stripe made this refund of the deposit; until the webhook records it or reports it failed, it is in flight.';
revoke execute on function public.note_deposit_refund_requested(uuid, text) from anon, authenticated, public;
grant execute on function public.note_deposit_refund_requested(uuid, text) to service_role;

-- The order page: the deposits of an order returned online whose refund is not in the ledger
-- yet (Stripe has not confirmed it, could not be reached, refused it or reported it failed),
-- with what is still to go back; staff retry it through refund-payment.
create function private.deposit_refunds_due(p_order_id uuid)
returns table (order_extra_id uuid, due_cents bigint, failed boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.extras_check_staff();
  -- Each deposit's due amount computed once (materialized: not repeated in the filter).
  return query
    with d as materialized (
      select e.id, e.added_at, private.deposit_refund_due(e) as due
      from public.order_extras e
      where e.order_id = p_order_id and e.deposit and e.returned_method = 'online'
    )
    select d.id, d.due, private.deposit_refund_failed(d.id) from d where d.due > 0 order by d.added_at, d.id;
end
$$;
comment on function private.deposit_refunds_due(uuid) is 'The rule behind public.deposit_refunds_due (security definer, not exposed by the API).';
revoke execute on function private.deposit_refunds_due(uuid) from public;
grant execute on function private.deposit_refunds_due(uuid) to authenticated, service_role;

create function public.deposit_refunds_due(p_order_id uuid)
returns table (order_extra_id uuid, due_cents bigint, failed boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.deposit_refunds_due(p_order_id)
$$;
comment on function public.deposit_refunds_due(uuid) is 'Staff: the order''s deposits returned online whose refund is not in the ledger (not confirmed by Stripe yet, or failed), with the cents still to go back and whether a refund of it failed (then it may go back in cash or by transfer, return_deposit); retried through refund-payment.';
revoke execute on function public.deposit_refunds_due(uuid) from anon, public;
