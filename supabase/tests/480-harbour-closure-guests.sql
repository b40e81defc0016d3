-- Guests in a harbour closure (issue 43 item 2, supabase/schemas/49_harbour_closures.sql,
-- docs/adr/0053-rhine-gauge-and-harbour-status.md "Guests in a closure"): the affected set
-- (confirmed stays with a night, a day stay with its day, on a closed day; not cancelled ones,
-- not stays outside), one notice and one e-mail per order and closure episode in the guest's
-- language (a repeated reading, a new forecast run or a swing back within 24 hours mail nobody
-- again; a later separate closure does), the staff list with what was told and chosen, the
-- guest's choice, and the free cancellation whose card refund is one request however often sent.
begin;
select plan(31);
select private.freeze_clock('2027-01-10 14:00+01');

insert into public.places (name, width, length, one_day, archived) values
  ('C1', 4, 13, false, false), ('C2', 4, 13, false, false), ('C3', 4, 13, false, false), ('CT', 4, 13, true, false);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('customer');
-- Anna (de): nights 11 and 12 January, paid online. Eve (en): a day berth on 11 January.
-- Bob (en): 14 January, outside the first closure. Carl: 11 January, cancelled before.
select set_config('tests.anna', (select id::text from public.create_booking(tests.place_id('C1'), 'overnight', '2027-01-11',
  '{"name": "Anna", "length": 10, "width": 3}', '{"first_name": "Anna", "last_name": "Auer", "locale": "de"}', '2027-01-13')), true);
select set_config('tests.eve', (select id::text from public.create_booking(tests.place_id('CT'), 'day', '2027-01-11',
  '{"name": "Eve", "length": 10, "width": 3}', '{"first_name": "Eve", "last_name": "Evans", "locale": "en"}', null, '10:00', '14:00')), true);
select set_config('tests.bob', (select id::text from public.create_booking(tests.place_id('C2'), 'overnight', '2027-01-14',
  '{"name": "Bob", "length": 10, "width": 3}', '{"first_name": "Bob", "last_name": "Brown", "locale": "en"}', '2027-01-15')), true);
select set_config('tests.carl', (select id::text from public.create_booking(tests.place_id('C3'), 'overnight', '2027-01-11',
  '{"name": "Carl", "length": 10, "width": 3}', '{"first_name": "Carl", "last_name": "Cox", "locale": "de"}', '2027-01-12')), true);
select public.cancel_booking(current_setting('tests.carl')::uuid);
select tests.clear_authentication();

insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents, 'eur', 'stripe', 'pi_anna', private.now()
  from public.orders where id = current_setting('tests.anna')::uuid;

create function pg_temp.mine() returns setof uuid language sql as $$
  select unnest(array[current_setting('tests.anna'), current_setting('tests.eve'), current_setting('tests.bob'), current_setting('tests.carl')])::uuid
$$;
create function pg_temp.mails() returns bigint language sql as $$
  select count(*) from public.outbox where kind = 'harbour_closure' and order_id in (select pg_temp.mine())
$$;
create function pg_temp.run(p_initialized text, p_points jsonb) returns jsonb language sql as $$
  select jsonb_agg(jsonb_build_object('initialized', p_initialized, 'timestamp', p ->> 0, 'value', (p ->> 1)::int, 'type', 'forecast'))
    from jsonb_array_elements(p_points) p
$$;

-- The cancellation policy alone would keep half of Anna's price (arrival within 48 hours).
select tests.authenticate_as('customer');
select is((public.cancellation_quote(current_setting('tests.anna')::uuid) ->> 'free')::boolean, false,
  'before any closure Anna''s cancellation is not free (within 48 hours of arrival)');
select tests.clear_authentication();

-- ---------------------------------------------------------------- a forecast over mark II on 11 January
set local role service_role;
select public.record_gauge_reading('2027-01-10 13:45+01', 720, 1::smallint,
  pg_temp.run('2027-01-10T07:00:00+01:00', '[["2027-01-11T12:00:00+01:00", 890], ["2027-01-12T12:00:00+01:00", 870]]'));
reset role;

select results_eq($$ select first_day, last_day, ended_at from public.harbour_closures $$,
  $$ values ('2027-01-11'::date, '2027-01-11'::date, null::timestamptz) $$, 'a closed forecast day opens a closure episode');
select results_eq($$ select o.boat ->> 'name', n.closed_days from public.harbour_closure_notices n join public.orders o on o.id = n.order_id
                    where n.order_id in (select pg_temp.mine()) order by 1 $$,
  $$ values ('Anna'::text, '{2027-01-11}'::date[]), ('Eve', '{2027-01-11}') $$,
  'the stay with a night on the closed day and the day berth on it are affected; the stay after it and the cancelled one are not');
select is(pg_temp.mails(), 2::bigint, 'one e-mail per affected guest');
select results_eq($$ select locale, subject like 'Hafen wegen Hochwasser geschlossen: Ihre Buchung HD-%', body_text like '%am 11.01.2027 geschlossen%',
                           body_text like '%kostenlos stornieren%', body_text like '%/order/' || current_setting('tests.anna') || '%', reply_to
                      from public.outbox where kind = 'harbour_closure' and order_id = current_setting('tests.anna')::uuid $$,
  $$ values ('de'::text, true, true, true, true, 'hafen@hafen-duesseldorf.de'::text) $$,
  'Anna''s e-mail is German: the closed day, the free cancellation, her booking page; replies go to the harbour');
select results_eq($$ select locale, subject like 'Harbour closed by high water: your booking HD-%', body_text like '%closed on 11 Jan 2027%',
                           body_text like '%/en/order/' || current_setting('tests.eve') || '%'
                      from public.outbox where kind = 'harbour_closure' and order_id = current_setting('tests.eve')::uuid $$,
  $$ values ('en'::text, true, true, true) $$, 'Eve''s e-mail is English, with the English booking page');

-- The same reading again, then a newer run that closes the 12th as well: nobody is mailed again.
set local role service_role;
select public.record_gauge_reading('2027-01-10 13:45+01', 720, 1::smallint,
  pg_temp.run('2027-01-10T07:00:00+01:00', '[["2027-01-11T12:00:00+01:00", 890], ["2027-01-12T12:00:00+01:00", 870]]'));
select is(pg_temp.mails(), 2::bigint, 'a repeated reading mails nobody again');
select public.record_gauge_reading('2027-01-10 14:00+01', 730, 1::smallint,
  pg_temp.run('2027-01-10T13:00:00+01:00', '[["2027-01-11T12:00:00+01:00", 900], ["2027-01-12T12:00:00+01:00", 885]]'));
reset role;
select is(pg_temp.mails(), 2::bigint, 'a new forecast run of the same closure mails nobody again');
select results_eq($$ select first_day, last_day from public.harbour_closures where ended_at is null $$,
  $$ values ('2027-01-11'::date, '2027-01-12'::date) $$, 'the episode now spans both closed days');
select is((select closed_days from public.harbour_closure_notices where order_id = current_setting('tests.anna')::uuid),
  '{2027-01-11,2027-01-12}'::date[], 'Anna''s notice names both of her closed nights');

-- ---------------------------------------------------------------- what staff and guests see
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.harbour_closure_stays() $$, '42501', 'staff_only', 'a customer gets no affected list');
select is((select count(*)::int from public.harbour_closure_notices), 2, 'the customer reads the notices of own orders');
select tests.authenticate_as('other');
select is_empty($$ select * from public.harbour_closure_notices $$, 'another customer reads none');
select tests.authenticate_as('harbour');
select results_eq($$ select first_name, last_name, place_name, closed_days, mail_status, choice from public.harbour_closure_stays()
                    where order_id in (select pg_temp.mine()) order by first_name $$,
  $$ values ('Anna'::text, 'Auer'::text, 'C1'::text, '{2027-01-11,2027-01-12}'::date[], 'pending'::text, null::text),
            ('Eve', 'Evans', 'CT', '{2027-01-11}', 'pending', null) $$,
  'staff list the affected stays: guest, berth, closed days, the e-mail queued, no choice yet');
select tests.clear_authentication();

-- ---------------------------------------------------------------- the guest's choice
select set_config('tests.eve_notice', (select id::text from public.harbour_closure_notices where order_id = current_setting('tests.eve')::uuid), true);
select tests.authenticate_as('other');
select throws_ok($$ select public.answer_harbour_closure(current_setting('tests.eve_notice')::uuid, 'keep') $$, 'PT404', 'notice_not_found',
  'another customer cannot answer the notice');
select tests.authenticate_as('customer');
select throws_ok($$ select public.answer_harbour_closure(current_setting('tests.eve_notice')::uuid, 'cancel') $$, '22023', 'closure_choice_invalid',
  'cancel is not an answer but the cancellation itself');
select is((public.answer_harbour_closure(current_setting('tests.eve_notice')::uuid, 'keep')).choice, 'keep', 'Eve keeps her stay');

-- ---------------------------------------------------------------- the free cancellation, refunded once
select results_eq($$ select (q ->> 'free')::boolean, (q ->> 'closure')::boolean, (q ->> 'kept_cents')::int, (q ->> 'back_card_cents')::int
                      from public.cancellation_quote(current_setting('tests.anna')::uuid) q $$,
  $$ select true, true, 0, price_cents from public.orders where id = current_setting('tests.anna')::uuid $$,
  'after the notice Anna cancels free of charge, the whole price back to the card');
select public.cancel_booking(current_setting('tests.anna')::uuid);
select throws_ok($$ select public.cancel_booking(current_setting('tests.anna')::uuid) $$, 'P0001', 'order_not_cancellable', 'clicked twice: refused');
select is((select cancellation_kept_cents from public.orders where id = current_setting('tests.anna')::uuid), 0, 'nothing is kept');
select is(public.prepare_cancellation_refund(current_setting('tests.anna')::uuid) ->> 'idempotency_key',
  public.prepare_cancellation_refund(current_setting('tests.anna')::uuid) ->> 'idempotency_key',
  'sent twice, the card refund is the same request');
select tests.clear_authentication();
select results_eq($$ select count(*)::int, sum(amount_cents)::int from private.refund_requests where order_id = current_setting('tests.anna')::uuid $$,
  $$ select 1, price_cents from public.orders where id = current_setting('tests.anna')::uuid $$,
  'one card refund of the whole price is recorded');
set local role service_role;
select public.note_online_refund_requested('pi_anna', 're_anna', (select price_cents from public.orders where id = current_setting('tests.anna')::uuid),
  md5('cancellation:' || current_setting('tests.anna'))::uuid);
select public.note_online_refund_requested('pi_anna', 're_anna', (select price_cents from public.orders where id = current_setting('tests.anna')::uuid),
  md5('cancellation:' || current_setting('tests.anna'))::uuid);
reset role;
select is((select count(*)::int from private.online_refund_requests q join public.payments p on p.id = q.payment_id
            where p.order_id = current_setting('tests.anna')::uuid), 1, 'the refund Stripe made is noted once, however often reported');
select is((select choice from public.harbour_closure_notices where order_id = current_setting('tests.anna')::uuid), 'cancel',
  'the cancellation is recorded as Anna''s choice');
select tests.authenticate_as('customer');
select throws_ok($$ select public.answer_harbour_closure((select id from public.harbour_closure_notices where order_id = current_setting('tests.anna')::uuid), 'keep') $$,
  'P0001', 'order_not_open', 'a cancelled stay cannot be kept afterwards');
select tests.clear_authentication();

-- ---------------------------------------------------------------- the water falls, swings back, and a later closure
set local role service_role;
select public.record_gauge_reading('2027-01-10 14:00+01', 600, -1::smallint,
  pg_temp.run('2027-01-10T14:00:00+01:00', '[["2027-01-11T12:00:00+01:00", 650], ["2027-01-12T12:00:00+01:00", 620]]'));
reset role;
select isnt((select ended_at from public.harbour_closures order by started_at limit 1), null, 'no closed day left: the episode ends');
select tests.authenticate_as('harbour');
select is_empty($$ select * from public.harbour_closure_stays() $$, 'with no closure in force the staff list is empty');
select tests.clear_authentication();
select private.freeze_clock('2027-01-10 20:00+01');
set local role service_role;
select public.record_gauge_reading('2027-01-10 19:45+01', 730, 1::smallint,
  pg_temp.run('2027-01-10T19:00:00+01:00', '[["2027-01-11T12:00:00+01:00", 895]]'));
reset role;
select results_eq($$ select count(*)::int, count(*) filter (where ended_at is null)::int from public.harbour_closures $$,
  $$ values (1, 1) $$, 'closed again within 24 hours: the same episode is taken up again');
select is(pg_temp.mails(), 2::bigint, 'and nobody is mailed twice');

select private.freeze_clock('2027-01-11 08:00+01');
set local role service_role;
select public.record_gauge_reading('2027-01-11 07:45+01', 600, -1::smallint,
  pg_temp.run('2027-01-11T07:00:00+01:00', '[["2027-01-11T12:00:00+01:00", 600]]'));
reset role;
select private.freeze_clock('2027-01-13 10:00+01');
set local role service_role;
select public.record_gauge_reading('2027-01-13 10:00+01', 740, 1::smallint,
  pg_temp.run('2027-01-13T10:00:00+01:00', '[["2027-01-14T20:00:00+01:00", 910]]'));
reset role;
select is((select count(*)::int from public.harbour_closures), 2, 'a closure days after the last one ended is a new episode');
select results_eq($$ select o.boat ->> 'name', m.locale from public.outbox m join public.orders o on o.id = m.order_id
                    where m.kind = 'harbour_closure' and m.order_id in (select pg_temp.mine()) and m.order_id <> all (array[current_setting('tests.anna'), current_setting('tests.eve')]::uuid[]) $$,
  $$ values ('Bob'::text, 'en'::text) $$, 'which mails the guest it affects, once');

select * from finish();
rollback;
