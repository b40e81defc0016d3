-- Desk sales: extras sold over the counter without a booking, paid at once, with a receipt in
-- the invoice documents (a Kleinbetragsrechnung in the one number series), and their
-- cancellation (Stornorechnung).

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

-- The receipt of a desk sale in the invoice documents (invoices.desk_sale_id, declared with the
-- invoices in 35b_invoice_documents.sql): its foreign key, now that desk_sales exists.
alter table public.invoices
  add constraint invoices_desk_sale_id_fkey foreign key (desk_sale_id) references public.desk_sales (id);

-- One receipt and at most one cancellation (Stornorechnung) per desk sale: a sale is cancelled once.
create unique index invoices_desk_sale_kind_key on public.invoices (desk_sale_id, kind) where desk_sale_id is not null;


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
