-- orders: the owner (guests included) reads own, staff read all; nobody writes directly:
-- no insert, no price or status change, no delete.
begin;
select plan(15);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length) values ('O1', 4, 12);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);
select tests.create_user('inactive', p_active => false);

insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person)
select tests.get_user_id(u), tests.place_id('O1'), 'overnight', '2027-06-10 14:00+02'::timestamptz + n * interval '7 days',
       '2027-06-11 12:00+02'::timestamptz + n * interval '7 days', s::public.order_status, 3570, '{}', u || '@test.local', '{}', '{}', '{}'
from (values ('customer', 0, 'confirmed'), ('other', 1, 'confirmed'), ('guest', 2, 'unverified'), ('inactive', 3, 'confirmed')) as t(u, n, s);

select tests.authenticate_as_anon();
select is_empty($$ select * from public.orders $$, 'anon sees no orders');

select tests.authenticate_as('guest');
select results_eq($$ select email from public.orders $$, $$ values ('guest@test.local') $$, 'a guest reads the own order');

select tests.authenticate_as('customer');
select results_eq($$ select email from public.orders $$, $$ values ('customer@test.local') $$, 'a customer reads only the own orders');
select throws_ok(
  $$ insert into public.orders (user_id, place_id, kind, starts_at, ends_at, price_cents, price_breakdown, email, place_snapshot, boat, person)
     values (auth.uid(), tests.place_id('O1'), 'overnight', now(), now() + interval '1 day', 0, '{}', 'x@test.local', '{}', '{}', '{}') $$,
  '42501', null, 'a customer cannot insert an order directly');
select throws_ok($$ update public.orders set price_cents = 1 $$, '42501', null, 'a customer cannot change a price');
select throws_ok($$ update public.orders set status = 'checked_in' $$, '42501', null, 'a customer cannot change a status');
select throws_ok($$ delete from public.orders $$, '42501', null, 'a customer cannot delete orders');

select tests.authenticate_as('inactive');
select results_eq($$ select email from public.orders $$, $$ values ('inactive@test.local') $$, 'an inactive customer still reads the own orders');

select tests.authenticate_as('harbour');
select is((select count(*) from public.orders), 4::bigint, 'harbour staff read all orders');
select throws_ok($$ update public.orders set payment_status = 'paid' $$, '42501', null, 'staff change payments only through the ledger functions');
select lives_ok($$ select public.record_desk_payment((select id from public.orders where email = 'customer@test.local'), 'cash', null, 'cash-1') $$,
  'staff record a desk payment');
select results_eq($$ select payment_status::text from public.orders where email = 'customer@test.local' $$,
  $$ values ('paid') $$, 'the order is paid');
select throws_ok($$ select public.record_desk_refund((select id from public.orders where email = 'other@test.local'), 'cash', 100) $$,
  'P0001', 'nothing_to_refund', 'an unpaid order has nothing to refund');

select tests.authenticate_as('customer');
select throws_ok($$ select public.record_desk_payment((select id from public.orders limit 1), 'cash') $$, '42501', 'staff_only',
  'a customer cannot mark an order paid');

select tests.authenticate_as('admin');
select is((select count(*) from public.orders), 4::bigint, 'an admin reads all orders');

select tests.clear_authentication();
select * from finish();
rollback;
