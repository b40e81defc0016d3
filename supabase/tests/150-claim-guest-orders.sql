-- claim_guest_orders: after the e-mail code login, open orders of guest sessions carrying
-- the verified address move to the signed-in user and are confirmed. Nothing else moves them.
begin;
select plan(9);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length) values ('C1', 4, 12);
select tests.create_user('guest', p_anonymous => true);
select tests.create_user('guest2', p_anonymous => true);
select tests.create_user('klaus');
select tests.create_user('other');
-- An account whose address is not confirmed yet.
select tests.create_user('unconfirmed');
update auth.users set email_confirmed_at = null where id = tests.get_user_id('unconfirmed');

insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person, expires_at)
values
  (tests.get_user_id('guest'), tests.place_id('C1'), 'overnight', '2027-06-10 14:00+02', '2027-06-11 12:00+02', 'unverified', 3570, '{}', 'klaus@test.local', '{}', '{}', '{}', '2027-06-02 10:00+02'),
  (tests.get_user_id('guest2'), tests.place_id('C1'), 'overnight', '2027-06-12 14:00+02', '2027-06-13 12:00+02', 'unverified', 3570, '{}', 'KLAUS@test.local', '{}', '{}', '{}', '2027-06-02 09:00+02'),
  (tests.get_user_id('guest2'), tests.place_id('C1'), 'overnight', '2027-06-14 14:00+02', '2027-06-15 12:00+02', 'unverified', 3570, '{}', 'unconfirmed@test.local', '{}', '{}', '{}', '2027-06-02 09:00+02'),
  (tests.get_user_id('guest2'), tests.place_id('C1'), 'overnight', '2027-06-16 14:00+02', '2027-06-17 12:00+02', 'expired', 3570, '{}', 'klaus@test.local', '{}', '{}', '{}', '2027-05-31 09:00+02'),
  (tests.get_user_id('other'), tests.place_id('C1'), 'overnight', '2027-06-18 14:00+02', '2027-06-19 12:00+02', 'confirmed', 3570, '{}', 'klaus@test.local', '{}', '{}', '{}', null);

select tests.authenticate_as('guest');
select throws_ok($$ select public.claim_guest_orders() $$, '42501', 'verified_account_required', 'a guest session cannot claim');
select tests.authenticate_as('unconfirmed');
select throws_ok($$ select public.claim_guest_orders() $$, '42501', 'verified_account_required', 'an unconfirmed address cannot claim');
select tests.authenticate_as_anon();
select throws_ok($$ select public.claim_guest_orders() $$, '42501', null, 'anon cannot claim');

select tests.authenticate_as('klaus');
select is_empty($$ select * from public.orders $$, 'before claiming, the guest orders are not the user''s');
select is(public.claim_guest_orders(), 2, 'the verified user claims the two open guest orders of the address (any case)');
select results_eq($$ select status::text, expires_at from public.orders order by starts_at $$,
  $$ values ('confirmed', null::timestamptz), ('confirmed', null::timestamptz) $$,
  'they are now confirmed and no longer expire');
select is(public.claim_guest_orders(), 0, 'claiming again moves nothing');

select tests.clear_authentication();
select results_eq($$ select status::text, user_id = tests.get_user_id('guest2') from public.orders where starts_at = '2027-06-16 14:00+02' $$,
  $$ values ('expired', true) $$, 'an expired guest order is not claimed');
select results_eq($$ select user_id = tests.get_user_id('other') from public.orders where starts_at = '2027-06-18 14:00+02' $$,
  $$ values (true) $$, 'an order of another account is never moved');

select * from finish();
rollback;
