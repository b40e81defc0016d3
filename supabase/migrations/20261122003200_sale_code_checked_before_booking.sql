-- Security (issue 13), open item "Sale-code guessing through create_booking": a wrong code made
-- create_booking raise invalid_sale_code, and the row that counts the wrong guess
-- (private.sale_code_attempts) rolled back with the request, so guesses through create_booking
-- were never counted, neither per session nor per client address. PostgreSQL has no autonomous
-- transaction to keep that row, so create_booking no longer tells anything about a code the
-- session has not checked: it accepts a sale code only if the same session (auth.uid()) has
-- had it answered "valid" by quote_booking (or search_available_places, which quotes) within
-- the last 24 hours, and otherwise raises `sale_code_not_checked`, whatever the code, before
-- looking the code up. Checking a code stays possible only through quote_booking, which counts
-- wrong codes (5 per 15 minutes per session, 30 per hour per client address) and commits them.
-- The booking page and the walk-in page always quote a code before booking with it.
--
-- Harbour staff (staff_create_booking) are not held to the prior quote: they are trusted
-- accounts, not anonymous sessions; the walk-in page quotes first anyway. See docs/decisions.md
-- "Security (issue 13)".

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

-- As in 20261122002800, and a valid code is recorded for the session (last check wins);
-- records older than 24 hours are pruned on the way.
create or replace function private.sale_code_value(p_code text, out valid boolean, out value integer)
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
revoke all on function private.sale_code_checked(uuid, text) from public, anon, authenticated;

create or replace function public.create_booking(
  p_place_id uuid,
  p_kind public.order_kind,
  p_arrival date,
  p_boat jsonb,
  p_person jsonb,
  p_departure date default null,
  p_day_start time default null,
  p_day_end time default null,
  p_sale_code text default null,
  p_save_profile boolean default false
)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_anonymous boolean;
  v_user_email text;
  v_order public.orders;
begin
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  select u.is_anonymous, u.email into v_anonymous, v_user_email from auth.users u where u.id = v_uid;
  if not found then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  if not v_anonymous and not private.is_active_user() then
    raise exception 'account_inactive' using errcode = '42501';
  end if;

  -- A sale code only after this session checked it through quote_booking (which counts wrong
  -- codes); the same answer for any unchecked code, so create_booking reveals nothing about it.
  if nullif(btrim(p_sale_code), '') is not null and not private.sale_code_checked(v_uid, p_sale_code) then
    raise exception 'sale_code_not_checked' using errcode = 'P0001',
      hint = 'Apply the sale code first (quote_booking), then book with it.';
  end if;

  -- Guests (anonymous sessions) book unverified, accounts confirmed; an account's address is
  -- the default e-mail.
  v_order := private.book_berth(
    v_uid, case when v_anonymous then 'unverified' else 'confirmed' end::public.order_status,
    p_place_id, p_kind, p_arrival, p_boat, p_person, p_departure, p_day_start, p_day_end, p_sale_code,
    case when not v_anonymous then v_user_email end, true, null);

  if p_save_profile and not v_anonymous then
    update public.profiles pr set
      first_name = v_order.person ->> 'first_name', last_name = v_order.person ->> 'last_name',
      phone = coalesce(v_order.person ->> 'phone', pr.phone),
      company = coalesce(v_order.person ->> 'company', pr.company),
      street = coalesce(v_order.person ->> 'street', pr.street),
      postal_code = coalesce(v_order.person ->> 'postal_code', pr.postal_code),
      city = coalesce(v_order.person ->> 'city', pr.city),
      country = coalesce(v_order.person ->> 'country', pr.country),
      boat_name = v_order.boat ->> 'name', boat_tag = coalesce(v_order.boat ->> 'tag', pr.boat_tag),
      boat_length = (v_order.boat ->> 'length')::numeric, boat_width = (v_order.boat ->> 'width')::numeric
    where pr.id = v_uid;
  end if;
  return v_order;
end
$$;
comment on function public.create_booking(uuid, public.order_kind, date, jsonb, jsonb, date, time, time, text, boolean) is 'Books a berth: re-validates fit, kind, times, account, guest limits and sale code, prices it, writes order + reservation; a sale code only after the session had it answered valid by quote_booking (else sale_code_not_checked); a lost race raises 23P01 berth_no_longer_available.';
