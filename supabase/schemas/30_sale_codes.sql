-- Sale codes (discount codes): the codes admins keep, the throttle on wrong codes (per user and
-- per client address) and the record of codes a session had checked, which create_booking
-- demands. The quote and booking functions (32_prices_availability.sql, 33_booking.sql) read
-- them through private.sale_code_value and private.sale_code_checked.

create table public.sale_codes (
  id uuid primary key default gen_random_uuid(),
  code text not null check (char_length(code) between 3 and 40),
  type public.sale_code_type not null default 'set-additional-costs',
  value integer not null check (value >= 0),
  created_at timestamptz not null default now(),
  constraint sale_codes_code_format check (code ~ '^[A-Za-z0-9_-]+$'),
  constraint sale_codes_value_max check (value <= 100000)
);

alter table public.sale_codes enable row level security;

comment on table public.sale_codes is 'A discount code; set-additional-costs replaces the additional costs per night by value (cents). Checked only inside the quote and booking functions.';

create unique index sale_codes_code_key on public.sale_codes (upper(code));

create policy "sale_codes: admin reads" on public.sale_codes
  for select to authenticated
  using ((select private.has_role('admin')));

create policy "sale_codes: admin inserts" on public.sale_codes
  for insert to authenticated
  with check ((select private.has_role('admin')));

create policy "sale_codes: admin updates" on public.sale_codes
  for update to authenticated
  using ((select private.has_role('admin')))
  with check ((select private.has_role('admin')));

create policy "sale_codes: admin deletes" on public.sale_codes
  for delete to authenticated
  using ((select private.has_role('admin')));

-- Wrong sale codes per session, and per client address (a new anonymous session must not
-- start a new count: 30 wrong codes per hour from one address, which leaves room for a dozen
-- guests on the harbour wifi mistyping). The address comes from the gateway's headers, never
-- from the client. Private: no API role reads it.
create table private.sale_code_attempts (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  attempted_at timestamptz not null default now(),
  client_address inet
);

comment on column private.sale_code_attempts.client_address is 'The client address of the request (from the gateway), for the per-address throttle; null outside an API request.';

alter table private.sale_code_attempts enable row level security;

comment on table private.sale_code_attempts is 'Wrong sale codes entered, per user, for throttling.';

create index sale_code_attempts_user_idx on private.sale_code_attempts (user_id, attempted_at);

create index sale_code_attempts_address_idx on private.sale_code_attempts (client_address, attempted_at)
  where client_address is not null;

-- The client's address as the gateway passed it: the left-most X-Forwarded-For hop (the
-- client, as the gateway writes it), else X-Real-IP; null outside an API request or when the
-- value is not an address.
create function private.request_client_address()
returns inet
language plpgsql
stable
set search_path = ''
as $$
declare
  v_headers jsonb;
  v_value text;
begin
  begin
    v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    return null;
  end;
  if v_headers is null or jsonb_typeof(v_headers) <> 'object' then
    return null;
  end if;
  v_value := coalesce(
    nullif(btrim(split_part(v_headers ->> 'x-forwarded-for', ',', 1)), ''),
    nullif(btrim(v_headers ->> 'x-real-ip'), ''));
  if v_value is null then
    return null;
  end if;
  begin
    return v_value::inet;
  exception when others then
    return null;
  end;
end
$$;
comment on function private.request_client_address() is 'The client address of the current API request (left-most X-Forwarded-For hop, else X-Real-IP, as the gateway sets them); null when there is none.';
revoke execute on function private.request_client_address() from public;

-- Guessing through create_booking: its failed request rolls back the row that would count a
-- wrong code, and Postgres has no autonomous transaction to keep it. So create_booking accepts
-- a code only if the same session had it answered "valid" by quote_booking (or the search,
-- which quotes) within 24 hours, else `sale_code_not_checked` whatever the code; checking a
-- code stays possible only through the quote, which counts wrong codes and commits them. Staff
-- bookings are not held to it (trusted accounts; the walk-in page quotes first anyway).
create table private.sale_code_checks (
  user_id uuid not null,
  code text not null,
  checked_at timestamptz not null,
  primary key (user_id, code)
);

alter table private.sale_code_checks enable row level security;

comment on table private.sale_code_checks is 'Sale codes a session had answered "valid" by quote_booking (upper case, trimmed), with the last time; create_booking accepts only these (24 hours).';

create index sale_code_checks_checked_at_idx on private.sale_code_checks (checked_at);

revoke all on table private.sale_code_checks from public, anon, authenticated;

-- Looks a sale code up for the caller; records wrong codes and refuses after 5 wrong ones
-- within 15 minutes for the user, or 30 within an hour from the client address (harbour staff
-- are not counted per address: they book at the desk for walk-in guests).
-- A valid code is recorded for the session (last check wins); records older than 24 hours
-- are pruned on the way.
create function private.sale_code_value(p_code text, out valid boolean, out value integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_address inet;
  v_now timestamptz := private.now();
begin
  valid := null;
  value := null;
  if p_code is null or btrim(p_code) = '' then
    return;
  end if;
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501', hint = 'Sale codes are checked for a session (a guest session will do).';
  end if;
  if (select count(*) from private.sale_code_attempts a
      where a.user_id = v_uid and a.attempted_at > v_now - interval '15 minutes') >= 5 then
    raise exception 'sale_code_throttled' using errcode = 'P0001', hint = 'Too many wrong codes: try again in 15 minutes.';
  end if;
  if not private.is_staff() then
    v_address := private.request_client_address();
  end if;
  if v_address is not null and (select count(*) from private.sale_code_attempts a
      where a.client_address = v_address and a.attempted_at > v_now - interval '1 hour') >= 30 then
    raise exception 'sale_code_throttled_network' using errcode = 'P0001',
      hint = 'Too many wrong codes from this network: try again in an hour.';
  end if;
  select s.value into value
  from public.sale_codes s
  where upper(s.code) = upper(btrim(p_code)) and s.type = 'set-additional-costs';
  valid := found;
  if not found then
    insert into private.sale_code_attempts (user_id, attempted_at, client_address) values (v_uid, v_now, v_address);
  else
    delete from private.sale_code_checks c where c.checked_at <= v_now - interval '24 hours';
    insert into private.sale_code_checks (user_id, code, checked_at) values (v_uid, upper(btrim(p_code)), v_now)
    on conflict (user_id, code) do update set checked_at = excluded.checked_at;
  end if;
end
$$;
comment on function private.sale_code_value(text) is 'Checks a sale code for the caller, with throttling of wrong codes (5 per 15 minutes per user, 30 per hour per client address); records a valid code for the session (private.sale_code_checks).';
revoke execute on function private.sale_code_value(text) from public;

-- True when the session has had this code answered "valid" within the last 24 hours.
create function private.sale_code_checked(p_user_id uuid, p_code text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.sale_code_checks c
    where c.user_id = p_user_id and c.code = upper(btrim(p_code))
      and c.checked_at > private.now() - interval '24 hours')
$$;
comment on function private.sale_code_checked(uuid, text) is 'Whether the user had the sale code answered "valid" (quote_booking) within the last 24 hours.';
revoke execute on function private.sale_code_checked(uuid, text) from public;
