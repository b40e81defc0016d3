-- Holders' absences (issue 43 deliverable 4, docs/adr/0054-holder-absences.md): an absence puts
-- the held berth into guest stock for those nights (search, booking); a guest books it; the
-- holder's return that would take back a let night is refused (shortening or deleting), one that
-- gives back only free nights is not; an absence outside the holding, in the past or over
-- another one is refused; a stay written past the checks onto a held night is refused by the
-- trigger; RLS: a holder sees and changes only their own absences, staff all (audited).
begin;
select plan(30);
select private.freeze_clock('2027-05-10 10:00+02');

insert into public.places (name, width, length) values ('AB-1', 4.0, 12.0), ('AB-2', 4.0, 12.0);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('hanna');
select tests.create_user('otto');
select tests.create_user('gina');
insert into public.long_term_holders (place_id, user_id, last_name, starts_on, ends_on)
values (tests.place_id('AB-1'), tests.get_user_id('hanna'), 'Hafen', '2027-04-01', '2027-10-31'),
       (tests.place_id('AB-2'), tests.get_user_id('otto'), 'Ostrow', '2027-04-01', '2027-10-31');
create function pg_temp.holder(p_place text) returns uuid language sql as $$
  select id from public.long_term_holders where place_id = tests.place_id(p_place)
$$;
create temp table guest as select '{"name":"Gast","length":9.0,"width":3.0}'::jsonb as b,
  '{"first_name":"Gina","last_name":"Gast","email":"gina@test.local"}'::jsonb as p;
grant select on guest to anon, authenticated;
grant execute on function pg_temp.holder(text) to anon, authenticated;

-- ---------------------------------------------------------------- held: not offered
select tests.authenticate_as('gina');
select is_empty(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 9.0, 3.0, p_departure => '2027-06-13') where name like 'AB-%' $$,
  'a held berth is not offered while its holder is there');

-- ---------------------------------------------------------------- the holder is away
select tests.authenticate_as('hanna');
select results_eq(
  $$ select starts_on, ends_on from public.save_holder_absence(pg_temp.holder('AB-1'), '2027-06-01', '2027-06-20') $$,
  $$ values ('2027-06-01'::date, '2027-06-20'::date) $$,
  'the holder enters an absence (nights 1 to 19 June) from their account');
select throws_ok($$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-06-05', '2027-06-08') $$,
  '23P01', 'absence_overlaps', 'a second absence over the first is refused');
select throws_ok($$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-10-25', '2027-11-05') $$,
  '22023', 'absence_outside_contract', 'an absence past the end of the holding is refused');
select throws_ok($$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-03-20', '2027-04-05') $$,
  '22023', 'absence_outside_contract', 'an absence before the holding begins is refused');
select throws_ok($$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-05-01', '2027-05-20') $$,
  '22023', 'absence_in_past', 'an absence that begins in the past is refused');
select throws_ok($$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-07-10', '2027-07-10') $$,
  '22023', 'invalid_period', 'an absence of no night is refused');
select lives_ok($$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-10-30', '2027-11-01') $$,
  'an absence up to the last night of the holding is taken');

-- ---------------------------------------------------------------- a guest books it
select tests.authenticate_as('gina');
select results_eq(
  $$ select name from public.search_available_places('overnight', '2027-06-10', 9.0, 3.0, p_departure => '2027-06-13') where name like 'AB-%' $$,
  $$ values ('AB-1') $$, 'for nights inside the absence the search offers the berth');
select is_empty(
  $$ select name from public.search_available_places('overnight', '2027-06-18', 9.0, 3.0, p_departure => '2027-06-22') where name like 'AB-%' $$,
  'a stay reaching past the absence is not offered');
select results_eq($$ select p.name from public.absence_let_places('2027-06-10', '2027-06-13') l(place_id) join public.places p on p.id = l.place_id $$,
  $$ values ('AB-1') $$, 'the search can mark the berth as let from the holder''s absence');
select lives_ok(
  $$ select public.create_booking(tests.place_id('AB-1'), 'overnight', '2027-06-10', b, p, p_departure => '2027-06-13') from guest $$,
  'a guest books the absent holder''s berth');
select throws_ok(
  $$ select public.create_booking(tests.place_id('AB-1'), 'overnight', '2027-06-18', b, p, p_departure => '2027-06-22') from guest $$,
  '23P01', 'berth_no_longer_available', 'a booking reaching past the absence is refused');

-- ---------------------------------------------------------------- the holder comes back early
select tests.authenticate_as('hanna');
select results_eq(
  $$ select starts_on, let_nights from public.holder_absence_list(pg_temp.holder('AB-1')) $$,
  $$ values ('2027-06-01'::date, array['2027-06-10', '2027-06-11', '2027-06-12']::date[]), ('2027-10-30'::date, '{}'::date[]) $$,
  'the holder sees which nights of the absence are let');
select throws_ok(
  $$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-06-01', '2027-06-11', a.id) from public.holder_absences a where a.starts_on = '2027-06-01' $$,
  '23P01', 'absence_nights_let', 'shortening the absence into the let nights is refused');
select throws_ok(
  $$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-06-12', '2027-06-20', a.id) from public.holder_absences a where a.starts_on = '2027-06-01' $$,
  '23P01', 'absence_nights_let', 'starting the absence later, into the let nights, is refused');
select throws_ok(
  $$ select public.delete_holder_absence(a.id) from public.holder_absences a where a.starts_on = '2027-06-01' $$,
  '23P01', 'absence_nights_let', 'withdrawing the absence with let nights is refused');
select results_eq(
  $$ select ends_on from public.save_holder_absence(pg_temp.holder('AB-1'), '2027-06-01', '2027-06-14',
       (select a.id from public.holder_absences a where a.starts_on = '2027-06-01')) $$,
  $$ values ('2027-06-14'::date) $$, 'coming back on the 14th, after the guest left, is taken');
select tests.authenticate_as('gina');
select throws_ok(
  $$ select public.create_booking(tests.place_id('AB-1'), 'overnight', '2027-06-14', b, p, p_departure => '2027-06-16') from guest $$,
  '23P01', 'berth_no_longer_available', 'the nights taken back are no longer let');

-- ---------------------------------------------------------------- the guard under the checks
select tests.clear_authentication();
select throws_ok(
  $$ insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at)
     select tests.place_id('AB-1'), o.id, 'reservation', '2027-06-15 14:00+02', '2027-06-16 12:00+02' from public.orders o limit 1 $$,
  '23P01', 'berth_no_longer_available', 'a stay written straight onto a held night is refused by the trigger');

-- ---------------------------------------------------------------- RLS: own, or staff
select tests.authenticate_as('otto');
select is_empty($$ select id from public.holder_absences $$, 'another holder sees none of the absences');
select throws_ok($$ select public.save_holder_absence(pg_temp.holder('AB-1'), '2027-08-01', '2027-08-05') $$,
  'PT404', 'holder_not_found', 'another holder cannot enter an absence for the berth');
select tests.clear_authentication();
select set_config('test.absence', (select id::text from public.holder_absences where starts_on = '2027-10-30'), true);
select tests.authenticate_as('otto');
select throws_ok($$ select public.delete_holder_absence(current_setting('test.absence')::uuid) $$,
  'PT404', 'holder_not_found', 'another holder cannot delete someone else''s absence by its id');
select throws_ok($$ select * from public.holder_absence_list(pg_temp.holder('AB-1')) $$,
  'PT404', 'holder_not_found', 'nor list it');
select throws_ok($$ insert into public.holder_absences (holder_id, place_id, starts_on, ends_on)
                    values (pg_temp.holder('AB-2'), tests.place_id('AB-2'), '2027-08-01', '2027-08-05') $$,
  '42501', null, 'a holder cannot write the table directly, not even for their own berth');

select tests.authenticate_as('harbour');
select results_eq($$ select count(*)::int from public.holder_absences $$, $$ values (2) $$, 'staff see every absence');
select lives_ok($$ select public.save_holder_absence(pg_temp.holder('AB-2'), '2027-08-01', '2027-08-05') $$,
  'staff enter an absence on a holder''s behalf');
select tests.clear_authentication();
select results_eq(
  $$ select action, actor = tests.get_user_id('harbour') from public.audit_log
     where table_name = 'public.holder_absences' and new_values ->> 'holder_id' = pg_temp.holder('AB-2')::text $$,
  $$ values ('insert', true) $$, 'the staff entry is audited with who made it');

select tests.authenticate_as('hanna');
select results_eq($$ select count(*)::int from public.holder_absences $$, $$ values (2) $$, 'the holder sees only their own absences');

select tests.authenticate_as_anon();
select throws_ok($$ select public.save_holder_absence(gen_random_uuid(), '2027-08-01', '2027-08-05') $$,
  '42501', null, 'anon cannot enter absences');

select tests.clear_authentication();
select * from finish();
rollback;
