-- places, additional_places, place_additional_places: everyone reads (archived berths only
-- staff), admins write.
begin;
select plan(17);

insert into public.places (name, width, length, one_day) values ('T1', 3.0, 8.0, false), ('T2', 4.0, 12.0, true);
insert into public.places (name, width, length, archived) values ('T3', 3.0, 8.0, true);
insert into public.additional_places (type, name, position) values ('electric', 'Strom T', array[1, 2]);
insert into public.place_additional_places select p.id, a.id from public.places p, public.additional_places a where p.name = 'T1';

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

select tests.authenticate_as_anon();
select results_eq($$ select name from public.places order by name $$, $$ values ('T1'), ('T2') $$,
  'anon reads the berths, not the archived one');
select results_eq($$ select name from public.additional_places $$, $$ values ('Strom T') $$, 'anon reads the columns');
select is((select count(*) from public.place_additional_places), 1::bigint, 'anon reads which column serves which berth');
select throws_ok($$ insert into public.places (name) values ('X') $$, '42501', null, 'anon cannot create berths');

select tests.authenticate_as('guest');
select results_eq($$ select name from public.places order by name $$, $$ values ('T1'), ('T2') $$, 'a guest reads the berths');

select tests.authenticate_as('customer');
select throws_ok($$ insert into public.places (name) values ('X') $$, '42501', null, 'a customer cannot create berths');
select is_empty($$ update public.places set width = 9 returning 1 $$, 'a customer cannot change berths (filtered)');
select is_empty($$ delete from public.additional_places returning 1 $$, 'a customer cannot delete columns (filtered)');
select throws_ok($$ insert into public.additional_places (type, name, position) values ('water', 'W', array[1, 2]) $$,
  '42501', null, 'a customer cannot create columns');

select tests.authenticate_as('harbour');
select results_eq($$ select name from public.places order by name $$, $$ values ('T1'), ('T2'), ('T3') $$,
  'harbour staff also see archived berths');
select throws_ok($$ insert into public.places (name) values ('X') $$, '42501', null, 'harbour staff do not create berths');

select tests.authenticate_as('admin');
select results_eq($$ insert into public.places (name, width, length, features, position) values ('T4', 5, 15, array['water'], array[10, 20]) returning name $$,
  $$ values ('T4') $$, 'an admin creates a berth');
select results_eq($$ update public.places set one_day = true where name = 'T1' returning one_day $$, $$ values (true) $$,
  'an admin changes a berth');
select throws_ok($$ insert into public.places (name, position) values ('T5', array[1, 2, 3]) $$, '23514', null,
  'a position has exactly 2 coordinates');
select results_eq($$ insert into public.place_additional_places select p.id, a.id from public.places p, public.additional_places a where p.name = 'T4' returning 1 $$,
  $$ values (1) $$, 'an admin links a column to a berth');
select results_eq($$ delete from public.additional_places returning name $$, $$ values ('Strom T') $$, 'an admin deletes a column');
select is((select count(*) from public.place_additional_places), 0::bigint, 'its links go with it');

select tests.clear_authentication();
select * from finish();
rollback;
