-- Invoice documents (issue 21): invoices, cancellation invoices (Stornorechnungen) and credit
-- notes (Rechnungskorrekturen), each stored whole when issued and never changed afterwards
-- (GoBD; § 14 UStG, § 33 UStDV). The database issues them, whoever changes the order:
-- private.sync_invoice_documents compares what the order bills now with the documents it has
-- and issues what is missing (docs/adr/0033-invoices-and-gobd.md). The seller's data
-- on them: 35b_invoice_seller.sql.

-- Numbers are gapless per year, one series for every kind of document: the counter row is
-- locked by the transaction that takes the next number, so concurrent payments queue and a
-- rolled-back payment returns its number.
create table private.invoice_counters (
  year integer primary key,
  last_number integer not null
);

alter table private.invoice_counters enable row level security;

comment on table private.invoice_counters is 'The last invoice document number issued per year (gapless, one series for invoices, cancellations and credit notes; locked while a number is taken).';

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  -- null on a desk sale's receipt (desk_sale_id, 57_desk_sales.sql).
  order_id uuid references public.orders (id),
  year integer not null,
  number integer not null,
  invoice_number text generated always as ('RE-' || year::text || '-' || lpad(number::text, 5, '0')) stored,
  net_cents integer not null,
  vat_cents integer not null,
  gross_cents integer not null,
  -- The buyer as billed (name and address from the order's person form, and the e-mail); null on
  -- a Kleinbetragsrechnung (up to EUR 250 gross, § 33 UStDV) issued without the buyer.
  recipient jsonb,
  issued_at timestamptz not null default now(),
  -- The issuer is kept with each document as issued (an address change does not rewrite old ones).
  issuer jsonb,
  kind text not null default 'invoice' check (kind in ('invoice', 'cancellation', 'credit_note')),
  -- A cancellation names the document it cancels, a credit note the invoice it corrects; the
  -- number is kept as printed.
  refers_to uuid references public.invoices (id),
  refers_to_number text,
  -- Why it was issued: payment (the order was paid), correction (reissued after a change),
  -- changed / cancelled / refunded (a cancellation's cause), partial_refund, refund_reversed.
  reason text not null default 'payment'
    check (reason in ('payment', 'correction', 'changed', 'cancelled', 'refunded', 'partial_refund', 'refund_reversed',
                      'season_fee')),
  small_amount boolean not null default false,
  service_from date,
  service_to date,
  -- [{position, code, description, description_en, quantity, unit, unit_price_cents, vat_rate, net_cents}]
  lines jsonb not null default '[]'::jsonb,
  -- [{vat_rate, net_cents, vat_cents, gross_cents}] per rate, highest rate first.
  vat_breakdown jsonb not null default '[]'::jsonb,
  currency text not null default 'EUR' check (currency = 'EUR'),
  unique (year, number),
  constraint invoices_refers check ((kind = 'invoice') = (refers_to is null)),
  constraint invoices_sign check (case when kind = 'credit_note' then gross_cents <= 0 else true end),
  constraint invoices_totals check (gross_cents = net_cents + vat_cents),
  constraint invoices_small_amount check (not small_amount or abs(gross_cents) <= 25000),
  constraint invoices_buyer check (small_amount or recipient is not null),
  -- The order's booking number as printed (issue 22), stamped on insert.
  booking_number text,
  -- The desk sale this document is the receipt of (57_desk_sales.sql; then order_id is null).
  -- Its foreign key is declared in 57_desk_sales.sql, after the table it references.
  desk_sale_id uuid,
  -- The long-term fee instalment this document bills (63_long_term_fees.sql; then order_id and
  -- desk_sale_id are null). Its foreign key is declared there, after the table it references.
  fee_id uuid,
  constraint invoices_order_or_desk_sale check (num_nonnulls(order_id, desk_sale_id, fee_id) = 1)
);

comment on column public.invoices.desk_sale_id is 'The desk sale this document is the receipt of (then order_id is null).';

alter table public.invoices enable row level security;

comment on table public.invoices is 'Invoice documents of an order, stored whole when issued and never changed (GoBD): invoices, cancellation invoices (negative, referring to the cancelled document) and credit notes (a partial refund); number RE-<year>-<n> gapless per year over all kinds; seller, buyer (none on a Kleinbetragsrechnung), service period, lines, VAT per rate and totals as billed. Kept when an account is deleted, as tax law requires.';

create index invoices_order_idx on public.invoices (order_id, year, number);

create index invoices_refers_to_idx on public.invoices (refers_to) where refers_to is not null;

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
-- It is declared in 63_long_term_fees.sql, after the fees table it names (owners of the order
-- or of the fee, staff all).

-- No role writes documents: the security-definer functions below insert them, and a trigger
-- refuses every update, delete and truncate (the owner's and the service role's too).
revoke insert, update, delete, truncate, references, trigger on public.invoices from anon, authenticated, service_role;

create trigger invoices_immutable before update or delete on public.invoices
  for each row execute function private.refuse_change('invoice_immutable', 'An issued invoice document is never changed or deleted: a cancellation invoice or a credit note corrects it.');

create trigger invoices_no_truncate before truncate on public.invoices
  for each statement execute function private.refuse_change('invoice_immutable', 'An issued invoice document is never changed or deleted: a cancellation invoice or a credit note corrects it.');

-- What an order bills: one line per service, from its price breakdown (and, later, its extras).
-- Each line: position, code, description (German) and description_en, quantity, unit (night,
-- day, piece), unit price and net in cents, VAT rate in percent.
create function private.order_billable_lines(p_order public.orders)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  b jsonb := p_order.price_breakdown;
  v_place text := coalesce(p_order.place_snapshot ->> 'name', '');
  v_metres integer := (b ->> 'metres')::integer;
  v_nights integer := (b ->> 'nights')::integer;
  v_rate numeric := coalesce((b ->> 'vat_rate_percent')::numeric, 19);
  v_code text := b ->> 'sale_code';
  v_lines jsonb := '[]'::jsonb;
begin
  if b ->> 'berth_fee_cents' is null then
    -- A breakdown without its parts (written by hand, not by the booking functions): one line
    -- of the whole net, so the document still adds up to the order's price.
    v_lines := v_lines || jsonb_build_object(
      'code', 'berth_fee',
      'description', 'Liegeplatz ' || v_place,
      'description_en', 'Berth ' || v_place,
      'quantity', 1, 'unit', 'piece',
      'unit_price_cents', coalesce((b ->> 'net_cents')::integer, round(p_order.price_cents * 100 / (100 + v_rate))::integer),
      'vat_rate', v_rate,
      'net_cents', coalesce((b ->> 'net_cents')::integer, round(p_order.price_cents * 100 / (100 + v_rate))::integer));
  elsif coalesce((b ->> 'prices_include_vat')::boolean, false) then
    -- Priced from the gross price list (issue 40): gross lines at each item's rate, the VAT
    -- taken out per rate (invoice_vat_breakdown), so the document's total is the quoted gross.
    if p_order.kind = 'day' then
      v_lines := v_lines || jsonb_build_object(
        'code', 'berth_fee',
        'description', 'Tagesliegeplatz ' || v_place || ', Boot ' || v_metres || ' m',
        'description_en', 'Day berth ' || v_place || ', boat ' || v_metres || ' m',
        'quantity', 1, 'unit', 'day',
        'unit_gross_cents', (b ->> 'berth_fee_gross_cents')::integer,
        'unit_price_cents', (b ->> 'berth_fee_cents')::integer,
        'vat_rate', (b ->> 'berth_vat_rate')::integer,
        'net_cents', (b ->> 'berth_fee_cents')::integer);
    else
      v_lines := v_lines || jsonb_build_object(
        'code', 'berth_fee',
        'description', case when p_order.kind = 'fair' then 'Messe-Liegeplatz ' else 'Liegegebühr Liegeplatz ' end
                       || v_place || ', Boot ' || v_metres || ' m',
        'description_en', case when p_order.kind = 'fair' then 'Fair berth ' else 'Berth fee, berth ' end
                          || v_place || ', boat ' || v_metres || ' m',
        'quantity', v_nights, 'unit', 'night',
        'unit_gross_cents', v_metres * (b ->> 'berth_fee_per_metre_gross_cents')::integer,
        'unit_price_cents', private.net_of_gross(v_metres * (b ->> 'berth_fee_per_metre_gross_cents')::integer, (b ->> 'berth_vat_rate')::numeric),
        'vat_rate', (b ->> 'berth_vat_rate')::integer,
        'net_cents', (b ->> 'berth_fee_cents')::integer);
      v_lines := v_lines || jsonb_build_object(
        'code', 'additional_costs',
        'description', 'Nebenkosten (Strom, Wasser, Dusche/WC, Müll)' || coalesce(', Aktionscode ' || v_code, ''),
        'description_en', 'Additional costs (electricity, water, showers/toilets, waste)' || coalesce(', sale code ' || v_code, ''),
        'quantity', v_nights, 'unit', 'night',
        'unit_gross_cents', (b ->> 'additional_costs_per_night_gross_cents')::integer,
        'unit_price_cents', (b ->> 'additional_costs_per_night_cents')::integer,
        'vat_rate', (b ->> 'additional_costs_vat_rate')::integer,
        'net_cents', (b ->> 'additional_costs_cents')::integer);
    end if;
  elsif p_order.kind = 'day' then
    v_lines := v_lines || jsonb_build_object(
      'code', 'berth_fee',
      'description', 'Tagesliegeplatz ' || v_place || ', Boot ' || v_metres || ' m',
      'description_en', 'Day berth ' || v_place || ', boat ' || v_metres || ' m',
      'quantity', 1, 'unit', 'day',
      'unit_price_cents', (b ->> 'berth_fee_cents')::integer,
      'vat_rate', v_rate,
      'net_cents', (b ->> 'berth_fee_cents')::integer);
  else
    v_lines := v_lines || jsonb_build_object(
      'code', 'berth_fee',
      'description', case when p_order.kind = 'fair' then 'Messe-Liegeplatz ' else 'Liegegebühr Liegeplatz ' end
                     || v_place || ', Boot ' || v_metres || ' m',
      'description_en', case when p_order.kind = 'fair' then 'Fair berth ' else 'Berth fee, berth ' end
                        || v_place || ', boat ' || v_metres || ' m',
      'quantity', v_nights, 'unit', 'night',
      'unit_price_cents', v_metres * (b ->> 'berth_fee_per_metre_cents')::integer,
      'vat_rate', v_rate,
      'net_cents', (b ->> 'berth_fee_cents')::integer);
    v_lines := v_lines || jsonb_build_object(
      'code', 'additional_costs',
      'description', 'Nebenkosten (Strom, Wasser, Dusche/WC, Müll)' || coalesce(', Aktionscode ' || v_code, ''),
      'description_en', 'Additional costs (electricity, water, showers/toilets, waste)' || coalesce(', sale code ' || v_code, ''),
      'quantity', v_nights, 'unit', 'night',
      'unit_price_cents', (b ->> 'additional_costs_per_night_cents')::integer,
      'vat_rate', v_rate,
      'net_cents', (b ->> 'additional_costs_cents')::integer);
  end if;
  -- The order's extras (55_extras.sql), gross-priced.
  v_lines := v_lines || private.order_extra_lines(p_order.id);
  -- Positions 1..n in the order above.
  return (select coalesce(jsonb_agg(l.value || jsonb_build_object('position', l.ordinality) order by l.ordinality), '[]'::jsonb)
            from jsonb_array_elements(v_lines) with ordinality l);
end
$$;
comment on function private.order_billable_lines(public.orders) is 'The billable lines of an order (berth fee, additional costs, its extras), each with description (de, en), quantity, unit, unit price, VAT rate and net cents; a breakdown priced from the gross price list (prices_include_vat) and the extras bill gross lines (unit_gross_cents).';
revoke execute on function private.order_billable_lines(public.orders) from public;

-- VAT per rate of a set of lines: net summed per rate, VAT half up on each rate's net (a
-- negative net gives the exact negative), highest rate first. Gross-priced lines (extras: they
-- carry unit_gross_cents) add their gross (quantity x unit gross) per rate, and the VAT
-- contained in it is taken out half up, so a price list's EUR 5 stays EUR 5.
create function private.invoice_vat_breakdown(p_lines jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('vat_rate', r.rate, 'net_cents', r.net, 'vat_cents', r.vat, 'gross_cents', r.net + r.vat)
                            order by r.rate desc), '[]'::jsonb)
  from (
    select t.rate, t.net + t.gross - round(t.gross * t.rate / (100 + t.rate))::bigint as net,
           round(t.net * t.rate / 100.0)::bigint + round(t.gross * t.rate / (100 + t.rate))::bigint as vat
    from (
      select (l ->> 'vat_rate')::numeric as rate,
             coalesce(sum((l ->> 'net_cents')::bigint) filter (where not l ? 'unit_gross_cents'), 0) as net,
             coalesce(sum(((l ->> 'quantity')::numeric * (l ->> 'unit_gross_cents')::bigint)::bigint) filter (where l ? 'unit_gross_cents'), 0) as gross
      from jsonb_array_elements(p_lines) l
      group by 1
    ) t
  ) r
$$;
comment on function private.invoice_vat_breakdown(jsonb) is 'Net, VAT (half up per rate) and gross per VAT rate of invoice lines.';
revoke execute on function private.invoice_vat_breakdown(jsonb) from public;

-- Inserts one document with the next number of the year (Europe/Berlin); totals from the VAT
-- breakdown. p_order null: a correction of a desk sale's receipt (p_refers_to), same sale.
create function private.insert_invoice_document(
  p_order public.orders,
  p_kind text,
  p_reason text,
  p_refers_to public.invoices,
  p_lines jsonb,
  p_vat_breakdown jsonb,
  p_recipient jsonb,
  p_small_amount boolean,
  p_service_from date,
  p_service_to date
)
returns public.invoices
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_year integer := extract(year from private.now() at time zone 'Europe/Berlin')::integer;
  v_number integer;
  v_row public.invoices;
begin
  insert into private.invoice_counters as c (year, last_number) values (v_year, 1)
  on conflict (year) do update set last_number = c.last_number + 1
  returning c.last_number into v_number;
  -- Without an order the document corrects a desk sale's receipt (private.cancel_desk_sale) or
  -- a long-term fee's invoice (private.cancel_contract_fees): it belongs to the same sale or
  -- fee, and a fee's document keeps the contract reference as printed.
  insert into public.invoices (order_id, desk_sale_id, fee_id, booking_number, year, number, net_cents, vat_cents, gross_cents,
                               recipient, issued_at, kind, refers_to, refers_to_number, reason, small_amount, service_from,
                               service_to, lines, vat_breakdown)
  select p_order.id, case when p_order.id is null then p_refers_to.desk_sale_id end,
         case when p_order.id is null then p_refers_to.fee_id end,
         case when p_order.id is null and p_refers_to.fee_id is not null then p_refers_to.booking_number end, v_year, v_number,
         coalesce(sum((v ->> 'net_cents')::bigint), 0), coalesce(sum((v ->> 'vat_cents')::bigint), 0),
         coalesce(sum((v ->> 'gross_cents')::bigint), 0),
         p_recipient, private.now(), p_kind, p_refers_to.id, p_refers_to.invoice_number, p_reason,
         p_small_amount, p_service_from, p_service_to, p_lines, p_vat_breakdown
  from jsonb_array_elements(p_vat_breakdown) v
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.insert_invoice_document(public.orders, text, text, public.invoices, jsonb, jsonb, jsonb, boolean, date, date) is 'Issues one invoice document with the next gapless number of the year (Europe/Berlin); net, VAT and gross from its VAT breakdown.';
revoke execute on function private.insert_invoice_document(public.orders, text, text, public.invoices, jsonb, jsonb, jsonb, boolean, date, date) from public;

-- A cancellation invoice: the cancelled document with every amount negated, referring to it.
create function private.cancel_invoice_document(p_order public.orders, p_doc public.invoices, p_reason text)
returns public.invoices
language sql
volatile
security definer
set search_path = ''
as $$
  select * from private.insert_invoice_document(
    p_order, 'cancellation', p_reason, p_doc,
    coalesce((select jsonb_agg(l || jsonb_build_object('quantity', -(l ->> 'quantity')::numeric, 'net_cents', -(l ->> 'net_cents')::bigint)
                               order by (l ->> 'position')::integer)
              from jsonb_array_elements(p_doc.lines) l), '[]'::jsonb),
    coalesce((select jsonb_agg(v || jsonb_build_object('net_cents', -(v ->> 'net_cents')::bigint, 'vat_cents', -(v ->> 'vat_cents')::bigint,
                                                       'gross_cents', -(v ->> 'gross_cents')::bigint)
                               order by (v ->> 'vat_rate')::numeric desc)
              from jsonb_array_elements(p_doc.vat_breakdown) v), '[]'::jsonb),
    p_doc.recipient, p_doc.small_amount, p_doc.service_from, p_doc.service_to)
$$;
comment on function private.cancel_invoice_document(public.orders, public.invoices, text) is 'Issues the cancellation invoice of a document: same lines and VAT breakdown negated, referring to its number.';
revoke execute on function private.cancel_invoice_document(public.orders, public.invoices, text) from public;

-- A credit note of p_gross cents against an invoice: the amount is split over the invoice's VAT
-- rates in proportion to their gross (the last rate takes the rounding rest); per rate the VAT
-- contained in the gross is taken out (net = gross * 100 / (100 + rate), half up).
create function private.credit_invoice_document(p_order public.orders, p_invoice public.invoices, p_gross bigint, p_reason text)
returns public.invoices
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_rate record;
  v_left bigint := p_gross;
  v_part bigint;
  v_net bigint;
  v_lines jsonb := '[]'::jsonb;
  v_vat jsonb := '[]'::jsonb;
  v_count integer := jsonb_array_length(p_invoice.vat_breakdown);
  v_i integer := 0;
begin
  for v_rate in
    select (v ->> 'vat_rate')::numeric as rate, (v ->> 'gross_cents')::bigint as gross
      from jsonb_array_elements(p_invoice.vat_breakdown) v
     order by (v ->> 'vat_rate')::numeric desc
  loop
    v_i := v_i + 1;
    v_part := case when v_i = v_count or p_invoice.gross_cents = 0 then v_left
                   else round(p_gross * v_rate.gross / p_invoice.gross_cents::numeric)::bigint end;
    v_left := v_left - v_part;
    v_net := round(v_part * 100 / (100 + v_rate.rate))::bigint;
    v_lines := v_lines || jsonb_build_object(
      'position', v_i, 'code', 'credit',
      'description', 'Erstattung (Preisminderung) zu Rechnung ' || p_invoice.invoice_number
                     || case when v_count > 1 then ', ' || rtrim(to_char(v_rate.rate, 'FM990.##'), '.') || ' % USt.' else '' end,
      'description_en', 'Refund (price reduction) on invoice ' || p_invoice.invoice_number
                        || case when v_count > 1 then ', ' || rtrim(to_char(v_rate.rate, 'FM990.##'), '.') || ' % VAT' else '' end,
      'quantity', 1, 'unit', 'piece', 'unit_price_cents', -v_net, 'vat_rate', v_rate.rate, 'net_cents', -v_net);
    v_vat := v_vat || jsonb_build_object('vat_rate', v_rate.rate, 'net_cents', -v_net, 'vat_cents', -(v_part - v_net), 'gross_cents', -v_part);
  end loop;
  return private.insert_invoice_document(p_order, 'credit_note', p_reason, p_invoice, v_lines, v_vat,
                                         p_invoice.recipient, p_invoice.small_amount, p_invoice.service_from, p_invoice.service_to);
end
$$;
comment on function private.credit_invoice_document(public.orders, public.invoices, bigint, text) is 'Issues a credit note (Rechnungskorrektur) of the given gross cents against an invoice, split over its VAT rates.';
revoke execute on function private.credit_invoice_document(public.orders, public.invoices, bigint, text) from public;

-- Brings an order's documents in line with what it bills now:
--   * billed = paid (or partly refunded) and the stay not cancelled or expired;
--   * not billed: every open document (an invoice or credit note no cancellation names) is
--     cancelled;
--   * billed, but the open invoice's lines or service period differ from the order's now (a
--     move: the berth is in the line's text; other nights; another price), or there is none:
--     the open documents are cancelled and a new invoice is issued;
--   * cancelled under the cancellation policy with a share kept: the share is billed (one line
--     per VAT rate of the stay, private.cancellation_fee_lines) as a new invoice;
--   * then what was refunded of a billed order (price minus what the ledger holds) is covered
--     by credit notes against the open invoice (more credit than refunded, after a refund was
--     reversed: the credit notes are cancelled and the rest credited anew).
-- Idempotent: called again with nothing changed it issues nothing.
create function private.sync_invoice_documents(p_order_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_billed boolean;
  v_lines jsonb;
  v_from date;
  v_to date;
  v_invoice public.invoices;
  v_doc public.invoices;
  v_ledger record;
  v_gross bigint;
  v_credit bigint;
  v_credited bigint;
  v_recipient jsonb;
  v_small boolean;
  v_reason text;
  v_fee boolean;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found then
    return;
  end if;
  v_billed := v_order.payment_status in ('paid', 'partially_refunded') and v_order.status not in ('cancelled', 'expired');
  -- Cancelled under the policy with a share kept (47_cancellation_policy.sql): the share is
  -- billed, as its own invoice (the stay's invoice is cancelled).
  v_fee := v_order.status = 'cancelled' and coalesce(v_order.cancellation_kept_cents, 0) > 0
           and v_order.payment_status in ('paid', 'partially_refunded');
  select * into v_invoice from public.invoices i
   where i.order_id = v_order.id and i.kind = 'invoice'
     and not exists (select 1 from public.invoices c where c.refers_to = i.id and c.kind = 'cancellation')
   order by i.year desc, i.number desc
   limit 1;
  if v_fee then
    v_billed := true;
    v_lines := private.cancellation_fee_lines(v_order);
    v_from := private.berlin_date(v_order.starts_at);
    v_to := private.berlin_date(v_order.ends_at);
  elsif v_billed then
    v_lines := private.order_billable_lines(v_order);
    v_from := private.berlin_date(v_order.starts_at);
    v_to := private.berlin_date(v_order.ends_at);
  end if;
  if v_invoice.id is not null and v_billed and v_invoice.lines = v_lines
     and v_invoice.service_from = v_from and v_invoice.service_to = v_to then
    null; -- the open invoice still says what the order bills
  elsif v_invoice.id is not null or v_billed then
    v_reason := case when v_fee then 'cancelled'
                     when v_billed then 'changed'
                     when v_order.payment_status = 'refunded' then 'refunded'
                     else 'cancelled' end;
    -- Cancel every open document, credit notes first, newest first.
    for v_doc in
      select * from public.invoices i
       where i.order_id = v_order.id and i.kind in ('invoice', 'credit_note')
         and not exists (select 1 from public.invoices c where c.refers_to = i.id and c.kind = 'cancellation')
       order by i.kind = 'invoice', i.year desc, i.number desc
    loop
      perform private.cancel_invoice_document(v_order, v_doc, v_reason);
    end loop;
    v_invoice := null;
    if not v_billed then
      return;
    end if;
    -- The new invoice: the buyer from the person form; up to EUR 250 gross without a complete
    -- address it is a Kleinbetragsrechnung without the buyer (§ 33 UStDV).
    v_recipient := (v_order.person - 'locale') || jsonb_build_object('email', v_order.email);
    v_gross := (select coalesce(sum((v ->> 'gross_cents')::bigint), 0) from jsonb_array_elements(private.invoice_vat_breakdown(v_lines)) v);
    v_small := v_gross <= 25000
               and (coalesce(btrim(v_order.person ->> 'street'), '') = '' or coalesce(btrim(v_order.person ->> 'city'), '') = ''
                    or coalesce(btrim(v_order.person ->> 'postal_code'), '') = ''
                    or coalesce(btrim(concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name')), '') = '');
    v_invoice := private.insert_invoice_document(
      v_order, 'invoice',
      case when exists (select 1 from public.invoices i where i.order_id = v_order.id) then 'correction' else 'payment' end,
      null, v_lines, private.invoice_vat_breakdown(v_lines),
      case when v_small then null else v_recipient end, v_small, v_from, v_to);
  end if;
  if not v_billed then
    return;
  end if;
  -- Credit notes: the invoice's gross minus what the ledger holds (a second charge refunded
  -- is not a price reduction), never more than was refunded (an extra added after the payment
  -- is owed, not credited).
  -- A returned deposit paid back is no price reduction: its line left the invoice instead.
  select * into v_ledger from private.order_ledger(v_order.id);
  v_credit := greatest(0, least(v_ledger.refunded_cents - private.order_deposit_returns(v_order.id),
                                v_invoice.gross_cents - greatest(0, v_ledger.paid_cents - v_ledger.refunded_cents)));
  v_credited := coalesce((select -sum(i.gross_cents) from public.invoices i
                           where i.refers_to = v_invoice.id and i.kind = 'credit_note'
                             and not exists (select 1 from public.invoices c where c.refers_to = i.id and c.kind = 'cancellation')), 0);
  if v_credited > v_credit then
    for v_doc in
      select * from public.invoices i
       where i.refers_to = v_invoice.id and i.kind = 'credit_note'
         and not exists (select 1 from public.invoices c where c.refers_to = i.id and c.kind = 'cancellation')
       order by i.year desc, i.number desc
    loop
      perform private.cancel_invoice_document(v_order, v_doc, 'refund_reversed');
    end loop;
    v_credited := 0;
  end if;
  if v_credit > v_credited then
    perform private.credit_invoice_document(v_order, v_invoice, v_credit - v_credited, 'partial_refund');
  end if;
end
$$;
comment on function private.sync_invoice_documents(uuid) is 'Issues what an order''s documents lack: its invoice when paid; a cancellation of the open documents when it is cancelled, expired or refunded in full, or when its lines or service period changed (then a new invoice); credit notes for partial refunds. Idempotent.';
revoke execute on function private.sync_invoice_documents(uuid) from public;

create function private.orders_sync_invoice_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.sync_invoice_documents(new.id);
  return null;
end
$$;
comment on function private.orders_sync_invoice_documents() is 'After an order''s payment status, status, berth, period or price changes: brings its invoice documents in line (private.sync_invoice_documents).';
revoke execute on function private.orders_sync_invoice_documents() from public;

create trigger orders_invoice_documents
  after update of payment_status, status, place_id, place_snapshot, kind, starts_at, ends_at, price_cents, price_breakdown
  on public.orders
  for each row execute function private.orders_sync_invoice_documents();

create function private.payments_sync_invoice_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.sync_invoice_documents(new.order_id);
  return null;
end
$$;
comment on function private.payments_sync_invoice_documents() is 'After a ledger row: brings the order''s invoice documents in line (a second partial refund leaves payment_status as it was, so the order''s trigger does not fire).';
revoke execute on function private.payments_sync_invoice_documents() from public;

-- Named to fire after payments_update_order (triggers of one event fire in name order): the
-- order's payment status is derived before the documents follow it.
create trigger payments_update_order_invoices after insert on public.payments
  for each row when (new.order_id is not null) execute function private.payments_sync_invoice_documents();
