-- Admin reports over June and July 2027 on a fixture whose figures are worked out by hand:
-- occupancy by month and size class, revenue, average stay, countries, sale codes, check-ins.
begin;
select plan(16);
select private.freeze_clock('2027-10-15 12:00+02');

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
insert into public.places (name, width, length, archived) values
  ('R1', 3, 7, false), ('R2', 3.5, 9, false), ('R3', 4, 12, false), ('R4', 4, 12, true);
insert into public.sale_codes (code, value) values ('RHEIN5', 500), ('FREUNDE', 0);

-- name, berth, kind, start, end, status, payment, boat length, country, e-mail, sale code (value)
create temporary table fixture (n int, place text, kind public.order_kind, starts_at timestamptz, ends_at timestamptz,
  status public.order_status, payment public.payment_status, boat_length numeric, country text, email text, code text, code_value int, nights int);
insert into fixture values
  (1, 'R1', 'overnight', '2027-06-10 14:00+02', '2027-06-13 12:00+02', 'completed', 'paid', 6.5, 'Deutschland', 'a@example.org', null, null, 3),
  (2, 'R2', 'overnight', '2027-06-29 14:00+02', '2027-07-02 12:00+02', 'completed', 'paid', 8.2, 'Nederland', 'b@example.org', 'RHEIN5', 500, 3),
  (3, 'R3', 'overnight', '2027-07-05 14:00+02', '2027-07-06 12:00+02', 'confirmed', 'pending', 11, 'Deutschland', 'a@example.org', null, null, 1),
  (4, 'R1', 'day', '2027-07-10 10:00+02', '2027-07-10 14:00+02', 'completed', 'paid', 6, null, 'c@example.org', null, null, 0),
  (5, 'R2', 'overnight', '2027-07-20 14:00+02', '2027-07-22 12:00+02', 'cancelled', 'pending', 8, 'Belgique', 'd@example.org', null, null, 2),
  (6, 'R3', 'overnight', '2027-06-15 14:00+02', '2027-06-17 12:00+02', 'expired', 'pending', 10, 'Belgique', 'e@example.org', null, null, 2);
insert into public.orders (id, place_id, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown, email, sale_code,
                           place_snapshot, boat, person, checked_in, checked_in_at)
select ('00000000-0000-4000-8000-00000000000' || f.n)::uuid, tests.place_id(f.place), f.kind, f.starts_at, f.ends_at, f.status, f.payment,
       (private.price_breakdown(f.kind, f.nights, f.boat_length, f.code, f.code_value) ->> 'gross_cents')::int,
       private.price_breakdown(f.kind, f.nights, f.boat_length, f.code, f.code_value), f.email, f.code,
       jsonb_build_object('name', f.place), jsonb_build_object('name', 'Boot ' || f.n, 'length', f.boat_length, 'width', 2.5),
       jsonb_strip_nulls(jsonb_build_object('first_name', 'Gast', 'last_name', f.n::text, 'country', f.country)),
       f.status = 'completed', case when f.status = 'completed' then f.starts_at + interval '1 hour' end
from fixture f;
insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at, cancelled)
select o.place_id, o.id, case when o.status = 'completed' then 'rent' else 'reservation' end::public.place_status_type,
       o.starts_at, o.ends_at, o.status in ('cancelled', 'expired')
from public.orders o;
insert into public.place_statuses (place_id, type, starts_at, ends_at, note)
values (tests.place_id('R2'), 'service', '2027-07-15 08:00+02', '2027-07-17 08:00+02', 'Steg');
insert into public.long_term_holders (place_id, last_name, starts_on, ends_on) values (tests.place_id('R3'), 'Lang', '2027-06-01', '2027-06-10');
-- The money of the paid stays, in the ledger; 5 EUR of stay 2 were given back in cash.
insert into public.payments (order_id, kind, method, amount_cents)
select o.id, 'payment', 'cash', o.price_cents from public.orders o where o.payment_status = 'paid';
insert into public.payments (order_id, kind, method, amount_cents, refund_of)
select p.order_id, 'refund', 'cash', 500, p.id from public.payments p where p.order_id = '00000000-0000-4000-8000-000000000002';

-- Extras on the confirmed stay 3: two 5 kg ice (7 %), a washing-machine load (19 %), a removed
-- lift day, a cooler deposit still held and a key deposit returned. Revenue: the berth 3,808 plus
-- ice 1,000 (VAT 65) and washing 500 (VAT 80); deposits are not revenue.
insert into public.order_extras (order_id, extra_id, code, name, name_en, unit, unit_price_cents, vat_rate, deposit, quantity, removed_at, returned_at)
select '00000000-0000-4000-8000-000000000003', e.id, e.code, e.name, e.name_en, e.unit, e.price_cents, e.vat_rate, e.deposit, q.quantity,
       case when q.removed then now() end, case when q.returned then now() end
from (values ('ice_5kg', 2, false, false), ('washing_machine', 1, false, false), ('boat_lift', 1, true, false),
             ('cooler_deposit', 1, false, false), ('parking_key_deposit', 1, false, true)) q(code, quantity, removed, returned)
join public.extras e on e.code = q.code;
update public.orders set price_cents = price_cents + 1000 + 500 + 2000 where id = '00000000-0000-4000-8000-000000000003';
-- Stay 3 is paid in part at the desk: the berth (3,808) and the cooler deposit (2,000).
insert into public.payments (order_id, kind, method, amount_cents)
values ('00000000-0000-4000-8000-000000000003', 'payment', 'cash', 5808);
-- What the invoice rule (private.invoice_vat_breakdown of the order's billable lines) says for
-- stay 3 at 7 and 19 %, computed before the admin's role is taken.
create temporary table invoice_oracle as
select sum((b ->> 'net_cents')::bigint) as net, sum((b ->> 'vat_cents')::bigint) as vat, sum((b ->> 'gross_cents')::bigint) as gross
from public.orders o, jsonb_array_elements(private.invoice_vat_breakdown(private.order_billable_lines(o))) b
where o.id = '00000000-0000-4000-8000-000000000003' and (b ->> 'vat_rate')::numeric > 0;
grant select on invoice_oracle to authenticated;

-- Who may read reports.
select tests.authenticate_as('harbour');
select throws_ok($$ select * from public.report_revenue('2027-06-01', '2027-07-31') $$, '42501', 'admin_only', 'harbour staff read no reports');
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.report_occupancy('2027-06-01', '2027-07-31') $$, '42501', 'admin_only', 'a customer reads no reports');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.report_check_in_rate('2027-06-01', '2027-07-31') $$, '42501', null, 'anon reads no reports');

select tests.authenticate_as('admin');
select throws_ok($$ select * from public.report_revenue('2027-07-31', '2027-06-01') $$, '22023', 'invalid_range', 'a report range is ordered');
select throws_ok($$ select * from public.report_revenue('2020-01-01', '2027-06-01') $$, '22023', 'range_too_long', 'at most three years');

select results_eq(
  $$ select month, size_class, berths, berth_nights, booked_nights, long_term_nights, blocked_nights, occupancy_percent
     from public.report_occupancy('2027-06-01', '2027-07-31') $$,
  $$ values ('2027-06-01'::date, 'up_to_8m', 1, 30, 3, 0, 0, 10.0),
            ('2027-06-01', '8_to_10m', 1, 30, 2, 0, 0, 6.7),
            ('2027-06-01', '10_to_13m', 1, 30, 0, 10, 0, 33.3),
            ('2027-07-01', 'up_to_8m', 1, 31, 0, 0, 0, 0.0),
            ('2027-07-01', '8_to_10m', 1, 31, 1, 0, 2, 3.2),
            ('2027-07-01', '10_to_13m', 1, 31, 1, 0, 0, 3.2) $$,
  'occupancy: berth-nights per month and class; a stay counts its nights (29 and 30 June, 1 July), a day stay none; cancelled and expired stays, archived berths do not count');
select results_eq(
  $$ select month, size_class, berth_nights, booked_nights from public.report_occupancy('2027-06-11', '2027-06-12') $$,
  $$ values ('2027-06-01'::date, 'up_to_8m', 2, 2), ('2027-06-01', '8_to_10m', 2, 0), ('2027-06-01', '10_to_13m', 2, 0) $$,
  'a range inside a month counts only its own nights');

select results_eq(
  $$ select month, kind, orders, net_cents, vat_cents, gross_cents, paid_gross_cents from public.report_revenue('2027-06-01', '2027-07-31') $$,
  -- Stay 2's code is 5 EUR a night including VAT (ADR 0011): 3 x 9 m x 2,38 + 3 x 5,00 = 79,26 EUR gross.
  $$ values ('2027-06-01'::date, 'overnight'::public.order_kind, 2, 13861::bigint, 2633::bigint, 16494::bigint, 15994::bigint),
            ('2027-07-01', 'day', 1, 600, 114, 714, 714),
            ('2027-07-01', 'overnight', 1, 4555, 753, 5308, 3808) $$,
  'revenue by arrival month and kind: net, VAT and gross cents of the sales (extras per rate, no deposits, nothing removed), and what the ledger holds for them net of refunds (stay 2 got 5 EUR back) and of deposits held');
select is(
  (select (net_cents, vat_cents, gross_cents)::text from public.report_revenue('2027-07-01', '2027-07-31') where kind = 'overnight'),
  (select (net, vat, gross)::text from invoice_oracle),
  'the revenue of a stay with extras is what its invoice bills at 7 and 19 % (the deposit is the 0 % part)');
select is(
  (select gross_cents + 2000 from public.report_revenue('2027-07-01', '2027-07-31') where kind = 'overnight'),
  (select price_cents::bigint from public.orders where id = '00000000-0000-4000-8000-000000000003'),
  'the order price is the revenue plus the deposit it holds');

select results_eq(
  $$ select kind, orders, nights, average_nights, average_hours, average_boat_length from public.report_average_stay('2027-06-01', '2027-07-31') $$,
  $$ values ('day'::public.order_kind, 1, 0, null::numeric, 4.00, 6.00), ('overnight', 3, 7, 2.33, null, 8.57) $$,
  'average stay per kind: nights for overnight stays, hours for day stays');

select results_eq(
  $$ select country, orders, guests, nights, gross_cents from public.report_guests_by_country('2027-06-01', '2027-07-31') $$,
  $$ values ('Deutschland', 2, 1, 4, 13876::bigint), ('Nederland', 1, 1, 3, 7926), (null, 1, 1, 0, 714) $$,
  'guests by country: sales, distinct guests by e-mail, nights, gross (extras, no deposits)');

select results_eq(
  $$ select code, orders, nights, discount_cents, net_cents from public.report_sale_codes('2027-06-01', '2027-07-31') $$,
  $$ values ('RHEIN5', 1, 3, 1739::bigint, 6661::bigint), ('FREUNDE', 0, 0, 0, 0) $$,
  'sale code use: RHEIN5 (5 EUR a night including VAT, ADR 0011) saved 3 x 10 EUR net list price - 12,61 EUR net, FREUNDE was not used');

select results_eq(
  $$ select month, arrivals, checked_in, check_in_percent from public.report_check_in_rate('2027-06-01', '2027-07-31') $$,
  $$ values ('2027-06-01'::date, 2, 2, 100.0), ('2027-07-01', 2, 1, 50.0) $$,
  'check-in rate per arrival month (the confirmed stay of 5 July was a no-show)');

select tests.clear_authentication();
select private.freeze_clock('2027-07-08 12:00+02');
select tests.authenticate_as('admin');
select results_eq(
  $$ select month, arrivals, checked_in from public.report_check_in_rate('2027-06-01', '2027-07-31') $$,
  $$ values ('2027-06-01'::date, 2, 2), ('2027-07-01', 1, 0) $$,
  'arrivals after today do not count yet');
select is_empty($$ select * from public.report_revenue('2026-06-01', '2026-07-31') $$, 'a range without sales is empty');
select tests.clear_authentication();
select * from finish();
rollback;
