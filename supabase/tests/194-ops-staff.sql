-- The back office: staff booking for walk-in guests, moving bookings, invoice numbers of paid
-- orders; a customer's data export and account deletion.
begin;
select plan(32);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('S1', 4, 12, false, false), ('S2', 4, 12, false, false), ('S3', 2.5, 6, false, false), ('S4', 4, 12, false, true), ('S5', 4, 12, true, false);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

-- ---------------------------------------------------------------- staff booking
select tests.authenticate_as('customer');
select throws_ok($$ select public.staff_create_booking(tests.place_id('S1'), 'overnight', '2027-05-11', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B"}', '2027-05-12') $$,
  '42501', 'staff_only', 'a customer cannot book as staff');
select tests.authenticate_as_anon();
select throws_ok($$ select public.staff_create_booking(tests.place_id('S1'), 'overnight', '2027-05-11', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B"}', '2027-05-12') $$,
  '42501', null, 'anon cannot book as staff');

select tests.authenticate_as('harbour');
select results_eq(
  $$ select status, price_cents, expires_at, user_id = tests.get_user_id('customer'), place_snapshot ->> 'name'
     from public.staff_create_booking(tests.place_id('S1'), 'overnight', '2027-05-11', '{"name": "Rheinperle", "length": 9.4, "width": 3.2}',
       '{"first_name": "Klaus", "last_name": "Kunde", "email": "Customer@Test.local", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf", "country": "Deutschland"}', '2027-05-13') $$,
  $$ values ('confirmed'::public.order_status, 7140, null::timestamptz, true, 'S1') $$,
  'staff book a phone guest: confirmed at once, same price (2 nights x 10 m x 2 EUR + 2 x 10 EUR + 19 %), into the guest''s account');
select throws_ok($$ select public.staff_create_booking(tests.place_id('S1'), 'overnight', '2027-05-12', '{"name": "Zweiter", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B"}', '2027-05-14') $$,
  '23P01', 'berth_no_longer_available', 'no double booking for staff either');
select throws_ok($$ select public.staff_create_booking(tests.place_id('S3'), 'overnight', '2027-05-12', '{"name": "Groß", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B"}', '2027-05-14') $$,
  '22023', 'boat_does_not_fit', 'the boat must fit');
select throws_ok($$ select public.staff_create_booking(tests.place_id('S1'), 'day', '2027-05-20', '{"name": "Jolle", "length": 5, "width": 2}', '{"first_name": "A", "last_name": "B"}', null, '10:00', '12:00') $$,
  '22023', 'day_stay_not_allowed', 'day stays only on day berths');
select throws_ok($$ select public.staff_create_booking(tests.place_id('S5'), 'overnight', '2027-05-20', '{"name": "Jolle", "length": 5, "width": 2}', '{"first_name": "A", "last_name": "B"}', '2027-05-21') $$,
  '22023', 'day_guests_only', 'and day berths only for day stays');
select throws_ok($$ select public.staff_create_booking(tests.place_id('S4'), 'overnight', '2027-05-12', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B"}', '2027-05-14') $$,
  'PT404', 'place_not_found', 'not on an archived berth');
select throws_ok($$ select public.staff_create_booking(tests.place_id('S2'), 'overnight', '2027-05-01', '{"name": "X", "length": 9, "width": 3}', '{"first_name": "A", "last_name": "B"}', '2027-05-03') $$,
  '22023', 'period_in_past', 'not in the past');
select lives_ok($$ select public.staff_create_booking(tests.place_id('S2'), 'overnight', '2027-05-14', '{"name": "Walkin", "length": 9, "width": 3}', '{"first_name": "Wanda", "last_name": "Walk"}', '2027-05-15') $$,
  'staff book a walk-in guest without e-mail');

-- ---------------------------------------------------------------- move
select tests.authenticate_as('customer');
select throws_ok($$ select public.move_booking((select id from public.orders where place_snapshot ->> 'name' = 'S1'), tests.place_id('S2')) $$,
  '42501', 'staff_only', 'a customer cannot move a booking');
select tests.authenticate_as('harbour');
select results_eq($$ select place_snapshot ->> 'name' from public.move_booking((select id from public.orders where boat ->> 'name' = 'Rheinperle'), tests.place_id('S2')) $$,
  $$ values ('S2') $$, 'staff move a booking to another fitting berth');
select results_eq($$ select p.name from public.place_statuses s join public.places p on p.id = s.place_id join public.orders o on o.id = s.order_id where o.boat ->> 'name' = 'Rheinperle' $$,
  $$ values ('S2') $$, 'its berth status moved along');
select public.staff_create_booking(tests.place_id('S1'), 'overnight', '2027-05-12', '{"name": "Blocker", "length": 9, "width": 3}', '{"first_name": "Bea", "last_name": "Block"}', '2027-05-13');
select throws_ok($$ select public.move_booking((select id from public.orders where boat ->> 'name' = 'Rheinperle'), tests.place_id('S1')) $$,
  '23P01', 'berth_no_longer_available', 'a move onto an occupied berth is refused');
select throws_ok($$ select public.move_booking((select id from public.orders where boat ->> 'name' = 'Rheinperle'), tests.place_id('S3')) $$,
  '22023', 'boat_does_not_fit', 'a move onto a berth too small is refused');
select throws_ok($$ select public.move_booking((select id from public.orders where boat ->> 'name' = 'Rheinperle'), tests.place_id('S5')) $$,
  '22023', 'day_guests_only', 'an overnight stay is not moved onto a berth for day guests only');

-- ---------------------------------------------------------------- payment and invoices
select tests.authenticate_as('customer');
select throws_ok($$ select public.record_desk_payment((select id from public.orders limit 1), 'cash') $$, '42501', 'staff_only', 'a customer cannot mark paid');
select tests.authenticate_as('harbour');
select results_eq($$ select kind, method, amount_cents from public.record_desk_payment((select id from public.orders where boat ->> 'name' = 'Rheinperle'), 'cash', null, 'bar') $$,
  $$ values ('payment', 'cash'::public.payment_method, 7140) $$, 'staff record the outstanding amount as paid');
select lives_ok($$ select public.record_desk_payment((select id from public.orders where boat ->> 'name' = 'Walkin'), 'card_terminal') $$, 'and another');
select results_eq($$ select i.invoice_number, i.net_cents, i.vat_cents, i.gross_cents from public.invoices i join public.orders o on o.id = i.order_id order by i.number $$,
  $$ values ('RE-2027-00001', 6000, 1140, 7140), ('RE-2027-00002', 2800, 532, 3332) $$,
  'paid orders get gapless invoice numbers of the year with net, VAT and gross');
select lives_ok($$ select public.record_desk_refund((select id from public.orders where boat ->> 'name' = 'Walkin'), 'cash', 3332) $$, 'paid -> refunded');
select throws_ok($$ select public.record_desk_payment((select id from public.orders where boat ->> 'name' = 'Walkin'), 'cash') $$,
  'P0001', 'order_not_payable', 'refunded (and so cancelled) does not go back to paid');
select is((select count(*)::int from public.invoices), 3, 'a full refund issues a cancellation invoice with the next number');

select tests.authenticate_as('customer');
select results_eq($$ select invoice_number from public.invoices $$, $$ values ('RE-2027-00001') $$, 'a customer reads the own invoice');
select tests.authenticate_as('other');
select is_empty($$ select * from public.invoices $$, 'another customer reads none');

-- ---------------------------------------------------------------- export and delete
select tests.authenticate_as_anon();
select throws_ok($$ select public.export_my_data() $$, '42501', null, 'anon has no data to export');
select tests.authenticate_as('customer');
select results_eq(
  $$ select d -> 'profile' ->> 'email', jsonb_array_length(d -> 'orders'), jsonb_array_length(d -> 'invoices'), d -> 'user' ->> 'email',
            jsonb_array_length(d -> 'payments'), d #>> '{payments,0,amount_cents}' = d #>> '{orders,0,price_cents}', d -> 'payments' -> 0 ? 'recorded_by'
     from public.export_my_data() d $$,
  $$ values ('customer@test.local', 1, 1, 'customer@test.local', 1, true, false) $$,
  'a customer exports the own data as one document, with the payments (not who recorded them)');
select tests.authenticate_as('guest');
select throws_ok($$ select public.delete_my_account() $$, '42501', 'account_required', 'a guest session has no account to delete');
select tests.authenticate_as('admin');
select throws_ok($$ select public.delete_my_account() $$, 'P0001', 'last_admin', 'the last admin cannot delete the own account');
select tests.authenticate_as('customer');
select is(public.delete_my_account(), '{"cancelled_orders": 1, "anonymised_orders": 1}'::jsonb, 'a customer deletes the account: the future stay is cancelled');
select tests.clear_authentication();
select results_eq(
  $$ select o.user_id, o.email, o.person, o.status, i.recipient ->> 'last_name', (select count(*)::int from auth.users where email = 'customer@test.local')
     from public.orders o join public.invoices i on i.order_id = o.id and i.kind = 'invoice' where o.boat ->> 'length' = '9.4' $$,
  $$ values (null::uuid, '', '{"anonymised": true, "country": "Deutschland"}'::jsonb, 'cancelled'::public.order_status, 'Kunde', 0) $$,
  'the order stays anonymised, the invoice keeps the billed recipient, the account is gone');
select is((select count(*)::int from public.place_statuses s join public.orders o on o.id = s.order_id where o.boat ->> 'length' = '9.4' and not s.cancelled), 0,
  'the cancelled stay freed its berth');
select * from finish();
rollback;
