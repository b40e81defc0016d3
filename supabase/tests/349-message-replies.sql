-- Staff answer an inbox message from the app (issue 22, item 5): the answer goes to the sender by
-- e-mail in the sender's language with the harbour as Reply-To, quoting the message, and stays on
-- the message as its thread; only staff reply and read replies. The public forms are throttled
-- per client address (from the gateway's headers) as well as per e-mail address.
begin;
select plan(24);
select private.freeze_clock('2027-05-10 12:00+02');
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

select set_config('tests.msg', (public.send_contact_message('Ada Lovelace', 'ada@example.test',
  E'Is the fuel station open\non Sunday?', null, 'en'))::text, true);
select set_config('tests.req', (public.request_service('boat_lift', 'Bert Kran', 'bert@example.test',
  'Kran bitte am Freitag um 10 Uhr.', null, null, null, 'de'))::text, true);

-- Only staff reply.
select tests.authenticate_as('customer');
select throws_ok(format('select public.reply_to_message(%L, %L)', current_setting('tests.msg'), 'Yes, from 8.'),
  '42501', 'staff_only', 'a customer cannot reply');
select tests.clear_authentication();
set local role anon;
select throws_ok(format('select public.reply_to_message(%L, %L)', current_setting('tests.msg'), 'Yes, from 8.'),
  '42501', null, 'an anonymous caller cannot reply');
reset role;

select tests.authenticate_as('harbour');
select throws_ok(format('select public.reply_to_message(%L, %L)', current_setting('tests.msg'), '   '),
  '22023', 'invalid_reply', 'an empty reply is refused');
select throws_ok(format('select public.reply_to_message(%L, %L)', gen_random_uuid(), 'Hello'),
  'PT404', 'message_not_found', 'a reply to an unknown message is refused');
select lives_ok(format('select public.reply_to_message(%L, %L)', current_setting('tests.msg'), E'Yes, from 8 to 12.\nBest, the harbour'),
  'staff reply to the English message');
select lives_ok(format('select public.reply_to_message(%L, %L)', current_setting('tests.req'), 'Freitag 10 Uhr passt.'),
  'staff reply to the German service request');
select is((select count(*)::integer from public.message_replies where message_id = current_setting('tests.msg')::uuid), 1,
  'staff read the thread of the message');
select tests.clear_authentication();

select is((select subject from public.outbox where kind = 'message_reply' and recipient = 'ada@example.test'),
  'Re: Your message to Hafen Düsseldorf', 'the reply goes to the sender, in English');
select ok((select body_text from public.outbox where kind = 'message_reply' and recipient = 'ada@example.test')
  like E'Hello Ada Lovelace,\n\nYes, from 8 to 12.\nBest, the harbour\n\nYour message of 10 May 2027, 12:00:\n> Is the fuel station open\n> on Sunday?\n\nKind regards%',
  'greets by name, says the answer, quotes the message line by line');
select is((select reply_to from public.outbox where kind = 'message_reply' and recipient = 'ada@example.test'),
  private.setting('harbour_email'), 'a reply to it reaches the harbour');
select is((select subject from public.outbox where kind = 'message_reply' and recipient = 'bert@example.test'),
  'Re: Ihre Serviceanfrage an den Hafen Düsseldorf', 'the service request''s answer is in German');
select is((select r.outbox_id from public.message_replies r where r.message_id = current_setting('tests.req')::uuid),
  (select o.id from public.outbox o where o.kind = 'message_reply' and o.recipient = 'bert@example.test'), 'the thread names the e-mail sent');

-- Customers do not read replies, and nobody writes them directly.
select tests.authenticate_as('customer');
select is((select count(*)::integer from public.message_replies), 0, 'a customer reads no replies');
select throws_ok(format('update public.message_replies set body = %L', 'changed'), '42501', null, 'nobody edits a reply');
select tests.clear_authentication();

-- Admins answer a long-term application without deciding it; its thread is theirs to read.
select set_config('tests.app', (public.apply_for_long_term_berth('carla@example.test', 'Carla', 'Segel',
  '{"name": "Wellenreiter", "length": 11, "width": 3.6}', null, null, null, E'Gibt es Strom\nam Steg?', 'de')).id::text, true);
select tests.authenticate_as('harbour');
select throws_ok(format('select public.reply_to_application(%L, %L)', current_setting('tests.app'), 'Ja.'),
  '42501', 'admin_only', 'harbour staff do not answer applications (admins decide them)');
select tests.authenticate_as('admin');
select throws_ok(format('select public.reply_to_application(%L, %L)', current_setting('tests.app'), ''),
  '22023', 'invalid_reply', 'an empty answer is refused');
select throws_ok(format('select public.reply_to_application(%L, %L)', gen_random_uuid(), 'Ja.'),
  'PT404', 'application_not_found', 'an answer to an unknown application is refused');
select lives_ok(format('select public.reply_to_application(%L, %L)', current_setting('tests.app'), 'Ja, 16 A an jedem Platz.'),
  'an admin answers the application');
select is((select (count(*), min(body))::text from public.message_replies where application_id = current_setting('tests.app')::uuid),
  '(1,"Ja, 16 A an jedem Platz.")', 'the admin reads the thread of the application');
select is((select status from public.long_term_applications where id = current_setting('tests.app')::uuid), 'open',
  'the application stays open: an answer is not a decision');
select tests.authenticate_as('harbour');
select is((select count(*)::integer from public.message_replies where application_id is not null), 0,
  'harbour staff do not read the answers to applications');
select tests.clear_authentication();
select ok((select subject = 'Re: Ihre Bewerbung um einen Langzeitliegeplatz im Hafen Düsseldorf'
             and reply_to = private.setting('harbour_email')
             and body_text like E'Guten Tag Carla Segel,\n\nJa, 16 A an jedem Platz.\n\nIhre Bewerbung vom 10.05.2027, 12:00 Uhr (Boot Wellenreiter):\n> Gibt es Strom\n> am Steg?\n\n%'
           from public.outbox where kind = 'message_reply' and recipient = 'carla@example.test'),
  'the applicant gets the answer in German, greeted by name, quoting the application, Reply-To the harbour');

-- Per client address: 20 messages an hour from one address, whatever e-mail addresses are typed.
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.7, 10.0.0.1"}', true);
select public.send_contact_message('Flut', format('flood-%s@example.test', i), 'Eine Nachricht zum Fluten.', null, 'de')
  from generate_series(1, 20) i;
select throws_ok($$select public.send_contact_message('Flut', 'flood-21@example.test', 'Eine Nachricht zum Fluten.', null, 'de')$$,
  'P0001', 'too_many_requests', 'the 21st message from one address within the hour is refused');
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.9"}', true);
select lives_ok($$select public.send_contact_message('Anders', 'other@example.test', 'Eine Nachricht von woanders.', null, 'de')$$,
  'another address may still write');

select * from finish();
rollback;
