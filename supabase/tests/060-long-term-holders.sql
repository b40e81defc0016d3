-- long_term_holders: the holder and staff read, admins write; the public learns only the
-- date from which a berth is long-term occupied.
begin;
select plan(11);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length) values ('L1', 4, 12), ('L2', 4, 12), ('L3', 4, 12);
select tests.create_user('holder');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
insert into public.long_term_holders (place_id, user_id, starts_on, ends_on, boat_name)
values (tests.place_id('L1'), tests.get_user_id('holder'), '2027-04-01', null, 'Möwe'),
       (tests.place_id('L2'), tests.get_user_id('other'), '2027-06-01', '2027-09-30', 'Lotte'),
       (tests.place_id('L3'), tests.get_user_id('other'), '2026-04-01', '2026-09-30', 'Alt');

select tests.authenticate_as_anon();
select is_empty($$ select * from public.long_term_holders $$, 'anon sees no holders');
select results_eq(
  $$ select p.name, s.long_term_start from public.place_long_term_starts() s join public.places p on p.id = s.place_id order by 1 $$,
  $$ values ('L1', '2027-04-01'::date), ('L2', '2027-06-01'::date) $$,
  'the public sees only from when a berth is long-term occupied (past holders not)');

select tests.authenticate_as('holder');
select results_eq($$ select boat_name from public.long_term_holders $$, $$ values ('Möwe') $$, 'a holder reads the own holding');
select throws_ok($$ insert into public.long_term_holders (place_id, user_id, starts_on) values (tests.place_id('L3'), auth.uid(), '2027-01-01') $$,
  '42501', null, 'a customer cannot make himself a holder');
select is_empty($$ update public.long_term_holders set ends_on = '2030-01-01' returning 1 $$,
  'a holder cannot change the holding');

select tests.authenticate_as('other');
select results_eq($$ select boat_name from public.long_term_holders order by boat_name $$, $$ values ('Alt'), ('Lotte') $$,
  'another customer reads only his own holdings');

select tests.authenticate_as('harbour');
select is((select count(*) from public.long_term_holders), 3::bigint, 'harbour staff read all holders');
select throws_ok($$ insert into public.long_term_holders (place_id, starts_on) values (tests.place_id('L3'), '2027-01-01') $$,
  '42501', null, 'harbour staff do not assign holders');

select tests.authenticate_as('admin');
select results_eq($$ insert into public.long_term_holders (place_id, user_id, starts_on) values (tests.place_id('L3'), tests.get_user_id('holder'), '2027-07-01') returning starts_on $$,
  $$ values ('2027-07-01'::date) $$, 'an admin assigns a holder');
select results_eq($$ delete from public.long_term_holders where boat_name = 'Alt' returning boat_name $$, $$ values ('Alt') $$,
  'an admin removes a holder');
select throws_ok($$ insert into public.long_term_holders (place_id, starts_on, ends_on) values (tests.place_id('L3'), '2027-07-01', '2027-06-01') $$,
  '23514', null, 'a holding ends after it starts');

select tests.clear_authentication();
select * from finish();
rollback;
