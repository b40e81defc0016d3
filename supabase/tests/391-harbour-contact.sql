-- The harbour's phone and e-mail (issue 23): everyone reads them through harbour_intro(), only
-- admins change them, and the database refuses a number or an address that cannot be one.
begin;
select plan(17);

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

select tests.authenticate_as_anon();
select is((select public.harbour_intro() ->> 'phone'), '+49 211 1234560', 'a visitor reads the phone (the migration''s default)');
select is((select public.harbour_intro() ->> 'email'), 'hafen@hafen-duesseldorf.example', 'a visitor reads the e-mail');
update public.harbour_settings set contact_phone = '+49 1 2345678';

select tests.authenticate_as('customer');
update public.harbour_settings set contact_phone = '+49 30 1111111', contact_email = 'kunde@example.com';
select tests.authenticate_as('harbour');
update public.harbour_settings set contact_phone = '+49 30 2222222', contact_email = 'team@example.com';
select tests.authenticate_as_anon();
select is((select public.harbour_intro() ->> 'phone'), '+49 211 1234560', 'visitors, customers and harbour staff change nothing');
select is((select public.harbour_intro() ->> 'email'), 'hafen@hafen-duesseldorf.example', 'nor the e-mail');

select tests.authenticate_as('admin');
update public.harbour_settings set contact_phone = '+49 (0)211 98765-43', contact_email = 'buero@yachthafen.example';
select tests.authenticate_as_anon();
select is((select public.harbour_intro() ->> 'phone'), '+49 (0)211 98765-43', 'an admin''s phone is what visitors read');
select is((select public.harbour_intro() ->> 'email'), 'buero@yachthafen.example', 'and the admin''s e-mail');

select tests.authenticate_as('admin');
select throws_ok($$ update public.harbour_settings set contact_phone = '0211 1234560' $$, '23514', null, 'a number without + and country code is refused');
select throws_ok($$ update public.harbour_settings set contact_phone = '+49 211' $$, '23514', null, 'too few digits');
select throws_ok($$ update public.harbour_settings set contact_phone = '+49 211 1234567890123' $$, '23514', null, 'more than 15 digits (E.164)');
select throws_ok($$ update public.harbour_settings set contact_phone = '+49 211 CALL-NOW' $$, '23514', null, 'letters are refused');
select throws_ok($$ update public.harbour_settings set contact_phone = '' $$, '23514', null, 'the phone is required');
select throws_ok($$ update public.harbour_settings set contact_email = 'hafen.example' $$, '23514', null, 'an e-mail without @ is refused');
select throws_ok($$ update public.harbour_settings set contact_email = 'hafen@local' $$, '23514', null, 'an e-mail without a domain is refused');
select throws_ok($$ update public.harbour_settings set contact_email = '' $$, '23514', null, 'the e-mail is required');
select lives_ok($$ update public.harbour_settings set contact_phone = '+31 20-555 0100', contact_email = 'info@haven.example.nl' $$, 'a Dutch number with hyphen and space');
select lives_ok($$ update public.harbour_settings set contact_phone = '+4921112345' $$, 'digits only after the +');
select ok(not (public.harbour_intro() ? 'door_code'), 'the door code is still not part of it');

select tests.clear_authentication();
select * from finish();
rollback;
