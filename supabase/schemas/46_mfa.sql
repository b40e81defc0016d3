-- Two-factor sign-in for staff (issue 26). GoTrue keeps the factors (auth.mfa_factors) and
-- raises a session to aal2 when a TOTP code is verified; harbour_settings (45) says per staff
-- role whether that is required, and private.has_role / private.is_staff (10) then count a
-- person as staff only in an aal2 session. Here: what the app asks (is it required for me?),
-- and the admin's reset of a person's factors (recovery when the phone is lost).

create function private.staff_mfa_required(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select (r.admin and s.mfa_required_admin) or (r.harbor and s.mfa_required_harbor)
    from public.user_roles r
    join public.profiles p on p.id = r.user_id and p.active
    cross join public.harbour_settings s
    where r.user_id = p_user_id and s.id = 1
  ), false)
$$;
comment on function private.staff_mfa_required(uuid) is 'The person''s active staff roles (admin, harbor) require a second factor by harbour_settings.';
revoke execute on function private.staff_mfa_required(uuid) from public;

-- The app's question after sign-in (staff only): must I set up a second factor?
create function private.my_mfa_required()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.staff_mfa_required((select auth.uid()))
$$;
comment on function private.my_mfa_required() is 'The rule behind public.my_mfa_required (security definer, not exposed by the API).';
revoke execute on function private.my_mfa_required() from public;
grant execute on function private.my_mfa_required() to authenticated, service_role;

-- The API endpoints run as the caller; the private rules (security definer) decide.
create function public.my_mfa_required()
returns boolean
language sql
stable
security invoker
set search_path = ''
as $$
  select private.my_mfa_required()
$$;
comment on function public.my_mfa_required() is 'Whether the caller''s staff roles require two-factor sign-in (false for guests and customers).';
revoke execute on function public.my_mfa_required() from public, anon;
grant execute on function public.my_mfa_required() to authenticated;

-- An admin resets a person's second factor: the factors go (as GoTrue's admin DELETE
-- /admin/users/{id}/factors/{id} does, with its sessions back at aal1), the audit trail records
-- it, and the person is told by e-mail. The person enrols anew at the next sign-in.
create function private.admin_reset_mfa(p_user_id uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_factor record;
  v_count integer := 0;
  v_email text;
  v_locale text;
  v_de boolean;
begin
  perform private.require_admin();
  select u.email, coalesce(p.locale, 'de') into v_email, v_locale
  from auth.users u left join public.profiles p on p.id = u.id
  where u.id = p_user_id and not u.is_anonymous;
  if not found then
    raise exception 'user_not_found' using errcode = 'P0001';
  end if;
  for v_factor in
    delete from auth.mfa_factors f where f.user_id = p_user_id
    returning f.id, f.factor_type::text as factor_type, f.friendly_name, f.status::text as status, f.created_at
  loop
    v_count := v_count + 1;
    delete from auth.mfa_amr_claims c
     where c.authentication_method = 'totp'
       and c.session_id in (select s.id from auth.sessions s where s.factor_id = v_factor.id);
    update auth.sessions set aal = 'aal1', factor_id = null where user_id = p_user_id and factor_id = v_factor.id;
    insert into public.audit_log (at, table_name, row_key, action, actor, actor_role, old_values)
    values (private.now(), 'auth.mfa_factors', v_factor.id::text, 'delete', (select auth.uid()), 'authenticated',
            jsonb_build_object('user_id', p_user_id, 'factor_type', v_factor.factor_type,
                               'friendly_name', v_factor.friendly_name, 'status', v_factor.status,
                               'created_at', v_factor.created_at));
  end loop;
  if v_count = 0 then
    raise exception 'no_factor' using errcode = 'P0001', hint = 'This person has no second factor.';
  end if;
  if v_email is not null then
    v_de := v_locale <> 'en';
    perform private.queue_mail(
      'security_notice', v_email, v_locale,
      case when v_de then 'Ihre Zwei-Faktor-Anmeldung wurde zurückgesetzt' else 'Your two-factor sign-in was reset' end,
      private.mail_text(v_locale, null, case when v_de then
        'die Hafenverwaltung hat die Zwei-Faktor-Anmeldung Ihres Kontos zurückgesetzt. Bei Ihrer nächsten Anmeldung richten Sie sie mit Ihrer Authenticator-App neu ein.' || chr(10) || chr(10) ||
        'Haben Sie das nicht veranlasst, melden Sie sich bitte sofort beim Hafen.'
      else
        'the harbour office has reset the two-factor sign-in of your account. When you next sign in, set it up again with your authenticator app.' || chr(10) || chr(10) ||
        'If you did not ask for this, please contact the harbour at once.'
      end),
      '[]'::jsonb, private.setting('harbour_email'));
  end if;
  return v_count;
end
$$;
comment on function private.admin_reset_mfa(uuid) is 'The rule behind public.admin_reset_mfa (security definer: it writes GoTrue''s tables; not exposed by the API).';
revoke execute on function private.admin_reset_mfa(uuid) from public;
grant execute on function private.admin_reset_mfa(uuid) to authenticated, service_role;

create function public.admin_reset_mfa(p_user_id uuid)
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.admin_reset_mfa(p_user_id)
$$;
comment on function public.admin_reset_mfa(uuid) is 'Admins: removes a person''s second factors (sessions back to aal1), records each in the audit trail and tells the person by e-mail; returns how many were removed.';
revoke execute on function public.admin_reset_mfa(uuid) from public, anon;
grant execute on function public.admin_reset_mfa(uuid) to authenticated;

-- Which people have a second factor, for the admin's user page.
create function private.admin_mfa_status(p_user_id uuid)
returns table (factor_count integer, verified boolean, required boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
  select count(f.id)::integer, coalesce(bool_or(f.status = 'verified'), false), private.staff_mfa_required(p_user_id)
  from auth.mfa_factors f where f.user_id = p_user_id;
end
$$;
comment on function private.admin_mfa_status(uuid) is 'The rule behind public.admin_mfa_status (security definer: it reads GoTrue''s tables; not exposed by the API).';
revoke execute on function private.admin_mfa_status(uuid) from public;
grant execute on function private.admin_mfa_status(uuid) to authenticated, service_role;

create function public.admin_mfa_status(p_user_id uuid)
returns table (factor_count integer, verified boolean, required boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.admin_mfa_status(p_user_id)
$$;
comment on function public.admin_mfa_status(uuid) is 'Admins: a person''s second factors (how many, one verified) and whether their roles require one.';
revoke execute on function public.admin_mfa_status(uuid) from public, anon;
grant execute on function public.admin_mfa_status(uuid) to authenticated;

-- Turning a requirement on must not take the rights of the admin who does it: an admin whose
-- own roles the new settings would cover must be in an aal2 session (signed in with a second
-- factor) to switch it on. Otherwise the save that turns it on would be the admin's last.
-- The roles come from user_roles directly: has_role still reads the old settings here.
create function private.harbour_settings_keep_own_rights()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is not null
     and ((new.mfa_required_admin and not old.mfa_required_admin) or (new.mfa_required_harbor and not old.mfa_required_harbor))
     and coalesce((select auth.jwt() ->> 'aal'), '') <> 'aal2'
     and exists (select 1 from public.user_roles r
                  where r.user_id = v_uid and ((r.admin and new.mfa_required_admin) or (r.harbor and new.mfa_required_harbor))) then
    raise exception 'mfa_enrol_first' using errcode = '22023',
      hint = 'Set up two-factor sign-in and sign in with it before requiring it: the change would take your own rights.';
  end if;
  return new;
end
$$;
comment on function private.harbour_settings_keep_own_rights() is 'Refuses switching on a two-factor requirement that covers the caller''s own roles from a session without a second factor (aal1).';
revoke execute on function private.harbour_settings_keep_own_rights() from public;

create trigger harbour_settings_keep_own_rights before update of mfa_required_admin, mfa_required_harbor on public.harbour_settings
  for each row execute function private.harbour_settings_keep_own_rights();
