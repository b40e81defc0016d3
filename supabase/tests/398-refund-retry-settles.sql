-- A refund of the stay the guest's bank did not take, tried again (session 18;
-- supabase/schemas/35c_online_refunds.sql). After Stripe reports a refund failed, the ledger
-- books it back and the guest is owed that money: the desk may pay it in cash or by transfer
-- (private.payment_desk_refundable), and the overview lists it (money_to_return). When staff
-- try the card again instead, that is a new refund with a new request key, so refund-payment
-- asks Stripe with a new Idempotency-Key (refund-<request key>) and notes the refund Stripe made
-- (note_online_refund_requested) with what of it pays the failed refund back. From that moment
-- the desk cannot pay the same money too: not while the webhook has not told yet, not after the
-- retry went through. Only when the retry fails as well is the money owed again.
begin;
select plan(28);
select private.freeze_clock('2027-08-02 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('S1', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
create function pg_temp.refund(p_id text, p_status text, p_amount integer default 1000) returns jsonb language sql as $$
  select jsonb_build_object('id', p_id, 'object', 'refund', 'amount', p_amount, 'currency', 'eur', 'payment_intent', 'pi_settle',
                            'status', p_status, 'metadata', jsonb_build_object('order_id', current_setting('tests.order')))
$$;
create function pg_temp.stripe(p_event text, p_type text, p_refund text, p_status text, p_amount integer default 1000) returns text language sql as $$
  select tests.record_stripe_event(tests.stripe_event(p_event, p_type, pg_temp.refund(p_refund, p_status, p_amount))) ->> 'outcome'
$$;
create function pg_temp.note(p_refund text, p_amount integer default 1000) returns void language plpgsql as $$
begin
  set local role service_role;
  perform public.note_online_refund_requested('pi_settle', p_refund, p_amount);
  reset role;
end
$$;
create function pg_temp.desk() returns integer language sql as $$
  select (public.order_balance(current_setting('tests.order')::uuid) ->> 'refundable_desk_cents')::integer
$$;
create function pg_temp.listed() returns bigint language sql as $$
  select coalesce((select m.failed_refund_cents from public.money_to_return() m where m.order_id = current_setting('tests.order')::uuid), 0)
$$;
-- The Stripe key of a refund staff confirm (a new request key each time).
create function pg_temp.stripe_key(p_key uuid default gen_random_uuid()) returns text language sql as $$
  select public.prepare_online_refund(current_setting('tests.order')::uuid, 1000, p_key) ->> 'idempotency_key'
$$;

-- A stay paid online.
select tests.authenticate_as('customer');
select set_config('tests.order', (select id::text from public.create_booking(tests.place_id('S1'), 'overnight', '2027-08-10',
  '{"name": "Settle", "length": 9, "width": 3}', '{"first_name": "Sina", "last_name": "Settle", "locale": "de"}', '2027-08-12')), true);
select tests.clear_authentication();
insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents, 'eur', 'stripe', 'pi_settle', private.now() from public.orders where id = current_setting('tests.order')::uuid;

-- ---------------------------------------------------------------- the note is refund-payment's
select tests.authenticate_as('harbour');
select throws_ok($$ select public.note_online_refund_requested('pi_settle', 're_x', 1000) $$, '42501', null,
  'staff cannot note a refund (only refund-payment, with the service role)');
select tests.clear_authentication();
set local role service_role;
select throws_ok($$ select public.note_online_refund_requested('pi_none', 're_x', 1000) $$, 'PT404', 'payment_not_found', 'only for a payment in the ledger');
select throws_ok($$ select public.note_online_refund_requested('pi_settle', 'x; drop', 1000) $$, '22023', 'invalid_refund_id', 'a refund id is Stripe''s');
select throws_ok($$ select public.note_online_refund_requested('pi_settle', 're_x', 0) $$, '22023', 'invalid_amount', 'of a positive amount');
reset role;

-- ---------------------------------------------------------------- a refund, then Stripe reports it failed
select tests.authenticate_as('harbour');
select is(pg_temp.stripe_key('00000000-0000-4000-8000-000000000398'), 'refund-00000000-0000-4000-8000-000000000398', 'the first refund''s Stripe key is its request''s');
select tests.clear_authentication();
select pg_temp.note('re_s1');
select is((select settles_cents from private.online_refund_requests where refund_id = 're_s1'), 0, 'it pays back no failed refund: nothing failed');
select is(pg_temp.stripe('evt_s1', 'refund.created', 're_s1', 'succeeded'), 'recorded', 'the refund lands in the ledger');
select is(pg_temp.stripe('evt_s1f', 'refund.updated', 're_s1', 'failed'), 'recorded', 'Stripe reports it failed: booked back');
select tests.authenticate_as('harbour');
select is(pg_temp.desk(), 1000, 'the desk may pay the 10 € back');
select is(pg_temp.listed(), 1000::bigint, 'the overview lists them');
select isnt(pg_temp.stripe_key(), 'refund-00000000-0000-4000-8000-000000000398', 'a retry to the card is a new refund with a new Idempotency-Key (the payment has as much left as before, yet it is not the failed one replayed)');

-- ---------------------------------------------------------------- staff try the card again
select tests.clear_authentication();
select pg_temp.note('re_s2');
select pg_temp.note('re_s2');
select results_eq($$ select amount_cents, settles_cents from private.online_refund_requests where refund_id = 're_s2' $$,
  $$ values (1000, 1000) $$, 'the retry is noted once (a double click gets the same refund) and pays the failed 10 € back');
select tests.authenticate_as('harbour');
select is(pg_temp.desk(), 0, 'while the webhook has not told, the desk cannot pay them too');
select is(pg_temp.listed(), 0::bigint, 'nor are they listed as owed');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.order')::uuid, 'bank_transfer', 1000) $$,
  'P0001', 'refund_online_payment', 'a transfer of them is refused (what is left of the payment goes back through Stripe)');
select tests.clear_authentication();
select is(pg_temp.stripe('evt_s2', 'refund.created', 're_s2', 'succeeded'), 'recorded', 'the retry lands in the ledger');
select tests.authenticate_as('harbour');
select is(pg_temp.desk(), 0, 'it went through: nothing is owed at the desk');
select is(pg_temp.listed(), 0::bigint, 'nor listed');

-- ---------------------------------------------------------------- the retry fails too
select tests.clear_authentication();
select is(pg_temp.stripe('evt_s2f', 'refund.updated', 're_s2', 'failed'), 'recorded', 'the retry is booked back as well');
select tests.authenticate_as('harbour');
select is(pg_temp.desk(), 1000, 'the 10 € are owed again, once (not twice: the retry was the same money)');
select is(pg_temp.listed(), 1000::bigint, 'and listed once');

-- A retry Stripe reports failed before the ledger ever recorded it gave nothing.
select tests.clear_authentication();
select pg_temp.note('re_s3');
select is(pg_temp.stripe('evt_s3f', 'refund.failed', 're_s3', 'failed'), 'ignored', 'a refund that failed at once is never in the ledger');
select tests.authenticate_as('harbour');
select is(pg_temp.desk(), 1000, 'so the 10 € are still owed');

-- The webhook is faster than the note: the retry is recorded and reversed before refund-payment
-- notes it. It still pays back the earlier failure (its own reversal is not counted as owed).
select tests.clear_authentication();
select pg_temp.stripe('evt_s4', 'refund.created', 're_s4', 'succeeded');
select pg_temp.stripe('evt_s4f', 'refund.updated', 're_s4', 'failed');
select pg_temp.note('re_s4');
select is((select settles_cents from private.online_refund_requests where refund_id = 're_s4'), 1000, 'noted late, the retry still pays the earlier failure back');
select tests.authenticate_as('harbour');
select is(pg_temp.desk(), 1000, 'and failed itself: 10 € owed, once');

-- ---------------------------------------------------------------- the desk pays; a later refund is new money
select lives_ok($$ select public.record_desk_refund(current_setting('tests.order')::uuid, 'bank_transfer', 1000) $$, 'the desk pays them by transfer');
select is(pg_temp.desk(), 0, 'nothing owed any more');
select tests.clear_authentication();
select pg_temp.note('re_s5', 500);
select is((select settles_cents from private.online_refund_requests where refund_id = 're_s5'), 0, 'a goodwill refund afterwards pays back no failure');

select * from finish();
rollback;
