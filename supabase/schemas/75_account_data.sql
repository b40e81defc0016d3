-- The customer's own data: export (one jsonb document) and account deletion.

create function private.export_my_data()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'exported_at', private.now(),
    'user', (select jsonb_build_object('id', u.id, 'email', u.email, 'created_at', u.created_at,
                                       'last_sign_in_at', u.last_sign_in_at, 'is_anonymous', u.is_anonymous)
             from auth.users u where u.id = v_uid),
    'profile', (select to_jsonb(p) from public.profiles p where p.id = v_uid),
    'roles', (select to_jsonb(r) - 'user_id' from public.user_roles r where r.user_id = v_uid),
    'orders', coalesce((select jsonb_agg(to_jsonb(o) order by o.starts_at) from public.orders o where o.user_id = v_uid), '[]'::jsonb),
    'invoices', coalesce((select jsonb_agg(to_jsonb(i) order by i.issued_at)
                          from public.invoices i join public.orders o on o.id = i.order_id where o.user_id = v_uid), '[]'::jsonb),
    -- Who at the desk recorded a payment is the staff member's data, not the customer's.
    'payments', coalesce((select jsonb_agg(to_jsonb(p) - 'recorded_by' order by p.recorded_at, p.id)
                          from public.payments p join public.orders o on o.id = p.order_id where o.user_id = v_uid), '[]'::jsonb),
    'long_term_holdings', coalesce((select jsonb_agg(to_jsonb(h) order by h.starts_on) from public.long_term_holders h where h.user_id = v_uid), '[]'::jsonb),
    'long_term_applications', coalesce((select jsonb_agg(to_jsonb(a) - 'answered_by' order by a.created_at)
                                        from public.long_term_applications a where a.user_id = v_uid), '[]'::jsonb),
    'messages', coalesce((select jsonb_agg(to_jsonb(m) - 'done_by' order by m.created_at)
                          from public.contact_messages m where m.user_id = v_uid), '[]'::jsonb),
    'working_hours', coalesce((select jsonb_agg(to_jsonb(w) order by w.work_date, w.start_time)
                               from public.working_hours w where w.user_id = v_uid), '[]'::jsonb));
end
$$;
comment on function private.export_my_data() is 'The rule behind public.export_my_data (security definer, not exposed by the API).';
revoke execute on function private.export_my_data() from public;
grant execute on function private.export_my_data() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/export_my_data): runs as the caller, the rule above decides.
create function public.export_my_data()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.export_my_data()
$$;
comment on function public.export_my_data() is 'GDPR Art. 15/20: everything stored about the caller (account, profile, orders, invoices, payments, holdings, applications, messages, hours) as one jsonb document.';
revoke execute on function public.export_my_data() from anon, public;

create function private.delete_my_account()
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_email text;
  v_cancelled integer;
  v_anonymised integer;
begin
  if v_uid is null then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  select lower(u.email) into v_email from auth.users u where u.id = v_uid and not u.is_anonymous;
  if not found then
    raise exception 'account_required' using errcode = '42501';
  end if;
  if private.has_role('admin') and not exists (
    select 1 from public.user_roles r join public.profiles p on p.id = r.user_id
    where r.admin and p.active and r.user_id <> v_uid
  ) then
    raise exception 'last_admin' using errcode = 'P0001', hint = 'Make another admin first.';
  end if;

  -- Open stays before arrival are cancelled and free their berths.
  with open_orders as (
    update public.orders o set status = 'cancelled', cancelled_at = private.now()
     where o.user_id = v_uid and o.status in ('unverified', 'confirmed') and o.starts_at > private.now()
    returning o.id
  ), freed as (
    update public.place_statuses s set cancelled = true
      from open_orders x where s.order_id = x.id and not s.cancelled
    returning s.id
  )
  select count(*) into v_cancelled from open_orders;

  -- Orders stay for the books (price, dates, berth), without the person; invoices keep the
  -- recipient as billed (§ 14 UStG, § 147 AO: kept ten years).
  update public.orders o set
    user_id = null, email = '',
    person = jsonb_build_object('anonymised', true, 'country', o.person ->> 'country'),
    boat = jsonb_build_object('length', o.boat -> 'length', 'width', o.boat -> 'width')
   where o.user_id = v_uid or (lower(o.email) = v_email and o.user_id is null);
  get diagnostics v_anonymised = row_count;

  delete from public.outbox x where x.recipient = v_email;
  delete from public.contact_messages m where m.user_id = v_uid or lower(m.email) = v_email;
  delete from public.long_term_applications a where a.user_id = v_uid or lower(a.email) = v_email;
  update public.long_term_holders h set user_id = null, email = null where h.user_id = v_uid;
  update public.long_term_holder_events e set user_id = null, holder = e.holder - 'email' - 'user_id' where e.user_id = v_uid;

  -- Profile, roles, hours, sessions and identities go with the auth user (cascades).
  delete from auth.users u where u.id = v_uid;
  return jsonb_build_object('cancelled_orders', v_cancelled, 'anonymised_orders', v_anonymised);
end
$$;
comment on function private.delete_my_account() is 'The rule behind public.delete_my_account (security definer, not exposed by the API).';
revoke execute on function private.delete_my_account() from public;
grant execute on function private.delete_my_account() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/delete_my_account): runs as the caller, the rule above decides.
create function public.delete_my_account()
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.delete_my_account()
$$;
comment on function public.delete_my_account() is 'GDPR Art. 17: deletes the caller''s account; open future bookings are cancelled, orders are kept anonymised for the books, invoices keep the billed recipient.';
revoke execute on function public.delete_my_account() from anon, public;
