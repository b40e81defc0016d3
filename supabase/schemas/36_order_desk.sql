-- The harbour's order desk: internal notes and the history of every order.

create function private.staff_orders(
  p_status public.order_status default null,
  p_kind public.order_kind default null,
  p_from date default null,
  p_to date default null,
  p_query text default null,
  p_limit integer default 25,
  p_offset integer default 0,
  p_sort text default 'created_at',
  p_desc boolean default true
)
returns table (
  id uuid,
  created_at timestamptz,
  kind public.order_kind,
  status public.order_status,
  payment_status public.payment_status,
  starts_at timestamptz,
  ends_at timestamptz,
  place_name text,
  guest text,
  boat_name text,
  email text,
  price_cents integer,
  booking_number text,
  total_count bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
  v_query text := nullif(btrim(p_query), '');
  v_pattern text;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_limit is null or p_limit < 1 or p_limit > 100 or p_offset is null or p_offset < 0 or p_offset > 1000000 then
    raise exception 'invalid_paging' using errcode = '22023', hint = 'limit 1-100, offset >= 0';
  end if;
  if p_from is not null and p_to is not null and p_to < p_from then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if char_length(v_query) > 100 then
    raise exception 'invalid_query' using errcode = '22023', hint = 'At most 100 characters.';
  end if;
  if p_sort is null or p_desc is null
     or p_sort not in ('created_at', 'starts_at', 'guest', 'boat_name', 'place_name', 'kind', 'status', 'payment_status', 'price_cents') then
    raise exception 'invalid_sort' using errcode = '22023', hint = 'created_at, starts_at, guest, boat_name, place_name, kind, status, payment_status or price_cents';
  end if;
  -- Stays that touch the Berlin days [p_from, p_to].
  v_from := case when p_from is not null then private.berlin_at(p_from, time '00:00') end;
  v_to := case when p_to is not null then private.berlin_at(p_to + 1, time '00:00') end;
  v_pattern := case when v_query is not null
    then '%' || replace(replace(replace(lower(v_query), '\', '\\'), '%', '\%'), '_', '\_') || '%' end;
  return query
    select o.id, o.created_at, o.kind, o.status, o.payment_status, o.starts_at, o.ends_at,
           coalesce(p.name, o.place_snapshot ->> 'name'),
           nullif(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'), ''),
           o.boat ->> 'name', o.email, o.price_cents, o.booking_number,
           count(*) over ()
    from public.orders o
    left join public.places p on p.id = o.place_id
    where (p_status is null or o.status = p_status)
      and (p_kind is null or o.kind = p_kind)
      and (v_from is null or o.ends_at > v_from)
      and (v_to is null or o.starts_at < v_to)
      and (v_pattern is null or lower(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name', o.boat ->> 'name', o.email, o.booking_number))
                                  like v_pattern)
    -- One sort key per type; the other keys are null and tie. Then newest first, then id: a stable page.
    order by
      case when not p_desc then case p_sort when 'created_at' then o.created_at when 'starts_at' then o.starts_at end end asc,
      case when p_desc then case p_sort when 'created_at' then o.created_at when 'starts_at' then o.starts_at end end desc,
      case when not p_desc then case p_sort
        when 'guest' then lower(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'))
        when 'boat_name' then lower(o.boat ->> 'name')
        when 'place_name' then lower(coalesce(p.name, o.place_snapshot ->> 'name'))
        when 'kind' then o.kind::text when 'status' then o.status::text when 'payment_status' then o.payment_status::text end end asc,
      case when p_desc then case p_sort
        when 'guest' then lower(concat_ws(' ', o.person ->> 'first_name', o.person ->> 'last_name'))
        when 'boat_name' then lower(o.boat ->> 'name')
        when 'place_name' then lower(coalesce(p.name, o.place_snapshot ->> 'name'))
        when 'kind' then o.kind::text when 'status' then o.status::text when 'payment_status' then o.payment_status::text end end desc,
      case when not p_desc and p_sort = 'price_cents' then o.price_cents end asc,
      case when p_desc and p_sort = 'price_cents' then o.price_cents end desc,
      o.created_at desc, o.id
    limit p_limit offset p_offset;
end
$$;
comment on function private.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer, text, boolean) is 'The rule behind public.staff_orders (security definer, not exposed by the API).';
revoke execute on function private.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer, text, boolean) from public;
grant execute on function private.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer, text, boolean) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/staff_orders): runs as the caller, the rule above decides.
create function public.staff_orders(p_status public.order_status DEFAULT NULL::public.order_status, p_kind public.order_kind DEFAULT NULL::public.order_kind, p_from date DEFAULT NULL::date, p_to date DEFAULT NULL::date, p_query text DEFAULT NULL::text, p_limit integer DEFAULT 25, p_offset integer DEFAULT 0, p_sort text DEFAULT 'created_at'::text, p_desc boolean DEFAULT true)
returns TABLE(id uuid, created_at timestamptz, kind public.order_kind, status public.order_status, payment_status public.payment_status, starts_at timestamptz, ends_at timestamptz, place_name text, guest text, boat_name text, email text, price_cents integer, booking_number text, total_count bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.staff_orders(p_status, p_kind, p_from, p_to, p_query, p_limit, p_offset, p_sort, p_desc)
$$;
comment on function public.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer, text, boolean) is 'Staff: orders sorted by p_sort (newest first by default), filtered by status, kind, stay overlapping Berlin days [p_from, p_to] and a search over name, boat, e-mail and booking number; one page with the total count.';
revoke execute on function public.staff_orders(public.order_status, public.order_kind, date, date, text, integer, integer, text, boolean) from anon, public;

create table public.order_notes (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  body text not null check (char_length(btrim(body)) between 1 and 2000),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);

alter table public.order_notes enable row level security;

comment on table public.order_notes is 'Internal notes of the harbour team on an order (never shown to the customer); written through add_order_note.';

create index order_notes_order_idx on public.order_notes (order_id, created_at);

create policy "order_notes: staff read" on public.order_notes
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.order_notes from anon;

revoke insert, update, delete, truncate on public.order_notes from authenticated;

create function private.add_order_note(p_order_id uuid, p_body text)
returns public.order_notes
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_body text := btrim(coalesce(p_body, ''));
  v_note public.order_notes;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if char_length(v_body) < 1 or char_length(v_body) > 2000 then
    raise exception 'invalid_note' using errcode = '22023', hint = 'A note has 1-2000 characters.';
  end if;
  if not exists (select 1 from public.orders o where o.id = p_order_id) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  insert into public.order_notes (order_id, body, created_by, created_at)
  values (p_order_id, v_body, (select auth.uid()), private.now())
  returning * into v_note;
  return v_note;
end
$$;
comment on function private.add_order_note(uuid, text) is 'The rule behind public.add_order_note (security definer, not exposed by the API).';
revoke execute on function private.add_order_note(uuid, text) from public;
grant execute on function private.add_order_note(uuid, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/add_order_note): runs as the caller, the rule above decides.
create function public.add_order_note(p_order_id uuid, p_body text)
returns public.order_notes
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.add_order_note(p_order_id, p_body)
$$;
comment on function public.add_order_note(uuid, text) is 'Staff: adds an internal note (1-2000 characters) to an order.';
revoke execute on function public.add_order_note(uuid, text) from anon, public;

create table public.order_events (
  id bigint generated always as identity primary key,
  -- No cascade: an order with a history is kept, as one with ledger rows is.
  order_id uuid not null references public.orders (id),
  -- payment_recorded, refund_recorded, payment_to_refund (money taken that must go back),
  -- refund_failed (Stripe reported a refund failed: its reversal, the money is back with the
  -- harbour) and payment_failed (a declined online payment) come from the ledger and Stripe:
  -- from_value is the method, to_value the amount in cents (for payment_failed the decline code).
  -- rescheduled: other dates (from_value / to_value 'arrival/departure', Berlin dates).
  event text not null check (event in ('created', 'status', 'payment', 'moved', 'rescheduled', 'checked_in',
                                       'payment_recorded', 'refund_recorded', 'payment_to_refund', 'payment_failed',
                                       'refund_failed')),
  from_value text,
  to_value text,
  -- Who acted (auth.users.id). Not a foreign key: the history is never changed, so it cannot
  -- follow an account's deletion (on delete set null would be an update); once the account is
  -- gone the id names nobody.
  actor uuid,
  at timestamptz not null default now()
);

alter table public.order_events enable row level security;

comment on table public.order_events is 'The history of an order (created, status, payment status, berth moves, ledger rows with method and amount, declined online payments), written by triggers and the Stripe webhook; staff read it. Append-only: nobody updates, deletes or truncates a row, the service role and the owner included.';

create index order_events_order_idx on public.order_events (order_id, id);

create policy "order_events: staff read" on public.order_events
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.order_events from anon;

revoke insert, update, delete, truncate, references, trigger on public.order_events from authenticated, service_role;

-- Like the ledger, the invoices, the cash book and the audit trail, the history of an order is
-- never rewritten, whoever writes (the owner, every security definer function, the service role).
create trigger order_events_immutable before update or delete on public.order_events
  for each row execute function private.refuse_change('order_events_immutable', 'The history of an order is append-only: a later event records what changed.');

create trigger order_events_no_truncate before truncate on public.order_events
  for each statement execute function private.refuse_change('order_events_immutable', 'The history of an order is append-only: a later event records what changed.');

create function private.record_order_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor uuid := (select auth.uid());
  v_at timestamptz := private.now();
begin
  if tg_op = 'INSERT' then
    insert into public.order_events (order_id, event, to_value, actor, at)
    values (new.id, 'created', new.status::text, v_actor, new.created_at);
    return null;
  end if;
  if new.status is distinct from old.status then
    insert into public.order_events (order_id, event, from_value, to_value, actor, at)
    values (new.id, 'status', old.status::text, new.status::text, v_actor, v_at);
  end if;
  if new.payment_status is distinct from old.payment_status then
    insert into public.order_events (order_id, event, from_value, to_value, actor, at)
    values (new.id, 'payment', old.payment_status::text, new.payment_status::text, v_actor, v_at);
  end if;
  if new.place_id is distinct from old.place_id then
    insert into public.order_events (order_id, event, from_value, to_value, actor, at)
    values (new.id, 'moved', old.place_snapshot ->> 'name', new.place_snapshot ->> 'name', v_actor, v_at);
  end if;
  if new.starts_at is distinct from old.starts_at or new.ends_at is distinct from old.ends_at then
    insert into public.order_events (order_id, event, from_value, to_value, actor, at)
    values (new.id, 'rescheduled',
            private.berlin_date(old.starts_at) || '/' || private.berlin_date(old.ends_at),
            private.berlin_date(new.starts_at) || '/' || private.berlin_date(new.ends_at), v_actor, v_at);
  end if;
  return null;
end
$$;
comment on function private.record_order_event() is 'After insert or update on orders: records creation, status, payment, berth and date changes with the acting user.';
revoke execute on function private.record_order_event() from public;

create trigger orders_record_event after insert or update of status, payment_status, place_id, starts_at, ends_at on public.orders
  for each row execute function private.record_order_event();

create function private.record_payment_event()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.order_events (order_id, event, from_value, to_value, actor, at)
  values (new.order_id,
          case when new.kind = 'refund' then 'refund_recorded'
               -- a payment row that refers to a refund is that refund's reversal
               when new.refund_of is not null then 'refund_failed'
               when new.note like 'to_refund:%' then 'payment_to_refund'
               else 'payment_recorded' end,
          new.method::text, new.amount_cents::text, new.recorded_by, new.recorded_at);
  return null;
end
$$;
comment on function private.record_payment_event() is 'After insert on payments: records the ledger row in the order''s history (method, amount in cents, who recorded it; a payment to refund and a failed refund''s reversal marked as such).';
revoke execute on function private.record_payment_event() from public;

create trigger payments_history after insert on public.payments
  for each row when (new.order_id is not null) execute function private.record_payment_event();
