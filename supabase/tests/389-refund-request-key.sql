-- A refund of the stay is safe to retry (issue 39 item 3, ground rule 6; docs/adr/0003-refund-idempotency.md).
-- The caller keeps a request key for one confirmed refund and sends it with every retry;
-- prepare_online_refund records the request by that key, so a retry gets the same request back
-- (and refund-payment the same Stripe Idempotency-Key, or the refund once it is known) whatever
-- the ledger recorded in between, never a second refund. The key belongs to its order and amount.
begin;
select plan(22);
select private.freeze_clock('2027-09-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('K1', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
create function pg_temp.prepare(p_key uuid, p_amount integer default 1000, p_order uuid default current_setting('tests.order')::uuid) returns jsonb language sql as $$
  select public.prepare_online_refund(p_order, p_amount, p_key)
$$;
create function pg_temp.refunded(p_event text, p_refund text, p_amount integer) returns text language sql as $$
  select tests.record_stripe_event(tests.stripe_event(p_event, 'refund.created',
    jsonb_build_object('id', p_refund, 'object', 'refund', 'amount', p_amount, 'currency', 'eur', 'payment_intent', 'pi_key',
                       'status', 'succeeded', 'metadata', jsonb_build_object('order_id', current_setting('tests.order'))))) ->> 'outcome'
$$;
create function pg_temp.note(p_refund text, p_amount integer, p_key uuid) returns void language plpgsql as $$
begin
  set local role service_role;
  perform public.note_online_refund_requested('pi_key', p_refund, p_amount, p_key);
  reset role;
end
$$;

-- A stay paid online, and a second order of the same guest.
select tests.authenticate_as('customer');
select set_config('tests.order', (select id::text from public.create_booking(tests.place_id('K1'), 'overnight', '2027-09-10',
  '{"name": "Key", "length": 9, "width": 3}', '{"first_name": "Kai", "last_name": "Key", "locale": "de"}', '2027-09-12')), true);
select set_config('tests.other', (select id::text from public.create_booking(tests.place_id('K1'), 'overnight', '2027-09-20',
  '{"name": "Key", "length": 9, "width": 3}', '{"first_name": "Kai", "last_name": "Key", "locale": "de"}', '2027-09-21')), true);
select tests.clear_authentication();
insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents, 'eur', 'stripe', 'pi_key', private.now() from public.orders where id = current_setting('tests.order')::uuid;
select set_config('tests.price', (select price_cents::text from public.orders where id = current_setting('tests.order')::uuid), true);

-- ---------------------------------------------------------------- who and what
select tests.authenticate_as('customer');
select throws_ok($$ select pg_temp.prepare('00000000-0000-4000-8000-0000000003a1') $$, '42501', null, 'a guest cannot ask for a refund');
select tests.authenticate_as('harbour');
select throws_ok($$ select pg_temp.prepare(null) $$, '22023', 'invalid_request_key', 'a refund names its request key');
select tests.clear_authentication();
select is((select count(*)::int from private.refund_requests), 0, 'refused requests are not recorded');
select tests.authenticate_as('harbour');

-- ---------------------------------------------------------------- the first request, then its retries
select results_eq($$ select r ->> 'payment_intent', r ->> 'refund_id', (r ->> 'replay')::boolean, r ->> 'idempotency_key'
                     from pg_temp.prepare('00000000-0000-4000-8000-0000000003a1') r $$,
  $$ values ('pi_key', null::text, false, 'refund-00000000-0000-4000-8000-0000000003a1') $$,
  'the first request is recorded; its Stripe key is refund-<request key>');
select results_eq($$ select r ->> 'idempotency_key', (r ->> 'replay')::boolean from pg_temp.prepare('00000000-0000-4000-8000-0000000003a1') r $$,
  $$ values ('refund-00000000-0000-4000-8000-0000000003a1', true) $$, 'a double click gets the same request (the same Stripe key)');
select tests.clear_authentication();
select is(pg_temp.refunded('evt_k1', 're_k1', 1000), 'recorded', 'the refund is in the ledger');
select tests.authenticate_as('harbour');
select results_eq($$ select r ->> 'idempotency_key', (r ->> 'replay')::boolean from pg_temp.prepare('00000000-0000-4000-8000-0000000003a1') r $$,
  $$ values ('refund-00000000-0000-4000-8000-0000000003a1', true) $$,
  'a retry after the refund was recorded (less is left now) still gets the same request, not a new refund');
select tests.clear_authentication();
select pg_temp.note('re_k1', 1000, '00000000-0000-4000-8000-0000000003a1');
select pg_temp.note('re_k1', 1000, '00000000-0000-4000-8000-0000000003a1');
select is((select refund_id from private.refund_requests where request_key = '00000000-0000-4000-8000-0000000003a1'), 're_k1',
  'the note tells the request its refund');
select is((select count(*)::int from private.online_refund_requests where refund_id = 're_k1'), 1, 'noted once');
select tests.authenticate_as('harbour');
select is(pg_temp.prepare('00000000-0000-4000-8000-0000000003a1') ->> 'refund_id', 're_k1', 'a later retry gets that refund (refund-payment asks Stripe for no new one)');
select tests.clear_authentication();
select is((select count(*)::int from private.refund_requests), 1, 'one request, however often it was sent');
select tests.authenticate_as('harbour');

-- ---------------------------------------------------------------- a new refund is a new key
select is(pg_temp.prepare('00000000-0000-4000-8000-0000000003a2') ->> 'idempotency_key', 'refund-00000000-0000-4000-8000-0000000003a2',
  'a new refund of the same amount (a new key) is a new request');
select tests.clear_authentication();
select is((select count(*)::int from private.refund_requests where order_id = current_setting('tests.order')::uuid), 2, 'two requests');
select tests.authenticate_as('harbour');

-- ---------------------------------------------------------------- a key belongs to its refund
select throws_ok($$ select pg_temp.prepare('00000000-0000-4000-8000-0000000003a1', 999) $$, 'PT422', 'request_key_reused',
  'the same key with another amount is refused');
select throws_ok($$ select pg_temp.prepare('00000000-0000-4000-8000-0000000003a1', 1000, current_setting('tests.other')::uuid) $$, 'PT422', 'request_key_reused',
  'the same key for another order is refused');

-- The whole rest refunded, then its retry: answered, not refused as too much.
select set_config('tests.rest', (current_setting('tests.price')::integer - 2000)::text, true);
select is(pg_temp.prepare('00000000-0000-4000-8000-0000000003a3', current_setting('tests.rest')::integer) ->> 'replay', 'false', 'the rest is asked for');
select tests.clear_authentication();
select is(pg_temp.refunded('evt_k2', 're_k2', 1000), 'recorded', 'the second refund is recorded');
select is(pg_temp.refunded('evt_k3', 're_k3', current_setting('tests.rest')::integer), 'recorded', 'and the rest');
select tests.authenticate_as('harbour');
select throws_ok($$ select pg_temp.prepare(gen_random_uuid(), current_setting('tests.rest')::integer) $$, 'P0001', 'refund_exceeds_payment',
  'a new refund of it is too much now');
select is(pg_temp.prepare('00000000-0000-4000-8000-0000000003a3', current_setting('tests.rest')::integer) ->> 'replay', 'true',
  'its retry is answered with the same request');

-- ---------------------------------------------------------------- a day later
-- Stripe keeps a key for 24 hours: a request whose refund is still unknown is not sent again.
select tests.clear_authentication();
select private.freeze_clock('2027-09-02 10:00+02');
select tests.authenticate_as('harbour');
select throws_ok($$ select pg_temp.prepare('00000000-0000-4000-8000-0000000003a2') $$, 'PT409', 'request_key_expired',
  'a request whose refund is unknown after a day is not sent to Stripe again');
select is(pg_temp.prepare('00000000-0000-4000-8000-0000000003a1') ->> 'refund_id', 're_k1', 'one whose refund is known still answers it');

select * from finish();
rollback;
