-- Insurance certificates and registration marks of long-term holders (issue 42 item 3, ADR
-- 0050): the write rules, who reads what (table and bucket), the staff list of who is missing
-- one, and the reminder 30 days before expiry, once per certificate, not for an expired one.
begin;
select plan(33);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length) values ('V1', 4, 12), ('V2', 4, 12), ('V3', 4, 12);
select tests.create_user('holder');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);
update public.profiles set locale = 'en' where id = tests.get_user_id('other');
insert into public.long_term_holders (place_id, user_id, email, first_name, last_name, starts_on, ends_on, boat_name, boat_tag)
values (tests.place_id('V1'), tests.get_user_id('holder'), 'holder@example.org', 'Hanna', 'Halter', '2027-04-01', null, 'Möwe', null),
       (tests.place_id('V2'), tests.get_user_id('other'), 'other@example.org', 'Otto', 'Other', '2027-04-01', null, 'Lotte', 'D-4711'),
       (tests.place_id('V3'), tests.get_user_id('holder'), 'holder@example.org', 'Hanna', 'Halter', '2026-04-01', '2026-09-30', 'Alt', null);
select set_config('tests.h1', (select id::text from public.long_term_holders where boat_name = 'Möwe'), true);
select set_config('tests.h2', (select id::text from public.long_term_holders where boat_name = 'Lotte'), true);
select set_config('tests.h3', (select id::text from public.long_term_holders where boat_name = 'Alt'), true);

select results_eq(
  $$ select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'insurance-certificates' $$,
  $$ values (false, 5242880::bigint, array['application/pdf', 'image/jpeg', 'image/png', 'image/webp']) $$,
  'a private bucket, 5 MB, PDF or image');

-- Uploads: into the own current holding's folder only.
select tests.authenticate_as('holder');
select lives_ok(format($$ insert into storage.objects (bucket_id, name) values ('insurance-certificates', '%s/police-2027.pdf') $$, current_setting('tests.h1')),
  'a holder uploads into the own holding''s folder');
select throws_ok(format($$ insert into storage.objects (bucket_id, name) values ('insurance-certificates', '%s/x.pdf') $$, current_setting('tests.h2')),
  '42501', null, 'not into another holder''s folder');
select throws_ok(format($$ insert into storage.objects (bucket_id, name) values ('insurance-certificates', '%s/x.pdf') $$, current_setting('tests.h3')),
  '42501', null, 'nor into an ended holding''s folder');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('insurance-certificates', 'loose.pdf') $$,
  '42501', null, 'nor outside a folder');

-- The write rules.
select throws_ok(format($$ select public.add_insurance_certificate('%s', '', 'P-1', '2028-03-31', '%s/police-2027.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  '22023', 'insurance_insurer_invalid', 'the insurer is required');
select throws_ok(format($$ select public.add_insurance_certificate('%s', repeat('x', 101), 'P-1', '2028-03-31', '%s/police-2027.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  '22023', 'insurance_insurer_invalid', 'at most 100 characters');
select throws_ok(format($$ select public.add_insurance_certificate('%s', 'Pantaenius', ' ', '2028-03-31', '%s/police-2027.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  '22023', 'insurance_policy_invalid', 'the policy number is required');
select throws_ok(format($$ select public.add_insurance_certificate('%s', 'Pantaenius', 'P-1', '2027-05-10', '%s/police-2027.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  '22023', 'insurance_valid_until_past', 'valid until today is not in the future');
select throws_ok(format($$ select public.add_insurance_certificate('%s', 'Pantaenius', 'P-1', '2028-03-31', '%s/police-2027.pdf') $$, current_setting('tests.h1'), current_setting('tests.h2')),
  '22023', 'insurance_file_invalid', 'the file must be inside the holding''s folder');
select throws_ok(format($$ select public.add_insurance_certificate('%s', 'Pantaenius', 'P-1', '2028-03-31', '%s/../x.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  '22023', 'insurance_file_invalid', 'no path tricks');
select throws_ok(format($$ select public.add_insurance_certificate('%s', 'Pantaenius', 'P-1', '2028-03-31', '%s/never-uploaded.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  '22023', 'insurance_file_invalid', 'the file must have been uploaded');
select throws_ok(format($$ select public.add_insurance_certificate('%s', 'Pantaenius', 'P-1', '2028-03-31', '%s/police-2027.pdf') $$, current_setting('tests.h2'), current_setting('tests.h2')),
  'PT404', 'holding_not_found', 'not for another holder''s holding');
select lives_ok(format($$ select public.add_insurance_certificate('%s', '  Pantaenius  ', 'P-1', '2027-06-10', '%s/police-2027.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  'a valid certificate is recorded');
select throws_ok(format($$ select public.add_insurance_certificate('%s', 'Pantaenius', 'P-2', '2028-06-09', '%s/police-2027.pdf') $$, current_setting('tests.h1'), current_setting('tests.h1')),
  '22023', 'insurance_file_invalid', 'one file belongs to one certificate');
select throws_ok($$ update public.holder_insurance_certificates set valid_until = '2030-01-01' $$, '42501', null, 'the holder cannot change a certificate');
select throws_ok($$ insert into public.holder_insurance_certificates (holder_id, insurer, policy_number, valid_until, file_path) values
  (current_setting('tests.h1')::uuid, 'X', 'Y', '2030-01-01', 'z') $$, '42501', null, 'nor write one directly');

select throws_ok(format($$ select public.set_registration_mark('%s', 'D') $$, current_setting('tests.h1')),
  '22023', 'registration_mark_invalid', 'a registration mark has at least 2 characters');
select throws_ok(format($$ select public.set_registration_mark('%s', 'D-1234; drop') $$, current_setting('tests.h1')),
  '22023', 'registration_mark_invalid', 'letters, digits, space, dot, hyphen, slash');
select is((public.set_registration_mark(current_setting('tests.h1')::uuid, ' k-ab   123 ')).boat_tag, 'K-AB 123',
  'the mark is trimmed and upper case, kept in long_term_holders.boat_tag');
select throws_ok(format($$ select public.set_registration_mark('%s', 'D-1') $$, current_setting('tests.h2')),
  'PT404', 'holding_not_found', 'not on another holder''s holding');

-- Who reads what.
select results_eq($$ select insurer, valid_until from public.holder_insurance_certificates $$,
  $$ values ('Pantaenius', '2027-06-10'::date) $$, 'the holder reads the own certificate (insurer trimmed)');
select tests.authenticate_as('other');
select is_empty($$ select * from public.holder_insurance_certificates $$, 'another holder does not');
select is_empty($$ select * from storage.objects where bucket_id = 'insurance-certificates' $$, 'nor the file');
select throws_ok($$ select * from public.holders_missing_insurance() $$, '42501', 'staff_only', 'the staff list is for staff');

select tests.authenticate_as('harbour');
select is((select count(*) from storage.objects where bucket_id = 'insurance-certificates'), 1::bigint, 'staff read the file');
select results_eq($$ select place_name, missing_certificate, missing_mark from public.holders_missing_insurance() $$,
  $$ values ('V2', true, false) $$,
  'staff see the holder without a certificate (not the ended holding, not the complete one)');
select tests.clear_authentication();

-- The reminder: 30 days before valid_until (2027-06-10), once, in the holder's language.
select is(private.send_insurance_reminders(), 0, '31 days before, nothing yet');
select private.freeze_clock('2027-05-11 07:00+00');
select is(private.send_insurance_reminders() * 10 + private.send_insurance_reminders(), 10,
  '30 days before, one reminder; run again, none');
select results_eq($$ select recipient, locale, subject like 'Ihre Bootsversicherung läuft am 10.06.2027 ab%' from public.outbox where kind = 'insurance_reminder' $$,
  $$ values ('holder@example.org', 'de', true) $$, 'to the holder, in German');
-- An expired certificate gets none (another holder's, reminder window long past).
select private.freeze_clock('2027-06-20 07:00+00');
insert into public.holder_insurance_certificates (holder_id, insurer, policy_number, valid_until, file_path)
values (current_setting('tests.h2')::uuid, 'HDI', 'H-9', '2027-06-19', current_setting('tests.h2') || '/alt.pdf');
select is(private.send_insurance_reminders(), 0, 'no reminder for an expired certificate');

select tests.authenticate_as('holder');
select throws_ok($$ select private.send_insurance_reminders() $$, '42501', null, 'not callable through the API');
select tests.clear_authentication();
select ok(to_regclass('cron.job') is null
          or exists (select 1 from cron.job where jobname = 'insurance-reminders' and command = 'select private.send_insurance_reminders()'),
  'scheduled daily');

select * from finish();
rollback;
