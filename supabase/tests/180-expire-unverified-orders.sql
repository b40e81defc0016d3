-- expire_unverified_orders: unverified orders expire after 24 hours (at the latest at arrival)
-- and free their berth; checked-in stays whose departure passed are completed.
begin;
select plan(8);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length) values ('E1', 4, 12), ('E2', 4, 12);
select tests.create_user('guest', p_anonymous => true);
select tests.create_user('customer');
create temp table boat as select '{"name":"Möwe","length":9,"width":3}'::jsonb as b,
  '{"first_name":"Greta","last_name":"Gast","email":"greta@test.local"}'::jsonb as p;
grant select on boat to authenticated;

select tests.authenticate_as('guest');
select public.create_booking(tests.place_id('E1'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-12') from boat;
select public.create_booking(tests.place_id('E2'), 'overnight', '2027-06-01', b, p, p_departure => '2027-06-02') from boat;
select tests.clear_authentication();
insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, checked_in, checked_in_at, price_cents, price_breakdown, email, place_snapshot, boat, person)
values (tests.get_user_id('customer'), tests.place_id('E2'), 'overnight', '2027-05-30 14:00+02', '2027-06-01 12:00+02', 'checked_in', true, '2027-05-30 15:00+02', 0, '{}', 'c@test.local', '{}', '{}', '{}');

select tests.authenticate_as('customer');
select throws_ok($$ select public.expire_unverified_orders() $$, '42501', null, 'customers cannot run the cleanup');
select tests.clear_authentication();

set local role service_role;
select is(public.expire_unverified_orders(), 0, 'nothing expires before its time');
reset role;
select private.freeze_clock('2027-06-01 14:00+02');
set local role service_role;
select is(public.expire_unverified_orders(), 1, 'a guest order arriving today expires at its arrival');
reset role;
select private.freeze_clock('2027-06-02 09:59+02');
set local role service_role;
select is(public.expire_unverified_orders(), 0, 'the other one still has a minute');
reset role;
select private.freeze_clock('2027-06-02 10:00+02');
set local role service_role;
select is(public.expire_unverified_orders(), 1, 'and expires 24 hours after booking');
reset role;

select results_eq($$ select o.status::text, s.cancelled from public.orders o join public.place_statuses s on s.order_id = o.id order by o.starts_at $$,
  $$ values ('expired', true), ('expired', true) $$, 'expired orders free their berths');
select is((select status::text from public.orders where email = 'c@test.local'), 'completed', 'a past checked-in stay is completed');
select is((select count(*) from public.orders), 3::bigint, 'nothing is deleted');

select * from finish();
rollback;
