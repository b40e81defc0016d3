-- A deposit paid online whose refund did not happen (session 13; supabase/schemas/56_deposits.sql,
-- 35c_online_refunds.sql). refund-payment first takes the deposit back (prepare_deposit_refund),
-- then asks Stripe; when Stripe cannot be reached, refuses, or later reports the refund failed,
-- the deposit is returned but its money is still held. Staff retry: prepare_deposit_refund answers
-- the refund again (not taking the deposit back twice, not mailing twice), with an attempt number
-- for the Idempotency-Key that moves on only after a known failure; the ledger's online deposit
-- return names its deposit (payments.order_extra_id); a reversed deposit refund is no longer
-- counted as paid back (order_deposit_returns).
begin;
select plan(28);
select private.freeze_clock('2027-07-02 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('R1', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
create function pg_temp.x(p_code text) returns uuid language sql security definer as $$ select id from public.extras where code = p_code $$;
create function pg_temp.refund(p_id text, p_extra text, p_status text) returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'refund', 'amount', 2000, 'currency', 'eur', 'payment_intent', 'pi_retry',
                            'status', p_status, 'metadata', jsonb_build_object('order_id', current_setting('tests.order'),
                            'order_extra_id', p_extra, 'deposit_return', 'true'))
$$;
create function pg_temp.prepare() returns jsonb language sql as $$
  select public.prepare_deposit_refund(current_setting('tests.extra')::uuid)
$$;
create function pg_temp.order_row() returns public.orders language sql security definer as $$
  select * from public.orders where id = current_setting('tests.order')::uuid
$$;

-- A stay paid online with a cooler deposit (EUR 20) on it.
select tests.authenticate_as('customer');
select set_config('tests.order', (select id::text from public.create_booking(tests.place_id('R1'), 'overnight', '2027-07-10',
  '{"name": "Retry", "length": 9, "width": 3}', '{"first_name": "Rolf", "last_name": "Retry", "locale": "de"}', '2027-07-11')), true);
select tests.authenticate_as('harbour');
select set_config('tests.extra', (select id::text from public.add_order_extra(current_setting('tests.order')::uuid, pg_temp.x('cooler_deposit'), 1)), true);
select tests.clear_authentication();
insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents, 'eur', 'stripe', 'pi_retry', private.now() from public.orders where id = current_setting('tests.order')::uuid;
select set_config('tests.price', (pg_temp.order_row()).price_cents::text, true);

-- ---------------------------------------------------------------- the first request
select tests.authenticate_as('harbour');
select results_eq($$ select (r ->> 'back_cents')::integer, r ->> 'payment_intent', (r ->> 'attempt')::integer, (r ->> 'retry')::boolean from pg_temp.prepare() r $$,
  $$ values (2000, 'pi_retry', 0, false) $$, 'the first request takes the deposit back and names the refund: attempt 0');
select is((select returned_method::text from public.order_extras where id = current_setting('tests.extra')::uuid), 'online',
  'the deposit is marked as going back online');
select is((pg_temp.order_row()).price_cents, current_setting('tests.price')::integer - 2000, 'the price no longer holds the deposit');
select results_eq($$ select order_extra_id, due_cents from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$,
  $$ values (current_setting('tests.extra')::uuid, 2000::bigint) $$, 'until Stripe confirms it, the refund is listed as due');

-- ---------------------------------------------------------------- Stripe could not be reached: staff try again
select set_config('tests.returned_at', (select returned_at::text from public.order_extras where id = current_setting('tests.extra')::uuid), true);
select results_eq($$ select (r ->> 'back_cents')::integer, r ->> 'payment_intent', (r ->> 'attempt')::integer, (r ->> 'retry')::boolean,
                            r ->> 'order_extra_id', r ->> 'order_id' from pg_temp.prepare() r $$,
  $$ values (2000, 'pi_retry', 0, true, current_setting('tests.extra'), current_setting('tests.order')) $$,
  'a retry answers the same refund with the same attempt (the same Idempotency-Key: Stripe answers with the refund it may have made)');
select is((pg_temp.order_row()).price_cents, current_setting('tests.price')::integer - 2000, 'the deposit is not taken off the price twice');
select is((select returned_at::text from public.order_extras where id = current_setting('tests.extra')::uuid), current_setting('tests.returned_at'),
  'nor returned again');
select is((select count(*)::integer from public.outbox where order_id = current_setting('tests.order')::uuid and kind = 'deposit_return'), 1,
  'the guest is mailed once');

-- ---------------------------------------------------------------- Stripe refused it: the next attempt asks anew
select throws_ok($$ select public.note_deposit_refund_refused(current_setting('tests.extra')::uuid, 'charge_disputed') $$,
  '42501', null, 'staff cannot note a refusal (only refund-payment, with the service role)');
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$, '42501', null,
  'a guest does not read what is due');
select throws_ok($$ select pg_temp.prepare() $$, '42501', null, 'nor retries a refund');
select tests.clear_authentication();
set local role service_role;
select lives_ok($$ select public.note_deposit_refund_refused(current_setting('tests.extra')::uuid, 'charge_disputed') $$,
  'refund-payment notes what Stripe refused');
select throws_ok($$ select public.note_deposit_refund_refused(gen_random_uuid(), 'x') $$, 'PT404', 'order_extra_not_found',
  'only for a deposit that exists');
reset role;
select tests.authenticate_as('harbour');
select is((pg_temp.prepare() ->> 'attempt')::integer, 1, 'after a refusal the next attempt has a new number (a new Idempotency-Key)');

-- ---------------------------------------------------------------- Stripe's refund succeeds
select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_retry_1', 'refund.created', pg_temp.refund('re_retry_1', current_setting('tests.extra'), 'succeeded'))) ->> 'outcome',
  'recorded', 'the refund lands in the ledger');
select results_eq($$ select kind, amount_cents, deposit_return, order_extra_id from public.payments where provider_refund_id = 're_retry_1' $$,
  $$ values ('refund', 2000, true, current_setting('tests.extra')::uuid) $$, 'as a deposit return naming its deposit');
select is((pg_temp.order_row()).payment_status::text, 'paid', 'the stay stays paid');
select tests.authenticate_as('harbour');
select is_empty($$ select * from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$, 'nothing is due any more');
select throws_ok($$ select pg_temp.prepare() $$, 'P0001', 'order_extra_closed', 'and a further retry is refused: it went back once');

-- ---------------------------------------------------------------- Stripe reports it failed later
select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_retry_1f', 'refund.updated', pg_temp.refund('re_retry_1', current_setting('tests.extra'), 'failed'))) ->> 'outcome',
  'recorded', 'a refund failed after it succeeded is reversed');
select is(private.order_deposit_returns(current_setting('tests.order')::uuid), 0::bigint,
  'the reversed deposit refund no longer counts as paid back');
select is((pg_temp.order_row()).payment_status::text, 'paid', 'the stay is still paid');
select tests.authenticate_as('harbour');
select results_eq($$ select order_extra_id, due_cents from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$,
  $$ values (current_setting('tests.extra')::uuid, 2000::bigint) $$, 'the deposit is due again');
select results_eq($$ select (r ->> 'back_cents')::integer, (r ->> 'attempt')::integer, (r ->> 'retry')::boolean from pg_temp.prepare() r $$,
  $$ values (2000, 2, true) $$, 'a retry asks with attempt 2 (one refusal, one failed refund)');

-- The second refund succeeds.
select tests.clear_authentication();
select tests.record_stripe_event(tests.stripe_event('evt_retry_2', 'refund.created', pg_temp.refund('re_retry_2', current_setting('tests.extra'), 'succeeded')));
select is(private.order_deposit_returns(current_setting('tests.order')::uuid), 2000::bigint, 'the second refund counts');
select tests.authenticate_as('harbour');
select is_empty($$ select * from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$, 'and nothing is due');
select is((public.order_balance(current_setting('tests.order')::uuid) ->> 'refundable_desk_cents')::integer, 0,
  'the desk has nothing to pay back: the retry paid what the failed refund owed');
select is_empty($$ select 1 from public.money_to_return() m where m.order_id = current_setting('tests.order')::uuid $$,
  'nor is the order listed as money to pay back');

select * from finish();
rollback;
