-- Refunds of the stay asked of Stripe (refund-payment edge function): the payment a refund goes
-- to, the request keyed by the caller's request key (prepare_online_refund), the refund Stripe
-- made noted (note_online_refund_requested), whether a refund failed and what the guest is owed
-- then, and the e-mail when a card refund failed. Deposit refunds: 56_deposits.sql.

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

-- A card refund that Stripe reported failed after it had succeeded (the guest was told it was
-- on its way) is reversed in the ledger by a payment row that refers to it
-- (private.record_online_refund). The guest learns that the money did not arrive and that the
-- harbour office will pay it back another way; the harbour office learns it must.
create function private.queue_refund_failed_notice()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_refund public.payments;
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_harbour text := private.setting('harbour_email');
  v_what_de text;
  v_what_en text;
begin
  if new.kind <> 'payment' or new.refund_of is null then
    return null;
  end if;
  select * into v_order from public.orders o where o.id = new.order_id;
  select * into v_refund from public.payments r where r.id = new.refund_of;
  v_what_de := case when v_refund.deposit_return then 'Rückzahlung Ihres Pfands' else 'Erstattung' end;
  v_what_en := case when v_refund.deposit_return then 'return of your deposit' else 'refund' end;
  if v_order.email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    v_locale := private.order_locale(v_order);
    v_en := v_locale = 'en';
    perform private.queue_mail(
      'refund_failed', v_order.email, v_locale,
      case when v_en
        then format('Refund of %s failed: booking %s', private.format_eur(new.amount_cents, 'en'), v_order.booking_number)
        else format('Erstattung von %s fehlgeschlagen: Buchung %s', private.format_eur(new.amount_cents, 'de'), v_order.booking_number) end,
      private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
        case when v_en
          then format('the %s of %s to the card you paid with has failed: your bank did not accept it (for example because the card is no longer valid).', v_what_en, private.format_eur(new.amount_cents, 'en'))
          else format('die %s von %s auf die Karte, mit der Sie bezahlt haben, ist leider fehlgeschlagen: Ihre Bank hat sie nicht angenommen (zum Beispiel, weil die Karte nicht mehr gültig ist).', v_what_de, private.format_eur(new.amount_cents, 'de')) end,
        case when v_en
          then 'The money is not lost: the harbour office will contact you and pay it back another way, for example by bank transfer. You can reply to this e-mail.'
          else 'Das Geld ist nicht verloren: Das Hafenbüro meldet sich bei Ihnen und zahlt es auf anderem Weg zurück, zum Beispiel per Überweisung. Sie können auf diese E-Mail antworten.' end,
        '',
        case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
        case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id)),
      '[]'::jsonb,
      v_harbour,
      v_order.id);
  end if;
  -- To the harbour office, in German: the money is back on the Stripe account and must go out again.
  if v_harbour ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    perform private.queue_mail(
      'refund_failed', v_harbour, 'de',
      format('Erstattung fehlgeschlagen: Buchung %s (%s)', v_order.booking_number, private.format_eur(new.amount_cents, 'de')),
      concat_ws(E'\n',
        format('Stripe hat die %s von %s zu Buchung %s als fehlgeschlagen gemeldet; die Bank des Gastes hat sie nicht angenommen.',
               case when v_refund.deposit_return then 'Pfandrückzahlung' else 'Erstattung' end,
               private.format_eur(new.amount_cents, 'de'), v_order.booking_number),
        'Der Betrag ist zurück auf dem Stripe-Konto und im Zahlungsverlauf der Buchung zurückgebucht.',
        'Bitte auf anderem Weg erstatten (zum Beispiel per Überweisung) und dort erfassen.'
          || case when v_order.email is not null then ' Der Gast wurde per E-Mail informiert.' else '' end,
        '',
        'Gast: ' || coalesce(nullif(concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), ''), '–')
          || coalesce(' <' || v_order.email || '>', ''),
        'Buchung: ' || v_site || '/account/admin/orders/' || v_order.id),
      '[]'::jsonb,
      v_order.email,
      v_order.id);
  end if;
  return null;
end
$$;
comment on function private.queue_refund_failed_notice() is 'After insert on payments: when a row reverses a refund Stripe reported failed, tells the guest (booking language) and the harbour office (German) that the money must go back another way.';
revoke execute on function private.queue_refund_failed_notice() from public;

create trigger payments_queue_refund_failed_notice after insert on public.payments
  for each row when (new.order_id is not null) execute function private.queue_refund_failed_notice();
