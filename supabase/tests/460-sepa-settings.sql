-- The SEPA creditor settings (supabase/schemas/63_long_term_fees.sql, public.save_sepa_settings;
-- docs/adr/0048): admins only; the creditor identifier by the EPC's structure and its ISO 7064
-- MOD 97-10 check digits (the creditor business code, positions 5-7, not part of the check); the
-- pre-notification whole days from 1 to 30; a saved value is what the next pre-notification and
-- collection day use.
begin;
select plan(24);
select tests.create_user('sepa_harbour', array['harbor']);
select tests.create_user('sepa_admin', array['admin']);
select tests.create_user('sepa_customer');

select ok(private.sepa_creditor_id_valid('DE98ZZZ09999999999'), 'the Bundesbank''s test creditor identifier is valid');
select ok(not private.sepa_creditor_id_valid('DE97ZZZ09999999999'), 'a wrong check digit is refused');
select ok(not private.sepa_creditor_id_valid('DE98ZZZ09999999998'), 'a changed national identifier is refused');
select ok(private.sepa_creditor_id_valid('DE98ABC09999999999'), 'the creditor business code is not part of the check');
select ok(not private.sepa_creditor_id_valid('DE98ZZZ0999999999'), 'a German creditor identifier has 18 characters');
select ok(private.sepa_creditor_id_valid('NL69ZZZ123456780000'), 'a valid Dutch creditor identifier');
select ok(not private.sepa_creditor_id_valid('de98zzz09999999999'), 'only the normalised form');
select ok(not private.sepa_creditor_id_valid('DE02120300000000202051'), 'an IBAN is not a creditor identifier');
select ok(private.iban_valid('DE02120300000000202051'), 'the IBAN check shares the MOD 97-10 rule and still holds');

select tests.authenticate_as_anon();
select throws_ok($$ select public.sepa_settings() $$, '42501', null, 'anon reads no SEPA settings');
select tests.authenticate_as('sepa_customer');
select throws_ok($$ select public.save_sepa_settings('DE98ZZZ09999999999', 14) $$, '42501', null, 'a customer changes nothing');
select tests.authenticate_as('sepa_harbour');
select throws_ok($$ select public.sepa_settings() $$, '42501', 'admin_only', 'harbour staff read no SEPA settings');
select throws_ok($$ select public.save_sepa_settings('DE98ZZZ09999999999', 10) $$, '42501', 'admin_only', 'harbour staff change nothing');

select tests.authenticate_as('sepa_admin');
select is(public.sepa_settings(), '{"creditor_id": "DE98ZZZ09999999999", "prenotification_days": 14}'::jsonb,
  'the admin reads the demo creditor identifier and the rulebook''s 14 days');
select throws_ok($$ select public.save_sepa_settings('DE97ZZZ09999999999', 14) $$, '22023', 'sepa_invalid_setting',
  'a creditor identifier with wrong check digits is refused');
select throws_ok($$ select public.save_sepa_settings('', 14) $$, '22023', 'sepa_invalid_setting', 'the creditor identifier is required');
select throws_ok($$ select public.save_sepa_settings(null, 14) $$, '22023', 'sepa_invalid_setting', 'null is refused, not stored');
select throws_ok($$ select public.save_sepa_settings('DE98ZZZ09999999999', 0) $$, '22023', 'sepa_invalid_setting',
  'at least one day between the pre-notification and the debit');
select throws_ok($$ select public.save_sepa_settings('DE98ZZZ09999999999', 31) $$, '22023', 'sepa_invalid_setting', 'at most 30 days');
select throws_ok($$ select public.save_sepa_settings('DE98ZZZ09999999999', null) $$, '22023', 'sepa_invalid_setting', 'the days are required');
select is(public.sepa_settings(), '{"creditor_id": "DE98ZZZ09999999999", "prenotification_days": 14}'::jsonb,
  'a refused save changed nothing');

select is(public.save_sepa_settings(' nl69 zzz1 2345 6780 000 ', 5),
  '{"creditor_id": "NL69ZZZ123456780000", "prenotification_days": 5}'::jsonb,
  'a valid identifier is stored without spaces in capitals, with the days');
select tests.clear_authentication();
select is(private.setting('sepa_creditor_id'), 'NL69ZZZ123456780000', 'the pre-notification names the new creditor identifier');
select is(private.setting_int('sepa_prenotification_days', 14), 5, 'the next collection day is counted with the new days');

select * from finish();
rollback;
