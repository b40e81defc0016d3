-- The payments ledger and online payment (supabase/schemas/35_payments_ledger.sql and 35a_stripe_payments.sql, issue 20): rows are
-- never changed by anyone, owners read their order's rows, staff all; the order's payment_status is
-- derived from the ledger; Stripe events are applied once by event id and end in the right state
-- whatever their order of arrival; only the service role records them; begin_online_payment and
-- the payment modes decide who may pay online; a paid order never expires; one invoice per order.
begin;
select plan(128);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('P1', 4, 12, false, false), ('P2', 4, 12, false, false), ('P3', 4, 12, false, false), ('P4', 4, 12, false, false),
  ('P5', 4, 12, false, false), ('P6', 4, 12, false, false), ('P7', 4, 12, false, false), ('P8', 4, 12, false, false),
  ('P9', 4, 12, true, false);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('inactive');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

-- The customer's orders (confirmed, one night, 9 m: 3332 cents), a walk-in, a guest's order.
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id(n), 'overnight', '2027-05-20', jsonb_build_object('name', b, 'length', 9, 'width', 3),
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-21')
from (values ('P1', 'Online'), ('P2', 'Umgekehrt'), ('P3', 'Spaet'), ('P4', 'Intent'), ('P5', 'Doppelt'), ('P8', 'Storno')) v(n, b);
select public.cancel_booking((select id from public.orders where boat ->> 'name' = 'Storno'));
select tests.authenticate_as('inactive');
select public.create_booking(tests.place_id('P9'), 'day', '2027-05-20', '{"name": "Ruhend", "length": 9, "width": 3}',
  '{"first_name": "Ina", "last_name": "Inaktiv"}', p_day_start => '10:00', p_day_end => '12:00');
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('P6'), 'overnight', '2027-05-20', '{"name": "Walkin", "length": 9, "width": 3}',
  '{"first_name": "Wanda", "last_name": "Walk"}', '2027-05-21');
select tests.authenticate_as('guest');
select public.create_booking(tests.place_id('P7'), 'overnight', '2027-05-20', '{"name": "Gast", "length": 9, "width": 3}',
  '{"first_name": "Gita", "last_name": "Gast", "email": "gita@example.org"}', '2027-05-21');
select tests.clear_authentication();
update public.profiles set active = false where id = tests.get_user_id('inactive');
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;

-- Stripe events as the webhook passes them on (shapes of the stripe package's Event, Checkout
-- Session, PaymentIntent and Refund).
create function pg_temp.session(p_id text, p_order text, p_amount integer, p_pi text, p_payment_status text default 'paid', p_currency text default 'eur')
returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'checkout.session', 'amount_total', p_amount, 'currency', p_currency,
                            'client_reference_id', p_order, 'metadata', jsonb_build_object('order_id', p_order, 'booking_reference', p_order),
                            'payment_intent', p_pi, 'payment_status', p_payment_status, 'mode', 'payment', 'status', 'complete')
$$;
create function pg_temp.intent(p_id text, p_order text, p_amount integer, p_status text default 'succeeded') returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'payment_intent', 'amount', p_amount,
                            'amount_received', case when p_status = 'succeeded' then p_amount else 0 end, 'currency', 'eur',
                            'metadata', jsonb_build_object('order_id', p_order), 'status', p_status,
                            'last_payment_error', case when p_status = 'requires_payment_method'
                              then jsonb_build_object('code', 'card_declined', 'decline_code', 'generic_decline') end)
$$;
create function pg_temp.refund(p_id text, p_pi text, p_amount integer, p_status text) returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'refund', 'amount', p_amount, 'currency', 'eur', 'payment_intent', p_pi,
                            'status', p_status, 'metadata', '{}'::jsonb)
$$;
create function pg_temp.session_recorded(p_order text, p_session text, p_amount integer default 3332) returns void language plpgsql as $$
begin
  set local role service_role;
  perform public.record_checkout_session(p_order::uuid, p_session, 'https://checkout.stripe.com/c/pay/' || p_session, p_amount, '2027-05-10 12:30+02');
  reset role;
end $$;
create function pg_temp.status(p_order text) returns text language sql as $$
  select payment_status::text || '/' || status::text from public.orders where id = p_order::uuid
$$;

-- ---------------------------------------------------------------- payment modes
select results_eq($$ select payment_mode_day::text, payment_mode_overnight::text, payment_mode_fair::text, payment_mode_walk_in::text from public.harbour_settings $$,
  $$ values ('online_optional', 'online_optional', 'online_optional', 'desk') $$, 'day, overnight and fair may be paid online, walk-ins at the desk');
select tests.authenticate_as_anon();
select is(public.payment_mode_for('overnight'), 'online_optional'::public.payment_mode, 'anyone who books reads the mode of a kind');
select is(public.payment_mode_for('overnight', true), 'desk'::public.payment_mode, 'and of walk-ins');
update public.harbour_settings set payment_mode_day = 'desk';
select tests.authenticate_as('harbour');
update public.harbour_settings set payment_mode_day = 'desk';
select tests.clear_authentication();
select is((select payment_mode_day::text from public.harbour_settings), 'online_optional', 'neither anon nor harbour staff change it (admin setting)');
select tests.authenticate_as('admin');
update public.harbour_settings set payment_mode_fair = 'online_required';
select is(public.payment_mode_for('fair'), 'online_required'::public.payment_mode, 'an admin changes it, and payment_mode_for follows');

-- ---------------------------------------------------------------- begin_online_payment
select tests.authenticate_as('customer');
select results_eq($$ select b ->> 'amount_cents', b ->> 'currency', b ->> 'booking_reference', b ->> 'locale', b -> 'open_session', b ->> 'description'
                     from public.begin_online_payment(current_setting('tests.online')::uuid) b $$,
  $$ values ('3332', 'eur', (select booking_number from public.orders where id = current_setting('tests.online')::uuid), 'de', 'null'::jsonb, 'Hafen Düsseldorf, Liegeplatz P1, 20.05.2027 – 21.05.2027') $$,
  'the owner starts paying: the price in cents, EUR, the booking number, the language, no open session yet');
select is(public.begin_online_payment(current_setting('tests.online')::uuid) ->> 'amount_cents',
  (public.quote_booking('overnight', '2027-05-20', 9, '2027-05-21') ->> 'gross_cents'), 'the amount is the quote to the cent');
select throws_ok($$ select public.begin_online_payment(current_setting('tests.storno')::uuid) $$, 'P0001', 'order_not_payable', 'a cancelled order is not paid online');
select tests.authenticate_as('other');
select throws_ok($$ select public.begin_online_payment(current_setting('tests.online')::uuid) $$, 'PT404', 'order_not_found', 'another customer''s order is not found');
select tests.authenticate_as('inactive');
select throws_ok($$ select public.begin_online_payment(current_setting('tests.ruhend')::uuid) $$, '42501', 'account_inactive', 'an inactive account cannot pay online');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.begin_online_payment(current_setting('tests.walkin')::uuid) $$, 'P0001', 'payment_desk_only', 'a walk-in is paid at the desk');
select tests.authenticate_as_anon();
select throws_ok($$ select public.begin_online_payment(current_setting('tests.online')::uuid) $$, '42501', null, 'anon cannot start a payment');
select tests.authenticate_as('guest');
select is(public.begin_online_payment(current_setting('tests.gast')::uuid) ->> 'email', 'gita@example.org', 'a guest session pays its own order, with its e-mail');

-- ---------------------------------------------------------------- who may record
select tests.authenticate_as('customer');
select throws_ok($$ select public.record_stripe_event(tests.stripe_event('evt_forged', 'checkout.session.completed',
                      pg_temp.session('cs_forged', current_setting('tests.online'), 3332, 'pi_forged'))) $$,
  '42501', null, 'a customer cannot call the webhook''s function');
select throws_ok($$ select public.record_checkout_session(current_setting('tests.online')::uuid, 'cs_forged', 'https://x.test/', 3332, now()) $$,
  '42501', null, 'nor record a checkout session');
select throws_ok($$ insert into public.payments (order_id, kind, method, amount_cents) values (current_setting('tests.online')::uuid, 'payment', 'cash', 3332) $$,
  '42501', null, 'nor write the ledger');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.online')::uuid, 'cash') $$, '42501', 'staff_only', 'nor record a desk payment');
select throws_ok($$ select * from public.money_to_return() $$, '42501', 'staff_only', 'nor see the money the harbour owes');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.record_stripe_event(tests.stripe_event('evt_forged', 'checkout.session.completed',
                      pg_temp.session('cs_forged', current_setting('tests.online'), 3332, 'pi_forged'))) $$,
  '42501', null, 'staff cannot call it either (only the service role)');
select tests.authenticate_as_anon();
select throws_ok($$ select public.record_stripe_event('{}') $$, '42501', null, 'nor anon');
select tests.clear_authentication();
select is((select count(*)::int from private.stripe_events), 0, 'nothing was recorded');

-- ---------------------------------------------------------------- the online payment
select pg_temp.session_recorded(current_setting('tests.online'), 'cs_test_online1');
select tests.authenticate_as('customer');
select results_eq($$ select b #>> '{open_session,id}', b #>> '{open_session,url}' from public.begin_online_payment(current_setting('tests.online')::uuid) b $$,
  $$ values ('cs_test_online1', 'https://checkout.stripe.com/c/pay/cs_test_online1') $$, 'a second tab gets the open session, not a second one');
select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_fail1', 'payment_intent.payment_failed',
            pg_temp.intent('pi_online', current_setting('tests.online'), 3332, 'requires_payment_method'))) ->> 'outcome',
  'history', 'a declined card goes into the history only');
select is(pg_temp.status(current_setting('tests.online')), 'pending/confirmed', 'and the order is still payable');
select is(tests.record_stripe_event(tests.stripe_event('evt_paid1', 'checkout.session.completed',
            pg_temp.session('cs_test_online1', current_setting('tests.online'), 3332, 'pi_online'))) ->> 'outcome',
  'recorded', 'checkout.session.completed records the payment');
select is(pg_temp.status(current_setting('tests.online')), 'paid/confirmed', 'the order is paid');
select results_eq($$ select kind, method::text, amount_cents, provider, provider_payment_id, checkout_session_id, provider_event_id, recorded_by
                     from public.payments where order_id = current_setting('tests.online')::uuid $$,
  $$ values ('payment', 'online', 3332, 'stripe', 'pi_online', 'cs_test_online1', 'evt_paid1', null::uuid) $$, 'one ledger row, by the webhook');
select is((select status from public.checkout_sessions where id = 'cs_test_online1'), 'complete', 'the session is complete');
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.online')::uuid), 1, 'the invoice is issued on paid');
select results_eq($$ select kind, recipient, locale, subject from public.outbox where order_id = current_setting('tests.online')::uuid and kind = 'payment_receipt' $$,
  $$ values ('payment_receipt', 'customer@test.local', 'de', 'Zahlung erhalten: Liegeplatz P1, ' || private.format_berlin('2027-05-20 14:00+02', 'de')) $$,
  'the guest gets the receipt e-mail, in the booking''s language');
select ok((select body_text from public.outbox where order_id = current_setting('tests.online')::uuid and kind = 'payment_receipt') like '%Betrag: 33,32 €%',
  'with the amount');
select results_eq($$ select r - 'event_id' from tests.record_stripe_event(tests.stripe_event('evt_paid1', 'checkout.session.completed',
                     pg_temp.session('cs_test_online1', current_setting('tests.online'), 3332, 'pi_online'))) r $$,
  $$ values ('{"type": "checkout.session.completed", "outcome": "recorded", "detail": null, "order_id": null, "replay": true}'::jsonb
             || jsonb_build_object('order_id', current_setting('tests.online'))) $$,
  'a replayed event answers what it did the first time');
select is(tests.record_stripe_event(tests.stripe_event('evt_pi1', 'payment_intent.succeeded', pg_temp.intent('pi_online', current_setting('tests.online'), 3332))) ->> 'outcome',
  'duplicate', 'payment_intent.succeeded of the same payment records nothing more');
select is((select count(*)::int from public.payments where order_id = current_setting('tests.online')::uuid), 1, 'still one row');
select tests.authenticate_as('customer');
select throws_ok($$ select public.begin_online_payment(current_setting('tests.online')::uuid) $$, 'P0001', 'order_already_paid', 'a paid order is not paid again');
select tests.clear_authentication();

-- ---------------------------------------------------------------- refunds and the derived status
select tests.authenticate_as('harbour');
select throws_ok($$ select public.prepare_online_refund(current_setting('tests.online')::uuid, 3333, '00000000-0000-4000-8000-000000000340') $$, 'P0001', 'refund_exceeds_payment',
  'a refund never exceeds the payment');
select results_eq($$ select public.prepare_online_refund(current_setting('tests.online')::uuid, 1000, '00000000-0000-4000-8000-000000000341') $$,
  $$ values ('{"payment_intent": "pi_online", "refund_id": null, "replay": false, "idempotency_key": "refund-00000000-0000-4000-8000-000000000341"}'::jsonb) $$, 'staff prepare a partial online refund');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.online')::uuid, 'cash', 1000) $$, 'P0001', 'refund_online_payment',
  'an online payment is not refunded at the desk');
select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_re1a', 'refund.created', pg_temp.refund('re_1', 'pi_online', 1000, 'pending'))) ->> 'outcome',
  'ignored', 'a pending refund counts nothing yet');
select is(pg_temp.status(current_setting('tests.online')), 'paid/confirmed', 'still paid');
select is(tests.record_stripe_event(tests.stripe_event('evt_re1b', 'refund.updated', pg_temp.refund('re_1', 'pi_online', 1000, 'succeeded'))) ->> 'outcome',
  'recorded', 'a succeeded refund is recorded');
select is(pg_temp.status(current_setting('tests.online')), 'partially_refunded/confirmed', 'part refunded: the booking stays');
select is(tests.record_stripe_event(tests.stripe_event('evt_re1c', 'charge.refunded', jsonb_build_object('id', 'ch_1', 'object', 'charge', 'payment_intent', 'pi_online',
            'amount', 3332, 'amount_refunded', 1000, 'currency', 'eur', 'refunds', jsonb_build_object('object', 'list',
            'data', jsonb_build_array(pg_temp.refund('re_1', 'pi_online', 1000, 'succeeded')))))) ->> 'outcome',
  'duplicate', 'the same refund in charge.refunded counts once');
select is(tests.record_stripe_event(tests.stripe_event('evt_re2', 'refund.created', pg_temp.refund('re_2', 'pi_online', 2333, 'succeeded'))) ->> 'outcome',
  'rejected', 'an over-refund is refused (kept, not in the ledger)');
select is((select coalesce(sum(amount_cents), 0)::int from public.payments where order_id = current_setting('tests.online')::uuid and kind = 'refund'), 1000,
  'the ledger holds the one refund');
select is(tests.record_stripe_event(tests.stripe_event('evt_re3', 'refund.created', pg_temp.refund('re_3', 'pi_online', 2332, 'succeeded'))) ->> 'outcome',
  'recorded', 'the rest is refunded');
select is(pg_temp.status(current_setting('tests.online')), 'refunded/cancelled', 'all refunded: the open booking is cancelled');
select is((select count(*)::int from public.place_statuses where order_id = current_setting('tests.online')::uuid and not cancelled), 0, 'and its berth is free');
select is(tests.record_stripe_event(tests.stripe_event('evt_re3f', 'refund.updated', pg_temp.refund('re_3', 'pi_online', 2332, 'failed'))) ->> 'outcome',
  'recorded', 'a refund that fails after it succeeded is reversed by a new row');
select results_eq($$ select kind, amount_cents, refund_of = (select id from public.payments where provider_refund_id = 're_3')
                     from public.payments where order_id = current_setting('tests.online')::uuid and kind = 'payment' and refund_of is not null $$,
  $$ values ('payment', 2332, true) $$, 'the reversal refers to the refund');
select is(pg_temp.status(current_setting('tests.online')), 'partially_refunded/cancelled', 'the money is back with the harbour (staff refund it again)');
select results_eq($$ select event, from_value, to_value from public.order_events
                     where order_id = current_setting('tests.online')::uuid and event in ('refund_recorded', 'refund_failed') order by id $$,
  $$ values ('refund_recorded', 'online', '1000'), ('refund_recorded', 'online', '2332'), ('refund_failed', 'online', '2332') $$,
  'the order''s history names the reversal a failed refund, not a payment');
select results_eq($$ select recipient, locale from public.outbox
                     where order_id = current_setting('tests.online')::uuid and kind = 'refund_failed' order by recipient = private.setting('harbour_email') $$,
  $$ select o.email, 'de' from public.orders o where o.id = current_setting('tests.online')::uuid
     union all select private.setting('harbour_email'), 'de' $$,
  'the guest and the harbour office are told the refund failed (one e-mail each)');
select ok((select subject = 'Erstattung von 23,32 € fehlgeschlagen: Buchung ' || o.booking_number
                  and body_text like '%die Erstattung von 23,32 € auf die Karte, mit der Sie bezahlt haben, ist leider fehlgeschlagen%'
                  and body_text like '%Das Hafenbüro meldet sich bei Ihnen%'
                  and reply_to = private.setting('harbour_email')
             from public.outbox m join public.orders o on o.id = m.order_id
            where m.order_id = current_setting('tests.online')::uuid and m.kind = 'refund_failed' and m.recipient = o.email),
  'the guest''s e-mail: the amount, that it failed, that the office will pay it back; replies reach the office');
select ok((select subject = 'Erstattung fehlgeschlagen: Buchung ' || o.booking_number || ' (23,32 €)'
                  and body_text like '%Bitte auf anderem Weg erstatten%' and body_text like '%/account/admin/orders/' || o.id || '%'
                  and reply_to = o.email
             from public.outbox m join public.orders o on o.id = m.order_id
            where m.order_id = current_setting('tests.online')::uuid and m.kind = 'refund_failed' and m.recipient = private.setting('harbour_email')),
  'the office''s e-mail: what to do, the booking''s page; replies reach the guest');
select is(tests.record_stripe_event(tests.stripe_event('evt_re3ff', 'refund.failed', pg_temp.refund('re_3', 'pi_online', 2332, 'failed'))) ->> 'outcome',
  'ignored', 'refund.failed beside refund.updated (Stripe sends both): the reversal is there, nothing more');

-- What Stripe could not refund goes back in cash or by transfer, and only that.
select tests.authenticate_as('harbour');
select is((public.order_balance(current_setting('tests.online')::uuid) ->> 'refundable_desk_cents')::int, 2332,
  'the failed refund can go back at the desk');
select results_eq($$ select m.booking_number, m.to_refund_cents, m.failed_refund_cents from public.money_to_return() m
                     where m.order_id = current_setting('tests.online')::uuid $$,
  $$ select o.booking_number, 0::bigint, 2332::bigint from public.orders o where o.id = current_setting('tests.online')::uuid $$,
  'the overview''s money to return names it');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.online')::uuid, 'bank_transfer', 2333) $$,
  'P0001', 'refund_exceeds_payment', 'not a cent more than Stripe could not refund');
select results_eq($$ select r.kind, r.method::text, r.amount_cents, r.refund_of = (select p.id from public.payments p where p.provider_payment_id = 'pi_online' and p.kind = 'payment' and p.refund_of is null)
                     from public.record_desk_refund(current_setting('tests.online')::uuid, 'bank_transfer', 2332) r $$,
  $$ values ('refund', 'bank_transfer', 2332, true) $$, 'staff pay it back by transfer: a refund of the online payment');
select is((public.order_balance(current_setting('tests.online')::uuid) ->> 'refundable_desk_cents')::int, 0, 'then nothing more at the desk');
select is_empty($$ select 1 from public.money_to_return() m where m.order_id = current_setting('tests.online')::uuid $$,
  'and it is off the list');
select is(pg_temp.status(current_setting('tests.online')), 'refunded/cancelled', 'refunded in full again');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.online')::uuid, 'cash', 1) $$,
  'P0001', 'refund_online_payment', 'the rest of an online payment goes through Stripe');
select tests.clear_authentication();
select throws_ok($$ insert into public.payments (order_id, kind, method, amount_cents, refund_of)
                    select current_setting('tests.online')::uuid, 'refund', 'cash', 1, p.id from public.payments p
                     where p.provider_payment_id = 'pi_online' and p.kind = 'payment' and p.refund_of is null $$,
  '22023', 'invalid_refund_method', 'the ledger itself refuses a desk refund of an online payment beyond its failed refunds');
select results_eq($$ select kind, gross_cents from public.invoices where order_id = current_setting('tests.online')::uuid order by number $$,
  $$ values ('invoice', 3332), ('credit_note', -1000), ('cancellation', 1000), ('cancellation', -3332) $$,
  'the invoice, the partial refund''s credit note, and at the full refund the cancellation of both; the reversal issues nothing (35b)');

-- ---------------------------------------------------------------- out of order
-- A refund before its payment waits, and is applied when the payment arrives.
select pg_temp.session_recorded(current_setting('tests.umgekehrt'), 'cs_test_ooo');
select is(tests.record_stripe_event(tests.stripe_event('evt_ooo_re', 'refund.created', pg_temp.refund('re_ooo', 'pi_ooo', 3332, 'succeeded'))) ->> 'outcome',
  'waiting', 'a refund of an unknown payment waits');
select is(pg_temp.status(current_setting('tests.umgekehrt')), 'pending/confirmed', 'nothing changed yet');
select is(tests.record_stripe_event(tests.stripe_event('evt_ooo_pi', 'payment_intent.succeeded', pg_temp.intent('pi_ooo', current_setting('tests.umgekehrt'), 3332))) ->> 'outcome',
  'waiting', 'payment_intent.succeeded before checkout.session.completed waits: no session of the order names the intent yet');
select is(tests.record_stripe_event(tests.stripe_event('evt_ooo_cs', 'checkout.session.completed', pg_temp.session('cs_test_ooo', current_setting('tests.umgekehrt'), 3332, 'pi_ooo'))) ->> 'outcome',
  'recorded', 'checkout.session.completed names the intent and records the payment');
select is(pg_temp.status(current_setting('tests.umgekehrt')), 'refunded/cancelled', 'then the waiting refund is applied: refunded and cancelled');
select is((select outcome from private.stripe_events where id = 'evt_ooo_pi'), 'duplicate', 'and the intent''s waiting event finds the payment');
select results_eq($$ select kind, count(*)::int from public.payments where order_id = current_setting('tests.umgekehrt')::uuid group by kind order by kind $$,
  $$ values ('payment', 1), ('refund', 1) $$, 'one payment, one refund');
select is((select outcome from private.stripe_events where id = 'evt_ooo_re'), 'recorded', 'the waiting event is marked applied');

-- Completed after expired (both reach us; the payment wins).
select pg_temp.session_recorded(current_setting('tests.spaet'), 'cs_test_late');
select is(tests.record_stripe_event(tests.stripe_event('evt_late_x', 'checkout.session.expired', pg_temp.session('cs_test_late', current_setting('tests.spaet'), 3332, null, 'unpaid')))
  ->> 'outcome', 'updated', 'an expired session is marked expired');
select is(tests.record_stripe_event(tests.stripe_event('evt_late_c', 'checkout.session.completed', pg_temp.session('cs_test_late', current_setting('tests.spaet'), 3332, 'pi_late')))
  ->> 'outcome', 'recorded', 'a completion that comes after it is still recorded');
select results_eq($$ select pg_temp.status(current_setting('tests.spaet')), (select status from public.checkout_sessions where id = 'cs_test_late') $$,
  $$ values ('paid/confirmed', 'complete') $$, 'paid, the session complete');
select is(tests.record_stripe_event(tests.stripe_event('evt_late_x2', 'checkout.session.expired', pg_temp.session('cs_test_late', current_setting('tests.spaet'), 3332, null, 'unpaid')))
  ->> 'outcome', 'ignored', 'an expiry after the completion changes nothing');

-- Staff never refund a completed stay in full (issue 11); a refund Stripe reports (made in its
-- dashboard) is money that has left: the ledger records it.
update public.orders set status = 'completed' where id = current_setting('tests.spaet')::uuid;
select tests.authenticate_as('harbour');
select throws_ok($$ select public.prepare_online_refund(current_setting('tests.spaet')::uuid, 3332, gen_random_uuid()) $$, 'P0001', 'order_not_refundable',
  'staff cannot refund a completed stay in full');
select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_late_re2', 'refund.created', pg_temp.refund('re_late2', 'pi_late', 1000, 'succeeded'))) ->> 'outcome',
  'recorded', 'a partial one is recorded');
select is(pg_temp.status(current_setting('tests.spaet')), 'partially_refunded/completed', 'the stay stays completed, partially refunded');
select results_eq($$ select r ->> 'outcome', r ->> 'detail' from tests.record_stripe_event(tests.stripe_event('evt_late_re', 'refund.created', pg_temp.refund('re_late', 'pi_late', 2332, 'succeeded'))) r $$,
  $$ values ('recorded', null) $$, 'the rest, refunded in Stripe''s dashboard, is recorded too: the ledger is the truth');
select is(pg_temp.status(current_setting('tests.spaet')), 'refunded/completed', 'the stay stays completed, now refunded');

-- payment_intent.succeeded before the session is recorded waits for it, and for the session's
-- event that names the intent.
select is(tests.record_stripe_event(tests.stripe_event('evt_int_pi', 'payment_intent.succeeded', pg_temp.intent('pi_int', current_setting('tests.intent'), 3332))) ->> 'outcome',
  'waiting', 'a payment without a recorded session waits');
select pg_temp.session_recorded(current_setting('tests.intent'), 'cs_test_int');
select is(pg_temp.status(current_setting('tests.intent')), 'pending/confirmed', 'recording the session does not pay the order: the session names no intent yet');
select is(tests.record_stripe_event(tests.stripe_event('evt_int_cs', 'checkout.session.completed', pg_temp.session('cs_test_int', current_setting('tests.intent'), 3332, 'pi_int'))) ->> 'outcome',
  'recorded', 'the session''s event names the intent and records the payment');
select is(pg_temp.status(current_setting('tests.intent')), 'paid/confirmed', 'paid once');

-- Amount and currency are checked against the recorded session.
select pg_temp.session_recorded(current_setting('tests.doppelt'), 'cs_test_d1');
select is(tests.record_stripe_event(tests.stripe_event('evt_d_bad', 'checkout.session.completed', pg_temp.session('cs_test_d1', current_setting('tests.doppelt'), 100, 'pi_d0'))) ->> 'detail',
  'amount_mismatch', 'a session paid with another amount is refused');
select is(tests.record_stripe_event(tests.stripe_event('evt_d_usd', 'checkout.session.completed', pg_temp.session('cs_test_d1', current_setting('tests.doppelt'), 3332, 'pi_d0', 'paid', 'usd'))) ->> 'detail',
  'amount_mismatch', 'and another currency');
select is(pg_temp.status(current_setting('tests.doppelt')), 'pending/confirmed', 'the order is not paid by them');

-- Nothing charged twice: a second session paid in another tab is recorded and flagged.
select pg_temp.session_recorded(current_setting('tests.doppelt'), 'cs_test_d2');
select tests.record_stripe_event(tests.stripe_event('evt_d1', 'checkout.session.completed', pg_temp.session('cs_test_d1', current_setting('tests.doppelt'), 3332, 'pi_d1')));
select is(tests.record_stripe_event(tests.stripe_event('evt_d2', 'checkout.session.completed', pg_temp.session('cs_test_d2', current_setting('tests.doppelt'), 3332, 'pi_d2'))) ->> 'outcome',
  'recorded', 'a second charge is money taken: it is recorded');
select tests.authenticate_as('harbour');
select results_eq($$ select (b ->> 'to_refund_cents')::int, (b ->> 'outstanding_cents')::int from public.order_balance(current_setting('tests.doppelt')::uuid) b $$,
  $$ values (3332, 0) $$, 'and shows as to be refunded');
select results_eq($$ select event, from_value, to_value from public.order_events where order_id = current_setting('tests.doppelt')::uuid and event like 'payment_%' order by id $$,
  $$ values ('payment_recorded', 'online', '3332'), ('payment_to_refund', 'online', '3332') $$, 'the history flags it for staff');
select results_eq($$ select m.to_refund_cents, m.failed_refund_cents from public.money_to_return() m where m.order_id = current_setting('tests.doppelt')::uuid $$,
  $$ values (3332::bigint, 0::bigint) $$, 'a second charge is on the overview''s money to return');
select is((select count(*)::int from public.money_to_return(1)), 1, 'the list is bounded by its limit');
select tests.clear_authentication();
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.doppelt')::uuid), 1, 'one invoice only');
select is((select count(*)::int from public.outbox where order_id = current_setting('tests.doppelt')::uuid and kind = 'payment_receipt'), 1,
  'and one receipt: the second charge is to be refunded');

-- ---------------------------------------------------------------- a paid order never expires
select pg_temp.session_recorded(current_setting('tests.gast'), 'cs_test_gast');
select tests.record_stripe_event(tests.stripe_event('evt_gast', 'checkout.session.completed', pg_temp.session('cs_test_gast', current_setting('tests.gast'), 3332, 'pi_gast')));
select results_eq($$ select payment_status::text, status::text, expires_at from public.orders where id = current_setting('tests.gast')::uuid $$,
  $$ values ('paid', 'unverified', null::timestamptz) $$, 'a guest''s paid order keeps no expiry');
select private.freeze_clock('2027-05-20 15:00+02');
set local role service_role;
select is(public.expire_unverified_orders(), 0, 'the cleanup does not expire it');
reset role;
select is((select status::text from public.orders where id = current_setting('tests.gast')::uuid), 'unverified', 'it stays booked');
select private.freeze_clock('2027-05-10 12:00+02');

-- ---------------------------------------------------------------- desk payments
select tests.authenticate_as('harbour');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.walkin')::uuid, 'online') $$, '22023', 'invalid_payment_method', 'online is not a desk method');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.walkin')::uuid, 'cash', 3333) $$, '22023', 'invalid_amount', 'no more than outstanding');
select results_eq($$ select method::text, amount_cents, recorded_by = tests.get_user_id('harbour') from public.record_desk_payment(current_setting('tests.walkin')::uuid, 'cash', 2000) $$,
  $$ values ('cash', 2000, true) $$, 'part paid in cash, recorded by the staff member');
select is(pg_temp.status(current_setting('tests.walkin')), 'pending/confirmed', 'part paid is still pending');
select is((select amount_cents from public.record_desk_payment(current_setting('tests.walkin')::uuid, 'card_terminal')), 1332, 'the rest by card terminal');
select is(pg_temp.status(current_setting('tests.walkin')), 'paid/confirmed', 'paid');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.walkin')::uuid, 'cash') $$, 'P0001', 'order_already_paid', 'not paid twice');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.walkin')::uuid, 'card_terminal', 100) $$, '22023', 'invalid_payment_method', 'refunds in cash or by transfer');
select is((select amount_cents from public.record_desk_refund(current_setting('tests.walkin')::uuid, 'cash', 500)), 500, 'a partial cash refund');
select is(pg_temp.status(current_setting('tests.walkin')), 'partially_refunded/confirmed', 'partially refunded');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.walkin')::uuid, 'cash', 2833) $$, 'P0001', 'refund_exceeds_payment', 'an over-refund is refused');

-- ---------------------------------------------------------------- reading the ledger
select set_config('tests.customer_rows', (select count(*)::text from public.payments p join public.orders o on o.id = p.order_id
                                           where o.user_id = tests.get_user_id('customer')), true);
select set_config('tests.all_rows', (select count(*)::text from public.payments), true);
select ok(current_setting('tests.customer_rows')::int between 1 and current_setting('tests.all_rows')::int - 1, 'the customer has some of the rows');
select tests.authenticate_as('customer');
select is((select count(*)::int from public.payments), current_setting('tests.customer_rows')::int, 'the owner reads the own orders'' rows only');
select ok((select count(*) from public.payments where order_id = current_setting('tests.online')::uuid) > 0, 'including the paid order''s');
select is((select count(*)::int from public.checkout_sessions where order_id = current_setting('tests.online')::uuid), 1, 'and its checkout sessions');
select tests.authenticate_as('other');
select is_empty($$ select * from public.payments $$, 'another customer reads none');
select is_empty($$ select * from public.checkout_sessions $$, 'nor their sessions');
select tests.authenticate_as('harbour');
select is((select count(*)::int from public.payments), current_setting('tests.all_rows')::int, 'staff read all rows');
select tests.clear_authentication();
select is((select count(*)::int from public.payments p where not exists (select 1 from public.orders o where o.id = p.order_id)), 0, 'every row belongs to an order');

-- ---------------------------------------------------------------- nobody changes a row
select tests.authenticate_as_anon();
select throws_ok($$ update public.payments set amount_cents = 1 $$, '42501', null, 'anon cannot update');
select tests.authenticate_as('customer');
select throws_ok($$ delete from public.payments $$, '42501', null, 'a customer cannot delete');
select tests.authenticate_as('harbour');
select throws_ok($$ update public.payments set amount_cents = 1 $$, '42501', null, 'staff cannot update');
select throws_ok($$ delete from public.payments $$, '42501', null, 'nor delete');
select tests.clear_authentication();
set local role service_role;
select throws_ok($$ update public.payments set note = 'x' $$, '42501', null, 'the service role cannot update');
select throws_ok($$ delete from public.payments $$, '42501', null, 'nor delete');
reset role;
select throws_ok($$ update public.payments set amount_cents = 1 $$, '42501', 'payments_immutable', 'even the owner (every security definer function) is refused by the trigger');
select throws_ok($$ delete from public.payments $$, '42501', 'payments_immutable', 'delete too');
select throws_ok($$ truncate public.payments cascade $$, '42501', 'payments_immutable', 'and truncate');

select * from finish();
rollback;
