-- Reminders the scheduler sends (issue 22): the day before arrival from 09:00 Berlin time, and
-- three hours before an unverified or unpaid booking lapses; each once per order, in the
-- booking's language; none for cancelled bookings. The schedule is registered.
begin;
select plan(13);
select private.freeze_clock('2027-05-19 08:30+02');

insert into public.places (name, pier, width, length, one_day, archived) values
  ('R1', 'A', 4, 12, false, false), ('R2', 'A', 4, 12, false, false), ('R3', 'A', 4, 12, false, false);
select tests.create_user('customer');
select tests.create_user('guest', p_anonymous => true);

select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('R1'), 'overnight', '2027-05-20', '{"name": "Morgen", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde", "locale": "en"}', '2027-05-21');
select public.create_booking(tests.place_id('R3'), 'overnight', '2027-05-20', '{"name": "Abgesagt", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-21');
select public.cancel_booking((select id from public.orders where boat ->> 'name' = 'Abgesagt'));
select tests.authenticate_as('guest');
select public.create_booking(tests.place_id('R2'), 'overnight', '2027-05-25', '{"name": "Unbestaetigt", "length": 9, "width": 3}',
  '{"first_name": "Gita", "last_name": "Gast", "email": "gita@example.org"}', '2027-05-26');
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;
create function pg_temp.sent(p_order text, p_kind text) returns integer language sql as $$
  select count(*)::integer from public.outbox where order_id = p_order::uuid and kind = p_kind
$$;

select is(private.send_guest_reminders(), 0, 'at 08:30 the day before, nothing yet');
select private.freeze_clock('2027-05-19 09:00+02');
select is(private.send_guest_reminders(), 1, 'from 09:00 the reminder for tomorrow''s arrival goes out');
select is(pg_temp.sent(current_setting('tests.morgen'), 'arrival_reminder'), 1, 'to the guest arriving tomorrow');
select ok((select subject like 'See you tomorrow: berth R1, 20 May 2027, 14:00 (HD-%)'
           and body_text like '%Check in on your booking page from the arrival day: %/en/order/' || current_setting('tests.morgen') || '/check-in%'
           and body_text like '%door code%' and body_text like '%Still to pay: EUR 33.32%' and body_text like '%How to find us: %'
           from public.outbox where order_id = current_setting('tests.morgen')::uuid and kind = 'arrival_reminder'),
  'in English: arrival, check-in link, door code, what is still to pay, the address');
select is(pg_temp.sent(current_setting('tests.abgesagt'), 'arrival_reminder'), 0, 'not for a cancelled booking');
select ok((select next_attempt_at <= pg_catalog.now() from public.outbox where order_id = current_setting('tests.morgen')::uuid and kind = 'arrival_reminder'),
  'queued under a clock frozen in the future, it is due at once by the real clock too (send-mail runs in real time)');
select private.freeze_clock('2027-05-19 18:00+02');
select is(private.send_guest_reminders(), 0, 'and only once');

-- The guest's unverified booking lapses 24 hours after booking (08:30 on the 20th): warned from 05:30.
select private.freeze_clock('2027-05-20 05:29+02');
select is(pg_temp.sent(current_setting('tests.unbestaetigt'), 'expiry_warning') + private.send_guest_reminders(), 0,
  'more than three hours before the deadline, no warning');
select private.freeze_clock('2027-05-20 05:30+02');
select is(private.send_guest_reminders(), 1, 'three hours before, the warning');
select ok((select subject like 'Ihre Buchung HD-% verfällt am 20.05.2027, 08:30 Uhr'
           and body_text like '%noch nicht bestätigt. Bitte bestätigen Sie sie bis %'
           from public.outbox where order_id = current_setting('tests.unbestaetigt')::uuid and kind = 'expiry_warning'),
  'in German: confirm the e-mail address by the deadline');
select is(private.send_guest_reminders(), 0, 'once');

-- Customers cannot trigger it; the scheduler has it (where pg_cron or the stand-in exists).
select tests.authenticate_as('customer');
select throws_ok($$ select private.send_guest_reminders() $$, '42501', null, 'not callable through the API');
select tests.clear_authentication();
select ok(to_regclass('cron.job') is null
          or exists (select 1 from cron.job where jobname = 'guest-reminders' and command = 'select private.send_guest_reminders()'),
  'scheduled every 15 minutes');

select * from finish();
rollback;
