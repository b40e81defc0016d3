-- Desk payments and refunds are safe to retry (ground rule 6; docs/adr/0030-payments-ledger.md):
-- the order desk keeps a request key for one confirmed payment or refund and sends it with every
-- retry (a second click, a retry after a timeout); the first call records the key with its ledger
-- row, a retry gets that row back and records nothing. A key names one action: another order,
-- kind, method or amount under the same key is refused.
begin;
select plan(17);
select private.freeze_clock('2027-09-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('D1', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('customer');
select set_config('tests.order', (select id::text from public.create_booking(tests.place_id('D1'), 'overnight', '2027-09-10',
  '{"name": "Desk", "length": 9, "width": 3}', '{"first_name": "Dana", "last_name": "Desk", "locale": "de"}', '2027-09-12')), true);
select set_config('tests.other', (select id::text from public.create_booking(tests.place_id('D1'), 'overnight', '2027-09-20',
  '{"name": "Desk", "length": 9, "width": 3}', '{"first_name": "Dana", "last_name": "Desk", "locale": "de"}', '2027-09-21')), true);
select tests.clear_authentication();
select set_config('tests.price', (select price_cents::text from public.orders where id = current_setting('tests.order')::uuid), true);

create function pg_temp.ledger(p_kind text) returns integer language sql as $$
  select count(*)::integer from public.payments where order_id = current_setting('tests.order')::uuid and kind = p_kind
$$;

-- ---------------------------------------------------------------- a part payment, clicked twice
select tests.authenticate_as('harbour');
select set_config('tests.first', (select id::text from public.record_desk_payment(current_setting('tests.order')::uuid, 'cash', 1000, 'bar',
  '00000000-0000-4000-8000-00000000d001')), true);
select is((select id::text from public.record_desk_payment(current_setting('tests.order')::uuid, 'cash', 1000, 'bar',
  '00000000-0000-4000-8000-00000000d001')), current_setting('tests.first'), 'a retry of the part payment gets the same ledger row back');
select is(pg_temp.ledger('payment'), 1, 'and records no second payment');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.order')::uuid, 'cash', 2000, null, '00000000-0000-4000-8000-00000000d001') $$,
  'PT422', 'request_key_reused', 'the key with another amount is refused');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.order')::uuid, 'card_terminal', 1000, null, '00000000-0000-4000-8000-00000000d001') $$,
  'PT422', 'request_key_reused', 'the key with another method is refused');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.other')::uuid, 'cash', 1000, null, '00000000-0000-4000-8000-00000000d001') $$,
  'PT422', 'request_key_reused', 'the key on another order is refused');
select throws_ok($$ select public.record_desk_refund(current_setting('tests.order')::uuid, 'cash', 1000, null, true, '00000000-0000-4000-8000-00000000d001') $$,
  'PT422', 'request_key_reused', 'a payment''s key is not a refund''s');
select is(pg_temp.ledger('payment'), 1, 'refused reuses record nothing');

-- ---------------------------------------------------------------- the rest (the default amount), then its retry after the order is paid
select set_config('tests.rest', (select id::text from public.record_desk_payment(current_setting('tests.order')::uuid, 'card_terminal', null, null,
  '00000000-0000-4000-8000-00000000d002')), true);
select is((select payment_status::text from public.orders where id = current_setting('tests.order')::uuid), 'paid', 'the rest pays the order');
select is((select id::text from public.record_desk_payment(current_setting('tests.order')::uuid, 'card_terminal', null, null,
  '00000000-0000-4000-8000-00000000d002')), current_setting('tests.rest'),
  'a retry after the order is paid gets its row back, no "already paid" error');
select is((select count(*)::integer from public.invoices where order_id = current_setting('tests.order')::uuid), 1, 'one invoice');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.order')::uuid, 'cash', null, null, '00000000-0000-4000-8000-00000000d003') $$,
  'P0001', 'order_already_paid', 'a new key is a new payment: refused on a paid order');

-- ---------------------------------------------------------------- a refund, retried
select set_config('tests.refund', (select id::text from public.record_desk_refund(current_setting('tests.order')::uuid, 'cash', 500, 'zurück', true,
  '00000000-0000-4000-8000-00000000d004')), true);
select is((select id::text from public.record_desk_refund(current_setting('tests.order')::uuid, 'cash', 500, 'zurück', true,
  '00000000-0000-4000-8000-00000000d004')), current_setting('tests.refund'), 'a retried refund gets the same row back');
select is(pg_temp.ledger('refund'), 1, 'and pays nothing back twice');
select is((select coalesce(sum(amount_cents), 0)::integer from public.payments where order_id = current_setting('tests.order')::uuid and kind = 'refund'),
  500, 'refunded once');

-- ---------------------------------------------------------------- without a key: each call is its own action (as before)
select lives_ok($$ select public.record_desk_refund(current_setting('tests.order')::uuid, 'cash', 100) $$, 'a call without a key still works');
select is(pg_temp.ledger('refund'), 2, 'and records its own row');

-- ---------------------------------------------------------------- nobody reads the keys
select tests.authenticate_as('harbour');
select throws_ok($$ select count(*) from private.desk_requests $$, '42501', null, 'staff do not read the request keys through the API');

select * from finish();
rollback;
