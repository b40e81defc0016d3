-- private.now(): the real time unless the test runner froze it in this very transaction;
-- no API role can freeze it.
begin;
select plan(9);

select ok(private.now() = now(), 'without a frozen time private.now() is now()');

-- A row of another transaction (e.g. a committed leftover) is ignored.
insert into private.test_clock (xact_id, frozen_at) values ('1'::xid8, '2000-01-01 00:00+00');
select ok(private.now() = now(), 'a frozen time of another transaction does not count');

select is(private.freeze_clock('2027-03-28 01:30+01'), '2027-03-28 01:30+01'::timestamptz, 'the runner freezes the clock');
select is(private.now(), '2027-03-28 01:30+01'::timestamptz, 'private.now() returns the frozen time');
select is(private.berlin_date(private.now()), '2027-03-28'::date, 'the Berlin date of the frozen time');

select tests.create_user('clock_customer');
select tests.authenticate_as('clock_customer');
select is(private.now(), '2027-03-28 01:30+01'::timestamptz, 'an API role sees the frozen time of the transaction');
select throws_ok($$ select private.freeze_clock(now()) $$, '42501', null, 'authenticated cannot freeze the clock');
select throws_ok($$ insert into private.test_clock values (pg_current_xact_id(), now()) $$, '42501', null,
  'authenticated cannot write the clock table');

select tests.authenticate_as_anon();
select throws_ok($$ update private.test_clock set frozen_at = now() $$, '42501', null, 'anon cannot change the clock table');

select tests.clear_authentication();
select * from finish();
rollback;
