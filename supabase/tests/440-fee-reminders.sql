-- Reminders for overdue long-term fees (issue 42 deliverable 5, docs/adr/0051-fee-reminders-and-door-code.md):
-- the first reminder fee_reminder_first_days after the due day, the second fee_reminder_second_days
-- after the first, each once per fee and stage (a second run the same day sends nothing), never
-- for a paid fee or one whose debit is in flight, again open after a failed debit; German or
-- English by the holder's language. The door code and wifi are withheld from a holder whose fee
-- is overdue past fee_door_code_grace_days (a clear code, the page's explanation), shown again
-- once paid; staff always see them. The log is append-only and read by holder (own) and staff.
begin;
select plan(45);
select private.freeze_clock('2027-02-01 10:00+01');

update public.harbour_settings set door_code = '4711#', wifi_ssid = 'Hafen-Gast', wifi_password = 'Rheinblick';
update private.app_settings set value = '3' where key = 'fee_reminder_first_days';
update private.app_settings set value = '14' where key = 'fee_reminder_second_days';
update private.app_settings set value = '14' where key = 'fee_door_code_grace_days';
insert into public.places (name, width, length) values ('R1', 4, 12), ('R2', 4, 12), ('R3', 4, 12);

select tests.create_user('holder');
select tests.create_user('payer');
select tests.create_user('english');
select tests.create_user('harbour', array['harbor']);
update public.profiles set first_name = 'Hanna', last_name = 'Halter', locale = 'de' where id = tests.get_user_id('holder');
update public.profiles set first_name = 'Paul', last_name = 'Payer', locale = 'de' where id = tests.get_user_id('payer');
update public.profiles set first_name = 'Emma', last_name = 'English', locale = 'en' where id = tests.get_user_id('english');
insert into public.long_term_holders (place_id, user_id, starts_on, ends_on) values
  (tests.place_id('R1'), tests.get_user_id('holder'), '2027-04-01', '2027-10-31'),
  (tests.place_id('R2'), tests.get_user_id('payer'), '2027-04-01', '2027-10-31'),
  (tests.place_id('R3'), tests.get_user_id('english'), '2027-04-01', '2027-10-31');

select tests.create_user('admin', array['admin']);
select tests.authenticate_as('admin');
select set_config('tests.season', public.add_season('Sommer 2027 (Erinnerung)', 'summer', '2027-04-01', '2027-10-31')::text, true);
select tests.clear_authentication();

select set_config('tests.lines', jsonb_build_array(
  jsonb_build_object('code', 'berth_fee', 'description', 'Liegeplatz R1, Sommer 2027', 'description_en', 'Berth R1, summer 2027',
                     'quantity', 1, 'unit', 'piece', 'unit_price_cents', 120000, 'vat_rate', 19, 'gross_cents', 120000))::text, true);
-- A real contract (long_term_fees.contract_id and sepa_mandates.contract_id reference
-- public.contracts): an accepted application, its accepted offer and the contract row as
-- accept_offer stores them, inserted directly so no fees exist yet (accept_offer would create
-- them through on_contract_accepted); the fees are then made by the function under test.
create function pg_temp.make_contract(p_id uuid, p_number text, p_user uuid, p_season uuid, p_gross bigint,
                                      p_plan int, p_method text)
returns uuid language plpgsql as $$
declare
  v_place uuid;
  v_app uuid;
  v_offer uuid;
  v_season public.seasons;
  v_boat jsonb := '{"name": "Testboot", "length": 10, "width": 3}'::jsonb;
  v_email text := (select u.email from auth.users u where u.id = p_user);
begin
  select * into v_season from public.seasons s where s.id = p_season;
  insert into public.places (name, width, length) values ('V-' || p_number, 4, 12) returning id into v_place;
  insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, boat, status, answered_at)
  values (v_place, p_user, v_email, 'Test', 'Vertrag', v_boat, 'accepted', now()) returning id into v_app;
  insert into public.berth_offers (place_id, season_id, application_id, user_id, email, locale, boat, lines, gross_cents,
                                   deadline, status, answered_at)
  values (v_place, p_season, v_app, p_user, v_email, 'de', v_boat, '[]'::jsonb, p_gross, v_season.starts_on, 'accepted', now())
  returning id into v_offer;
  insert into public.contracts (id, contract_number, offer_id, user_id, holder_id, place_id, season_id, starts_on, ends_on, email,
                                locale, holder, boat, lines, gross_cents, payment_plan, payment_method, terms_version,
                                contract_text, contract_sha256, accepted_at, notice_deadline)
  values (p_id, p_number, v_offer, p_user, gen_random_uuid(), v_place, p_season, v_season.starts_on, v_season.ends_on, v_email,
          'de', jsonb_build_object('first_name', 'Test', 'last_name', 'Vertrag', 'email', v_email), v_boat, '[]'::jsonb, p_gross,
          p_plan, p_method, (select max(t.version) from public.contract_terms t), 'Vertrag ' || p_number,
          encode(sha256(convert_to('Vertrag ' || p_number, 'UTF8')), 'hex'), now(), v_season.ends_on - 90);
  return p_id;
end
$$;
select pg_temp.make_contract('44000000-0000-4000-8000-000000000001', 'LV-2027-0901', tests.get_user_id('holder'),
  current_setting('tests.season')::uuid, 120000, 1, 'bank_transfer');
select pg_temp.make_contract('44000000-0000-4000-8000-000000000002', 'LV-2027-0902', tests.get_user_id('payer'),
  current_setting('tests.season')::uuid, 120000, 1, 'bank_transfer');
select pg_temp.make_contract('44000000-0000-4000-8000-000000000003', 'LV-2027-0903', tests.get_user_id('english'),
  current_setting('tests.season')::uuid, 120000, 1, 'sepa_debit');
-- One instalment each, due on the season's first day (1 April 2027), paid by transfer.
select set_config('tests.f_holder', (select f.id::text from private.create_season_fees('44000000-0000-4000-8000-000000000001', 'LV-2027-0901',
  tests.get_user_id('holder'), null, current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb, 120000, 1, 'bank_transfer') f), true);
select set_config('tests.f_payer', (select f.id::text from private.create_season_fees('44000000-0000-4000-8000-000000000002', 'LV-2027-0902',
  tests.get_user_id('payer'), null, current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb, 120000, 1, 'bank_transfer') f), true);
select set_config('tests.f_english', (select f.id::text from private.create_season_fees('44000000-0000-4000-8000-000000000003', 'LV-2027-0903',
  tests.get_user_id('english'), null, current_setting('tests.season')::uuid, current_setting('tests.lines')::jsonb, 120000, 1, 'sepa_debit') f), true);

-- The payer pays in time.
select tests.authenticate_as('harbour');
select is((public.record_fee_transfer(current_setting('tests.f_payer')::uuid, 120000, gen_random_uuid()) ->> 'state'), 'paid', 'the payer pays in time');
select tests.clear_authentication();

-- ------------------------------------------------------------------ not yet
select private.freeze_clock('2027-04-01 12:00+02');
select is(private.send_fee_reminders(), 0, 'on the due day nothing is overdue');
select private.freeze_clock('2027-04-03 12:00+02');
select is((select days_overdue from private.overdue_fees(tests.get_user_id('holder'))), 2, 'two days later the fee is two days overdue');
select is(private.send_fee_reminders(), 0, 'two days overdue: no reminder yet (first after 3)');

-- A SEPA debit in flight is not overdue; once it failed the fee is owed again.
update public.long_term_fees set debit_state = 'processing', payment_intent = 'pi_R3' where id = current_setting('tests.f_english')::uuid;
select is_empty($$ select 1 from private.overdue_fees(tests.get_user_id('english')) $$, 'a debit being processed is not overdue');

-- ------------------------------------------------------------------ first reminder
select private.freeze_clock('2027-04-04 06:30+02');
select is(private.send_fee_reminders(), 1, 'three days overdue: one first reminder (the holder''s; not the paid fee, not the debit in flight)');
select is(private.send_fee_reminders(), 0, 'a second run the same day sends nothing');
select private.freeze_clock('2027-04-04 18:30+02');
select is(private.send_fee_reminders(), 0, 'nor a run later that day');
select results_eq($$ select fee_id::text, stage::int, sent_on, days_overdue, balance_cents from public.fee_reminders order by id $$,
  $$ values (current_setting('tests.f_holder'), 1, '2027-04-04'::date, 3, 120000::bigint) $$,
  'the log: stage 1 for the holder''s fee, 3 days overdue, 1,200.00 EUR open');
select is((select count(*)::int from public.outbox where kind = 'fee_reminder' and recipient = 'holder@test.local'), 1, 'one e-mail to the holder');
select matches((select subject from public.outbox where kind = 'fee_reminder' and recipient = 'holder@test.local'), '^Zahlungserinnerung: Rechnung ',
  'in German: "Zahlungserinnerung: Rechnung …"');
select matches((select body_text from public.outbox where kind = 'fee_reminder' and recipient = 'holder@test.local'),
  'vielleicht ist es Ihnen entgangen.*1\.200,00 €.*IBAN DE', 'friendly, with the open amount and the IBAN');
select is((select count(*)::int from public.outbox where kind = 'fee_reminder' and recipient = 'payer@test.local'), 0, 'nothing to the payer who paid');

-- The debit fails: the fee is owed again (since its due day) and reminded on the next run, in English.
update public.long_term_fees set debit_state = 'failed', debit_failure = 'insufficient_funds' where id = current_setting('tests.f_english')::uuid;
select private.freeze_clock('2027-04-05 06:30+02');
select is(private.send_fee_reminders(), 1, 'a failed debit makes the fee overdue again: its first reminder');
select matches((select subject from public.outbox where kind = 'fee_reminder' and recipient = 'english@test.local'), '^Payment reminder: invoice ',
  'in the holder''s language: English');
select matches((select body_text from public.outbox where kind = 'fee_reminder' and recipient = 'english@test.local'),
  'EUR 1,200\.00', 'with the amount as English writes it');

-- ------------------------------------------------------------------ door code within and after the grace period
select private.freeze_clock('2027-04-15 12:00+02');
select tests.authenticate_as('holder');
select is(public.harbour_access_allowed(), true, '14 days overdue (the grace period): the holder still sees the door code');
select is((public.my_fee_access_hold() ->> 'withheld')::boolean, false, 'and the page knows the fee is overdue but not yet withheld');
select is(public.my_fee_access_hold() ->> 'withheld_from', '2027-04-16', 'and from which day it would be');
select tests.clear_authentication();
select private.freeze_clock('2027-04-16 12:00+02');
select tests.authenticate_as('holder');
select is(public.harbour_access_allowed(), false, '15 days overdue: the door code and wifi are withheld');
select throws_ok($$ select * from public.harbour_access() $$, '42501', 'fee_overdue_access_withheld', 'asked directly: a clear code, not a blank');
select is((public.my_fee_access_hold() ->> 'withheld')::boolean, true, 'the page learns why');
select results_eq($$ select (public.my_fee_access_hold() ->> 'open_cents')::bigint, jsonb_array_length(public.my_fee_access_hold() -> 'fees') $$,
  $$ values (120000::bigint, 1) $$, 'with the open amount and the fee');
select tests.authenticate_as('payer');
select is(public.harbour_access_allowed(), true, 'a holder who paid keeps the door code');
select is(public.my_fee_access_hold(), null, 'and has nothing overdue');
select tests.authenticate_as('harbour');
select results_eq($$ select door_code from public.harbour_access() $$, $$ values ('4711#') $$, 'staff still see everything');
select results_eq($$ select reference, days_overdue, reminder_stage::int, door_code_withheld from public.overdue_fees_overview() order by reference $$,
  $$ values ('LV-2027-0901', 15, 1, true), ('LV-2027-0903', 15, 1, true) $$,
  'staff list the overdue fees with days overdue, reminder stage and the withheld door code');
select tests.authenticate_as('holder');
select throws_ok($$ select * from public.overdue_fees_overview() $$, '42501', 'staff_only', 'a holder cannot list them');

-- ------------------------------------------------------------------ second reminder
select tests.clear_authentication();
select private.freeze_clock('2027-04-17 06:30+02');
select is(private.send_fee_reminders(), 0, '13 days after the first reminder: no second yet');
select private.freeze_clock('2027-04-18 06:30+02');
select is(private.send_fee_reminders(), 1, '14 days after the first: the second reminder (the holder''s)');
select is(private.send_fee_reminders(), 0, 'not again on a second run');
select matches((select subject from public.outbox where kind = 'fee_reminder' and recipient = 'holder@test.local' order by id desc limit 1),
  '^2\. Zahlungserinnerung', 'the second reminder says so');
select private.freeze_clock('2027-05-30 06:30+02');
select is(private.send_fee_reminders(), 1, 'later only the English holder''s second reminder; no third stage');
select is((select count(*)::int from public.fee_reminders where fee_id = current_setting('tests.f_holder')::uuid), 2,
  'the holder''s fee: exactly one reminder per stage');

-- ------------------------------------------------------------------ paid: the door code again
select tests.authenticate_as('harbour');
select is((public.record_fee_transfer(current_setting('tests.f_holder')::uuid, 120000, gen_random_uuid()) ->> 'state'), 'paid', 'the holder pays');
select results_eq($$ select reference from public.overdue_fees_overview() $$, $$ values ('LV-2027-0903') $$, 'the paid fee leaves the overdue list');
select tests.authenticate_as('holder');
select is(public.harbour_access_allowed(), true, 'paid: the door code is shown again');
select results_eq($$ select door_code from public.harbour_access() $$, $$ values ('4711#') $$, 'and reads as before');

-- ------------------------------------------------------------------ the log: who reads it, nobody changes it
select is((select count(*)::int from public.fee_reminders), 2, 'the holder reads the reminders of their own fee');
select tests.authenticate_as('payer');
select is_empty($$ select 1 from public.fee_reminders $$, 'another holder reads none');
select throws_ok($$ insert into public.fee_reminders (fee_id, stage, sent_on, days_overdue, balance_cents)
                   values (current_setting('tests.f_payer')::uuid, 1, '2027-05-30', 1, 1) $$, '42501', null, 'nobody writes it through the API');
select tests.authenticate_as('harbour');
select is((select count(*)::int from public.fee_reminders), 4, 'staff read all');
select tests.clear_authentication();
select throws_ok($$ update public.fee_reminders set stage = 2 where stage = 1 $$, '42501', 'fee_reminders_immutable', 'the log is append-only, even for the owner');

select tests.authenticate_as('holder');
select throws_ok($$ select private.send_fee_reminders() $$, '42501', null, 'the job is not callable through the API');
select tests.clear_authentication();
select ok(to_regclass('cron.job') is null
          or exists (select 1 from cron.job where jobname = 'fee-reminders' and schedule = '30 5 * * *'
                     and command = 'select private.send_fee_reminders()'),
  'scheduled daily (the local scheduler runs cron.job as pg_cron does)');

select * from finish();
rollback;
