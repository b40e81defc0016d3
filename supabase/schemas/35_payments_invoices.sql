-- Payment status (pending -> paid -> refunded, staff only) and the gapless invoices a
-- payment issues.

-- Numbers are gapless per year: the counter row is locked by the transaction that takes the
-- next number, so concurrent payments queue and a rolled-back payment returns its number.
create table private.invoice_counters (
  year integer primary key,
  last_number integer not null
);

alter table private.invoice_counters enable row level security;

comment on table private.invoice_counters is 'The last invoice number issued per year (gapless, locked while a number is taken).';

create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null unique references public.orders (id),
  year integer not null,
  number integer not null,
  invoice_number text generated always as ('RE-' || year::text || '-' || lpad(number::text, 5, '0')) stored,
  net_cents integer not null,
  vat_cents integer not null,
  gross_cents integer not null,
  recipient jsonb not null,
  issued_at timestamptz not null default now(),
  -- The issuer is kept with each invoice as issued (an address change does not rewrite old ones).
  issuer jsonb,
  unique (year, number)
);

alter table public.invoices enable row level security;

comment on table public.invoices is 'The invoice of a paid order: number RE-<year>-<n> gapless per year, amounts and the recipient as billed (kept when an account is deleted, as tax law requires).';

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
create policy "invoices: owner reads own, staff all" on public.invoices
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

revoke insert, update, delete, truncate on public.invoices from anon, authenticated;

create function private.issue_invoice()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_year integer := extract(year from private.now() at time zone 'Europe/Berlin')::integer;
  v_number integer;
begin
  if new.payment_status = 'paid' and old.payment_status is distinct from 'paid'
     and not exists (select 1 from public.invoices i where i.order_id = new.id) then
    insert into private.invoice_counters as c (year, last_number) values (v_year, 1)
    on conflict (year) do update set last_number = c.last_number + 1
    returning c.last_number into v_number;
    insert into public.invoices (order_id, year, number, net_cents, vat_cents, gross_cents, recipient, issued_at)
    values (new.id, v_year, v_number,
            coalesce((new.price_breakdown ->> 'net_cents')::integer, new.price_cents),
            coalesce((new.price_breakdown ->> 'vat_cents')::integer, 0),
            new.price_cents,
            (new.person - 'locale') || jsonb_build_object('email', new.email),
            private.now());
  end if;
  return null;
end
$$;
comment on function private.issue_invoice() is 'After an order becomes paid: issues its invoice with the next gapless number of the year (Europe/Berlin).';
revoke execute on function private.issue_invoice() from public;

create trigger orders_issue_invoice after update of payment_status on public.orders
  for each row execute function private.issue_invoice();

create function private.invoice_issuer()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'name', private.setting('invoice_name'),
    'street', private.setting('invoice_street'),
    'postal_code', private.setting('invoice_postal_code'),
    'city', private.setting('invoice_city'),
    'vat_id', private.setting('invoice_vat_id'),
    'email', private.setting('invoice_email'))
$$;
comment on function private.invoice_issuer() is 'The issuer of invoices (name, address, VAT id, e-mail) from the operator settings.';
revoke execute on function private.invoice_issuer() from public;

create function private.invoice_set_issuer()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.issuer := coalesce(new.issuer, private.invoice_issuer());
  return new;
end
$$;
comment on function private.invoice_set_issuer() is 'Before insert on invoices: stamps the current issuer data onto the invoice.';
revoke execute on function private.invoice_set_issuer() from public;

create trigger invoices_set_issuer before insert on public.invoices
  for each row execute function private.invoice_set_issuer();

create function private.set_payment_status(p_order_id uuid, p_payment_status public.payment_status, p_payment_id text default null)
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
comment on function private.set_payment_status(uuid, public.payment_status, text) is 'The rule behind public.set_payment_status (security definer, not exposed by the API).';
revoke execute on function private.set_payment_status(uuid, public.payment_status, text) from public;
grant execute on function private.set_payment_status(uuid, public.payment_status, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/set_payment_status): runs as the caller, the rule above decides.
create function public.set_payment_status(p_order_id uuid, p_payment_status public.payment_status, p_payment_id text DEFAULT NULL::text)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.set_payment_status(p_order_id, p_payment_status, p_payment_id)
$$;
comment on function public.set_payment_status(uuid, public.payment_status, text) is 'Staff record a payment (pending -> paid -> refunded); a refund cancels a still open booking and frees its berth, a completed stay is not refunded; nobody else changes payment fields.';
revoke execute on function public.set_payment_status(uuid, public.payment_status, text) from anon, public;

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
