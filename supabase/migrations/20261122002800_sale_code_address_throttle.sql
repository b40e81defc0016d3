-- Security (issue 13), open item "sale-code guessing across sessions": wrong sale codes were
-- counted per user only (5 per 15 minutes), and a new anonymous session (up to 1000 per hour
-- per address for the harbour wifi) started a new count. Now wrong codes are also counted per
-- client address: 30 wrong codes per hour from one address are refused whatever the session
-- (error `sale_code_throttled_network`). Why 30 per hour: guests on the harbour wifi share one
-- address; a guest who mistypes a code does so once or twice, so 30 leaves room for a dozen
-- or more guests mistyping in the same hour, while one address can try at most 720 codes a
-- day instead of an unbounded number. See docs/decisions.md "Security (issue 13)".
--
-- The address comes from the gateway, never from the client: PostgREST passes the request's
-- headers as the GUC request.headers, and the gateway sets X-Forwarded-For (the local stack
-- replaces X-Forwarded-For and X-Real-IP with the address it trusts: the socket's peer, or the
-- right-most untrusted hop behind a configured proxy; supabase/local/src/http.ts clientIp).

alter table private.sale_code_attempts add column client_address inet;
comment on column private.sale_code_attempts.client_address is 'The client address of the request (from the gateway), for the per-address throttle; null outside an API request.';
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
revoke all on function private.request_client_address() from public;

-- Looks a sale code up for the caller; records wrong codes and refuses after 5 wrong ones
-- within 15 minutes for the user, or 30 within an hour from the client address (harbour staff
-- are not counted per address: they book at the desk for walk-in guests).
create or replace function private.sale_code_value(p_code text, out valid boolean, out value integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_address inet;
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
      where a.user_id = v_uid and a.attempted_at > private.now() - interval '15 minutes') >= 5 then
    raise exception 'sale_code_throttled' using errcode = 'P0001', hint = 'Too many wrong codes: try again in 15 minutes.';
  end if;
  if not private.is_staff() then
    v_address := private.request_client_address();
  end if;
  if v_address is not null and (select count(*) from private.sale_code_attempts a
      where a.client_address = v_address and a.attempted_at > private.now() - interval '1 hour') >= 30 then
    raise exception 'sale_code_throttled_network' using errcode = 'P0001',
      hint = 'Too many wrong codes from this network: try again in an hour.';
  end if;
  select s.value into value
  from public.sale_codes s
  where upper(s.code) = upper(btrim(p_code)) and s.type = 'set-additional-costs';
  valid := found;
  if not found then
    insert into private.sale_code_attempts (user_id, attempted_at, client_address) values (v_uid, private.now(), v_address);
  end if;
end
$$;
comment on function private.sale_code_value(text) is 'Checks a sale code for the caller, with throttling of wrong codes (5 per 15 minutes per user, 30 per hour per client address).';
