-- Sale-code guessing through create_booking (supabase/schemas/30_sale_codes.sql and 33_booking.sql, security issue 13): a
-- wrong code made create_booking raise, which rolled back the row counting the wrong guess, so
-- guesses there were never throttled. Now create_booking takes a code only if the same session
-- had it answered "valid" by quote_booking (which counts wrong codes and commits) within 24
-- hours, and answers any other code with the same `sale_code_not_checked`, before looking it up.
begin;
select plan(17);
select private.freeze_clock('2027-04-01 10:00+02');

insert into public.sale_codes (code, value) values ('RHEIN5', 500);
insert into public.places (name, width, length, one_day) values ('C1', 4, 12, false), ('C2', 4, 12, false), ('C3', 4, 12, false), ('C4', 4, 12, false);
select tests.create_user('g' || n, p_anonymous => true) from generate_series(1, 6) n;
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

-- create_booking on berth `p_berth` (2 nights from 10 April) with `p_code`: 'booked <price> <code>' or 'SQLSTATE message'.
create function tests.book(p_berth text, p_code text) returns text language plpgsql as $$
declare
  v_order public.orders;
begin
  v_order := public.create_booking(tests.place_id(p_berth), 'overnight', '2027-04-10',
    '{"name": "Möwe", "length": 9, "width": 3}', '{"first_name": "G", "last_name": "Ast", "email": "g@test.local"}',
    p_departure => '2027-04-12', p_sale_code => p_code);
  return 'booked ' || v_order.price_cents || ' ' || coalesce(v_order.sale_code, '-');
exception when others then
  return sqlstate || ' ' || sqlerrm;
end
$$;
-- The quote for the same stay; returns its answer (sale_code_valid, gross_cents).
create function tests.quote(p_code text) returns jsonb language sql as $$
  select public.quote_booking('overnight', '2027-04-10', 9, p_departure => '2027-04-12', p_sale_code => p_code)
$$;
-- `p_count` guesses through create_booking by the current session, the valid code among them.
create function tests.guesses(p_count int) returns setof text language plpgsql as $$
begin
  for i in 1..p_count loop
    return next tests.book('C1', case when i = p_count / 2 then 'RHEIN5' else 'RATE' || i end);
  end loop;
end
$$;
grant execute on function tests.book(text, text), tests.quote(text), tests.guesses(int) to anon, authenticated;

-- ---------------------------------------------------------------- without a prior quote
select tests.authenticate_as('g1');
select is(tests.book('C1', 'FALSCH'), 'P0001 sale_code_not_checked', 'a wrong code the session has not quoted: sale_code_not_checked');
select is(tests.book('C1', 'RHEIN5'), 'P0001 sale_code_not_checked', 'a valid code the session has not quoted: the same answer');
select results_eq($$ select distinct g from tests.guesses(60) g $$, $$ values ('P0001 sale_code_not_checked') $$,
  '60 guesses through create_booking (the valid code among them): all answered alike, none books');
select is((select count(*) from public.orders where user_id = auth.uid()), 0::bigint, 'no order was made');
select is(tests.quote('FALSCH') ->> 'sale_code_valid', 'false', 'the session may still check codes through quote_booking');
select is(tests.book('C1', 'FALSCH'), 'P0001 sale_code_not_checked', 'a code quoted as wrong does not unlock create_booking');

-- ---------------------------------------------------------------- another session's quote
select tests.authenticate_as('g2');
select is(tests.quote('RHEIN5') ->> 'sale_code_valid', 'true', 'g2 quotes the valid code');
select tests.authenticate_as('g1');
select is(tests.book('C1', 'RHEIN5'), 'P0001 sale_code_not_checked', 'a code quoted by another session does not count');

-- ---------------------------------------------------------------- with a prior quote
select tests.authenticate_as('g2');
select is(tests.book('C1', ' rhein5 '), 'booked ' || (tests.quote('RHEIN5') ->> 'gross_cents') || ' RHEIN5',
  'after its quote the session books with the code, at the quoted (discounted) price');
select ok((tests.quote('RHEIN5') ->> 'gross_cents')::int < (tests.quote(null) ->> 'gross_cents')::int, 'the quoted price is the discounted one');

select tests.authenticate_as('g3');
select public.search_available_places('overnight', '2027-04-10', 9, 3, p_departure => '2027-04-12', p_sale_code => 'Rhein5') limit 1;
select alike(tests.book('C2', 'RHEIN5'), 'booked % RHEIN5', 'a search with the code counts as its quote');

-- ---------------------------------------------------------------- a throttled session learns nothing either
select tests.authenticate_as('g4');
select tests.quote('FALSCH' || n) from generate_series(1, 5) n;
select throws_ok($$ select tests.quote('RHEIN5') $$, 'P0001', 'sale_code_throttled', 'after 5 wrong codes quote_booking refuses');
select is(tests.book('C3', 'RHEIN5'), 'P0001 sale_code_not_checked', 'and create_booking tells nothing about the code');

-- ---------------------------------------------------------------- 24 hours
select tests.authenticate_as('g5');
select is(tests.quote('RHEIN5') ->> 'sale_code_valid', 'true', 'g5 quotes the code');
select tests.clear_authentication();
select private.freeze_clock('2027-04-02 10:01+02');
select tests.authenticate_as('g5');
select is(tests.book('C3', 'RHEIN5'), 'P0001 sale_code_not_checked', 'a quote older than 24 hours no longer counts');

-- ---------------------------------------------------------------- staff are trusted
select tests.authenticate_as('harbour');
select is((public.staff_create_booking(tests.place_id('C4'), 'overnight', '2027-04-10',
    '{"name": "Möwe", "length": 9, "width": 3}', '{"first_name": "W", "last_name": "Alk-in"}',
    p_departure => '2027-04-12', p_sale_code => 'RHEIN5')).sale_code, 'RHEIN5',
  'staff_create_booking takes a code without a prior quote (staff are trusted; the walk-in page quotes first anyway)');
select tests.clear_authentication();
select is((select count(*) from private.sale_code_checks where checked_at <= private.now() - interval '24 hours'), 0::bigint,
  'checks older than 24 hours are pruned when a code is checked');

select * from finish();
rollback;
