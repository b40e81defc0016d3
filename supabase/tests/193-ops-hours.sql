-- Working hours: staff keep their own within the current and the last month, admins all;
-- totals per person and month.
begin;
select plan(17);
select private.freeze_clock('2027-05-10 12:00+02');

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('deckhand', array['harbor']);
select tests.create_user('admin', array['admin']);
insert into public.working_hours (user_id, work_date, start_time, end_time, break_minutes)
values (tests.get_user_id('deckhand'), '2027-05-03', '08:00', '16:30', 30),
       (tests.get_user_id('harbour'), '2027-03-31', '08:00', '12:00', 0);

select tests.authenticate_as('harbour');
select results_eq($$ insert into public.working_hours (work_date, start_time, end_time, break_minutes) values ('2027-05-10', '07:00', '15:45', 45) returning minutes, location $$,
  $$ values (480, 'duesseldorf') $$, 'harbour staff record their own hours (minutes computed, location duesseldorf)');
select lives_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-04-01', '08:00', '10:00') $$, 'last month is still open');
select throws_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-03-31', '08:00', '10:00') $$,
  '42501', null, 'the month before last is closed');
select throws_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-06-01', '08:00', '10:00') $$,
  '42501', null, 'a future month is not open');
select throws_ok($$ insert into public.working_hours (user_id, work_date, start_time, end_time) values (tests.get_user_id('deckhand'), '2027-05-10', '08:00', '10:00') $$,
  '42501', null, 'staff do not record hours for others');
select throws_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-05-09', '10:00', '08:00') $$,
  '23514', null, 'a shift ends after it starts');
select results_eq($$ select work_date from public.working_hours order by work_date $$,
  $$ values ('2027-03-31'::date), ('2027-04-01'), ('2027-05-10') $$, 'staff read only their own hours');
select is_empty($$ update public.working_hours set end_time = '13:00' where work_date = '2027-03-31' returning 1 $$, 'closed months cannot be edited');
select results_eq($$ update public.working_hours set end_time = '11:00' where work_date = '2027-04-01' returning minutes $$,
  $$ values (180) $$, 'an open entry can be edited');
select is_empty($$ delete from public.working_hours where work_date = '2027-03-31' returning 1 $$, 'closed months cannot be deleted');
select throws_ok($$ update public.working_hours set created_at = now() $$, '42501', null, 'bookkeeping columns are not written');

select tests.authenticate_as('customer');
select throws_ok($$ insert into public.working_hours (work_date, start_time, end_time) values ('2027-05-10', '08:00', '10:00') $$,
  '42501', null, 'a customer has no hours');
select is_empty($$ select * from public.working_hours_monthly $$, 'a customer sees no totals');

select tests.authenticate_as('harbour');
select results_eq($$ select month, entries, minutes, hours from public.working_hours_monthly order by month $$,
  $$ values ('2027-03-01'::date, 1, 240, 4.00), ('2027-04-01', 1, 180, 3.00), ('2027-05-01', 1, 480, 8.00) $$,
  'staff see their own totals per month');

select tests.authenticate_as('admin');
select lives_ok($$ update public.working_hours set break_minutes = 60 where work_date = '2027-03-31' $$, 'an admin corrects a closed month');
select results_eq($$ select first_name, month, minutes from public.working_hours_monthly where month = '2027-05-01' order by first_name $$,
  $$ values ('Deckhand', '2027-05-01'::date, 480), ('Harbour', '2027-05-01', 480) $$, 'an admin sees everyone''s totals');
select results_eq($$ delete from public.working_hours where work_date = '2027-03-31' returning minutes $$, $$ values (180) $$, 'an admin deletes any entry');
select tests.clear_authentication();
select * from finish();
rollback;
