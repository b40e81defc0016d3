-- The cancellation policy and the money a cancellation owes (issue 40 item 1,
-- supabase/schemas/47_cancellation_policy.sql, docs/adr/0010-cancellation-policy-and-money-owed.md):
-- one function computes what is kept and what comes back (the dialog's preview and cancel_booking
-- agree); the card part is one refund request under a key derived from the order (a retried
-- cancellation refunds once); the rest, and a card refund not made, is owed on the staff overview
-- until the desk pays it back; the kept share is billed by a new invoice, the stay's is cancelled.
begin;
select plan(35);
select private.freeze_clock('2027-06-01 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('P1', 4, 13, false, false), ('P2', 4, 13, false, false), ('P3', 4, 13, false, false), ('T1', 4, 13, true, false);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('customer');
select set_config('tests.early', (select id::text from public.create_booking(tests.place_id('P1'), 'overnight', '2027-06-10',
  '{"name": "Frueh", "length": 10, "width": 3}', '{"first_name": "Frida", "last_name": "Frueh", "locale": "de"}', '2027-06-12')), true);
select set_config('tests.late', (select id::text from public.create_booking(tests.place_id('P2'), 'overnight', '2027-06-02',
  '{"name": "Spaet", "length": 10, "width": 3}', '{"first_name": "Sven", "last_name": "Spaet", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf", "locale": "de"}', '2027-06-04')), true);
select set_config('tests.day', (select id::text from public.create_booking(tests.place_id('T1'), 'day', '2027-06-02',
  '{"name": "Tag", "length": 10, "width": 3}', '{"first_name": "Tina", "last_name": "Tag", "locale": "de"}', null, '10:00', '14:00')), true);
select set_config('tests.dayfree', (select id::text from public.create_booking(tests.place_id('T1'), 'day', '2027-06-20',
  '{"name": "Tagfrei", "length": 10, "width": 3}', '{"first_name": "Tina", "last_name": "Tag", "locale": "de"}', null, '10:00', '14:00')), true);
select set_config('tests.harbour', (select id::text from public.create_booking(tests.place_id('P3'), 'overnight', '2027-06-02',
  '{"name": "Hafen", "length": 10, "width": 3}', '{"first_name": "Hanna", "last_name": "Hafen", "locale": "de"}', '2027-06-03')), true);
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name') || '_price', price_cents::text, true) from public.orders;

-- Paid online (as the webhook records it) or at the desk.
insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents, 'eur', 'stripe', 'pi_' || lower(boat ->> 'name'), private.now()
  from public.orders where id in (current_setting('tests.early')::uuid, current_setting('tests.late')::uuid, current_setting('tests.harbour')::uuid);
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.day')::uuid, 'cash');
select public.record_desk_payment(current_setting('tests.dayfree')::uuid, 'card_terminal');
select tests.clear_authentication();

create function pg_temp.quote(p_order text) returns jsonb language sql as $$ select public.cancellation_quote(p_order::uuid) $$;
create function pg_temp.owed(p_order text) returns bigint language sql as $$
  select m.to_refund_cents + m.failed_refund_cents from public.money_to_return(100) m where m.order_id = p_order::uuid
$$;
create function pg_temp.key(p_order text) returns uuid language sql as $$ select md5('cancellation:' || p_order)::uuid $$;

-- ---------------------------------------------------------------- the policy
select tests.authenticate_as_anon();
select is(public.cancellation_policy(), '{"free_hours": 48, "fee_percent": 50}'::jsonb, 'everyone reads the policy: free until 48 h before arrival, then 50 % kept');
select tests.clear_authentication();
select throws_ok($$ update public.harbour_settings set cancel_fee_percent = 101 $$, '23514', null, 'a share above 100 % is refused by the database');
select throws_ok($$ update public.harbour_settings set cancel_free_hours = -1 $$, '23514', null, 'a negative free window too');

-- ---------------------------------------------------------------- the preview
select tests.authenticate_as('other');
select throws_ok($$ select pg_temp.quote(current_setting('tests.early')) $$, 'PT404', 'order_not_found', 'another customer gets no preview of the order');
select tests.authenticate_as('customer');
select results_eq($$ select (q ->> 'free')::boolean, (q ->> 'kept_cents')::int, (q ->> 'back_card_cents')::int, (q ->> 'back_desk_cents')::int, q ->> 'free_until'
                     from pg_temp.quote(current_setting('tests.early')) q $$,
  $$ select true, 0, current_setting('tests.frueh_price')::int, 0, to_jsonb(starts_at - interval '48 hours') #>> '{}' from public.orders where id = current_setting('tests.early')::uuid $$,
  'before the free window ends: nothing kept, everything back to the card');
select results_eq($$ select (q ->> 'free')::boolean, (q ->> 'fee_cents')::int, (q ->> 'kept_cents')::int, (q ->> 'back_card_cents')::int, (q ->> 'back_desk_cents')::int
                     from pg_temp.quote(current_setting('tests.late')) q $$,
  $$ values (false, round(current_setting('tests.spaet_price')::int / 2.0)::int, round(current_setting('tests.spaet_price')::int / 2.0)::int,
             current_setting('tests.spaet_price')::int - round(current_setting('tests.spaet_price')::int / 2.0)::int, 0) $$,
  'after it: half the price kept, the other half back to the card');
select results_eq($$ select (q ->> 'free')::boolean, (q ->> 'kept_cents')::int, (q ->> 'back_card_cents')::int, (q ->> 'back_desk_cents')::int
                     from pg_temp.quote(current_setting('tests.day')) q $$,
  $$ values (false, round(current_setting('tests.tag_price')::int / 2.0)::int, 0, current_setting('tests.tag_price')::int - round(current_setting('tests.tag_price')::int / 2.0)::int) $$,
  'a day berth tomorrow paid in cash: half kept, the other half back at the harbour office');
select results_eq($$ select (q ->> 'free')::boolean, (q ->> 'kept_cents')::int, (q ->> 'back_card_cents')::int, (q ->> 'back_desk_cents')::int
                     from pg_temp.quote(current_setting('tests.dayfree')) q $$,
  $$ values (true, 0, 0, current_setting('tests.tagfrei_price')::int) $$,
  'a day berth in three weeks paid by card terminal: free, everything back at the office');
select tests.authenticate_as('harbour');
select is((pg_temp.quote(current_setting('tests.harbour')) ->> 'kept_cents')::int, 0, 'the harbour cancelling keeps nothing');

-- ---------------------------------------------------------------- a free cancellation paid online, retried
select tests.authenticate_as('customer');
select public.cancel_booking(current_setting('tests.early')::uuid);
select throws_ok($$ select public.cancel_booking(current_setting('tests.early')::uuid) $$, 'P0001', 'order_not_cancellable', 'a retried cancellation is refused');
select tests.clear_authentication();
select results_eq($$ select request_key, amount_cents, payment_intent from private.refund_requests where order_id = current_setting('tests.early')::uuid $$,
  $$ values (pg_temp.key(current_setting('tests.early')), current_setting('tests.frueh_price')::int, 'pi_frueh') $$,
  'one card refund of the whole price is recorded, under the key derived from the order');
select is((select cancellation_kept_cents from public.orders where id = current_setting('tests.early')::uuid), 0, 'the order records that nothing is kept');
select tests.authenticate_as('customer');
select results_eq($$ select r ->> 'idempotency_key', (r ->> 'amount_cents')::int from public.prepare_cancellation_refund(current_setting('tests.early')::uuid) r $$,
  $$ values ('refund-' || pg_temp.key(current_setting('tests.early'))::text, current_setting('tests.frueh_price')::int) $$,
  'the guest''s page sends it: Stripe''s key refund-<the order''s key>');
select is(public.prepare_cancellation_refund(current_setting('tests.early')::uuid) ->> 'idempotency_key',
  'refund-' || pg_temp.key(current_setting('tests.early'))::text, 'sent again, it is the same request (one refund at Stripe)');
select is((public.order_balance(current_setting('tests.early')::uuid) ->> 'to_refund_cents')::int, 0, 'while the card refund is on its way nothing is owed at the desk');
select tests.authenticate_as('harbour');
select is(pg_temp.owed(current_setting('tests.early')), null, 'nor listed on the overview');
select tests.clear_authentication();
set local role service_role;
select public.note_online_refund_requested('pi_frueh', 're_frueh', current_setting('tests.frueh_price')::int, pg_temp.key(current_setting('tests.early')));
reset role;
select is(tests.record_stripe_event(tests.stripe_event('evt_frueh', 'refund.created',
    jsonb_build_object('id', 're_frueh', 'object', 'refund', 'amount', current_setting('tests.frueh_price')::int, 'currency', 'eur', 'payment_intent', 'pi_frueh',
                       'status', 'succeeded', 'metadata', jsonb_build_object('order_id', current_setting('tests.early'))))) ->> 'outcome',
  'recorded', 'Stripe''s refund is in the ledger');
select is((select count(*)::int from public.payments where order_id = current_setting('tests.early')::uuid and kind = 'refund'), 1, 'one refund');
select is((select payment_status::text from public.orders where id = current_setting('tests.early')::uuid), 'refunded', 'the order is refunded');
select tests.authenticate_as('customer');
select is(public.prepare_cancellation_refund(current_setting('tests.early')::uuid) ->> 'refund_id', 're_frueh',
  'a retry afterwards reads the known refund and asks Stripe for none');
select tests.clear_authentication();

-- ---------------------------------------------------------------- a late cancellation paid online: the kept share billed
select tests.authenticate_as('customer');
select public.cancel_booking(current_setting('tests.late')::uuid);
select tests.clear_authentication();
select is((select cancellation_kept_cents from public.orders where id = current_setting('tests.late')::uuid),
  round(current_setting('tests.spaet_price')::int / 2.0)::int, 'cancel_booking keeps the share the preview showed');
select is((select amount_cents from private.refund_requests where request_key = pg_temp.key(current_setting('tests.late'))),
  current_setting('tests.spaet_price')::int - round(current_setting('tests.spaet_price')::int / 2.0)::int, 'and asks the card refund of the rest');
select results_eq($$ select kind, reason, gross_cents, lines -> 0 ->> 'code' from public.invoices where order_id = current_setting('tests.late')::uuid order by number $$,
  $$ values ('invoice', 'payment', current_setting('tests.spaet_price')::int, 'berth_fee'),
            ('cancellation', 'cancelled', -current_setting('tests.spaet_price')::int, 'berth_fee'),
            ('invoice', 'correction', round(current_setting('tests.spaet_price')::int / 2.0)::int, 'cancellation_fee') $$,
  'the stay''s invoice is cancelled and the kept share gets an invoice of its own');
select is((select (vat_breakdown -> 0 ->> 'vat_cents')::int from public.invoices where order_id = current_setting('tests.late')::uuid and lines -> 0 ->> 'code' = 'cancellation_fee'),
  round(round(current_setting('tests.spaet_price')::int / 2.0) * 19 / 119.0)::int, 'the share bears the stay''s VAT, taken out of the gross');
-- The guest never came back for the card refund: after 15 minutes it is owed at the office.
select tests.clear_authentication();
select private.freeze_clock('2027-06-01 12:20+02');
select tests.authenticate_as('customer');
select throws_ok($$ select public.prepare_cancellation_refund(current_setting('tests.late')::uuid) $$, 'PT409', 'request_key_expired',
  'a card refund not sent within 15 minutes is not sent any more');
select tests.authenticate_as('harbour');
select is(pg_temp.owed(current_setting('tests.late')), (current_setting('tests.spaet_price')::int - round(current_setting('tests.spaet_price')::int / 2.0))::bigint,
  'the overview lists what is owed');
select tests.clear_authentication();
select private.freeze_clock('2027-06-01 12:00+02');

-- ---------------------------------------------------------------- a day berth paid in cash, cancelled late: owed at the desk until paid back
select tests.authenticate_as('customer');
select public.cancel_booking(current_setting('tests.day')::uuid);
select tests.clear_authentication();
select is((select count(*)::int from private.refund_requests where order_id = current_setting('tests.day')::uuid), 0, 'cash is not refunded to a card');
select tests.authenticate_as('harbour');
select is(pg_temp.owed(current_setting('tests.day')), (current_setting('tests.tag_price')::int - round(current_setting('tests.tag_price')::int / 2.0))::bigint,
  'the overview lists the half owed at the desk');
select is((public.order_balance(current_setting('tests.day')::uuid) ->> 'to_refund_cents')::int,
  current_setting('tests.tag_price')::int - round(current_setting('tests.tag_price')::int / 2.0)::int, 'and the order''s balance marks it to refund');
select public.record_desk_refund(current_setting('tests.day')::uuid, 'cash', current_setting('tests.tag_price')::int - round(current_setting('tests.tag_price')::int / 2.0)::int);
select is(pg_temp.owed(current_setting('tests.day')), null, 'once the desk paid it back it is settled');
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.day')::uuid and kind = 'credit_note'), 0,
  'paying back what was owed issues no credit note (the kept share''s invoice stands)');

-- ---------------------------------------------------------------- a free day berth paid by card terminal
select tests.authenticate_as('customer');
select public.cancel_booking(current_setting('tests.dayfree')::uuid);
select tests.authenticate_as('harbour');
select is(pg_temp.owed(current_setting('tests.dayfree')), current_setting('tests.tagfrei_price')::bigint, 'a free cancellation paid at the desk: all of it owed at the desk');

-- ---------------------------------------------------------------- the harbour cancels a paid booking
select public.cancel_booking(current_setting('tests.harbour')::uuid);
select is(pg_temp.owed(current_setting('tests.harbour')), current_setting('tests.hafen_price')::bigint, 'the harbour cancelling: everything owed, listed');
select tests.clear_authentication();
select is((select count(*)::int from private.refund_requests where order_id = current_setting('tests.harbour')::uuid), 0,
  'staff refund it themselves (no automatic card refund)');
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.harbour')::uuid and lines -> 0 ->> 'code' = 'cancellation_fee'), 0,
  'nothing kept, nothing billed');

select * from finish();
rollback;
