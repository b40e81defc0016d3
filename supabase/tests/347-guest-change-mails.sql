-- The guest hears of every change (issue 22): a move with the updated calendar entry (same UID,
-- higher SEQUENCE), a cancellation by staff or by the guest with METHOD:CANCEL, a refund with
-- the amount and how it comes back; in the booking's language, with the booking number.
begin;
select plan(24);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, pier, width, length, one_day, archived) values
  ('M1', 'A', 4, 12, false, false), ('M2', 'A', 4, 12, false, false), ('M3', 'B', 4, 12, false, false), ('M4', 'B', 4, 12, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('M1'), 'overnight', '2027-05-20', '{"name": "Wandel", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde", "locale": "en"}', '2027-05-21');
select public.create_booking(tests.place_id('M3'), 'overnight', '2027-05-22', '{"name": "Selbst", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-23');
select public.create_booking(tests.place_id('M2'), 'overnight', '2027-05-26', '{"name": "Still", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-27');
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;
create function pg_temp.mails(p_order text, p_kind text) returns setof public.outbox language sql as $$
  select * from public.outbox where order_id = p_order::uuid and kind = p_kind order by id
$$;
create function pg_temp.ics(p_order text, p_kind text) returns text language sql as $$
  select attachments -> 0 ->> 'content' from public.outbox where order_id = p_order::uuid and kind = p_kind order by id desc limit 1
$$;

select ok(pg_temp.ics(current_setting('tests.wandel'), 'booking_confirmation') like '%METHOD:PUBLISH%SEQUENCE:0%STATUS:CONFIRMED%',
  'the confirmation''s calendar entry is version 0');

-- Staff move the English guest's booking to M2, then to M4.
select tests.authenticate_as('harbour');
select public.move_booking(current_setting('tests.wandel')::uuid, tests.place_id('M2'));
select tests.clear_authentication();
select is((select count(*)::integer from pg_temp.mails(current_setting('tests.wandel'), 'booking_changed')), 1, 'a move sends one e-mail');
select is((select subject from pg_temp.mails(current_setting('tests.wandel'), 'booking_changed')),
  format('Booking changed: berth M2, 20 May 2027, 14:00 (%s)', (select booking_number from public.orders where id = current_setting('tests.wandel')::uuid)),
  'in English, naming the new berth, the arrival and the booking number');
select ok((select body_text from pg_temp.mails(current_setting('tests.wandel'), 'booking_changed')) like '%Berth: M2 (pier A) (before: M1)%',
  'the body says the new berth and the old one');
select ok(pg_temp.ics(current_setting('tests.wandel'), 'booking_changed') like '%METHOD:PUBLISH%UID:' || current_setting('tests.wandel') || '@hafen-duesseldorf.de%SEQUENCE:1%',
  'the calendar entry keeps the UID and counts up to SEQUENCE 1');
select tests.authenticate_as('harbour');
select public.move_booking(current_setting('tests.wandel')::uuid, tests.place_id('M4'));
select tests.clear_authentication();
select ok(pg_temp.ics(current_setting('tests.wandel'), 'booking_changed') like '%SEQUENCE:2%Berth M4%', 'the second move is SEQUENCE 2');

-- Paid at the desk, then cancelled by staff: the cancellation says a refund follows; the refund is confirmed.
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.wandel')::uuid, 'cash');
select public.cancel_booking(current_setting('tests.wandel')::uuid);
select tests.clear_authentication();
select is((select count(*)::integer from pg_temp.mails(current_setting('tests.wandel'), 'booking_cancelled')), 1, 'a cancellation sends one e-mail');
select ok((select body_text from pg_temp.mails(current_setting('tests.wandel'), 'booking_cancelled'))
  like '%the harbour team has cancelled your booking%We will refund what you have paid%', 'staff cancelled it, a refund follows');
select ok(pg_temp.ics(current_setting('tests.wandel'), 'booking_cancelled') like '%METHOD:CANCEL%SEQUENCE:3%STATUS:CANCELLED%',
  'its calendar entry cancels the event (METHOD:CANCEL, SEQUENCE 3, STATUS:CANCELLED)');
select is((select attachments -> 0 ->> 'content_type' from pg_temp.mails(current_setting('tests.wandel'), 'booking_cancelled')),
  'text/calendar; charset=utf-8; method=CANCEL', 'sent as a cancellation');
select tests.authenticate_as('harbour');
select public.record_desk_refund(current_setting('tests.wandel')::uuid, 'cash', 1000);
select tests.clear_authentication();
select is((select subject from pg_temp.mails(current_setting('tests.wandel'), 'refund_notice')),
  format('Refund of EUR 10.00: booking %s', (select booking_number from public.orders where id = current_setting('tests.wandel')::uuid)),
  'a refund is confirmed with the amount');
select ok((select body_text from pg_temp.mails(current_setting('tests.wandel'), 'refund_notice')) like '%refunded EUR 10.00 to you at the harbour office%',
  'and how it came back');

-- The guest cancels their own booking (German): said so, nothing to pay.
select tests.authenticate_as('customer');
select public.cancel_booking(current_setting('tests.selbst')::uuid);
select tests.clear_authentication();
select ok((select subject like 'Buchung storniert: Liegeplatz M3, %' and body_text like '%wie gewünscht haben wir Ihre Buchung % storniert%Es ist nichts zu bezahlen.%'
           from pg_temp.mails(current_setting('tests.selbst'), 'booking_cancelled')), 'the guest''s own cancellation, in German');
select is((select count(*)::integer from public.outbox where order_id = current_setting('tests.selbst')::uuid), 2,
  'confirmation and cancellation: nothing else');

-- Staff may leave the guest's e-mail out of one change (the tick in the dialogs); nobody else may.
select tests.authenticate_as('customer');
select throws_ok(format('select public.cancel_booking(%L, false)', current_setting('tests.still')), '42501', 'staff_only',
  'a customer cannot cancel without the e-mail');
select tests.clear_authentication();
select tests.authenticate_as('harbour');
select public.move_booking(current_setting('tests.still')::uuid, tests.place_id('M3'), false);
select is((select count(*)::integer from pg_temp.mails(current_setting('tests.still'), 'booking_changed')), 0, 'a move with the tick off sends nothing');
select public.move_booking(current_setting('tests.still')::uuid, tests.place_id('M1'));
select is((select count(*)::integer from pg_temp.mails(current_setting('tests.still'), 'booking_changed')), 1,
  'the next change in the same transaction tells the guest again (the default)');
select ok(pg_temp.ics(current_setting('tests.still'), 'booking_changed') like '%SEQUENCE:2%',
  'the calendar entry counts the silent move too');
select public.record_desk_payment(current_setting('tests.still')::uuid, 'cash');
select public.record_desk_refund(current_setting('tests.still')::uuid, 'cash', (select price_cents from public.orders where id = current_setting('tests.still')::uuid), null, false);
select tests.clear_authentication();
select is((select status::text from public.orders where id = current_setting('tests.still')::uuid), 'cancelled', 'the full refund cancelled the booking');
select is((select count(*)::integer from public.outbox where order_id = current_setting('tests.still')::uuid and kind in ('refund_notice', 'booking_cancelled')), 0,
  'a refund with the tick off sends neither the refund notice nor the cancellation');
select is((select count(*)::integer from public.order_events where order_id = current_setting('tests.still')::uuid and event = 'status' and to_value = 'cancelled'), 1,
  'the history still records the cancellation');

-- Nothing is sent for a past stay or a change that is no change.
update public.orders set ends_at = ends_at where id = current_setting('tests.selbst')::uuid;
select is((select count(*)::integer from public.outbox where order_id = current_setting('tests.selbst')::uuid), 2, 'an update that changes nothing sends nothing');
select private.freeze_clock('2027-06-01 12:00+02');
insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person)
values (tests.get_user_id('customer'), tests.place_id('M1'), 'overnight', '2027-05-25 14:00+02', '2027-05-26 12:00+02', 'confirmed', 0, '{}',
        'customer@test.local', '{"name": "M1"}', '{"name": "Alt"}', '{}');
update public.orders set status = 'cancelled' where boat ->> 'name' = 'Alt';
select is((select count(*)::integer from public.outbox o join public.orders r on r.id = o.order_id where r.boat ->> 'name' = 'Alt'), 0,
  'a stay that is over gets no e-mail');
select is((select count(*)::integer from public.outbox where kind in ('booking_changed', 'booking_cancelled', 'refund_notice') and reply_to is null), 0,
  'replies go to the harbour');

select * from finish();
rollback;
