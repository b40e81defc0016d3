-- Check-in: staff check a guest in on arrival (the door code and wifi then open to them,
-- 45_harbour_access.sql).

create function private.check_in(p_order_id uuid)
returns public.orders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_staff boolean := private.is_staff();
  v_now timestamptz := private.now();
  v_today date := private.berlin_date(private.now());
  v_order public.orders;
begin
  select * into v_order from public.orders o where o.id = p_order_id for update;
  if not found or (v_order.user_id is distinct from v_uid and not v_staff) then
    raise exception 'order_not_found' using errcode = 'PT404';
  end if;
  if v_order.checked_in then
    raise exception 'already_checked_in' using errcode = 'P0001';
  end if;
  if v_staff then
    if v_order.status not in ('unverified', 'confirmed')
       or v_today < private.berlin_date(v_order.starts_at) or v_now >= v_order.ends_at then
      raise exception 'check_in_not_possible' using errcode = 'P0001',
        hint = 'Staff check guests in from the arrival day until departure.';
    end if;
  else
    if private.is_anonymous() or v_order.status = 'unverified' then
      raise exception 'verification_required' using errcode = '42501';
    end if;
    if not private.is_active_user() then
      raise exception 'account_inactive' using errcode = '42501';
    end if;
    if v_order.status <> 'confirmed' or v_today <> private.berlin_date(v_order.starts_at) then
      raise exception 'check_in_not_possible' using errcode = 'P0001', hint = 'Check-in is possible on the arrival day only.';
    end if;
  end if;
  update public.orders o
     set status = 'checked_in', checked_in = true, checked_in_at = v_now, expires_at = null
   where o.id = p_order_id returning * into v_order;
  update public.place_statuses s set type = 'rent'
   where s.order_id = p_order_id and not s.cancelled and s.type = 'reservation';
  return v_order;
end
$$;
comment on function private.check_in(uuid) is 'The rule behind public.check_in (security definer, not exposed by the API).';
revoke execute on function private.check_in(uuid) from public;
grant execute on function private.check_in(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/check_in): runs as the caller, the rule above decides.
create function public.check_in(p_order_id uuid)
returns public.orders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.check_in(p_order_id)
$$;
comment on function public.check_in(uuid) is 'Checks a guest in (verified owner on the arrival day, staff from arrival day until departure, Europe/Berlin): sets checked_in_at, reservation -> rent.';
revoke execute on function public.check_in(uuid) from anon, public;
