-- The cash book (Kassenbuch, issue 21 item 4): every cash movement of the harbour office's till
-- as one numbered, append-only entry with the running balance, and the daily closing
-- (Kassenbericht) that staff confirm after counting the till. GoBD / §146 AO: each cash
-- movement recorded singly and daily, the book's balance can be checked against the till at any
-- time (Kassensturzfähigkeit), never below zero, nothing changed after the fact.
--
-- Entries come from (a) the payments ledger: every cash payment and cash refund (a trigger on
-- public.payments, so it holds whoever records them), (b) staff's own movements
-- (record_cash_movement: opening float, bank deposit / Geldtransit, withdrawal, each with a
-- reason), (c) the closing: a difference between the count and the book (Kassendifferenz).
-- A later source (a desk sale of extras) adds entries the same way: its own source_kind and
-- its row's id as source_id, through private.cash_book_book().

-- All writers of the book take this transaction lock first, so entries are numbered and
-- balanced one after the other, and a closing sees no entry slip in while it counts.
create function private.cash_book_lock()
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  select pg_advisory_xact_lock(3700370037)
$$;
comment on function private.cash_book_lock() is 'Serialises the writers of the cash book (entries and closings) for the rest of the transaction.';
revoke execute on function private.cash_book_lock() from public;

create table public.cash_book_entries (
  id uuid primary key default gen_random_uuid(),
  -- Gapless and in booking order (set by the insert trigger under the lock; a rolled-back
  -- entry returns its number).
  entry_no integer not null unique,
  -- The business day (Europe/Berlin) whose Kassenbericht covers the entry.
  business_day date not null,
  booked_at timestamptz not null default now(),
  kind text not null check (kind in ('payment', 'refund', 'opening_float', 'bank_deposit', 'withdrawal', 'difference')),
  -- Cents, positive into the till, negative out of it.
  amount_cents integer not null check (amount_cents <> 0),
  -- The till after this entry (set by the insert trigger; never below zero).
  balance_cents bigint not null check (balance_cents >= 0),
  -- Where the entry comes from: a ledger row (payments.id), a staff movement (no reference),
  -- a closing (cash_closings.id).
  source_kind text not null check (source_kind in ('payment', 'movement', 'closing', 'desk_sale', 'desk_sale_cancel')),
  source_id uuid,
  order_id uuid references public.orders (id),
  reason text check (char_length(reason) between 1 and 500),
  -- Who booked it. Kept when the account is deleted: no foreign key.
  recorded_by uuid,
  constraint cash_book_entries_direction check (
    (kind in ('payment', 'opening_float') and amount_cents > 0)
    or (kind in ('refund', 'bank_deposit', 'withdrawal') and amount_cents < 0)
    or kind = 'difference'),
  constraint cash_book_entries_source check (
    (source_kind = 'payment' and kind in ('payment', 'refund') and source_id is not null and order_id is not null)
    or (source_kind = 'movement' and kind in ('opening_float', 'bank_deposit', 'withdrawal') and source_id is null and reason is not null)
    or (source_kind = 'closing' and kind = 'difference' and source_id is not null)
    or (source_kind = 'desk_sale' and kind = 'payment' and source_id is not null and order_id is null)
    or (source_kind = 'desk_sale_cancel' and kind = 'refund' and source_id is not null and order_id is null)),
  -- A ledger row (or a closing) is booked once.
  constraint cash_book_entries_source_once unique (source_kind, source_id)
);

alter table public.cash_book_entries enable row level security;

comment on table public.cash_book_entries is 'The cash book: every cash movement of the till, numbered without gaps, with the running balance (never negative); append-only for everyone. Rows come from cash payments and refunds in the ledger, staff movements (record_cash_movement) and closing differences.';

create index cash_book_entries_day_idx on public.cash_book_entries (business_day, entry_no);

create index cash_book_entries_order_idx on public.cash_book_entries (order_id) where order_id is not null;

create policy "cash_book_entries: staff read" on public.cash_book_entries
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.cash_book_entries from anon;

revoke insert, update, delete, truncate, references, trigger on public.cash_book_entries from authenticated, service_role;

create table public.cash_closings (
  id uuid primary key default gen_random_uuid(),
  -- The day closed; the closing covers every entry up to it since the previous closing
  -- (period_from: the first day after it), normally that one day.
  business_day date not null unique,
  period_from date not null,
  -- Anfangsbestand (the previous closing's count), cash in and out, Sollbestand, Istbestand.
  opening_cents bigint not null check (opening_cents >= 0),
  cash_in_cents bigint not null check (cash_in_cents >= 0),
  cash_out_cents bigint not null check (cash_out_cents >= 0),
  expected_cents bigint not null check (expected_cents >= 0),
  counted_cents bigint not null check (counted_cents >= 0),
  difference_cents bigint not null,
  difference_entry_id uuid references public.cash_book_entries (id),
  -- The last entry the closing covers (the difference entry when there is one).
  last_entry_no integer not null default 0,
  note text check (char_length(note) <= 500),
  closed_by uuid,
  closed_at timestamptz not null default now(),
  constraint cash_closings_period check (period_from <= business_day),
  constraint cash_closings_sums check (expected_cents = opening_cents + cash_in_cents - cash_out_cents
                                       and difference_cents = counted_cents - expected_cents),
  constraint cash_closings_difference_booked check ((difference_cents = 0) = (difference_entry_id is null))
);

alter table public.cash_closings enable row level security;

comment on table public.cash_closings is 'The daily closing (Kassenbericht): opening balance, cash in and out, the expected and the counted balance and their difference (booked as its own entry), who confirmed it and when. Never changed or deleted; no entry can be booked onto a closed day.';

create index cash_closings_difference_entry_idx on public.cash_closings (difference_entry_id) where difference_entry_id is not null;

create policy "cash_closings: staff read" on public.cash_closings
  for select to authenticated
  using ((select private.is_staff()));

revoke all on public.cash_closings from anon;

revoke insert, update, delete, truncate, references, trigger on public.cash_closings from authenticated, service_role;

-- Nothing in the book or in a closing is ever changed or deleted, whoever writes (the owner,
-- the service role and security definer functions too): a correction is a new entry.
create trigger cash_book_entries_immutable before update or delete on public.cash_book_entries
  for each row execute function private.refuse_change('cash_book_immutable', 'The cash book and its closings are append-only: book a correcting entry instead.');

create trigger cash_book_entries_no_truncate before truncate on public.cash_book_entries
  for each statement execute function private.refuse_change('cash_book_immutable', 'The cash book and its closings are append-only: book a correcting entry instead.');

create trigger cash_closings_immutable before update or delete on public.cash_closings
  for each row execute function private.refuse_change('cash_book_immutable', 'The cash book and its closings are append-only: book a correcting entry instead.');

create trigger cash_closings_no_truncate before truncate on public.cash_closings
  for each statement execute function private.refuse_change('cash_book_immutable', 'The cash book and its closings are append-only: book a correcting entry instead.');

-- The first day a cash movement at p_at can be booked on: its own day (Europe/Berlin; never
-- after today), unless that day is closed (then the day after the last closing) or the book
-- already runs on a later day (entries never go back in time). Takes the lock.
create function private.cash_book_day_for(p_at timestamptz)
returns date
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.cash_book_lock();
  return greatest(least(private.berlin_date(p_at), private.berlin_date(private.now())),
                  (select max(c.business_day) + 1 from public.cash_closings c),
                  (select max(e.business_day) from public.cash_book_entries e));
end
$$;
comment on function private.cash_book_day_for(timestamptz) is 'The business day a cash movement at that time is booked on: its Berlin date, or the first open day after the last closing; never before the book''s last entry.';
revoke execute on function private.cash_book_day_for(timestamptz) from public;

-- Before insert on the book, whoever inserts: under the lock, the entry gets the next number
-- and the running balance; a closed day, a day before the book's last entry or after the open
-- day, and a balance below zero are refused.
create function private.cash_book_entry_prepare()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_last public.cash_book_entries;
  v_closed date;
  v_today date := private.berlin_date(private.now());
begin
  perform private.cash_book_lock();
  select * into v_last from public.cash_book_entries e order by e.entry_no desc limit 1;
  select max(c.business_day) into v_closed from public.cash_closings c;
  new.business_day := coalesce(new.business_day, private.cash_book_day_for(private.now()));
  if new.business_day <= v_closed then
    raise exception 'cash_day_closed' using errcode = 'P0001',
      hint = 'This day''s cash book is closed (Kassenbericht confirmed): nothing more is booked onto it.';
  end if;
  if new.business_day < v_last.business_day or new.business_day > greatest(v_today, v_closed + 1) then
    raise exception 'cash_day_invalid' using errcode = '22023',
      hint = 'Entries are booked on the open business day, never back or ahead in time.';
  end if;
  new.entry_no := coalesce(v_last.entry_no, 0) + 1;
  new.balance_cents := coalesce(v_last.balance_cents, 0) + new.amount_cents;
  if new.balance_cents < 0 then
    raise exception 'cash_balance_negative' using errcode = 'P0001',
      detail = 'balance_cents=' || coalesce(v_last.balance_cents, 0),
      hint = 'The till cannot go below zero: there is not that much cash in it.';
  end if;
  return new;
end
$$;
comment on function private.cash_book_entry_prepare() is 'Before insert on the cash book: next gapless number, running balance (never negative), only onto the open business day.';
revoke execute on function private.cash_book_entry_prepare() from public;

create trigger cash_book_entries_prepare before insert on public.cash_book_entries
  for each row execute function private.cash_book_entry_prepare();

-- The one way into the book for the app's sources (a later desk sale too): kind, signed cents,
-- source and reference, order, reason, who, when. Returns the entry.
create function private.cash_book_book(p_kind text, p_amount_cents integer, p_source_kind text, p_source_id uuid,
                                       p_order_id uuid, p_reason text, p_recorded_by uuid, p_at timestamptz)
returns public.cash_book_entries
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.cash_book_entries;
begin
  insert into public.cash_book_entries (business_day, booked_at, kind, amount_cents, source_kind, source_id, order_id, reason, recorded_by)
  values (private.cash_book_day_for(p_at), p_at, p_kind, p_amount_cents, p_source_kind, p_source_id, p_order_id, p_reason, p_recorded_by)
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.cash_book_book(text, integer, text, uuid, uuid, text, uuid, timestamptz) is 'Books one cash movement on the open business day for the time given (the sources of the cash book call it: ledger trigger, staff movements, later desk sales).';
revoke execute on function private.cash_book_book(text, integer, text, uuid, uuid, text, uuid, timestamptz) from public;

-- After insert on the ledger: a cash payment (or a reversal paid back in cash) is money into
-- the till, a cash refund money out of it; the other methods do not touch the till. A refund
-- the till cannot pay is refused (cash_balance_negative), and with it the ledger row.
create function private.payments_to_cash_book()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.method = 'cash' then
    perform private.cash_book_book(new.kind,
                                   case when new.kind = 'refund' then -new.amount_cents else new.amount_cents end,
                                   'payment', new.id, new.order_id, nullif(btrim(new.note), ''), new.recorded_by, new.recorded_at);
  end if;
  return null;
end
$$;
comment on function private.payments_to_cash_book() is 'After insert on payments: books every cash payment and cash refund into the cash book (on the open business day).';
revoke execute on function private.payments_to_cash_book() from public;

create trigger payments_to_cash_book after insert on public.payments
  for each row when (new.order_id is not null) execute function private.payments_to_cash_book();

-- Staff's own movements of the till: an opening float (Wechselgeld / Einlage), a deposit to the
-- bank (Geldtransit) and a withdrawal (Entnahme), each with a reason; booked now on the open
-- business day.
create function private.record_cash_movement(p_kind text, p_amount_cents integer, p_reason text)
returns public.cash_book_entries
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_reason text := nullif(btrim(p_reason), '');
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_kind is null or p_kind not in ('opening_float', 'bank_deposit', 'withdrawal') then
    raise exception 'invalid_cash_movement' using errcode = '22023', hint = 'opening_float, bank_deposit or withdrawal.';
  end if;
  if p_amount_cents is null or p_amount_cents <= 0 or p_amount_cents > 100000000 then
    raise exception 'invalid_amount' using errcode = '22023', hint = 'Between 1 cent and EUR 1,000,000.';
  end if;
  if v_reason is null or char_length(v_reason) > 500 then
    raise exception 'invalid_reason' using errcode = '22023', hint = 'A reason of 1 to 500 characters.';
  end if;
  return private.cash_book_book(p_kind, case when p_kind = 'opening_float' then p_amount_cents else -p_amount_cents end,
                                'movement', null, null, v_reason, (select auth.uid()), private.now());
end
$$;
comment on function private.record_cash_movement(text, integer, text) is 'The rule behind public.record_cash_movement (security definer, not exposed by the API).';
revoke execute on function private.record_cash_movement(text, integer, text) from public;
grant execute on function private.record_cash_movement(text, integer, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/record_cash_movement): runs as the caller, the rule above decides.
create function public.record_cash_movement(p_kind text, p_amount_cents integer, p_reason text)
returns public.cash_book_entries
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.record_cash_movement(p_kind, p_amount_cents, p_reason)
$$;
comment on function public.record_cash_movement(text, integer, text) is 'Staff book a movement of the till with a reason: opening_float (in), bank_deposit or withdrawal (out; never below zero). Returns the entry.';
revoke execute on function public.record_cash_movement(text, integer, text) from anon, public;

-- Before insert on the closings, whoever inserts: under the lock, the day is today or earlier,
-- later than the last closing, and nothing is booked after it; the Kassenbericht's sums come
-- from the book (opening = the previous closing's count); a difference is booked as its own
-- entry first, so that the book's balance equals the count.
create function private.cash_closing_prepare()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_prev public.cash_closings;
  v_entry public.cash_book_entries;
  v_last_no integer;
begin
  perform private.cash_book_lock();
  if new.business_day is null or new.business_day > private.berlin_date(private.now()) then
    raise exception 'cash_day_invalid' using errcode = '22023', hint = 'A day is closed on that day or later, never ahead.';
  end if;
  if new.counted_cents is null or new.counted_cents < 0 then
    raise exception 'invalid_amount' using errcode = '22023', hint = 'The counted cash: EUR 0 or more.';
  end if;
  select * into v_prev from public.cash_closings c order by c.business_day desc limit 1;
  if v_prev.business_day >= new.business_day then
    raise exception 'cash_day_closed' using errcode = 'P0001',
      hint = 'This day (or a later one) is already closed.';
  end if;
  if exists (select 1 from public.cash_book_entries e where e.business_day > new.business_day) then
    raise exception 'cash_later_day_open' using errcode = 'P0001',
      hint = 'Entries were booked after this day: close the latest day, its Kassenbericht covers the open days before it.';
  end if;
  new.period_from := coalesce(v_prev.business_day + 1,
                              least(new.business_day, (select min(e.business_day) from public.cash_book_entries e)));
  new.opening_cents := coalesce(v_prev.counted_cents, 0);
  select coalesce(sum(e.amount_cents) filter (where e.amount_cents > 0), 0),
         coalesce(-sum(e.amount_cents) filter (where e.amount_cents < 0), 0)
    into new.cash_in_cents, new.cash_out_cents
    from public.cash_book_entries e
   where e.business_day >= new.period_from and e.business_day <= new.business_day;
  new.expected_cents := new.opening_cents + new.cash_in_cents - new.cash_out_cents;
  new.difference_cents := new.counted_cents - new.expected_cents;
  new.closed_at := private.now();
  new.difference_entry_id := null;
  if new.difference_cents <> 0 then
    insert into public.cash_book_entries (business_day, booked_at, kind, amount_cents, source_kind, source_id, reason, recorded_by)
    values (new.business_day, new.closed_at, 'difference', new.difference_cents, 'closing', new.id,
            coalesce(new.note, 'Kassendifferenz'), new.closed_by)
    returning * into v_entry;
    new.difference_entry_id := v_entry.id;
  end if;
  select max(e.entry_no) into v_last_no from public.cash_book_entries e;
  new.last_entry_no := coalesce(v_last_no, 0);
  return new;
end
$$;
comment on function private.cash_closing_prepare() is 'Before insert on cash_closings: only the open days up to today, nothing booked after the day; computes the Kassenbericht from the book and books the difference as its own entry.';
revoke execute on function private.cash_closing_prepare() from public;

create trigger cash_closings_prepare before insert on public.cash_closings
  for each row execute function private.cash_closing_prepare();

-- Staff close a day: they count the till and confirm; the database computes the rest.
create function private.close_cash_day(p_day date, p_counted_cents integer, p_note text default null)
returns public.cash_closings
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_note text := nullif(btrim(p_note), '');
  v_row public.cash_closings;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if char_length(v_note) > 500 then
    raise exception 'invalid_note' using errcode = '22023', hint = 'A note has at most 500 characters.';
  end if;
  insert into public.cash_closings (business_day, period_from, opening_cents, cash_in_cents, cash_out_cents,
                                    expected_cents, counted_cents, difference_cents, note, closed_by)
  values (p_day, coalesce(p_day, current_date), 0, 0, 0, 0, p_counted_cents, 0, v_note, (select auth.uid()))
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.close_cash_day(date, integer, text) is 'The rule behind public.close_cash_day (security definer, not exposed by the API).';
revoke execute on function private.close_cash_day(date, integer, text) from public;
grant execute on function private.close_cash_day(date, integer, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/close_cash_day): runs as the caller, the rule above decides.
create function public.close_cash_day(p_day date, p_counted_cents integer, p_note text DEFAULT NULL::text)
returns public.cash_closings
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.close_cash_day(p_day, p_counted_cents, p_note)
$$;
comment on function public.close_cash_day(date, integer, text) is 'Staff close a business day (Kassenbericht): the counted cash is stored with the expected balance and the difference (booked as a Kassendifferenz entry); afterwards nothing is booked onto that day.';
revoke execute on function public.close_cash_day(date, integer, text) from anon, public;

-- What the cash book page needs for a day: the open business day, whether the day is closed
-- (and by which closing), and for an open day what closing it now would compute. Runs as the
-- caller: RLS lets only staff see entries and closings (others get zeros and no closing).
create function public.cash_day(p_day date)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with closed as (
    select c.* from public.cash_closings c
     where c.business_day >= p_day order by c.business_day limit 1
  ), prev as (
    select c.* from public.cash_closings c
     where c.business_day < p_day order by c.business_day desc limit 1
  ), period as (
    select coalesce((select business_day + 1 from prev), least(p_day, (select min(e.business_day) from public.cash_book_entries e))) as from_day
  ), sums as (
    select coalesce(sum(e.amount_cents) filter (where e.amount_cents > 0), 0)::bigint as cash_in,
           coalesce(-sum(e.amount_cents) filter (where e.amount_cents < 0), 0)::bigint as cash_out
      from public.cash_book_entries e, period
     where e.business_day >= period.from_day and e.business_day <= p_day
  )
  select jsonb_build_object(
    'day', p_day,
    'today', private.berlin_date(private.now()),
    'open_day', greatest(private.berlin_date(private.now()),
                         (select max(c.business_day) + 1 from public.cash_closings c),
                         (select max(e.business_day) from public.cash_book_entries e)),
    'closing', (select to_jsonb(closed) from closed where closed.period_from <= p_day),
    'period_from', (select from_day from period),
    'opening_cents', coalesce((select counted_cents from prev), 0),
    'cash_in_cents', (select cash_in from sums),
    'cash_out_cents', (select cash_out from sums),
    'expected_cents', coalesce((select counted_cents from prev), 0) + (select cash_in - cash_out from sums),
    'later_entries', exists (select 1 from public.cash_book_entries e where e.business_day > p_day),
    'balance_cents', coalesce((select e.balance_cents from public.cash_book_entries e order by e.entry_no desc limit 1), 0))
$$;
comment on function public.cash_day(date) is 'Staff: a day of the cash book: the open business day, the closing that covers the day (or null), and for an open day the opening balance, cash in and out and the expected balance a closing now would compute.';
revoke execute on function public.cash_day(date) from anon, public;
grant execute on function public.cash_day(date) to authenticated;
