-- Sale-code guessing per client address (supabase/schemas/30_sale_codes.sql, security issue 13): wrong
-- codes count per user (5 per 15 minutes) and per client address from request.headers (30 per
-- hour), so new sessions from one address do not start a new count. Staff are not counted per
-- address; a call without request headers (no API request) has no address.
begin;
select plan(15);
select private.freeze_clock('2027-03-01 10:00+01');

insert into public.sale_codes (code, value) values ('RHEIN5', 500);
insert into public.places (name, width, length, one_day) values ('Z1', 4, 12, false);
select tests.create_user('g' || n, p_anonymous => true) from generate_series(1, 9) n;
select tests.create_user('harbour', array['harbor']);

-- A session of `p_user` whose requests come from `p_address` (as the gateway passes it).
create function tests.act_as(p_user text, p_address text) returns void language plpgsql as $$
begin
  perform tests.authenticate_as(p_user);
  perform set_config('request.headers',
    case when p_address is null then '' else json_build_object('x-forwarded-for', p_address, 'x-real-ip', p_address)::text end, true);
end
$$;
-- `p_count` wrong codes quoted by that session; returns how many were answered "not valid".
create function tests.wrong_codes(p_user text, p_address text, p_count int) returns bigint language plpgsql as $$
declare
  v_false bigint := 0;
begin
  perform tests.act_as(p_user, p_address);
  for i in 1..p_count loop
    if public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'FALSCH' || p_user || i)
         ->> 'sale_code_valid' = 'false' then
      v_false := v_false + 1;
    end if;
  end loop;
  return v_false;
end
$$;
grant execute on function tests.act_as(text, text), tests.wrong_codes(text, text, int) to anon, authenticated;

-- ---------------------------------------------------------------- the address
select set_config('request.headers', '{"x-forwarded-for":"203.0.113.7, 10.0.0.1","x-real-ip":"10.9.9.9"}', true);
select is(private.request_client_address(), '203.0.113.7'::inet, 'the left-most X-Forwarded-For hop (the client, as the gateway writes it)');
select set_config('request.headers', '{"x-real-ip":"2001:db8::5"}', true);
select is(private.request_client_address(), '2001:db8::5'::inet, 'else X-Real-IP');
select set_config('request.headers', '{"x-forwarded-for":"nonsense"}', true);
select is(private.request_client_address(), null, 'a value that is not an address is no address');
select set_config('request.headers', '', true);
select is(private.request_client_address(), null, 'outside an API request there is no address');

-- ---------------------------------------------------------------- the count per address
select is((select sum(tests.wrong_codes('g' || n, '203.0.113.7', 4)) from generate_series(1, 7) n), 28::numeric,
  'seven guest sessions from one address: four wrong codes each, all answered (under the 5 per session)');
select is(tests.wrong_codes('g8', '203.0.113.7', 2), 2::bigint, 'an eighth session: the 29th and 30th wrong code are answered');
select tests.act_as('g8', '203.0.113.7');
select throws_ok($$ select public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') $$,
  'P0001', 'sale_code_throttled_network', 'after 30 wrong codes in an hour from an address even the right code is refused');
select tests.act_as('g9', '203.0.113.7');
select throws_ok($$ select public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'FALSCH') $$,
  'P0001', 'sale_code_throttled_network', 'a new session from that address is refused as well');
select throws_ok($$ select public.create_booking(tests.place_id('Z1'), 'overnight', '2027-03-10', '{"name":"Boot","length":7,"width":2.5}',
    '{"first_name":"G","last_name":"Gast","email":"g@example.org"}', p_departure => '2027-03-11', p_sale_code => 'RHEIN5') $$,
  'P0001', 'sale_code_not_checked', 'create_booking is no way around it: a code this session has not quoted is refused, whatever it is (20261122003200)');
select tests.act_as('g9', '203.0.113.8');
select is(public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') ->> 'sale_code_valid',
  'true', 'the same session from another address is not throttled');
select tests.act_as('g9', null);
select is(public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') ->> 'sale_code_valid',
  'true', 'without an address only the per-session count applies');
select is(tests.wrong_codes('harbour', '203.0.113.7', 1), 1::bigint, 'harbour staff at the desk are not counted per address');

select tests.clear_authentication();
select is((select count(*) from private.sale_code_attempts where client_address = '203.0.113.7'), 30::bigint,
  'the wrong codes are recorded with their address (staff''s without)');
select is((select count(*) from private.sale_code_attempts where client_address = '203.0.113.8'), 0::bigint,
  'a right code is not recorded');

select private.freeze_clock('2027-03-01 11:01+01');
select tests.act_as('g9', '203.0.113.7');
select is(public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') ->> 'sale_code_valid',
  'true', 'an hour later the address may try again');

select tests.clear_authentication();
select * from finish();
rollback;
