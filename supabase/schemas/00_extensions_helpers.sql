-- Extensions, the private schema (not exposed by the API), the shared enums and the clock
-- every booking rule reads (private.now(), which tests may freeze per transaction).
-- The desired state: `npm run db:diff -- <name>` turns a change here into a migration.

-- btree_gist lets the exclusion constraint combine "same berth" (=) with "overlapping time" (&&).
create extension if not exists btree_gist with schema extensions;

-- Not exposed through the API (config.toml [api].schemas lists only public). The API roles
-- need USAGE because policies call the helpers below as the requesting role.
create schema if not exists private;

comment on schema private is 'Helpers for policies and functions; not exposed by the API.';

revoke all on schema private from public;

grant usage on schema private to anon, authenticated, service_role, supabase_auth_admin;

create type public.order_kind as enum ('day', 'overnight', 'fair');

comment on type public.order_kind is 'Kind of stay: a day window, overnight nights, or overnight nights inside a fair period.';

create type public.order_status as enum ('unverified', 'confirmed', 'checked_in', 'completed', 'cancelled', 'expired');

comment on type public.order_status is 'Order life cycle, see docs/adr/0029-booking-rules-and-statuses.md.';

create type public.payment_status as enum ('pending', 'paid', 'partially_refunded', 'refunded');

comment on type public.payment_status is 'Payment life cycle, separate from the order status; derived from the payments ledger (35_payments_ledger.sql).';

create type public.payment_method as enum ('online', 'card_terminal', 'cash', 'bank_transfer');

comment on type public.payment_method is 'How money moved: online (Stripe Checkout, written only by its webhook), or at the desk by card terminal, cash or bank transfer.';

create type public.payment_mode as enum ('online_required', 'online_optional', 'desk');

comment on type public.payment_mode is 'How a kind of order is paid: online before the stay, online or at the desk, or at the desk only (admin setting, harbour_settings).';

create type public.place_status_type as enum ('reservation', 'rent', 'service');

comment on type public.place_status_type is 'Berth occupation: reservation (booked), rent (checked in), service (maintenance).';

create type public.additional_place_type as enum ('electric', 'water');

comment on type public.additional_place_type is 'Kind of column on the pier: electricity or water.';

create type public.sale_code_type as enum ('set-additional-costs');

comment on type public.sale_code_type is 'What a sale code does; the only type replaces the additional costs per night.';

-- The test-only frozen clock. A row counts only inside the very transaction that wrote it
-- (its top-level transaction id is stored), so a frozen time can never outlive a test, and
-- the API roles can neither read nor write this table (no grants, schema private).
create table private.test_clock (
  xact_id xid8 primary key,
  frozen_at timestamptz not null
);

alter table private.test_clock enable row level security;

comment on table private.test_clock is 'Frozen time for tests, honoured only within the writing transaction; no API role has access.';

-- The one trigger function of every append-only table (payments, invoices, cash book, audit
-- trail): refuses update, delete and truncate, whoever writes (the owner, every security definer
-- function and the service role too). Arguments: the error message (a stable code the app and
-- the tests match), then the hint that says how to correct instead.
create function private.refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception '%', tg_argv[0] using errcode = '42501', hint = tg_argv[1];
end
$$;
comment on function private.refuse_change() is 'Refuses every update, delete and truncate of an append-only table, whoever writes; message and hint are the trigger''s arguments.';
revoke execute on function private.refuse_change() from public;

create function private.now()
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select c.frozen_at from private.test_clock c where c.xact_id = pg_catalog.pg_current_xact_id_if_assigned()),
    pg_catalog.now()
  )
$$;
comment on function private.now() is 'now(), unless a test froze the clock in this transaction (private.freeze_clock).';
revoke execute on function private.now() from public;
grant execute on function private.now() to anon, authenticated, service_role;

create function private.freeze_clock(p_at timestamptz)
returns timestamptz
language sql
volatile
set search_path = ''
as $$
  insert into private.test_clock (xact_id, frozen_at)
  values (pg_catalog.pg_current_xact_id(), p_at)
  on conflict (xact_id) do update set frozen_at = excluded.frozen_at
  returning frozen_at
$$;
comment on function private.freeze_clock(timestamptz) is 'Tests only: freezes private.now() for the current transaction. Not executable by any API role.';
revoke execute on function private.freeze_clock(timestamptz) from public;

-- Stable, not immutable: time zone rules come from the server's tz database.
create function private.berlin_date(p_at timestamptz)
returns date
language sql
stable
set search_path = ''
as $$
  select (p_at at time zone 'Europe/Berlin')::date
$$;
comment on function private.berlin_date(timestamptz) is 'The calendar day of an instant in Düsseldorf (sessions run in UTC on hosted Supabase).';
revoke execute on function private.berlin_date(timestamptz) from public;
grant execute on function private.berlin_date(timestamptz) to anon, authenticated, service_role;

create function private.berlin_at(p_day date, p_time time)
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select pg_catalog.make_timestamptz(
    extract(year from p_day)::int, extract(month from p_day)::int, extract(day from p_day)::int,
    extract(hour from p_time)::int, extract(minute from p_time)::int, extract(second from p_time)::double precision,
    'Europe/Berlin')
$$;
comment on function private.berlin_at(date, time) is 'The instant of a wall-clock time on a day in Düsseldorf (DST aware).';
revoke execute on function private.berlin_at(date, time) from public;
grant execute on function private.berlin_at(date, time) to anon, authenticated, service_role;
