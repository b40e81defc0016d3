-- Booking numbers people can read out (issue 22): every order gets HD-<yy>-<4 characters>
-- without 0/O, 1/I/L or U on insert, unique; e-mails, the .ics and Stripe carry it; staff find
-- the order by it; nobody sets or changes it through the API.
begin;
select plan(10);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values ('N1', 4, 12, false, false), ('N2', 4, 12, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('N1'), 'overnight', '2027-05-20', '{"name": "Nummer", "length": 9, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde"}', '2027-05-21');
select tests.clear_authentication();
select set_config('tests.order', id::text, true) from public.orders where boat ->> 'name' = 'Nummer';
select set_config('tests.number', booking_number, true) from public.orders where boat ->> 'name' = 'Nummer';

select matches(current_setting('tests.number'), '^HD-' || to_char(now() at time zone 'Europe/Berlin', 'YY') || '-[2-9A-HJKMNP-TV-Z]{4}$',
  'a booking gets HD-<year>-<4 unambiguous characters>');
-- 2,000 more numbers (drawn, not stored): all well-formed, spread over the alphabet.
create temp table drawn as select private.new_booking_number(now()) as n from generate_series(1, 2000);
select is((select count(*)::integer from drawn where n ~ '^HD-[0-9]{2}-[2-9A-HJKMNP-TV-Z]{4}$'), 2000, 'numbers drawn are well-formed');
select is((select count(distinct c)::integer from drawn, regexp_split_to_table(substr(n, 7), '') c), 30,
  'their characters use the whole alphabet of 30 (never 0, 1, I, L, O or U)');
select throws_ok(format($$ insert into public.orders (place_id, kind, starts_at, ends_at, price_cents, price_breakdown, email, place_snapshot, boat, person, booking_number)
  values (tests.place_id('N2'), 'overnight', '2027-06-01 14:00+02', '2027-06-02 12:00+02', 0, '{}', 'x@test.local', '{}', '{}', '{}', %L) $$, current_setting('tests.number')),
  '23505', null, 'a booking number is unique');
select throws_ok($$ insert into public.orders (place_id, kind, starts_at, ends_at, price_cents, price_breakdown, email, place_snapshot, boat, person, booking_number)
  values (tests.place_id('N2'), 'overnight', '2027-06-01 14:00+02', '2027-06-02 12:00+02', 0, '{}', 'x@test.local', '{}', '{}', '{}', 'HD-27-0O1I') $$,
  '23514', null, 'and well-formed');

-- The e-mail and the .ics name it, not the internal id.
select ok((select body_text like '%Buchungsnummer: ' || current_setting('tests.number') || '%' and body_text not like '%Buchungsnummer: ' || current_setting('tests.order') || '%'
           from public.outbox where order_id = current_setting('tests.order')::uuid), 'the confirmation e-mail gives the booking number');
select ok((select attachments -> 0 ->> 'content' like '%Buchung: ' || current_setting('tests.number') || '%' from public.outbox where order_id = current_setting('tests.order')::uuid),
  'so does the .ics');

-- Staff find the order by its number (any case); Stripe's metadata carries it.
select tests.authenticate_as('harbour');
select is((select string_agg(s.id::text, ',') from public.staff_orders(p_query => lower(current_setting('tests.number'))) s), current_setting('tests.order'),
  'staff find the order by its booking number');
select is((select s.booking_number from public.staff_orders(p_query => 'Nummer') s), current_setting('tests.number'), 'and the list shows it');
select tests.authenticate_as('customer');
select is(public.begin_online_payment(current_setting('tests.order')::uuid) ->> 'booking_reference', current_setting('tests.number'),
  'the payment page gets the booking number as reference');
select tests.clear_authentication();

select * from finish();
rollback;
