-- The reminder settings (docs/adr/0051-fee-reminders-and-door-code.md): the unread key
-- fee_reminder_days is gone; the first reminder's day is fee_reminder_first_days, counted from
-- the day the money was expected, and a harbour that changes it moves the reminder.
begin;
select plan(4);
select private.freeze_clock('2027-01-15 10:00+01');

select is((select count(*)::int from private.app_settings where key = 'fee_reminder_days'), 0,
  'the unused setting fee_reminder_days is not there');
select results_eq($$ select key from private.app_settings where key like 'fee_%' order by key $$,
  $$ values ('fee_door_code_grace_days'), ('fee_reminder_first_days'), ('fee_reminder_second_days') $$,
  'the fee settings that are read remain');

select tests.create_user('admin', array['admin']);
select tests.create_user('holder');
insert into public.places (name, width, length) values ('M-1', 4.5, 12.0);
insert into public.seasons (name, name_en, kind, starts_on, ends_on) values ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');
insert into public.long_term_applications (user_id, email, first_name, last_name, locale, boat)
values (tests.get_user_id('holder'), 'holder@test.local', 'Hanna', 'Halter', 'de', '{"name": "Boot", "length": 8.0, "width": 3.0}');
select tests.authenticate_as('admin');
select public.send_offer(a.id, (select id from public.places where name = 'M-1'), (select id from public.seasons where name = 'Sommer 2027'))
  from public.long_term_applications a;
select tests.authenticate_as('holder');
select public.accept_offer(o.id, 1, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 1, 'bank_transfer')))
  from public.berth_offers o;
select tests.clear_authentication();

-- The instalment fell due on 1 April; this harbour reminds 5 days after.
update private.app_settings set value = '5' where key = 'fee_reminder_first_days';
select private.freeze_clock('2027-04-05 09:00+02');
select is(private.send_fee_reminders(), 0, 'four days overdue: no reminder yet');
select private.freeze_clock('2027-04-06 09:00+02');
select is(private.send_fee_reminders(), 1, 'on the fifth day the first reminder goes out');

select * from finish();
rollback;
