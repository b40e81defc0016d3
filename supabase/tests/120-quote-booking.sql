-- quote_booking: every price rule of docs/architecture.md "Prices" in exact cents, stay times in
-- Europe/Berlin across the DST weekends, day-stay windows, fair periods, sale-code throttling.
-- Prices are [metres, nights, berth fee, additional costs, net, VAT, gross].
begin;
select plan(36);
select private.freeze_clock('2027-03-01 10:00+01');

insert into public.sale_codes (code, value) values ('RHEIN5', 500), ('FREUNDE', 0), ('HALB', 50);
insert into public.fair_periods (name, starts_on, ends_on) values ('Caravan Salon', '2027-08-27', '2027-09-05');
select tests.create_user('customer');
select tests.create_user('other');

-- ---------------------------------------------------------------- prices (anon may quote)
select tests.authenticate_as_anon();
select is(tests.price(public.quote_booking('overnight', '2027-03-10', 9.4, p_departure => '2027-03-11')),
  array[10, 1, 2000, 1000, 3000, 570, 3570], 'overnight: 9.4 m -> 10 m x 2 EUR + 10 EUR, 19 % VAT');
select is(tests.price(public.quote_booking('overnight', '2027-03-10', 12.0, p_departure => '2027-03-13')),
  array[12, 3, 7200, 3000, 10200, 1938, 12138], 'three nights, a whole-metre boat is not rounded up');
select is(tests.price(public.quote_booking('overnight', '2027-03-10', 12.01, p_departure => '2027-03-11')),
  array[13, 1, 2600, 1000, 3600, 684, 4284], '12.01 m is charged as 13 m');
select is(tests.price(public.quote_booking('day', '2027-03-10', 7.2, p_day_start => '10:00', p_day_end => '14:00')),
  array[8, 0, 800, 0, 800, 152, 952], 'day stay: 1 EUR per metre once, no additional costs');
select is(tests.price(public.quote_booking('fair', '2027-08-27', 10.0, p_departure => '2027-08-29')),
  array[10, 2, 4000, 2000, 6000, 1140, 7140], 'fair stay: priced as overnight');
select is(public.quote_booking('overnight', '2027-03-10', 9.4, p_departure => '2027-03-11') - 'starts_at' - 'ends_at',
  '{"kind":"overnight","metres":10,"nights":1,"berth_fee_per_metre_cents":200,"berth_fee_cents":2000,
    "additional_costs_per_night_cents":1000,"additional_costs_cents":1000,"sale_code":null,"sale_code_valid":null,
    "net_cents":3000,"vat_rate_percent":19,"vat_cents":570,"gross_cents":3570,
    "prices_include_vat":true,"berth_fee_per_metre_gross_cents":238,"berth_fee_gross_cents":2380,"berth_vat_rate":19,
    "additional_costs_per_night_gross_cents":1190,"additional_costs_gross_cents":1190,"additional_costs_vat_rate":19,
    "vat_breakdown":[{"vat_rate":19,"net_cents":3000,"vat_cents":570,"gross_cents":3570}]}'::jsonb,
  'the whole breakdown: the net keys as before issue 40, the gross list prices and the VAT per rate beside them');
select throws_ok($$ select public.quote_booking('overnight', '2027-03-10', 9.4, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') $$,
  '42501', 'sign_in_required', 'sale codes need a session');

-- ---------------------------------------------------------------- sale codes
select tests.authenticate_as('customer');
select is(tests.price(public.quote_booking('overnight', '2027-03-10', 8.1, p_departure => '2027-03-12', p_sale_code => 'RHEIN5')),
  array[9, 2, 3600, 840, 4440, 844, 5284], 'a set-additional-costs code of 500 makes them 5 EUR per night including VAT (ADR 0011)');
select is(tests.price(public.quote_booking('overnight', '2027-03-10', 6.0, p_departure => '2027-03-11', p_sale_code => 'freunde')),
  array[6, 1, 1200, 0, 1200, 228, 1428], 'a code of 0 makes the additional costs free (codes ignore case)');
select is(tests.price(public.quote_booking('overnight', '2027-03-10', 1.0, p_departure => '2027-03-11', p_sale_code => 'HALB')),
  array[1, 1, 200, 42, 242, 46, 288], 'the VAT is taken out of the gross, rounded (45.98 -> 46 cents)');
select is(tests.price(public.quote_booking('day', '2027-03-10', 7.2, p_day_start => '10:00', p_day_end => '14:00', p_sale_code => 'RHEIN5')),
  array[8, 0, 800, 0, 800, 152, 952], 'a code does not change a day stay');
select is(public.quote_booking('overnight', '2027-03-10', 8.1, p_departure => '2027-03-12', p_sale_code => ' rhein5 ') ->> 'sale_code',
  'RHEIN5', 'the breakdown names the applied code');

-- ---------------------------------------------------------------- times (Europe/Berlin, DST)
select results_eq(
  $$ select (q ->> 'nights')::int, (q ->> 'starts_at')::timestamptz, (q ->> 'ends_at')::timestamptz
     from public.quote_booking('overnight', '2027-03-27', 10, p_departure => '2027-03-28') q $$,
  $$ values (1, '2027-03-27 13:00+00'::timestamptz, '2027-03-28 10:00+00'::timestamptz) $$,
  'spring forward (last Sunday of March): 14:00 CET to 12:00 CEST is one night of 21 hours');
select is(tests.price(public.quote_booking('overnight', '2027-03-27', 10, p_departure => '2027-03-28')),
  array[10, 1, 2000, 1000, 3000, 570, 3570], 'and costs one night');
select results_eq(
  $$ select (q ->> 'nights')::int, (q ->> 'starts_at')::timestamptz, (q ->> 'ends_at')::timestamptz
     from public.quote_booking('overnight', '2027-10-30', 10, p_departure => '2027-10-31') q $$,
  $$ values (1, '2027-10-30 12:00+00'::timestamptz, '2027-10-31 11:00+00'::timestamptz) $$,
  'fall back (last Sunday of October): 14:00 CEST to 12:00 CET is one night of 23 hours');
select is((public.quote_booking('overnight', '2027-10-29', 10, p_departure => '2027-11-01') ->> 'nights')::int, 3,
  'nights across the change are counted by dates');
select results_eq(
  $$ select (q ->> 'starts_at')::timestamptz, (q ->> 'ends_at')::timestamptz
     from public.quote_booking('day', '2027-03-28', 7, p_day_start => '08:00', p_day_end => '13:00') q $$,
  $$ values ('2027-03-28 06:00+00'::timestamptz, '2027-03-28 11:00+00'::timestamptz) $$,
  'a day stay on the DST Sunday uses summer time');

-- ---------------------------------------------------------------- day-stay windows
select lives_ok($$ select public.quote_booking('day', '2027-03-10', 7, p_day_start => '08:00', p_day_end => '13:00') $$,
  'five hours from 08:00 are allowed');
select lives_ok($$ select public.quote_booking('day', '2027-03-10', 7, p_day_start => '17:00', p_day_end => '22:00') $$,
  'five hours up to 22:00 are allowed');
select throws_ok($$ select public.quote_booking('day', '2027-03-10', 7, p_day_start => '08:00', p_day_end => '13:01') $$,
  '22023', 'invalid_day_window', 'more than five hours are refused');
select throws_ok($$ select public.quote_booking('day', '2027-03-10', 7, p_day_start => '07:59', p_day_end => '10:00') $$,
  '22023', 'invalid_day_window', 'a start before 08:00 is refused');
select throws_ok($$ select public.quote_booking('day', '2027-03-10', 7, p_day_start => '21:00', p_day_end => '22:30') $$,
  '22023', 'invalid_day_window', 'an end after 22:00 is refused');
select throws_ok($$ select public.quote_booking('day', '2027-03-10', 7, p_day_start => '12:00', p_day_end => '12:00') $$,
  '22023', 'invalid_day_window', 'an empty window is refused');
select throws_ok($$ select public.quote_booking('day', '2027-03-01', 7, p_day_start => '08:00', p_day_end => '09:30') $$,
  '22023', 'period_in_past', 'a window that is over today is refused');
select lives_ok($$ select public.quote_booking('day', '2027-03-01', 7, p_day_start => '09:00', p_day_end => '12:00') $$,
  'a window still running today is allowed');

-- ---------------------------------------------------------------- periods
select throws_ok($$ select public.quote_booking('overnight', '2027-02-28', 7, p_departure => '2027-03-02') $$,
  '22023', 'period_in_past', 'an arrival in the past is refused');
select throws_ok($$ select public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-10') $$,
  '22023', 'invalid_period', 'departure must be after arrival');
select throws_ok($$ select public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-06-09') $$,
  '22023', 'stay_too_long', 'at most 90 nights');
select throws_ok($$ select public.quote_booking('overnight', '2027-03-10', 60.5, p_departure => '2027-03-11') $$,
  '22023', 'invalid_boat_length', 'boats are 1.0-60.0 m long');
select lives_ok($$ select public.quote_booking('fair', '2027-09-04', 10, p_departure => '2027-09-06') $$,
  'the last fair night may be the fair''s last day');
select throws_ok($$ select public.quote_booking('fair', '2027-09-04', 10, p_departure => '2027-09-07') $$,
  '22023', 'outside_fair_period', 'fair stays lie inside a fair period');

-- ---------------------------------------------------------------- throttling wrong codes
select is(public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'FALSCH' || n) ->> 'sale_code_valid',
  'false', 'a wrong code is reported and recorded') from generate_series(1, 1) n;
select is(count(*) filter (where public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'FALSCH' || n) ->> 'sale_code_valid' = 'false'),
  4::bigint, 'four more wrong codes') from generate_series(2, 5) n;
select throws_ok($$ select public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') $$,
  'P0001', 'sale_code_throttled', 'after five wrong codes in 15 minutes even a right one is refused');
select tests.authenticate_as('other');
select is(public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') ->> 'sale_code_valid',
  'true', 'another user is not throttled');
select tests.clear_authentication();
select private.freeze_clock('2027-03-01 10:16+01');
select tests.authenticate_as('customer');
select is(public.quote_booking('overnight', '2027-03-10', 7, p_departure => '2027-03-11', p_sale_code => 'RHEIN5') ->> 'sale_code_valid',
  'true', 'fifteen minutes later codes work again');

select tests.clear_authentication();
select * from finish();
rollback;
