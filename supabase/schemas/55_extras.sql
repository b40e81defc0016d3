-- Extras (issue 21 item 3): the catalogue of what the harbour sells besides the berth (washing
-- machine, boat lift, ice, deposits for a cooler and the parking barrier key), the one price
-- list a consumer sees, extras added to an order by staff (they flow into the order's price and
-- its invoice documents), and a guest's service request accepted as an extra on their order.
-- Deposits: 56_deposits.sql; desk sales: 57_desk_sales.sql. docs/adr/0037-extras-deposits-desk-sales.md.
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

-- The berth tariffs (32_prices_availability.sql) are master data of the price list: audited as well.
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
  -- How a returned deposit went back (return_deposit_step, 56_deposits.sql): cash,
  -- bank_transfer, or online (a Stripe refund through refund-payment, which may fail and be
  -- retried). Null before it was returned, and for deposits returned before this was kept.
  returned_method public.payment_method,
  constraint order_extras_deposit_no_vat check (not deposit or vat_rate = 0),
  constraint order_extras_return_deposit check (returned_at is null or deposit),
  constraint order_extras_once check (removed_at is null or returned_at is null),
  constraint order_extras_returned_method check (returned_method is null or returned_at is not null)
);

alter table public.order_extras enable row level security;

comment on table public.order_extras is 'Extras on an order, priced as when added (gross unit price, VAT rate, deposit flag snapshot); written only by add_order_extra, remove_order_extra, return_deposit and accept_service_request. Removed or returned rows stay (removed_at, returned_at) and no longer bill.';

comment on column public.order_extras.returned_method is 'How a returned deposit was paid back: cash, bank_transfer or online (Stripe refund through refund-payment).';

create index order_extras_order_idx on public.order_extras (order_id, added_at);

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

-- The staff check shared by the functions below and those of 56_deposits.sql.
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
