-- Two-factor sign-in for staff (issue 26): with 2FA required by harbour_settings, a staff
-- session at aal1 (password only) holds no staff rights: it reads no other person's order and
-- calls no staff function; the same person at aal2 (TOTP verified) can. Off, nothing changes.
-- The admin resets a person's factor: audited, the person is told by e-mail.
begin;
select plan(29);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values ('M1', 4, 12, false, false);
select tests.create_user('mfa_customer');
select tests.create_user('mfa_harbour', array['harbor']);
select tests.create_user('mfa_admin', array['admin']);

-- A session's claims as GoTrue issues them: aal1 after the password, aal2 after the TOTP code.
create function pg_temp.authenticate_at(p_identifier text, p_aal text)
returns void
language plpgsql
as $$
begin
  perform tests.authenticate_as(p_identifier);
  perform set_config('request.jwt.claims', (tests.user_claims(p_identifier) || jsonb_build_object('aal', p_aal))::text, true);
end
$$;

-- Someone else's order (booked at the desk for a guest).
select pg_temp.authenticate_at('mfa_harbour', 'aal1');
select public.staff_create_booking(tests.place_id('M1'), 'overnight', '2027-05-11', '{"name": "Rheinperle", "length": 9.4, "width": 3.2}',
  '{"first_name": "Klaus", "last_name": "Kunde", "email": "klaus@test.local"}', '2027-05-13');
select isnt_empty($$ select 1 from public.orders $$, 'with 2FA not required, an aal1 staff session reads orders (as before)');

-- Switching a requirement on does not take the switching admin's own rights.
select pg_temp.authenticate_at('mfa_admin', 'aal1');
select throws_ok($$ update public.harbour_settings set mfa_required_admin = true $$, '22023', 'mfa_enrol_first',
  'an aal1 admin cannot require a second factor of admins: it would take the admin''s own rights');
select lives_ok($$ update public.harbour_settings set mfa_required_harbor = true $$,
  'but may require it of harbour staff, which leaves the admin''s rights');
select pg_temp.authenticate_at('mfa_admin', 'aal2');
select lives_ok($$ update public.harbour_settings set mfa_required_admin = true $$, 'an aal2 admin requires it of admins');
select is((select (mfa_required_admin, mfa_required_harbor)::text from public.harbour_settings), '(t,t)', 'both are on');

select tests.clear_authentication();
update public.harbour_settings set mfa_required_admin = true, mfa_required_harbor = true;

-- ---------------------------------------------------------------- aal1 refused
select pg_temp.authenticate_at('mfa_harbour', 'aal1');
select is(private.is_staff(), false, 'required: an aal1 harbour session is not staff');
select is_empty($$ select 1 from public.orders $$, 'it reads no other person''s order');
select is_empty($$ select 1 from public.profiles where id <> auth.uid() $$, 'nor another person''s profile');
select throws_ok($$ select * from public.staff_orders() $$, '42501', 'staff_only', 'and cannot call a staff function');
select throws_ok($$ select public.staff_create_booking(tests.place_id('M1'), 'overnight', '2027-06-01', '{"name": "X", "length": 5, "width": 2}',
  '{"first_name": "A", "last_name": "B"}', '2027-06-02') $$, '42501', null, 'nor book at the desk');
select is(public.my_mfa_required(), true, 'the app learns that a second factor is required');

-- No aal claim at all (an old token) counts as aal1.
select tests.authenticate_as('mfa_harbour');
select is(private.is_staff(), false, 'a session without an aal claim is not staff either');

select pg_temp.authenticate_at('mfa_admin', 'aal1');
select is(private.has_role('admin'), false, 'an aal1 admin session holds no admin role');
select throws_ok($$ select * from public.admin_list_users() $$, '42501', 'admin_only', 'and cannot call an admin function');
select is_empty($$ select 1 from public.audit_log $$, 'nor read the audit trail');

-- ---------------------------------------------------------------- aal2 allowed
select pg_temp.authenticate_at('mfa_harbour', 'aal2');
select is(private.is_staff(), true, 'an aal2 harbour session is staff');
select results_eq($$ select boat ->> 'name' from public.orders $$, $$ values ('Rheinperle') $$, 'it reads the guest''s order');
select results_eq($$ select boat_name from public.staff_orders() $$, $$ values ('Rheinperle') $$, 'and calls the staff function');

select pg_temp.authenticate_at('mfa_admin', 'aal2');
select is(private.has_role('admin'), true, 'an aal2 admin session holds the admin role');

-- Required for admins only: harbour staff at aal1 work as before, admins need aal2.
select tests.clear_authentication();
update public.harbour_settings set mfa_required_harbor = false;
select pg_temp.authenticate_at('mfa_harbour', 'aal1');
select is(private.is_staff(), true, 'per role: not required for harbour staff, their aal1 session is staff');
select is(public.my_mfa_required(), false, 'and the app is told no second factor is needed');
select pg_temp.authenticate_at('mfa_admin', 'aal1');
select is(private.is_staff(), false, 'still required for admins');

-- A customer is never asked.
select pg_temp.authenticate_at('mfa_customer', 'aal1');
select is(public.my_mfa_required(), false, 'customers need no second factor');

-- ---------------------------------------------------------------- admin reset
select tests.clear_authentication();
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
values ('00000000-0000-4000-8000-0000000000f1', tests.get_user_id('mfa_harbour'), 'Telefon', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP');

select pg_temp.authenticate_at('mfa_admin', 'aal1');
select throws_ok(format('select public.admin_reset_mfa(%L)', tests.get_user_id('mfa_harbour')), '42501', 'admin_only',
  'an aal1 admin cannot reset a factor when 2FA is required for admins');
select pg_temp.authenticate_at('mfa_harbour', 'aal2');
select throws_ok(format('select public.admin_reset_mfa(%L)', tests.get_user_id('mfa_harbour')), '42501', 'admin_only',
  'nor can staff who are not admins');

select pg_temp.authenticate_at('mfa_admin', 'aal2');
select is(public.admin_reset_mfa(tests.get_user_id('mfa_harbour')), 1, 'an aal2 admin resets the person''s factor');
select results_eq(
  format($$ select table_name, row_key, action, actor, old_values ->> 'friendly_name' from public.audit_log where table_name = 'auth.mfa_factors' $$),
  format($$ values ('auth.mfa_factors', '00000000-0000-4000-8000-0000000000f1', 'delete', %L::uuid, 'Telefon') $$, tests.get_user_id('mfa_admin')),
  'the reset is in the audit trail, with the admin as actor');
select throws_ok(format('select public.admin_reset_mfa(%L)', tests.get_user_id('mfa_harbour')), 'P0001', 'no_factor',
  'a person without a factor has nothing to reset');

select tests.clear_authentication();
select results_eq($$ select kind, recipient, subject from public.outbox where kind = 'security_notice' $$,
  $$ values ('security_notice', 'mfa_harbour@test.local', 'Ihre Zwei-Faktor-Anmeldung wurde zurückgesetzt') $$,
  'the person is told by e-mail, in their language');

select * from finish();
rollback;
