-- Orders that must be paid online (payment mode online_required, issue 20): the mode is kept on
-- the order as booked; an unpaid one holds its berth for harbour_settings.payment_hold_minutes
-- (at the latest until arrival), a Checkout session started in time extends the hold to its
-- end, then the order lapses (expired) and the berth is free again. Paying in time keeps it;
-- confirming the e-mail does not lift the payment deadline. The booking form and the e-mail
-- say how the stay is paid.
begin;
select plan(38);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('H1', 4, 12, false, false), ('H2', 4, 12, false, false), ('H3', 4, 12, false, false),
  ('H4', 4, 12, false, false), ('H5', 4, 12, true, false), ('H6', 4, 12, false, false);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

-- The admin's settings: overnight stays must be paid online within 45 minutes, day stays may be.
select tests.authenticate_as('harbour');
update public.harbour_settings set payment_hold_minutes = 30;
select tests.authenticate_as('admin');
select is((select payment_hold_minutes from public.harbour_settings), 60,
  'harbour staff cannot change the payment hold (RLS: admins only; the default is 60 minutes)');
select throws_ok($$ update public.harbour_settings set payment_hold_minutes = 10 $$, '23514', null,
  'a hold under 15 minutes is refused');
select throws_ok($$ update public.harbour_settings set payment_hold_minutes = 1441 $$, '23514', null,
  'a hold over 24 hours is refused');
update public.harbour_settings set payment_mode_overnight = 'online_required', payment_hold_minutes = 45;
select tests.clear_authentication();

-- What the booking form shows before confirming.
select tests.authenticate_as_anon();
select is(public.payment_terms('overnight'), '{"mode": "online_required", "hold_minutes": 45}'::jsonb,
  'the booking form learns that overnight stays must be paid online within 45 minutes');
select is(public.payment_terms('day') ->> 'mode', 'online_optional', 'and that day stays may be paid online or at the desk');
select tests.clear_authentication();

select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('H1'), 'overnight', '2027-05-20', '{"name": "Halt", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-21');
select public.create_booking(tests.place_id('H2'), 'overnight', '2027-05-20', '{"name": "Bezahlt", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-21');
select public.create_booking(tests.place_id('H3'), 'overnight', '2027-05-20', '{"name": "Kasse", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-21');
select public.create_booking(tests.place_id('H5'), 'day', '2027-05-20', '{"name": "Tag", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', p_day_start => '10:00', p_day_end => '12:00');
-- Booked at 13:30 for today (arrival 14:00).
select tests.clear_authentication();
select private.freeze_clock('2027-05-10 13:30+02');
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('H6'), 'overnight', '2027-05-10', '{"name": "Gleich", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-11');
select tests.clear_authentication();
select private.freeze_clock('2027-05-10 12:00+02');
select tests.authenticate_as('guest');
select public.create_booking(tests.place_id('H4'), 'overnight', '2027-05-20', '{"name": "Gast", "length": 9, "width": 3}',
  '{"first_name": "Gita", "last_name": "Gast", "email": "customer@test.local"}', '2027-05-21');
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;

select is((select payment_mode::text || ' ' || status::text || ' ' || expires_at::text from public.orders where id = current_setting('tests.halt')::uuid),
  'online_required confirmed ' || '2027-05-10 12:45+02'::timestamptz::text,
  'a confirmed order that must be paid online holds its berth for 45 minutes');
select is((select expires_at from public.orders where id = current_setting('tests.gast')::uuid), '2027-05-10 12:45+02'::timestamptz,
  'a guest''s order: the payment hold comes before the 24 hours to confirm the e-mail');
select is((select expires_at from public.orders where id = current_setting('tests.gleich')::uuid), '2027-05-10 14:15+02'::timestamptz,
  'arriving within the hour: the hold runs its 45 minutes (the arrival caps a deadline only an hour after booking)');
select is((select payment_mode::text || ' ' || coalesce(expires_at::text, 'none') from public.orders where id = current_setting('tests.tag')::uuid),
  'online_optional none', 'a day stay (online or at the desk) of an account does not lapse');

select tests.authenticate_as('customer');
select is(public.order_balance(current_setting('tests.halt')::uuid) ->> 'pay_by', to_jsonb('2027-05-10 12:45+02'::timestamptz) #>> '{}',
  'the order page learns the deadline to pay by');
select is(public.order_balance(current_setting('tests.tag')::uuid) -> 'pay_by', 'null'::jsonb, 'an order without a payment deadline has none');
select tests.clear_authentication();

-- The confirmation e-mail says how and by when.
select ok((select body_text from public.outbox where order_id = current_setting('tests.halt')::uuid)
  like '%Bitte bezahlen Sie bis % online%Sonst verfällt die Buchung%', 'the confirmation names the payment deadline');
select ok((select body_text from public.outbox where order_id = current_setting('tests.gast')::uuid)
  not like '%innerhalb von 24 Stunden%', 'a guest who must pay is not also told to confirm within 24 hours');
select ok((select body_text from public.outbox where order_id = current_setting('tests.tag')::uuid)
  like '%Bezahlung: online auf Ihrer Buchungsseite%oder im Hafenbüro%', 'an optional one says it may be paid online or at the office');

-- A later change of the setting does not change the orders already booked.
select tests.authenticate_as('admin');
update public.harbour_settings set payment_mode_overnight = 'desk';
select tests.clear_authentication();
select is((select payment_mode::text from public.orders where id = current_setting('tests.halt')::uuid), 'online_required',
  'the order keeps the payment mode it was booked with');
select is((select count(*)::integer from public.orders where expires_at is not null and status = 'confirmed'), 4,
  'and the deadlines stay');

-- Confirming the e-mail keeps the payment deadline of the guest's order.
select tests.authenticate_as('customer');
select is(public.claim_guest_orders(), 1, 'the customer claims the guest order');
select tests.clear_authentication();
select is((select status::text || ' ' || expires_at::text from public.orders where id = current_setting('tests.gast')::uuid),
  'confirmed ' || '2027-05-10 12:45+02'::timestamptz::text, 'confirming the e-mail does not lift the payment deadline');

-- The customer pays one order in time (desk payment by staff); another starts Checkout at 12:40.
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.kasse')::uuid, 'cash');
select tests.clear_authentication();
select is((select payment_status::text || ' ' || coalesce(expires_at::text, 'none') from public.orders where id = current_setting('tests.kasse')::uuid),
  'paid none', 'paid in time: no deadline any more');
select private.freeze_clock('2027-05-10 12:40+02');
set local role service_role;
select public.record_checkout_session(current_setting('tests.bezahlt')::uuid, 'cs_test_hold1', 'https://checkout.stripe.com/c/pay/cs_test_hold1', 3332, '2027-05-10 13:11+02');
reset role;
select is((select expires_at from public.orders where id = current_setting('tests.bezahlt')::uuid), '2027-05-10 13:11+02'::timestamptz,
  'a Checkout session started in time extends the hold to its end');
select is((select expires_at from public.orders where id = current_setting('tests.halt')::uuid), '2027-05-10 12:45+02'::timestamptz,
  'the other orders keep theirs');

-- 12:46: the unpaid order has lapsed. Before the sweep it is not payable, and the berth is free.
select private.freeze_clock('2027-05-10 12:46+02');
select tests.authenticate_as('customer');
select throws_ok(format('select public.begin_online_payment(%L)', current_setting('tests.halt')), 'P0001', 'order_not_payable',
  'a lapsed order cannot be paid any more');
select lives_ok(format('select public.begin_online_payment(%L)', current_setting('tests.bezahlt')),
  'the order in Checkout can still be paid');
select ok(exists (select 1 from public.search_available_places('overnight', '2027-05-20', 9, 3, '2027-05-21') p where p.name = 'H1'),
  'the lapsed order''s berth is offered again');
select ok(not exists (select 1 from public.search_available_places('overnight', '2027-05-20', 9, 3, '2027-05-21') p where p.name = 'H2'),
  'the berth of the order in Checkout is not');
select tests.clear_authentication();

-- Another guest books the lapsed berth: the old order expires first.
select tests.authenticate_as('other');
select lives_ok($$ select public.create_booking(tests.place_id('H1'), 'overnight', '2027-05-20', '{"name": "Nachruecker", "length": 9, "width": 3}',
  '{"first_name": "Otto", "last_name": "Other"}', '2027-05-21') $$, 'another customer books the lapsed berth');
select tests.clear_authentication();
select is((select status::text from public.orders where id = current_setting('tests.halt')::uuid), 'expired', 'the lapsed order is expired');
select is((select count(*)::integer from public.place_statuses where order_id = current_setting('tests.halt')::uuid and not cancelled), 0,
  'and holds no berth');

-- The Stripe payment of the order in Checkout arrives at 13:05: it is paid and never lapses.
select private.freeze_clock('2027-05-10 13:05+02');
set local role service_role;
select public.record_stripe_event(jsonb_build_object('id', 'evt_hold_paid', 'object', 'event', 'type', 'checkout.session.completed',
  'created', 1810000000, 'livemode', false, 'data', jsonb_build_object('object', jsonb_build_object(
    'id', 'cs_test_hold1', 'object', 'checkout.session', 'amount_total', 3332, 'currency', 'eur',
    'client_reference_id', current_setting('tests.bezahlt'), 'metadata', jsonb_build_object('order_id', current_setting('tests.bezahlt')),
    'payment_intent', 'pi_test_hold1', 'payment_status', 'paid', 'mode', 'payment', 'status', 'complete'))));
reset role;
select is((select payment_status::text || ' ' || status::text || ' ' || coalesce(expires_at::text, 'none') from public.orders where id = current_setting('tests.bezahlt')::uuid),
  'paid confirmed none', 'paid within the extended hold: confirmed, no deadline');

-- 14:20: the sweep expires what lapsed and leaves the rest.
select private.freeze_clock('2027-05-10 14:20+02');
set local role service_role;
select is(public.expire_unverified_orders(), 2, 'the sweep expires the two other lapsed orders (the guest''s and the one arriving today)');
reset role;
select is((select string_agg(boat ->> 'name' || ':' || status::text, ' ' order by boat ->> 'name') from public.orders),
  'Bezahlt:confirmed Gast:expired Gleich:expired Halt:expired Kasse:confirmed Nachruecker:confirmed Tag:confirmed',
  'paid orders and those without a deadline stay; unpaid ones past their deadline are expired');
select is((select count(*)::integer from public.place_statuses s join public.orders o on o.id = s.order_id
           where o.status = 'expired' and not s.cancelled), 0, 'no expired order holds a berth');
select ok((select expires_at is null from public.orders where boat ->> 'name' = 'Nachruecker'),
  'the new booking was made while overnight stays are paid at the desk: no deadline');

-- Nothing else lapses: the paid orders have no deadline any more.
set local role service_role;
select is(public.expire_unverified_orders(), 0, 'a second sweep finds nothing');
reset role;

-- Walk-ins follow their own mode (desk by default): no deadline.
select tests.authenticate_as('admin');
update public.harbour_settings set payment_mode_overnight = 'online_required';
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('H3'), 'overnight', '2027-05-22', '{"name": "Laufkunde", "length": 9, "width": 3}',
  '{"first_name": "Wanda", "last_name": "Walk"}', '2027-05-23');
select tests.clear_authentication();
select is((select payment_mode::text || ' ' || coalesce(expires_at::text, 'none') from public.orders where boat ->> 'name' = 'Laufkunde'),
  'desk none', 'a walk-in is paid at the desk and has no deadline');

-- A guest booking on the arrival day after the arrival time (16:00 for 14:00) gets a booking
-- that has not already lapsed: the hold runs from booking.
select private.freeze_clock('2027-05-10 16:00+02');
select tests.authenticate_as('guest');
select public.create_booking(tests.place_id('H6'), 'overnight', '2027-05-10', '{"name": "Spaet", "length": 9, "width": 3}',
  '{"first_name": "Gita", "last_name": "Gast", "email": "spaet@example.org"}', '2027-05-11');
select tests.clear_authentication();
select is((select expires_at from public.orders where boat ->> 'name' = 'Spaet'), '2027-05-10 16:45+02'::timestamptz,
  'booked after the arrival time: the deadline is after booking, not at the past arrival');

-- Nobody outside the database sets the mode or the deadline.
select tests.authenticate_as('customer');
select throws_ok(format('update public.orders set expires_at = null where id = %L', current_setting('tests.tag')), '42501', null,
  'a customer cannot lift a deadline');
select tests.clear_authentication();
select is((select count(*)::integer from public.orders where payment_mode = 'online_required'), 6,
  'six orders were booked while overnight stays had to be paid online');

select * from finish();
rollback;
