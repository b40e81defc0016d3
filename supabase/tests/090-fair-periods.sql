-- fair_periods: everyone reads (the booking form offers them), admins write.
begin;
select plan(5);

insert into public.fair_periods (name, starts_on, ends_on) values ('boot Düsseldorf 2027', '2027-01-17', '2027-01-25');
select tests.create_user('customer');
select tests.create_user('admin', array['admin']);

select tests.authenticate_as_anon();
select results_eq($$ select name, starts_on, ends_on from public.fair_periods $$,
  $$ values ('boot Düsseldorf 2027', '2027-01-17'::date, '2027-01-25'::date) $$, 'anon reads the fair periods');
select throws_ok($$ insert into public.fair_periods (name, starts_on, ends_on) values ('x', '2027-02-01', '2027-02-03') $$,
  '42501', null, 'anon cannot create fair periods');
select tests.authenticate_as('customer');
select is_empty($$ update public.fair_periods set ends_on = '2027-12-31' returning 1 $$, 'a customer cannot change them');
select tests.authenticate_as('admin');
select results_eq($$ insert into public.fair_periods (name, starts_on, ends_on) values ('Caravan Salon', '2027-08-27', '2027-09-05') returning name $$,
  $$ values ('Caravan Salon') $$, 'an admin creates a fair period');
select throws_ok($$ insert into public.fair_periods (name, starts_on, ends_on) values ('x', '2027-02-03', '2027-02-01') $$,
  '23514', null, 'a fair ends after it starts');

select tests.clear_authentication();
select * from finish();
rollback;
