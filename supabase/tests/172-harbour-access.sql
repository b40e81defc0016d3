-- Door code and wifi (docs/architecture.md "Who may see the door code and wifi"): staff, active
-- long-term holders, the verified owner of a checked-in order until departure. Nobody by
-- booking alone.
begin;
select plan(20);
select private.freeze_clock('2027-06-10 18:00+02');

update public.harbour_settings set door_code = '4711#', wifi_ssid = 'Hafen-Gast', wifi_password = 'Rheinblick';
insert into public.places (name, width, length) values ('H1', 4, 12), ('H2', 4, 12), ('H3', 4, 12), ('H4', 4, 12);
select tests.create_user('customer');
select tests.create_user('booked');
select tests.create_user('checked');
select tests.create_user('holder');
select tests.create_user('future_holder');
select tests.create_user('inactive_holder');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);
update public.profiles set active = false where id = tests.get_user_id('inactive_holder');
insert into public.long_term_holders (place_id, user_id, starts_on, ends_on) values
  (tests.place_id('H1'), tests.get_user_id('holder'), '2027-04-01', null),
  (tests.place_id('H2'), tests.get_user_id('future_holder'), '2027-07-01', null),
  (tests.place_id('H3'), tests.get_user_id('inactive_holder'), '2027-04-01', null);
insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, checked_in, checked_in_at, price_cents, price_breakdown, email, place_snapshot, boat, person)
values
  (tests.get_user_id('booked'), tests.place_id('H4'), 'overnight', '2027-06-10 14:00+02', '2027-06-12 12:00+02', 'confirmed', false, null, 0, '{}', 'b@test.local', '{}', '{}', '{}'),
  (tests.get_user_id('checked'), tests.place_id('H4'), 'overnight', '2027-06-12 14:00+02', '2027-06-14 12:00+02', 'checked_in', true, '2027-06-10 15:00+02', 0, '{}', 'c@test.local', '{}', '{}', '{}'),
  (tests.get_user_id('guest'), tests.place_id('H4'), 'overnight', '2027-06-14 14:00+02', '2027-06-16 12:00+02', 'checked_in', true, '2027-06-10 15:00+02', 0, '{}', 'g@test.local', '{}', '{}', '{}');

select tests.authenticate_as_anon();
select throws_ok($$ select * from public.harbour_access() $$, '42501', null, 'anon is refused');
select throws_ok($$ select public.harbour_access_allowed() $$, '42501', null, 'anon cannot even ask (the page knows a visitor has no account)');
select is_empty($$ select * from public.harbour_settings $$, 'anon reads nothing from the settings table');

select tests.authenticate_as('customer');
select throws_ok($$ select * from public.harbour_access() $$, '42501', 'not_allowed', 'a customer without a stay is refused');
select is(public.harbour_access_allowed(), false, 'harbour_access_allowed says so first, without a refusal');
select is_empty($$ select * from public.harbour_settings $$, 'and reads nothing from the settings table');
select is_empty($$ update public.harbour_settings set door_code = '0000' returning 1 $$, 'and cannot change it');

select tests.authenticate_as('booked');
select throws_ok($$ select * from public.harbour_access() $$, '42501', 'not_allowed', 'booking alone does not reveal the codes');
select tests.authenticate_as('guest');
select throws_ok($$ select * from public.harbour_access() $$, '42501', 'not_allowed', 'an anonymous guest, even checked in, is refused');
select is(public.harbour_access_allowed(), false, 'and is not allowed');
select tests.authenticate_as('checked');
select results_eq($$ select door_code, wifi_ssid, wifi_password from public.harbour_access() $$,
  $$ values ('4711#', 'Hafen-Gast', 'Rheinblick') $$, 'the verified owner of a checked-in stay reads them');
select is(public.harbour_access_allowed(), true, 'and is allowed');

select tests.authenticate_as('holder');
select results_eq($$ select door_code from public.harbour_access() $$, $$ values ('4711#') $$, 'an active long-term holder reads them');
select tests.authenticate_as('future_holder');
select throws_ok($$ select * from public.harbour_access() $$, '42501', 'not_allowed', 'a holder whose season has not begun is refused');
select tests.authenticate_as('inactive_holder');
select throws_ok($$ select * from public.harbour_access() $$, '42501', 'not_allowed', 'an inactive holder is refused');

select tests.authenticate_as('harbour');
select results_eq($$ select door_code from public.harbour_access() $$, $$ values ('4711#') $$, 'harbour staff read them');
select tests.authenticate_as('admin');
select results_eq($$ update public.harbour_settings set door_code = '1234#' returning door_code $$, $$ values ('1234#') $$,
  'an admin changes the door code');

-- After departure the checked-in owner loses access.
select tests.clear_authentication();
select private.freeze_clock('2027-06-14 12:00+02');
select tests.authenticate_as('checked');
select throws_ok($$ select * from public.harbour_access() $$, '42501', 'not_allowed', 'after departure the codes are gone');
select is(public.harbour_access_allowed(), false, 'and the permission with them');
select tests.authenticate_as('holder');
select results_eq($$ select door_code from public.harbour_access() $$, $$ values ('1234#') $$, 'the holder reads the new code');

select tests.clear_authentication();
select * from finish();
rollback;
