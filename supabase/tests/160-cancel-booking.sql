-- cancel_booking: the owner before arrival, staff any time; it never deletes and frees the berth.
begin;
select plan(10);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length) values ('K1', 4, 12);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
create temp table boat as select '{"name":"Rheinperle","length":9.4,"width":3.2}'::jsonb as b,
  '{"first_name":"Klaus","last_name":"Kunde"}'::jsonb as p;
grant select on boat to authenticated;

select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('K1'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat;
select public.create_booking(tests.place_id('K1'), 'overnight', '2027-06-01', b, p, p_departure => '2027-06-03') from boat;

select tests.authenticate_as('other');
select throws_ok($$ select public.cancel_booking((select id from public.orders where starts_at = '2027-06-10 14:00+02')) $$,
  'PT404', 'order_not_found', 'another customer cannot cancel (or even find) the order');
select tests.clear_authentication();
select set_config('tests.order', (select id::text from public.orders where starts_at = '2027-06-10 14:00+02'), true);
select set_config('tests.today', (select id::text from public.orders where starts_at = '2027-06-01 14:00+02'), true);
select tests.authenticate_as('other');
select throws_ok($$ select public.cancel_booking(current_setting('tests.order')::uuid) $$,
  'PT404', 'order_not_found', 'even knowing its id');

select tests.authenticate_as('customer');
select results_eq($$ select status::text, cancelled_at from public.cancel_booking(current_setting('tests.order')::uuid) $$,
  $$ values ('cancelled', '2027-06-01 10:00+02'::timestamptz) $$, 'the owner cancels before arrival');
select throws_ok($$ select public.cancel_booking(current_setting('tests.order')::uuid) $$,
  'P0001', 'order_not_cancellable', 'a cancelled order cannot be cancelled again');
select lives_ok($$ select public.create_booking(tests.place_id('K1'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat $$,
  'the berth is free again');

select tests.clear_authentication();
select private.freeze_clock('2027-06-01 15:00+02');
select tests.authenticate_as('customer');
select throws_ok($$ select public.cancel_booking(current_setting('tests.today')::uuid) $$,
  'P0001', 'order_not_cancellable', 'after the arrival time the owner cannot cancel');

select tests.authenticate_as('harbour');
select results_eq($$ select status::text from public.cancel_booking(current_setting('tests.today')::uuid) $$,
  $$ values ('cancelled') $$, 'harbour staff cancel at any time');

select tests.clear_authentication();
select results_eq($$ select count(*), count(*) filter (where cancelled) from public.place_statuses $$,
  $$ values (3::bigint, 2::bigint) $$, 'cancelling keeps the rows and sets the cancelled flag');
select is((select count(*) from public.orders), 3::bigint, 'and keeps the orders');
select tests.authenticate_as_anon();
select throws_ok($$ select public.cancel_booking(current_setting('tests.order')::uuid) $$, '42501', null, 'anon cannot cancel');

select tests.clear_authentication();
select * from finish();
rollback;
