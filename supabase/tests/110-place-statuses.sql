-- place_statuses: staff read and manage maintenance blocks; others only through functions.
-- The partial exclusion constraint forbids overlapping live rows of one berth.
begin;
select plan(13);

insert into public.places (name, width, length) values ('S1', 4, 12), ('S2', 4, 12);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);
insert into public.place_statuses (place_id, type, starts_at, ends_at, note)
values (tests.place_id('S1'), 'service', '2027-06-01 08:00+02', '2027-06-03 17:00+02', 'Steg reparieren');

select tests.authenticate_as_anon();
select is_empty($$ select * from public.place_statuses $$, 'anon sees no berth statuses');
select tests.authenticate_as('guest');
select is_empty($$ select * from public.place_statuses $$, 'a guest sees no berth statuses');
select tests.authenticate_as('customer');
select is_empty($$ select * from public.place_statuses $$, 'a customer sees no berth statuses');
select throws_ok($$ insert into public.place_statuses (place_id, type, starts_at, ends_at) values (tests.place_id('S2'), 'service', now(), now() + interval '1 day') $$,
  '42501', null, 'a customer cannot block a berth');

select tests.authenticate_as('harbour');
select results_eq($$ select note from public.place_statuses $$, $$ values ('Steg reparieren') $$, 'harbour staff read berth statuses');
select results_eq($$ insert into public.place_statuses (place_id, type, starts_at, ends_at, note) values (tests.place_id('S2'), 'service', '2027-06-01 08:00+02', '2027-06-02 08:00+02', 'Farbe') returning note $$,
  $$ values ('Farbe') $$, 'harbour staff block a berth for maintenance');
select throws_ok($$ insert into public.place_statuses (place_id, type, starts_at, ends_at, note) values (tests.place_id('S1'), 'service', '2027-06-03 08:00+02', '2027-06-04 08:00+02', 'doppelt') $$,
  '23P01', null, 'an overlapping block of the same berth is refused by the exclusion constraint');
select lives_ok($$ insert into public.place_statuses (place_id, type, starts_at, ends_at) values (tests.place_id('S1'), 'service', '2027-06-03 17:00+02', '2027-06-04 08:00+02') $$,
  'a block that starts when the other ends does not overlap ([start, end) ranges)');
select throws_ok($$ insert into public.place_statuses (place_id, type, starts_at, ends_at) values (tests.place_id('S2'), 'reservation', '2027-07-01 08:00+02', '2027-07-02 08:00+02') $$,
  '42501', null, 'staff cannot forge a reservation');
select results_eq($$ update public.place_statuses set cancelled = true where note = 'Steg reparieren' returning cancelled $$, $$ values (true) $$,
  'staff cancel a block by update');
select lives_ok($$ insert into public.place_statuses (place_id, type, starts_at, ends_at) values (tests.place_id('S1'), 'service', '2027-06-01 09:00+02', '2027-06-02 09:00+02') $$,
  'a cancelled block no longer counts (partial constraint)');
select throws_ok($$ delete from public.place_statuses $$, '42501', null, 'nobody deletes statuses: cancel instead');

select tests.authenticate_as('admin');
select is((select count(*) from public.place_statuses), 4::bigint, 'an admin reads all statuses');

select tests.clear_authentication();
select * from finish();
rollback;
