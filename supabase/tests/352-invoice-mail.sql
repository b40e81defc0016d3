-- Invoice documents travel with the e-mail about what issued them (supabase/schemas/52_invoice_mail.sql,
-- issue 21 item 8): the online payment's receipt carries the invoice, the cancellation e-mail the
-- cancellation invoice (after the .ics), a partial refund's notice the credit note; each by
-- reference ({invoice_id, filename, content_type}), never the PDF itself; a document of an earlier
-- statement is not attached to a later e-mail, and e-mails without documents get none.
begin;
select plan(9);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('M1', 4, 13, false, false), ('M2', 4, 13, false, false), ('M3', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('customer');
select public.create_booking(tests.place_id(n), 'overnight', '2027-05-20', jsonb_build_object('name', b, 'length', 10, 'width', 3),
  '{"first_name": "Klaus", "last_name": "Kunde", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf", "locale": "en"}', '2027-05-22')
from (values ('M1', 'Online'), ('M2', 'Teil'), ('M3', 'Ohne')) v(n, b);
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;

create function pg_temp.attachments(p_order text, p_kind text) returns jsonb language sql as $$
  select coalesce(jsonb_agg(o.attachments order by o.id), '[]'::jsonb) from public.outbox o where o.order_id = p_order::uuid and o.kind = p_kind
$$;
create function pg_temp.ref(p_number text, p_filename text) returns jsonb language sql as $$
  select jsonb_build_object('invoice_id', i.id, 'filename', p_filename, 'content_type', 'application/pdf') from public.invoices i where i.invoice_number = p_number
$$;

-- ---------------------------------------------------------------- the online payment's receipt
set local role service_role;
select public.record_checkout_session(current_setting('tests.online')::uuid, 'cs_test_mail1', 'https://checkout.stripe.com/c/pay/cs_test_mail1', 7140, '2027-05-10 12:30+02');
select public.record_stripe_event(jsonb_build_object('id', 'evt_mail1', 'object', 'event', 'api_version', '2026-10-28.endive', 'created', 1810000000,
  'livemode', false, 'pending_webhooks', 1, 'request', jsonb_build_object('id', null, 'idempotency_key', null), 'type', 'checkout.session.completed',
  'data', jsonb_build_object('object', jsonb_build_object('id', 'cs_test_mail1', 'object', 'checkout.session', 'amount_total', 7140, 'currency', 'eur',
    'client_reference_id', current_setting('tests.online'), 'metadata', jsonb_build_object('order_id', current_setting('tests.online')),
    'payment_intent', 'pi_mail1', 'payment_status', 'paid', 'mode', 'payment', 'status', 'complete'))));
reset role;
select is((select invoice_number from public.invoices where order_id = current_setting('tests.online')::uuid), 'RE-2027-00001', 'the payment issued the invoice');
select is(pg_temp.attachments(current_setting('tests.online'), 'payment_receipt'),
  jsonb_build_array(jsonb_build_array(pg_temp.ref('RE-2027-00001', 'Invoice-RE-2027-00001.pdf'))),
  'the receipt, queued before the invoice was issued, carries it by reference (file name in the booking''s language)');

-- ---------------------------------------------------------------- the cancellation e-mail
select tests.authenticate_as('customer');
select public.cancel_booking(current_setting('tests.online')::uuid);
select tests.clear_authentication();
select is((select jsonb_agg(a ->> 'content_type' order by n) from public.outbox o, jsonb_array_elements(o.attachments) with ordinality x(a, n)
            where o.order_id = current_setting('tests.online')::uuid and o.kind = 'booking_cancelled'),
  '["text/calendar; charset=utf-8; method=CANCEL", "application/pdf"]'::jsonb, 'the cancellation e-mail keeps its .ics first, then the PDF');
select is((select attachments -> 1 from public.outbox where order_id = current_setting('tests.online')::uuid and kind = 'booking_cancelled'),
  pg_temp.ref('RE-2027-00002', 'Cancellation-invoice-RE-2027-00002.pdf'),
  'it is the cancellation invoice, issued before the e-mail was queued');
select is(pg_temp.attachments(current_setting('tests.online'), 'payment_receipt'),
  jsonb_build_array(jsonb_build_array(pg_temp.ref('RE-2027-00001', 'Invoice-RE-2027-00001.pdf'))),
  'the receipt sent earlier does not take the later cancellation');
select is((select count(*)::int from public.outbox o, jsonb_array_elements(o.attachments) a where a ? 'content' and a ->> 'content_type' = 'application/pdf'),
  0, 'no PDF is stored in the outbox');

-- ---------------------------------------------------------------- a partial refund's notice
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.teil')::uuid, 'cash');
select public.record_desk_refund(current_setting('tests.teil')::uuid, 'cash', 1000);
select tests.clear_authentication();
select is(pg_temp.attachments(current_setting('tests.teil'), 'refund_notice'),
  jsonb_build_array(jsonb_build_array(pg_temp.ref('RE-2027-00004', 'Credit-note-RE-2027-00004.pdf'))),
  'the refund notice carries the credit note only, not the invoice of the earlier desk payment');

-- ---------------------------------------------------------------- mails without documents
select tests.authenticate_as('customer');
select public.cancel_booking(current_setting('tests.ohne')::uuid);
select tests.clear_authentication();
select is(jsonb_array_length((select attachments from public.outbox where order_id = current_setting('tests.ohne')::uuid and kind = 'booking_cancelled')),
  1, 'cancelling an unpaid booking issues no document and the e-mail has only its .ics');
select is((select count(*)::int from public.outbox o, jsonb_array_elements(o.attachments) a
            where o.kind in ('booking_confirmation') and a ? 'invoice_id'), 0, 'booking confirmations never carry documents');

select * from finish();
rollback;
