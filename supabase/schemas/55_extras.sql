-- Extras (issue 21 item 3): the catalogue of what the harbour sells besides the berth (washing
-- machine, boat lift, ice, deposits for a cooler and the parking barrier key), extras added to
-- an order by staff (they flow into the order's price and its invoice documents), desk sales
-- without a booking with their receipt (a Kleinbetragsrechnung in the one invoice number
-- series), and a guest's service request accepted as an extra on their order.
-- docs/adr/0037-extras-deposits-desk-sales.md.
--
-- Prices are gross (what the guest pays: the spec's price list), in integer cents; the VAT in
-- them is taken out per rate (private.invoice_vat_breakdown, lines with unit_gross_cents). A
-- deposit (Pfand) is not revenue: 0 % VAT, and returning it is a refund in the ledger.

create table public.extras (
  id uuid primary key default gen_random_uuid(),
  code text not null unique check (code ~ '^[a-z0-9_]{2,40}$'),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  name_en text not null check (char_length(btrim(name_en)) between 1 and 100),
  -- piece, load (washing machine), day (boat lift)
  unit text not null check (unit in ('piece', 'load', 'day')),
  price_cents integer not null check (price_cents between 0 and 1000000),
  -- "from EUR 100 a day": staff may charge more than the list price, never less.
  price_from boolean not null default false,
  vat_rate integer not null check (vat_rate in (0, 7, 19)),
  deposit boolean not null default false,
  active boolean not null default true,
  sort_order integer not null default 0 check (sort_order between 0 and 10000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint extras_deposit_no_vat check (not deposit or vat_rate = 0)
);

alter table public.extras enable row level security;

comment on table public.extras is 'The catalogue of extras (washing machine, boat lift, ice, deposits): names (de, en), unit, gross price in cents (price_from: a minimum), VAT rate (19, 7 or 0), deposit flag (a deposit carries no VAT and is returned as a refund). Everyone reads the active ones, staff all, admins write; never deleted (deactivated).';

-- One permissive policy per role and action (Supabase's advisor).
create policy "extras: everyone reads active, staff all" on public.extras
  for select to anon, authenticated
  using (active or (select private.is_staff()));

create policy "extras: admin inserts" on public.extras
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "extras: admin updates" on public.extras
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

-- An extra that was sold is referenced by its order lines: it is deactivated, never deleted.
revoke delete, truncate, references, trigger on public.extras from anon, authenticated;

revoke insert, update on public.extras from anon;

-- The spec's price list (product-spec.md, "Business constants and limits"), gross cents. Ice at
-- 7 % (Anlage 2 Nr. 34 UStG: water of Zolltarif 2201 90 00, which includes ice; the admin
-- changes the rate if the tax adviser decides otherwise); deposits 0 % (not revenue).
insert into public.extras (code, name, name_en, unit, price_cents, price_from, vat_rate, deposit, sort_order) values
  ('washing_machine', 'Waschmaschine', 'Washing machine', 'load', 500, false, 19, false, 10),
  ('boat_lift', 'Bootskran', 'Boat lift', 'day', 10000, true, 19, false, 20),
  ('ice_2kg', 'Eis 2 kg', 'Ice 2 kg', 'piece', 300, false, 7, false, 30),
  ('ice_5kg', 'Eis 5 kg', 'Ice 5 kg', 'piece', 500, false, 7, false, 40),
  ('cooler_deposit', 'Kühlbox-Pfand', 'Cooler deposit', 'piece', 2000, false, 0, true, 50),
  ('parking_key_deposit', 'Pfand Parkschranken-Schlüssel', 'Parking barrier key deposit', 'piece', 2000, false, 0, true, 60);

create trigger extras_touch before update on public.extras
  for each row execute function private.touch_updated_at();

create trigger extras_audit after insert or update or delete on public.extras
  for each row execute function private.audit_row('id');

-- The berth tariffs (30_orders_booking.sql) are master data of the price list: audited as well.
create trigger tariffs_audit after insert or update or delete on public.tariffs
  for each row execute function private.audit_row('code');

-- The one price list a consumer sees (issue 40, docs/adr/0011-consumer-prices-with-vat.md): the
-- berth tariffs and the active extras, each a gross price in cents (PAngV § 3: the total price
-- including VAT) with its VAT rate. Runs as the caller (RLS of both tables): the prices page
-- reads it with the publishable key in one request.
create view public.price_list
with (security_invoker = true)
as
  select 'tariff'::text as kind, t.code, t.name, t.name_en, t.unit, t.gross_cents as price_cents,
         false as price_from, t.vat_rate, false as deposit, t.sort_order
  from public.tariffs t
  union all
  select 'extra'::text, x.code, x.name, x.name_en, x.unit, x.price_cents, x.price_from, x.vat_rate, x.deposit,
         10000 + x.sort_order
  from public.extras x
  where x.active;

comment on view public.price_list is 'The price list a consumer sees: the berth tariffs and the active extras, gross cents with VAT rate (PAngV § 3), ordered by sort_order (tariffs first). Reads as the caller.';

revoke insert, update, delete, truncate, references, trigger on public.price_list from anon, authenticated;

-- A write to the view is a privilege error, not a server error (a UNION view is not
-- automatically updatable: 55000, HTTP 500): with an INSTEAD OF trigger the executor checks the
-- privileges first (none granted: 42501), and the trigger refuses whoever holds them.
create trigger price_list_read_only
  instead of insert or update or delete on public.price_list
  for each row execute function private.refuse_change('read_only_view', 'The price list is read-only: change public.tariffs or public.extras.');

-- An extra on an order: a snapshot of the catalogue entry as it was when added (name, unit,
-- gross unit price, VAT rate, deposit), the quantity, who added it. Rows are never deleted:
-- removing one sets removed_at (an invoiced order then gets a cancellation and a new invoice),
-- returning a deposit sets returned_at (and refunds it).
create table public.order_extras (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id),
  extra_id uuid not null references public.extras (id),
  code text not null,
  name text not null,
  name_en text not null,
  unit text not null check (unit in ('piece', 'load', 'day')),
  unit_price_cents integer not null check (unit_price_cents between 0 and 1000000),
  vat_rate integer not null check (vat_rate in (0, 7, 19)),
  deposit boolean not null,
  quantity integer not null check (quantity between 1 and 99),
  -- The guest's request on /service/order this extra answers.
  service_request_id uuid references public.contact_messages (id) on delete set null,
  added_by uuid,
  added_at timestamptz not null default now(),
  removed_by uuid,
  removed_at timestamptz,
  returned_by uuid,
  returned_at timestamptz,
  constraint order_extras_deposit_no_vat check (not deposit or vat_rate = 0),
  constraint order_extras_return_deposit check (returned_at is null or deposit),
  constraint order_extras_once check (removed_at is null or returned_at is null)
);

alter table public.order_extras enable row level security;

comment on table public.order_extras is 'Extras on an order, priced as when added (gross unit price, VAT rate, deposit flag snapshot); written only by add_order_extra, remove_order_extra, return_deposit and accept_service_request. Removed or returned rows stay (removed_at, returned_at) and no longer bill.';

create index order_extras_order_idx on public.order_extras (order_id, added_at);

-- How a returned deposit went back (return_deposit_step): cash, bank_transfer, or online (a
-- Stripe refund through refund-payment, which may fail and be retried). Null before it was
-- returned, and for deposits returned before this was kept (session 13).
alter table public.order_extras add column returned_method public.payment_method;

alter table public.order_extras add constraint order_extras_returned_method check (returned_method is null or returned_at is not null);

comment on column public.order_extras.returned_method is 'How a returned deposit was paid back: cash, bank_transfer or online (Stripe refund through refund-payment).';

-- The ledger's online deposit returns name the deposit they paid back (the Stripe refund's
-- metadata, recorded by private.record_online_refund).
alter table public.payments add column order_extra_id uuid references public.order_extras (id);

alter table public.payments add constraint payments_order_extra_is_deposit_return check (order_extra_id is null or deposit_return);

comment on column public.payments.order_extra_id is 'For an online deposit return: the order extra (the deposit) it paid back, named by the Stripe refund''s metadata; a retry of a failed deposit refund looks for it.';

create index payments_order_extra_idx on public.payments (order_extra_id) where order_extra_id is not null;

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

create index order_extras_extra_idx on public.order_extras (extra_id);

create index order_extras_request_idx on public.order_extras (service_request_id) where service_request_id is not null;

create policy "order_extras: owner reads own order's, staff all" on public.order_extras
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

revoke all on public.order_extras from anon;

revoke insert, update, delete, truncate, references, trigger on public.order_extras from authenticated, service_role;

create trigger order_extras_audit after insert or update or delete on public.order_extras
  for each row execute function private.audit_row('id');

-- The invoice lines of an order's extras (called by private.order_billable_lines): one line
-- per extra still billed, oldest first, gross-priced (unit_gross_cents; net_cents is the gross
-- less the VAT it contains).
create function private.order_extra_lines(p_order_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'code', 'extra:' || e.code,
           'description', e.name || case when e.deposit then ' (Pfand, nicht steuerbar)' else '' end,
           'description_en', e.name_en || case when e.deposit then ' (deposit, not taxable)' else '' end,
           'quantity', e.quantity, 'unit', e.unit,
           'unit_gross_cents', e.unit_price_cents,
           'unit_price_cents', e.unit_price_cents - round(e.unit_price_cents * e.vat_rate / (100.0 + e.vat_rate))::integer,
           'vat_rate', e.vat_rate,
           'net_cents', e.quantity * e.unit_price_cents - round(e.quantity * e.unit_price_cents * e.vat_rate / (100.0 + e.vat_rate))::integer)
         order by e.added_at, e.id), '[]'::jsonb)
  from public.order_extras e
  where e.order_id = p_order_id and e.removed_at is null and e.returned_at is null
$$;
comment on function private.order_extra_lines(uuid) is 'Invoice lines of the extras an order still bills (not removed, deposits not returned): gross-priced, with description (de, en), quantity, unit, VAT rate.';
revoke execute on function private.order_extra_lines(uuid) from public;

-- The staff check shared by the functions below.
create function private.extras_check_staff()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
end
$$;
comment on function private.extras_check_staff() is 'Raises staff_only unless the caller is active harbour staff.';
revoke execute on function private.extras_check_staff() from public;

-- Staff add an extra to an order: the catalogue entry is active, the quantity 1-99, a price
-- given only for a "from" price and never below the list price; the order is open (not
-- cancelled or expired). The order's price grows by the extra's gross, which brings its
-- invoice documents in line (an invoiced order: cancellation and new invoice).
create function private.add_order_extra(p_order_id uuid, p_extra_id uuid, p_quantity integer,
                                        p_unit_price_cents integer default null, p_service_request_id uuid default null)
returns public.order_extras
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_extra public.extras;
  v_price integer;
  v_row public.order_extras;
begin
  perform private.extras_check_staff();
  if p_quantity is null or p_quantity not between 1 and 99 then
    raise exception 'invalid_quantity' using errcode = '22023', hint = 'Quantity 1-99.';
  end if;
  select * into v_extra from public.extras x where x.id = p_extra_id;
  if not found or not v_extra.active then
    raise exception 'extra_not_found' using errcode = 'PT404';
  end if;
  v_price := coalesce(p_unit_price_cents, v_extra.price_cents);
  if v_price <> v_extra.price_cents and (not v_extra.price_from or v_price < v_extra.price_cents or v_price > 1000000) then
    raise exception 'invalid_price' using errcode = '22023', hint = 'Only a "from" price may be raised, never lowered.';
  end if;
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.status in ('cancelled', 'expired') then
    raise exception 'order_closed' using errcode = 'P0001', hint = 'A cancelled or expired booking takes no extras.';
  end if;
  if v_order.price_cents + p_quantity * v_price > 100000000 then
    raise exception 'invalid_quantity' using errcode = '22023';
  end if;
  insert into public.order_extras (order_id, extra_id, code, name, name_en, unit, unit_price_cents, vat_rate, deposit,
                                   quantity, service_request_id, added_by, added_at)
  values (v_order.id, v_extra.id, v_extra.code, v_extra.name, v_extra.name_en, v_extra.unit, v_price, v_extra.vat_rate,
          v_extra.deposit, p_quantity, p_service_request_id, (select auth.uid()), private.now())
  returning * into v_row;
  -- The order's trigger brings its documents in line with the new lines.
  update public.orders o set price_cents = o.price_cents + p_quantity * v_price where o.id = v_order.id;
  return v_row;
end
$$;
comment on function private.add_order_extra(uuid, uuid, integer, integer, uuid) is 'The rule behind public.add_order_extra (security definer, not exposed by the API).';
revoke execute on function private.add_order_extra(uuid, uuid, integer, integer, uuid) from public;
grant execute on function private.add_order_extra(uuid, uuid, integer, integer, uuid) to authenticated, service_role;

create function public.add_order_extra(p_order_id uuid, p_extra_id uuid, p_quantity integer, p_unit_price_cents integer DEFAULT NULL::integer)
returns public.order_extras
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.add_order_extra(p_order_id, p_extra_id, p_quantity, p_unit_price_cents, null)
$$;
comment on function public.add_order_extra(uuid, uuid, integer, integer) is 'Staff add an extra of the catalogue to an open order (quantity 1-99; a "from" price may be raised): priced as now, the order''s price grows, an invoiced order gets a cancellation and a new invoice.';
revoke execute on function public.add_order_extra(uuid, uuid, integer, integer) from anon, public;

-- The order of an extra, locked for update: every change of an order's extras and their money
-- runs one after the other per order (the caller reads the extra again after the lock).
create function private.lock_extra_order(p_order_extra_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
begin
  select o.* into v_order
    from public.order_extras e join public.orders o on o.id = e.order_id
   where e.id = p_order_extra_id
     for update of o;
  if not found then
    raise exception 'order_extra_not_found' using errcode = 'PT404';
  end if;
  return v_order;
end
$$;
comment on function private.lock_extra_order(uuid) is 'The order of an order extra, locked for update; raises order_extra_not_found (PT404) when there is no such extra.';
revoke execute on function private.lock_extra_order(uuid) from public;

-- Staff remove an extra from an order. Not yet invoiced: it simply no longer bills. Invoiced:
-- it is a correction (the order's trigger issues the cancellation and the new invoice); what
-- was paid for it shows as to be refunded in order_balance. A returned deposit stays.
create function private.remove_order_extra(p_order_extra_id uuid)
returns public.order_extras
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.order_extras;
  v_order public.orders;
begin
  perform private.extras_check_staff();
  v_order := private.lock_extra_order(p_order_extra_id);
  select * into v_row from public.order_extras e where e.id = p_order_extra_id;
  if v_row.removed_at is not null or v_row.returned_at is not null then
    raise exception 'order_extra_closed' using errcode = 'P0001', hint = 'Already removed or returned.';
  end if;
  if v_order.status in ('cancelled', 'expired') then
    raise exception 'order_closed' using errcode = 'P0001';
  end if;
  update public.order_extras e set removed_at = private.now(), removed_by = (select auth.uid())
   where e.id = v_row.id returning * into v_row;
  update public.orders o set price_cents = o.price_cents - v_row.quantity * v_row.unit_price_cents where o.id = v_order.id;
  return v_row;
end
$$;
comment on function private.remove_order_extra(uuid) is 'The rule behind public.remove_order_extra (security definer, not exposed by the API).';
revoke execute on function private.remove_order_extra(uuid) from public;
grant execute on function private.remove_order_extra(uuid) to authenticated, service_role;

create function public.remove_order_extra(p_order_extra_id uuid)
returns public.order_extras
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.remove_order_extra(p_order_extra_id)
$$;
comment on function public.remove_order_extra(uuid) is 'Staff remove an extra from an open order: before the invoice it no longer bills; on an invoiced order the invoice is cancelled and reissued without it (never changed).';
revoke execute on function public.remove_order_extra(uuid) from anon, public;

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

-- A guest's service request (/service/order) accepted by staff: the extra goes onto the order
-- staff choose, and the request is marked done, in one step.
create function private.accept_service_request(p_message_id uuid, p_order_id uuid, p_extra_id uuid, p_quantity integer,
                                               p_unit_price_cents integer default null)
returns public.order_extras
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_msg public.contact_messages;
  v_row public.order_extras;
begin
  perform private.extras_check_staff();
  select * into v_msg from public.contact_messages m where m.id = p_message_id for update;
  if not found or v_msg.kind <> 'service_request' then
    raise exception 'message_not_found' using errcode = 'PT404';
  end if;
  if v_msg.status = 'done' then
    raise exception 'request_done' using errcode = 'P0001', hint = 'This request was already handled.';
  end if;
  v_row := private.add_order_extra(p_order_id, p_extra_id, p_quantity, p_unit_price_cents, v_msg.id);
  update public.contact_messages m set status = 'done', done_at = private.now(), done_by = (select auth.uid())
   where m.id = v_msg.id;
  return v_row;
end
$$;
comment on function private.accept_service_request(uuid, uuid, uuid, integer, integer) is 'The rule behind public.accept_service_request (security definer, not exposed by the API).';
revoke execute on function private.accept_service_request(uuid, uuid, uuid, integer, integer) from public;
grant execute on function private.accept_service_request(uuid, uuid, uuid, integer, integer) to authenticated, service_role;

create function public.accept_service_request(p_message_id uuid, p_order_id uuid, p_extra_id uuid, p_quantity integer, p_unit_price_cents integer DEFAULT NULL::integer)
returns public.order_extras
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.accept_service_request(p_message_id, p_order_id, p_extra_id, p_quantity, p_unit_price_cents)
$$;
comment on function public.accept_service_request(uuid, uuid, uuid, integer, integer) is 'Staff accept an open service request: the chosen extra goes onto the chosen order (as add_order_extra) and the request is marked done.';
revoke execute on function public.accept_service_request(uuid, uuid, uuid, integer, integer) from anon, public;

-- A desk sale: extras sold over the counter without a booking, paid at once by card terminal,
-- cash or transfer. Its receipt is an invoice document in public.invoices (order_id null,
-- desk_sale_id set) with the next number of the one gapless series; cash enters the cash book.
create table public.desk_sales (
  id uuid primary key default gen_random_uuid(),
  method public.payment_method not null check (method in ('card_terminal', 'cash', 'bank_transfer')),
  gross_cents integer not null check (gross_cents > 0),
  -- [{extra_id, code, name, name_en, unit, quantity, unit_price_cents, vat_rate}] as sold.
  items jsonb not null check (jsonb_typeof(items) = 'array' and jsonb_array_length(items) between 1 and 20),
  sold_by uuid,
  sold_at timestamptz not null default now()
);

alter table public.desk_sales enable row level security;

comment on table public.desk_sales is 'Extras sold at the desk without a booking (card terminal, cash or transfer) with the items as sold; its receipt is an invoice document (invoices.desk_sale_id), a cash sale is in the cash book. Written only by sell_at_desk; never changed.';

create index desk_sales_sold_at_idx on public.desk_sales (sold_at desc);

create policy "desk_sales: staff read" on public.desk_sales
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.desk_sales from anon;

revoke insert, update, delete, truncate, references, trigger on public.desk_sales from authenticated, service_role;

create trigger desk_sales_immutable before update or delete on public.desk_sales
  for each row execute function private.refuse_change('desk_sale_immutable', 'A desk sale is never changed: its receipt is an issued invoice document.');

create trigger desk_sales_no_truncate before truncate on public.desk_sales
  for each statement execute function private.refuse_change('desk_sale_immutable', 'A desk sale is never changed: its receipt is an issued invoice document.');

create trigger desk_sales_audit after insert or update or delete on public.desk_sales
  for each row execute function private.audit_row('id');

-- The receipt of a desk sale in the invoice documents (the invoice's order_id is null then).
alter table public.invoices add column desk_sale_id uuid references public.desk_sales (id);

alter table public.invoices add constraint invoices_order_or_desk_sale check ((order_id is null) = (desk_sale_id is not null));

-- One receipt and at most one cancellation (Stornorechnung) per desk sale: a sale is cancelled once.
create unique index invoices_desk_sale_kind_key on public.invoices (desk_sale_id, kind) where desk_sale_id is not null;

comment on column public.invoices.desk_sale_id is 'The desk sale this document is the receipt of (then order_id is null).';

-- Staff sell extras at the desk: 1-20 items [{extra_id, quantity, unit_price_cents?}] of the
-- active catalogue, no deposits (a deposit goes onto an order, where its return is recorded);
-- up to EUR 250 gross the receipt is a Kleinbetragsrechnung without the buyer (§ 33 UStDV),
-- above it the buyer's name and address are required (§ 14 Abs. 4 UStG). Returns the receipt.
create function private.sell_at_desk(p_items jsonb, p_method public.payment_method, p_buyer jsonb default null)
returns public.invoices
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_item jsonb;
  v_extra public.extras;
  v_qty integer;
  v_price integer;
  v_items jsonb := '[]'::jsonb;
  v_lines jsonb := '[]'::jsonb;
  v_vat jsonb;
  v_gross bigint := 0;
  v_sale public.desk_sales;
  v_buyer jsonb;
  v_year integer := extract(year from private.now() at time zone 'Europe/Berlin')::integer;
  v_number integer;
  v_doc public.invoices;
  v_today date := private.berlin_date(private.now());
begin
  perform private.extras_check_staff();
  if p_method is null or p_method not in ('card_terminal', 'cash', 'bank_transfer') then
    raise exception 'invalid_payment_method' using errcode = '22023', hint = 'Desk sales: card_terminal, cash or bank_transfer.';
  end if;
  if jsonb_typeof(p_items) is distinct from 'array' or jsonb_array_length(p_items) not between 1 and 20 then
    raise exception 'invalid_items' using errcode = '22023', hint = '1-20 items.';
  end if;
  for v_item in select value from jsonb_array_elements(p_items)
  loop
    if jsonb_typeof(v_item) is distinct from 'object' or jsonb_typeof(v_item -> 'quantity') is distinct from 'number'
       or (v_item ? 'unit_price_cents' and jsonb_typeof(v_item -> 'unit_price_cents') not in ('number', 'null'))
       or coalesce(v_item ->> 'extra_id', '') !~ '^[0-9a-fA-F-]{36}$' then
      raise exception 'invalid_items' using errcode = '22023';
    end if;
    begin
      v_qty := (v_item ->> 'quantity')::integer;
      v_price := (v_item ->> 'unit_price_cents')::integer;
    exception when others then
      raise exception 'invalid_quantity' using errcode = '22023';
    end;
    if v_qty is null or v_qty not between 1 and 99 or (v_item ->> 'quantity')::numeric <> v_qty then
      raise exception 'invalid_quantity' using errcode = '22023', hint = 'Quantity 1-99.';
    end if;
    select * into v_extra from public.extras x where x.id = (v_item ->> 'extra_id')::uuid;
    if not found or not v_extra.active then
      raise exception 'extra_not_found' using errcode = 'PT404';
    end if;
    if v_extra.deposit then
      raise exception 'deposit_needs_order' using errcode = 'P0001', hint = 'A deposit goes onto a booking, where its return is recorded.';
    end if;
    v_price := coalesce(v_price, v_extra.price_cents);
    if v_price <> v_extra.price_cents and (not v_extra.price_from or v_price < v_extra.price_cents or v_price > 1000000) then
      raise exception 'invalid_price' using errcode = '22023', hint = 'Only a "from" price may be raised, never lowered.';
    end if;
    v_gross := v_gross + v_qty * v_price;
    v_items := v_items || jsonb_build_object('extra_id', v_extra.id, 'code', v_extra.code, 'name', v_extra.name, 'name_en', v_extra.name_en,
                                             'unit', v_extra.unit, 'quantity', v_qty, 'unit_price_cents', v_price, 'vat_rate', v_extra.vat_rate);
    v_lines := v_lines || jsonb_build_object(
      'position', jsonb_array_length(v_lines) + 1,
      'code', 'extra:' || v_extra.code, 'description', v_extra.name, 'description_en', v_extra.name_en,
      'quantity', v_qty, 'unit', v_extra.unit, 'unit_gross_cents', v_price,
      'unit_price_cents', v_price - round(v_price * v_extra.vat_rate / (100.0 + v_extra.vat_rate))::integer,
      'vat_rate', v_extra.vat_rate,
      'net_cents', v_qty * v_price - round(v_qty * v_price * v_extra.vat_rate / (100.0 + v_extra.vat_rate))::integer);
  end loop;
  if v_gross <= 0 or v_gross > 10000000 then
    raise exception 'invalid_items' using errcode = '22023', hint = 'The sale comes to between 1 cent and EUR 100,000.';
  end if;
  if v_gross > 25000 then
    v_buyer := jsonb_strip_nulls(jsonb_build_object(
      'name', nullif(btrim(p_buyer ->> 'name'), ''), 'company', nullif(btrim(p_buyer ->> 'company'), ''),
      'street', nullif(btrim(p_buyer ->> 'street'), ''), 'postal_code', nullif(btrim(p_buyer ->> 'postal_code'), ''),
      'city', nullif(btrim(p_buyer ->> 'city'), '')));
    if jsonb_typeof(p_buyer) is distinct from 'object' or v_buyer ->> 'name' is null or v_buyer ->> 'street' is null
       or v_buyer ->> 'postal_code' is null or v_buyer ->> 'city' is null
       or exists (select 1 from jsonb_each_text(v_buyer) b where char_length(b.value) > 200) then
      raise exception 'buyer_required' using errcode = '22023', hint = 'Above EUR 250 the receipt names the buyer (name, street, postal code, city).';
    end if;
  end if;
  insert into public.desk_sales (method, gross_cents, items, sold_by, sold_at)
  values (p_method, v_gross, v_items, (select auth.uid()), private.now())
  returning * into v_sale;
  v_vat := private.invoice_vat_breakdown(v_lines);
  -- The next number of the one series (as private.insert_invoice_document takes it).
  insert into private.invoice_counters as c (year, last_number) values (v_year, 1)
  on conflict (year) do update set last_number = c.last_number + 1
  returning c.last_number into v_number;
  insert into public.invoices (order_id, desk_sale_id, year, number, net_cents, vat_cents, gross_cents, recipient, issued_at,
                               kind, reason, small_amount, service_from, service_to, lines, vat_breakdown)
  select null, v_sale.id, v_year, v_number,
         coalesce(sum((v ->> 'net_cents')::bigint), 0), coalesce(sum((v ->> 'vat_cents')::bigint), 0),
         coalesce(sum((v ->> 'gross_cents')::bigint), 0),
         v_buyer, private.now(), 'invoice', 'payment', v_gross <= 25000, v_today, v_today, v_lines, v_vat
  from jsonb_array_elements(v_vat) v
  returning * into v_doc;
  if p_method = 'cash' then
    perform private.cash_book_book('payment', v_gross::integer, 'desk_sale', v_sale.id, null,
                                   'Barverkauf ' || v_doc.invoice_number, (select auth.uid()), v_sale.sold_at);
  end if;
  return v_doc;
end
$$;
comment on function private.sell_at_desk(jsonb, public.payment_method, jsonb) is 'The rule behind public.sell_at_desk (security definer, not exposed by the API).';
revoke execute on function private.sell_at_desk(jsonb, public.payment_method, jsonb) from public;
grant execute on function private.sell_at_desk(jsonb, public.payment_method, jsonb) to authenticated, service_role;

create function public.sell_at_desk(p_items jsonb, p_method public.payment_method, p_buyer jsonb DEFAULT NULL::jsonb)
returns public.invoices
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.sell_at_desk(p_items, p_method, p_buyer)
$$;
comment on function public.sell_at_desk(jsonb, public.payment_method, jsonb) is 'Staff sell extras at the desk without a booking ([{extra_id, quantity, unit_price_cents?}], no deposits; card_terminal, cash or bank_transfer): issues the receipt (up to EUR 250 a Kleinbetragsrechnung, above it with the buyer p_buyer {name, company?, street, postal_code, city}) in the one invoice number series and books cash into the cash book. Returns the receipt document.';
revoke execute on function public.sell_at_desk(jsonb, public.payment_method, jsonb) from anon, public;

-- Cancelling a desk sale (the wrong item was rung up, the guest brings it back): the receipt
-- stays as issued (GoBD: an issued document is never changed); a cancellation invoice
-- (Stornorechnung) with its own number of the one series repeats it negated and names it
-- (private.cancel_invoice_document, the builder the orders' cancellations use), and the money
-- goes back the way the sale was paid unless staff choose otherwise: cash as a refund entry of
-- the cash book on the open business day (a closed day is never touched), card terminal or
-- transfer listed beside the book. One row per sale (the sale is cancelled once); never changed.
create table public.desk_sale_cancellations (
  id uuid primary key default gen_random_uuid(),
  desk_sale_id uuid not null unique references public.desk_sales (id),
  -- The Stornorechnung issued for it.
  document_id uuid not null unique references public.invoices (id),
  -- How the money went back.
  method public.payment_method not null check (method in ('card_terminal', 'cash', 'bank_transfer')),
  -- What went back, positive cents (the receipt's gross).
  amount_cents integer not null check (amount_cents > 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 500),
  cancelled_by uuid,
  cancelled_at timestamptz not null default now()
);

alter table public.desk_sale_cancellations enable row level security;

comment on table public.desk_sale_cancellations is 'A desk sale cancelled (once): its Stornorechnung, how the money went back (cash: a refund entry in the cash book; card terminal or transfer: listed beside it), the reason, who and when. Written only by cancel_desk_sale; never changed.';

create index desk_sale_cancellations_at_idx on public.desk_sale_cancellations (cancelled_at desc);

create policy "desk_sale_cancellations: staff read" on public.desk_sale_cancellations
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.desk_sale_cancellations from anon;

revoke insert, update, delete, truncate, references, trigger on public.desk_sale_cancellations from authenticated, service_role;

create trigger desk_sale_cancellations_immutable before update or delete on public.desk_sale_cancellations
  for each row execute function private.refuse_change('desk_sale_immutable', 'A cancelled desk sale stays cancelled: its Stornorechnung is an issued document.');

create trigger desk_sale_cancellations_no_truncate before truncate on public.desk_sale_cancellations
  for each statement execute function private.refuse_change('desk_sale_immutable', 'A cancelled desk sale stays cancelled: its Stornorechnung is an issued document.');

create trigger desk_sale_cancellations_audit after insert or update or delete on public.desk_sale_cancellations
  for each row execute function private.audit_row('id');

-- Staff cancel a desk sale by its receipt: the sale is locked (a second cancel waits, then is
-- refused), the Stornorechnung is issued, the cancellation recorded, cash paid out of the till
-- (refused with the whole step when the till cannot pay: cash_balance_negative). Returns the
-- Stornorechnung.
create function private.cancel_desk_sale(p_receipt_id uuid, p_reason text, p_method public.payment_method default null)
returns public.invoices
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_receipt public.invoices;
  v_sale public.desk_sales;
  v_doc public.invoices;
  v_cancel public.desk_sale_cancellations;
  v_method public.payment_method;
begin
  perform private.extras_check_staff();
  if p_reason is null or char_length(btrim(p_reason)) not between 1 and 500 then
    raise exception 'reason_required' using errcode = '22023', hint = 'Say why the sale is cancelled (1-500 characters).';
  end if;
  select * into v_receipt from public.invoices i
   where i.id = p_receipt_id and i.desk_sale_id is not null and i.kind = 'invoice';
  if not found then
    raise exception 'receipt_not_found' using errcode = 'PT404';
  end if;
  select * into v_sale from public.desk_sales s where s.id = v_receipt.desk_sale_id;
  -- One cancellation at a time per sale: a second one waits here, then finds the first.
  perform pg_advisory_xact_lock(hashtextextended('desk_sale_cancel:' || v_sale.id::text, 0));
  if exists (select 1 from public.desk_sale_cancellations c where c.desk_sale_id = v_sale.id) then
    raise exception 'desk_sale_cancelled' using errcode = 'P0001', hint = 'This sale is already cancelled.';
  end if;
  v_method := coalesce(p_method, v_sale.method);
  if v_method not in ('card_terminal', 'cash', 'bank_transfer') then
    raise exception 'invalid_payment_method' using errcode = '22023', hint = 'Back in cash, to the card terminal or by transfer.';
  end if;
  v_doc := private.cancel_invoice_document(null::public.orders, v_receipt, 'cancelled');
  insert into public.desk_sale_cancellations (desk_sale_id, document_id, method, amount_cents, reason, cancelled_by, cancelled_at)
  values (v_sale.id, v_doc.id, v_method, v_sale.gross_cents, btrim(p_reason), (select auth.uid()), private.now())
  returning * into v_cancel;
  if v_method = 'cash' then
    perform private.cash_book_book('refund', -v_sale.gross_cents, 'desk_sale_cancel', v_cancel.id, null,
                                   left('Storno Barverkauf ' || v_receipt.invoice_number || ' (' || v_doc.invoice_number || '): ' || btrim(p_reason), 500),
                                   (select auth.uid()), v_cancel.cancelled_at);
  end if;
  return v_doc;
end
$$;
comment on function private.cancel_desk_sale(uuid, text, public.payment_method) is 'The rule behind public.cancel_desk_sale (security definer, not exposed by the API).';
revoke execute on function private.cancel_desk_sale(uuid, text, public.payment_method) from public;
grant execute on function private.cancel_desk_sale(uuid, text, public.payment_method) to authenticated, service_role;

create function public.cancel_desk_sale(p_receipt_id uuid, p_reason text, p_method public.payment_method DEFAULT NULL::public.payment_method)
returns public.invoices
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.cancel_desk_sale(p_receipt_id, p_reason, p_method)
$$;
comment on function public.cancel_desk_sale(uuid, text, public.payment_method) is 'Staff cancel a desk sale once by its receipt (reason required): issues the Stornorechnung (next number, amounts negated, referring to the receipt, which stays as issued) and pays the money back the way it was paid (or p_method): cash out of the till on the open business day, card terminal or transfer listed beside the cash book. Returns the Stornorechnung.';
revoke execute on function public.cancel_desk_sale(uuid, text, public.payment_method) from anon, public;
