-- Security (issue 13): writes to the read-only view working_hours_monthly are refused with
-- 42501 (401/403 through PostgREST) for every API role, not Postgres' "cannot insert into
-- view" (55000), which PostgREST answers with HTTP 500.
begin;
select plan(8);
select private.freeze_clock('2027-05-10 12:00+02');

select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('customer');
insert into public.working_hours (user_id, work_date, start_time, end_time)
values (tests.get_user_id('harbour'), '2027-05-03', '08:00', '16:00');

select tests.authenticate_as('harbour');
select results_eq($$ select minutes from public.working_hours_monthly $$, $$ values (480) $$, 'staff still read their monthly totals');
select throws_ok($$ insert into public.working_hours_monthly (user_id) values (tests.get_user_id('harbour')) $$, '42501', null, 'staff cannot insert into the view');
select throws_ok($$ update public.working_hours_monthly set minutes = 1 $$, '42501', null, 'staff cannot update the view');
select throws_ok($$ delete from public.working_hours_monthly $$, '42501', null, 'staff cannot delete from the view');

select tests.authenticate_as('admin');
select throws_ok($$ update public.working_hours_monthly set minutes = 1 $$, '42501', null, 'nor can an admin');

select tests.authenticate_as('customer');
select throws_ok($$ delete from public.working_hours_monthly $$, '42501', null, 'nor a customer');

select tests.authenticate_as_anon();
select throws_ok($$ insert into public.working_hours_monthly (user_id) values (null) $$, '42501', null, 'nor anon');

-- and whoever holds the privilege (the owner here) is refused by the trigger
select tests.clear_authentication();
select throws_ok($$ delete from public.working_hours_monthly $$, '42501', 'read_only_view', 'the trigger refuses even a privileged writer');

select * from finish();
rollback;
