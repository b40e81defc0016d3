-- A payment is recorded only for the payment intent Stripe names on the order's Checkout
-- session (supabase/schemas/35a_stripe_payments.sql, private.record_online_payment and
-- private.note_session_payment_intent). With the signing secret, a payment_intent.succeeded of
-- any intent whose amount and metadata match one of the order's sessions used to be recorded;
-- now the session's own event names its intent (kept on the session), and only that intent's
-- event pays the order.
begin;
select plan(16);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('F1', 4, 12, false, false), ('F2', 4, 12, false, false), ('F3', 4, 12, false, false);
select tests.create_user('customer');
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id(n), 'overnight', '2027-05-20', jsonb_build_object('name', b, 'length', 9, 'width', 3),
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-21')
from (values ('F1', 'Echt'), ('F2', 'Anders'), ('F3', 'Spaeter')) v(n, b);
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;
select set_config('tests.price', (select price_cents::text from public.orders where id = current_setting('tests.echt')::uuid), true);

create function pg_temp.session(p_id text, p_order text, p_pi text, p_payment_status text default 'paid') returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'checkout.session', 'amount_total', current_setting('tests.price')::integer, 'currency', 'eur',
                            'client_reference_id', p_order, 'metadata', jsonb_build_object('order_id', p_order),
                            'payment_intent', p_pi, 'payment_status', p_payment_status, 'mode', 'payment', 'status', 'complete')
$$;
create function pg_temp.intent(p_id text, p_order text) returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'payment_intent', 'amount', current_setting('tests.price')::integer,
                            'amount_received', current_setting('tests.price')::integer, 'currency', 'eur',
                            'metadata', jsonb_build_object('order_id', p_order), 'status', 'succeeded')
$$;
create function pg_temp.session_recorded(p_order text, p_session text) returns void language plpgsql as $$
begin
  set local role service_role;
  perform public.record_checkout_session(p_order::uuid, p_session, 'https://checkout.stripe.com/c/pay/' || p_session,
                                         current_setting('tests.price')::integer, '2027-05-10 12:30+02');
  reset role;
end $$;
create function pg_temp.event(p_id text, p_type text, p_object jsonb) returns text language sql as $$
  select tests.record_stripe_event(tests.stripe_event(p_id, p_type, p_object)) ->> 'outcome'
$$;
create function pg_temp.paid(p_order text) returns bigint language sql as $$
  select count(*) from public.payments where order_id = p_order::uuid and kind = 'payment'
$$;

-- ---------------------------------------------------------------- a forged intent pays nothing
select pg_temp.session_recorded(current_setting('tests.echt'), 'cs_test_echt');
select is(pg_temp.event('evt_forged', 'payment_intent.succeeded', pg_temp.intent('pi_forged', current_setting('tests.echt'))), 'waiting',
  'an intent that no session of the order names is not recorded (its amount and order match a session)');
select is(pg_temp.paid(current_setting('tests.echt')), 0::bigint, 'nothing in the ledger');
select is((select payment_status::text from public.orders where id = current_setting('tests.echt')::uuid), 'pending', 'the order is not paid');

-- ---------------------------------------------------------------- the session's intent pays, once
select is(pg_temp.event('evt_echt_cs', 'checkout.session.completed', pg_temp.session('cs_test_echt', current_setting('tests.echt'), 'pi_echt')), 'recorded',
  'the session''s own event records the payment');
select is((select payment_intent from public.checkout_sessions where id = 'cs_test_echt'), 'pi_echt', 'and keeps the intent it names on the session');
select is(pg_temp.event('evt_echt_pi', 'payment_intent.succeeded', pg_temp.intent('pi_echt', current_setting('tests.echt'))), 'duplicate',
  'the named intent''s event finds the payment');
select is((select outcome from private.stripe_events where id = 'evt_forged'), 'waiting', 'the forged intent still records nothing');
select is(pg_temp.paid(current_setting('tests.echt')), 1::bigint, 'one payment');

-- ---------------------------------------------------------------- an intent belongs to one session
select pg_temp.session_recorded(current_setting('tests.anders'), 'cs_test_anders');
select is(pg_temp.event('evt_anders_cs', 'checkout.session.completed', pg_temp.session('cs_test_anders', current_setting('tests.anders'), 'pi_echt')), 'duplicate',
  'a session of another order that names an intent already paid records nothing');
select is((select payment_intent from public.checkout_sessions where id = 'cs_test_anders'), null, 'and does not take the intent');
select is(pg_temp.event('evt_anders_pi', 'payment_intent.succeeded', pg_temp.intent('pi_echt', current_setting('tests.anders'))), 'duplicate',
  'the other order''s metadata on a known intent pays that order nothing');
select is(pg_temp.paid(current_setting('tests.anders')), 0::bigint, 'nothing in its ledger');

-- ---------------------------------------------------------------- paid later (a delayed method)
select pg_temp.session_recorded(current_setting('tests.spaeter'), 'cs_test_spaeter');
select is(pg_temp.event('evt_sp_cs', 'checkout.session.completed', pg_temp.session('cs_test_spaeter', current_setting('tests.spaeter'), 'pi_spaeter', 'unpaid')), 'ignored',
  'a completed session not paid yet records nothing, but names its intent');
select is(pg_temp.event('evt_sp_other', 'checkout.session.async_payment_succeeded', pg_temp.session('cs_test_spaeter', current_setting('tests.spaeter'), 'pi_other')), 'rejected',
  'a session event naming another intent than the session''s is refused');
select is(pg_temp.event('evt_sp_pi', 'payment_intent.succeeded', pg_temp.intent('pi_spaeter', current_setting('tests.spaeter'))), 'recorded',
  'the intent the session named records the payment, with its session');
select results_eq($$ select checkout_session_id, provider_payment_id from public.payments where order_id = current_setting('tests.spaeter')::uuid $$,
  $$ values ('cs_test_spaeter', 'pi_spaeter') $$, 'one payment, tied to the session and its intent');

select * from finish();
rollback;
