-- The outbox: one confirmation per booking (recipient's language, .ics of the stay), contact
-- messages and service requests to the harbour, and what send-mail does with the rows.
begin;
select plan(32);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day) values ('O1', 4, 12, false), ('O2', 4, 12, false), ('O3', 4, 12, true);
select tests.create_user('customer');
select tests.create_user('english');
update public.profiles set locale = 'en' where id = tests.get_user_id('english');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

-- ---------------------------------------------------------------- booking confirmations
select tests.authenticate_as('english');
select lives_ok($$ select public.create_booking(tests.place_id('O1'), 'overnight', '2027-05-11',
  '{"name": "Seagull", "length": 9.4, "width": 3.2}', '{"first_name": "Emma", "last_name": "English"}', '2027-05-13') $$,
  'a customer books');
select tests.clear_authentication();
select results_eq(
  $$ select kind, recipient, locale, subject from public.outbox $$,
  $$ values ('booking_confirmation', 'english@test.local', 'en', 'Your booking at Hafen Düsseldorf: berth O1, 11 May 2027, 14:00') $$,
  'the booking queued exactly one confirmation, in the customer''s language');
select ok((select body_text from public.outbox) like '%Net: EUR 60.00%VAT 19 %: EUR 11.40%Total: EUR 71.40%', 'the confirmation shows net, VAT and gross');
select results_eq(
  $$ select a ->> 'filename', a ->> 'content_type' from public.outbox o, jsonb_array_elements(o.attachments) a $$,
  $$ values ('booking-O1.ics', 'text/calendar; charset=utf-8; method=PUBLISH') $$,
  'it carries one .ics attachment');
select ok((select a ->> 'content' from public.outbox o, jsonb_array_elements(o.attachments) a)
          like E'BEGIN:VCALENDAR\r\n%DTSTART:20270511T120000Z\r\nDTEND:20270513T100000Z\r\n%END:VCALENDAR\r\n',
  'the .ics event spans the stay in UTC (14:00 to 12:00 Berlin summer time), CRLF lines');

select tests.authenticate_as('guest');
select lives_ok($$ select public.create_booking(tests.place_id('O2'), 'overnight', '2027-05-11',
  '{"name": "Möwe", "length": 9.4, "width": 3.2}', '{"first_name": "Greta", "last_name": "Gast", "email": "Greta@Example.org"}', '2027-05-12') $$,
  'a guest books');
select tests.clear_authentication();
select results_eq(
  $$ select recipient, locale, body_text like '%innerhalb von 24 Stunden%' from public.outbox where recipient like 'greta%' $$,
  $$ values ('greta@example.org', 'de', true) $$,
  'the guest''s confirmation is German by default and asks to verify within 24 hours');

select tests.authenticate_as('harbour');
select lives_ok($$ select public.staff_create_booking(tests.place_id('O3'), 'day', '2027-05-10',
  '{"name": "Jolle", "length": 5, "width": 2}', '{"first_name": "Walter", "last_name": "Walkin"}', null, '14:00', '18:00') $$,
  'staff book a walk-in guest without e-mail');
select lives_ok($$ select public.staff_create_booking(tests.place_id('O3'), 'day', '2027-05-11',
  '{"name": "Jolle", "length": 5, "width": 2}', '{"first_name": "Paula", "last_name": "Phone", "email": "paula@example.org", "locale": "en"}', null, '10:00', '12:00') $$,
  'staff book a phone guest with e-mail');
select tests.clear_authentication();
select results_eq(
  $$ select o.email, count(x.id)::int, min(x.locale) from public.orders o left join public.outbox x on x.order_id = o.id group by o.email order by o.email $$,
  $$ values ('', 0, null), ('english@test.local', 1, 'en'), ('greta@example.org', 1, 'de'), ('paula@example.org', 1, 'en') $$,
  'every booking with an address has exactly one confirmation; a walk-in without one has none');

insert into public.orders (place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person)
values (tests.place_id('O1'), 'overnight', '2027-04-01 14:00+02', '2027-04-02 12:00+02', 'completed', 100, '{}', 'alt@example.org', '{}', '{}', '{}');
select is((select count(*)::int from public.outbox where recipient = 'alt@example.org'), 0, 'an imported past order is not confirmed');

-- ---------------------------------------------------------------- contact messages and service requests
select tests.authenticate_as_anon();
select isnt(public.send_contact_message('Carla Kontakt', 'carla@example.org', 'Haben Sie im August noch Platz für 12 m?', '+49 170 1'), null,
  'anyone sends a contact message');
select throws_ok($$ select public.send_contact_message('Carla', 'carla@example.org', 'kurz') $$, '22023', 'invalid_message', 'a message has 10-2000 characters');
select throws_ok($$ select public.send_contact_message('Carla', 'keine-adresse', 'Eine lange Nachricht hier.') $$, '22023', 'invalid_email', 'a message needs a valid address');
select throws_ok($$ select public.request_service('teleport', 'Carla', 'carla@example.org', 'Bitte beamen Sie mich.') $$, '22023', 'invalid_service', 'a service request names a known service');
select is_empty($$ select * from public.contact_messages $$, 'anon reads no messages');
select is_empty($$ select * from public.outbox $$, 'anon reads no outbox');

select tests.authenticate_as('customer');
select isnt(public.request_service('boat_lift', 'Klaus Kunde', 'customer@test.local', 'Bitte Boot am Freitag kranen.', null, '2027-05-14',
  '{"name": "Rheinperle", "length": 9.4, "width": 3.2}'), null, 'a customer requests the boat lift');
select results_eq($$ select kind, service, status from public.contact_messages $$, $$ values ('service_request', 'boat_lift', 'open') $$,
  'a customer reads only the own messages');
select throws_ok($$ select public.set_message_done((select id from public.contact_messages limit 1)) $$, '42501', 'staff_only', 'a customer cannot mark a message done');
select is_empty($$ select * from public.outbox $$, 'a customer reads no outbox');

select tests.clear_authentication();
select results_eq(
  $$ select kind, recipient, reply_to, subject from public.outbox where kind in ('contact_message', 'service_request') order by id $$,
  $$ values ('contact_message', 'hafen@hafen-duesseldorf.de', 'carla@example.org', 'Kontaktanfrage von Carla Kontakt'),
            ('service_request', 'hafen@hafen-duesseldorf.de', 'customer@test.local', 'Serviceanfrage (Bootskran) von Klaus Kunde') $$,
  'each message e-mails the harbour, replies going to the sender');

select tests.authenticate_as('harbour');
select is((select count(*)::int from public.contact_messages), 2, 'harbour staff read all messages');
select results_eq($$ select status, done_at from public.set_message_done((select id from public.contact_messages where kind = 'contact')) $$,
  $$ values ('done', '2027-05-10 12:00+02'::timestamptz) $$, 'harbour staff mark a message done');
select is_empty($$ select * from public.outbox where order_id is null $$, 'harbour staff read no outbox row outside an order (contact mails, applications)');
select ok((select count(*) from public.outbox) = (select count(*) from public.outbox where order_id is not null) and (select count(*) from public.outbox) > 0,
  'but the e-mails of orders (what the guest was told)');

select tests.authenticate_as_anon();
select public.send_contact_message('Spam', 'spam@example.org', 'Nachricht Nummer ' || i) from generate_series(1, 5) i;
select throws_ok($$ select public.send_contact_message('Spam', 'spam@example.org', 'Nachricht Nummer 6') $$, 'P0001', 'too_many_messages',
  'at most 5 messages an hour per address');

-- ---------------------------------------------------------------- send-mail's side
select tests.authenticate_as('admin');
select is((select count(*)::int from public.outbox), 10, 'an admin reads the outbox');
select throws_ok($$ select * from public.claim_outbox(5) $$, '42501', null, 'only the service role claims mail');
select tests.clear_authentication();
select set_config('role', 'service_role', true);
select is((select count(*)::int from public.claim_outbox(100)), 10, 'send-mail (service role) claims the due mail');
select is((select count(*)::int from public.claim_outbox(100)), 0, 'a claimed row is not claimed twice while leased');
select results_eq(
  $$ select status, attempts, next_attempt_at, last_error from public.complete_outbox((select min(id) from public.outbox), false, 'connection refused') $$,
  $$ values ('pending', 1, '2027-05-10 12:01+02'::timestamptz, 'connection refused') $$,
  'a failed delivery is retried after a minute (backoff doubles)');
select tests.clear_authentication();
select * from finish();
rollback;
