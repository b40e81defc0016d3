-- The start page's introduction (issue 23): everyone reads it through harbour_intro(), only
-- admins change it, and the database refuses values that make no sense.
begin;
select plan(12);

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

select tests.authenticate_as_anon();
select is((select public.harbour_intro() ->> 'address_street'), 'Speditionstraße 25', 'a visitor reads the address');
select is((select public.harbour_intro() ->> 'office_weekdays_opens'), '08:00', 'office hours as HH:MI');
select is((select (public.harbour_intro() ->> 'rhine_km')::numeric), 744.0, 'the Rhine km');
select ok(not (public.harbour_intro() ? 'door_code'), 'the door code is not part of it');

select tests.authenticate_as('customer');
update public.harbour_settings set address_city = 'Köln';
select tests.authenticate_as('harbour');
update public.harbour_settings set address_city = 'Köln';
select tests.authenticate_as('admin');
select is((select public.harbour_intro() ->> 'address_city'), 'Düsseldorf', 'customers and harbour staff change nothing');
update public.harbour_settings set vhf_channel = 72, water_approach_en = 'Moor at the head pier.';
select tests.authenticate_as_anon();
select is((select public.harbour_intro() ->> 'water_approach_en'), 'Moor at the head pier.', 'an admin''s change is what visitors read');

select tests.authenticate_as('admin');
select throws_ok($$ update public.harbour_settings set vhf_channel = 0 $$, '23514', null, 'no VHF channel 0');
select throws_ok($$ update public.harbour_settings set rhine_km = 1200 $$, '23514', null, 'the Rhine has no km 1200');
select throws_ok($$ update public.harbour_settings set latitude = null $$, '23514', null, 'a position is both coordinates or neither');
select throws_ok($$ update public.harbour_settings set office_weekdays_opens = '19:00' $$, '23514', null, 'the office opens before it closes');
select throws_ok($$ update public.harbour_settings set office_weekend_closes = null $$, '23514', null, 'closed is both times empty');
select lives_ok($$ update public.harbour_settings set office_weekend_opens = null, office_weekend_closes = null, vhf_channel = null, rhine_km = null $$, 'closed at weekends, no VHF, no km');

select tests.clear_authentication();
select * from finish();
rollback;
