-- Admin places (issue 12): a berth with orders cannot be deleted (archive it instead), positions
-- are two coordinates on the plan, the columns of a berth are replaced in one admin-only call,
-- and harbour staff cannot write berths or columns.
begin;
select plan(20);

insert into public.places (name, width, length) values ('P1', 4, 12), ('P2', 4, 12);
insert into public.additional_places (type, name, position) values
  ('electric', 'S1', array[100, 100]), ('water', 'W1', array[200, 120]);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person)
values (tests.get_user_id('customer'), tests.place_id('P1'), 'overnight', '2027-06-10 14:00+02', '2027-06-11 12:00+02', 'cancelled', 3570,
        '{}', 'customer@test.local', '{}', '{}', '{}');

-- ---------------------------------------------------------------- positions
select throws_ok($$ insert into public.additional_places (type, name, position) values ('electric', 'X', array[1]::float8[]) $$,
  '23514', null, 'a column needs exactly two coordinates (one is refused)');
select throws_ok($$ insert into public.additional_places (type, name, position) values ('electric', 'X', array[1, 2, 3]::float8[]) $$,
  '23514', null, 'three are refused');
select throws_ok($$ insert into public.additional_places (type, name) values ('electric', 'X') $$,
  '23502', null, 'a column without a position is refused');
select throws_ok($$ insert into public.additional_places (type, name, position) values ('electric', 'X', array[1, null]::float8[]) $$,
  '23514', null, 'an empty coordinate is refused');
select throws_ok($$ insert into public.additional_places (type, name, position) values ('electric', 'X', array[1200, 10]::float8[]) $$,
  '23514', null, 'a position off the plan is refused');
select throws_ok($$ update public.places set position = array[5, 700] where name = 'P2' $$,
  '23514', null, 'a berth position off the plan is refused');
select lives_ok($$ update public.places set position = array[500, 300] where name = 'P2' $$, 'a berth position on the plan is kept');

-- ---------------------------------------------------------------- harbour staff
select tests.authenticate_as('harbour');
select throws_ok($$ insert into public.places (name) values ('H1') $$, '42501', null, 'harbour staff cannot create berths');
select is_empty($$ update public.places set name = 'Z' where name = 'P2' returning 1 $$, 'nor change them');
select is_empty($$ delete from public.places where name = 'P2' returning 1 $$, 'nor delete them');
select throws_ok($$ insert into public.additional_places (type, name, position) values ('water', 'H', array[1, 1]::float8[]) $$,
  '42501', null, 'nor create columns');
select is_empty($$ update public.additional_places set position = array[1, 1] returning 1 $$, 'nor move them');
select throws_ok($$ select public.set_place_additional_places(tests.place_id('P2'), array[]::uuid[]) $$,
  '42501', 'admin_only', 'nor set the columns of a berth');

-- ---------------------------------------------------------------- admin
select tests.authenticate_as('admin');
select throws_ok($$ delete from public.places where name = 'P1' $$, '23503', 'place_has_orders',
  'a berth with orders (even cancelled ones) cannot be deleted');
select lives_ok($$ update public.places set archived = true where name = 'P1' $$, 'it can be archived instead');
select results_eq($$ select archived from public.places where name = 'P1' $$, $$ values (true) $$, 'the archived berth is kept');
select results_eq(
  $$ select count(*)::int from public.set_place_additional_places(tests.place_id('P2'),
       array(select id from public.additional_places order by name)) $$,
  $$ values (2) $$, 'an admin sets the columns of a berth');
select results_eq(
  $$ select a.name from public.set_place_additional_places(tests.place_id('P2'),
       array(select id from public.additional_places where name = 'W1')) s(id) join public.additional_places a on a.id = s.id $$,
  $$ values ('W1') $$, 'and replaces them: the column left out is no longer linked');
select throws_ok($$ select public.set_place_additional_places(tests.place_id('P2'), array[gen_random_uuid()]) $$,
  'PT404', 'additional_place_not_found', 'an unknown column is refused');
select lives_ok($$ delete from public.places where name = 'P2' $$, 'a berth without orders is deleted');

select * from finish();
rollback;
