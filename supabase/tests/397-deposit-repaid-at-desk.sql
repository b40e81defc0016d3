-- A deposit paid online whose refund the guest's bank did not take (session 17;
-- supabase/schemas/56_deposits.sql, private.repay_deposit_at_desk): Stripe made the refund, then
-- reported it failed, and the ledger booked it back. Staff pay the deposit back in cash or by
-- transfer through return_deposit: a deposit return naming the deposit and referring to the
-- online payment whose refund failed, so the stay stays paid, no credit note follows, the
-- overview's money to pay back clears and the guest is told how the deposit comes back. While
-- the card refund is pending nothing failed, and the desk cannot pay it a second time.
-- Also: a desk refund pays back what a failed refund returned before desk payments.
begin;
select plan(34);
select private.freeze_clock('2027-07-02 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('D1', 4, 13, false, false), ('D2', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
create function pg_temp.x(p_code text) returns uuid language sql security definer as $$ select id from public.extras where code = p_code $$;
create function pg_temp.refund(p_id text, p_status text) returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'refund', 'amount', 2000, 'currency', 'eur', 'payment_intent', 'pi_repay',
                            'status', p_status, 'metadata', jsonb_build_object('order_id', current_setting('tests.order'),
                            'order_extra_id', current_setting('tests.extra'), 'deposit_return', 'true'))
$$;
create function pg_temp.order_row(p_id text) returns public.orders language sql security definer as $$
  select * from public.orders where id = p_id::uuid
$$;
create function pg_temp.online_payment(p_pi text) returns uuid language sql security definer as $$
  select id from public.payments where provider_payment_id = p_pi and kind = 'payment' and refund_of is null
$$;
create function pg_temp.count_docs(p_kind text) returns integer language sql security definer as $$
  select count(*)::integer from public.invoices where order_id = current_setting('tests.order')::uuid and kind = p_kind
$$;
create function pg_temp.mails(p_kind text) returns integer language sql security definer as $$
  select count(*)::integer from public.outbox where order_id = current_setting('tests.order')::uuid and kind = p_kind
$$;

-- A stay paid online with a cooler deposit (EUR 20) on it.
select tests.authenticate_as('customer');
select set_config('tests.order', (select id::text from public.create_booking(tests.place_id('D1'), 'overnight', '2027-07-10',
  '{"name": "Repay", "length": 9, "width": 3}', '{"first_name": "Rita", "last_name": "Repay", "locale": "de"}', '2027-07-11')), true);
select tests.authenticate_as('harbour');
select set_config('tests.extra', (select id::text from public.add_order_extra(current_setting('tests.order')::uuid, pg_temp.x('cooler_deposit'), 1)), true);
select tests.clear_authentication();
insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents, 'eur', 'stripe', 'pi_repay', private.now() from public.orders where id = current_setting('tests.order')::uuid;

-- ---------------------------------------------------------------- the deposit goes back to the card
select tests.authenticate_as('harbour');
select is((public.prepare_deposit_refund(current_setting('tests.extra')::uuid) ->> 'back_cents')::integer, 2000,
  'the deposit is taken back, to be refunded to the card');
select throws_ok($$ select public.return_deposit(current_setting('tests.extra')::uuid, 'bank_transfer') $$,
  'P0001', 'deposit_refund_not_failed', 'while Stripe''s refund is pending the desk does not pay it (it would go back twice)');
select results_eq($$ select order_extra_id, due_cents, failed from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$,
  $$ values (current_setting('tests.extra')::uuid, 2000::bigint, false) $$, 'it is due, not failed');

select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_repay_1', 'refund.created', pg_temp.refund('re_repay_1', 'succeeded'))) ->> 'outcome',
  'recorded', 'Stripe''s refund lands in the ledger');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.return_deposit(current_setting('tests.extra')::uuid, 'cash') $$,
  'P0001', 'order_extra_closed', 'a deposit refunded to the card is not paid at the desk too');

-- ---------------------------------------------------------------- the guest's bank does not take it
select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_repay_1f', 'refund.failed', pg_temp.refund('re_repay_1', 'failed'))) ->> 'outcome',
  'recorded', 'Stripe reports the refund failed: it is booked back');
select tests.authenticate_as('harbour');
select results_eq($$ select order_extra_id, due_cents, failed from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$,
  $$ values (current_setting('tests.extra')::uuid, 2000::bigint, true) $$, 'the deposit is due again, and its refund failed');
select results_eq($$ select m.to_refund_cents, m.failed_refund_cents from public.money_to_return() m where m.order_id = current_setting('tests.order')::uuid $$,
  $$ values (0::bigint, 2000::bigint) $$, 'the overview lists the money to pay back');
-- A retry to the card is asked for (refund-payment notes the refund Stripe made): while the
-- webhook has not told how it ends, the desk does not pay the deposit back as well.
select throws_ok($$ select public.note_deposit_refund_requested(current_setting('tests.extra')::uuid, 're_repay_2') $$,
  '42501', null, 'staff cannot note a refund request (only refund-payment, with the service role)');
select tests.clear_authentication();
set local role service_role;
select lives_ok($$ select public.note_deposit_refund_requested(current_setting('tests.extra')::uuid, 're_repay_2') $$,
  'refund-payment notes the retry''s refund');
select lives_ok($$ select public.note_deposit_refund_requested(current_setting('tests.extra')::uuid, 're_repay_2') $$,
  'a repeated request (Stripe answers the same refund) is noted once');
select throws_ok($$ select public.note_deposit_refund_requested(current_setting('tests.extra')::uuid, 'x; drop') $$,
  '22023', 'invalid_refund_id', 'only a refund id');
reset role;
select tests.authenticate_as('harbour');
select results_eq($$ select due_cents, failed from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$,
  $$ values (2000::bigint, false) $$, 'with the retry in flight the deposit is due, not failed');
select throws_ok($$ select public.return_deposit(current_setting('tests.extra')::uuid, 'bank_transfer') $$,
  'P0001', 'deposit_refund_not_failed', 'and the desk does not pay it back while the retry may still succeed');
select tests.clear_authentication();
select is(tests.record_stripe_event(tests.stripe_event('evt_repay_2f', 'refund.failed', pg_temp.refund('re_repay_2', 'failed'))) ->> 'outcome',
  'ignored', 'the retry failed too (Stripe reports it; never in the ledger)');
select tests.authenticate_as('harbour');
select results_eq($$ select due_cents, failed from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$,
  $$ values (2000::bigint, true) $$, 'then it is failed again');

select set_config('tests.invoices', pg_temp.count_docs('invoice')::text, true);
select set_config('tests.refund_mails', pg_temp.mails('refund_notice')::text, true);

select tests.authenticate_as('customer');
select throws_ok($$ select public.return_deposit(current_setting('tests.extra')::uuid, 'bank_transfer') $$,
  '42501', null, 'a guest does not pay their own deposit back');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.return_deposit(current_setting('tests.extra')::uuid, 'online') $$,
  '22023', 'deposit_refund_online', 'the card again goes through refund-payment, not here');

-- ---------------------------------------------------------------- staff pay it back by transfer
select results_eq($$ select r.returned_method::text, r.returned_at is not null from public.return_deposit(current_setting('tests.extra')::uuid, 'bank_transfer') r $$,
  $$ values ('bank_transfer', true) $$, 'staff pay the deposit back by transfer: the deposit says so');
select results_eq($$ select p.kind, p.method::text, p.amount_cents, p.deposit_return, p.order_extra_id, p.refund_of = pg_temp.online_payment('pi_repay')
                     from public.payments p where p.order_id = current_setting('tests.order')::uuid and p.method = 'bank_transfer' $$,
  $$ values ('refund', 'bank_transfer', 2000, true, current_setting('tests.extra')::uuid, true) $$,
  'the ledger: a deposit return naming the deposit, refunding the online payment whose refund failed');
select tests.clear_authentication();
select is(private.order_deposit_returns(current_setting('tests.order')::uuid), 2000::bigint, 'the deposit counts as paid back');
select tests.authenticate_as('harbour');
select is((pg_temp.order_row(current_setting('tests.order'))).payment_status::text, 'paid', 'the stay stays paid (not partly refunded)');
select is(pg_temp.count_docs('credit_note'), 0, 'no credit note: the deposit left the invoice when it was returned');
select is(pg_temp.count_docs('invoice'), current_setting('tests.invoices')::integer, 'and no new invoice');
select is_empty($$ select * from public.deposit_refunds_due(current_setting('tests.order')::uuid) $$, 'nothing is due any more');
select is_empty($$ select 1 from public.money_to_return() m where m.order_id = current_setting('tests.order')::uuid $$,
  'and the overview''s money to pay back is clear');
select is(pg_temp.mails('deposit_return'), 2, 'the guest gets a second deposit e-mail');
select ok((select body_text like '%Ihr Pfand von 20,00 € geht an Sie zurück%' and body_text like '%Wir überweisen es Ihnen.%'
             from public.outbox where order_id = current_setting('tests.order')::uuid and kind = 'deposit_return' order by created_at desc, id desc limit 1),
  'saying the deposit comes by transfer');
select is(pg_temp.mails('refund_notice'), current_setting('tests.refund_mails')::integer, 'and no generic refund e-mail beside it');
select throws_ok($$ select public.return_deposit(current_setting('tests.extra')::uuid, 'cash') $$,
  'P0001', 'order_extra_closed', 'paid back once: not again in cash');
select throws_ok($$ select public.prepare_deposit_refund(current_setting('tests.extra')::uuid) $$,
  'P0001', 'order_extra_closed', 'nor to the card');
select throws_ok($$ select private.record_desk_refund(current_setting('tests.order')::uuid, 'cash', 1, null, gen_random_uuid()) $$,
  'PT404', 'order_extra_not_found', 'a desk deposit return names a returned deposit of the order');

-- ---------------------------------------------------------------- a desk refund pays back a failed refund first
-- Paid EUR 10 in cash and the rest online; a refund of EUR 20 to the card fails; a desk refund
-- of EUR 20 by transfer refers to the online payment, not to the cash payment.
select tests.authenticate_as('customer');
select set_config('tests.order', (select id::text from public.create_booking(tests.place_id('D2'), 'overnight', '2027-07-12',
  '{"name": "Mixed", "length": 9, "width": 3}', '{"first_name": "Max", "last_name": "Mixed", "locale": "de"}', '2027-07-13')), true);
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.order')::uuid, 'cash', 1000);
select tests.clear_authentication();
insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents - 1000, 'eur', 'stripe', 'pi_mixed', private.now() from public.orders where id = current_setting('tests.order')::uuid;
select tests.record_stripe_event(tests.stripe_event('evt_mixed_1', 'refund.created',
  jsonb_build_object('id', 're_mixed', 'object', 'refund', 'amount', 2000, 'currency', 'eur', 'payment_intent', 'pi_mixed', 'status', 'succeeded',
                     'metadata', jsonb_build_object('order_id', current_setting('tests.order')))));
select tests.record_stripe_event(tests.stripe_event('evt_mixed_1f', 'refund.updated',
  jsonb_build_object('id', 're_mixed', 'object', 'refund', 'amount', 2000, 'currency', 'eur', 'payment_intent', 'pi_mixed', 'status', 'failed',
                     'metadata', jsonb_build_object('order_id', current_setting('tests.order')))));
select tests.authenticate_as('harbour');
select is((select r.refund_of = pg_temp.online_payment('pi_mixed') from public.record_desk_refund(current_setting('tests.order')::uuid, 'bank_transfer', 2000) r),
  true, 'the transfer refunds the online payment whose refund failed');
select is_empty($$ select 1 from public.money_to_return() m where m.order_id = current_setting('tests.order')::uuid $$,
  'so the failed refund is off the overview');

select * from finish();
rollback;
