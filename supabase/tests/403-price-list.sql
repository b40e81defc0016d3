-- The one price list (issue 40 item 2, docs/adr/0011-consumer-prices-with-vat.md): the berth
-- tariffs (public.tariffs) and the extras hold gross prices (what a consumer pays, PAngV § 3)
-- with a VAT rate each; public.price_list shows both to everyone; the quote is the sum of the
-- list's gross prices, with the VAT taken out per rate; a changed list price changes the next
-- quote and booking, never an issued invoice; only admins change the list, within the limits the
-- database checks.
begin;
select plan(24);
select private.freeze_clock('2027-07-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('P1', 4, 13, false, false), ('P2', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

create function pg_temp.list(p_code text) returns integer language sql security definer as $$
  select price_cents from public.price_list where code = p_code
$$;

-- ---------------------------------------------------------------- the list
select tests.authenticate_as_anon();
select results_eq($$ select kind, code, unit, price_cents, vat_rate from public.price_list where kind = 'tariff' order by sort_order $$,
  $$ values ('tariff', 'berth_night_per_metre', 'metre_night', 238, 19), ('tariff', 'additional_costs_night', 'night', 1190, 19),
            ('tariff', 'day_berth_per_metre', 'metre_day', 119, 19) $$,
  'anon reads the berth tariffs as gross prices: 2,38 € per metre and night, 11,90 € a night, 1,19 € per metre for a day (2 €, 10 €, 1 € net + 19 %)');
select results_eq($$ select code, price_cents, vat_rate from public.price_list where kind = 'extra' and code in ('washing_machine', 'ice_2kg') order by code $$,
  $$ values ('ice_2kg', 300, 7), ('washing_machine', 500, 19) $$,
  'the same list holds the extras the desk sells, gross with their own VAT rate (ice 7 %)');
select is((select count(*)::int from public.price_list), 9, 'three tariffs and the six active extras');

-- ---------------------------------------------------------------- the quote is the list's sum
select is((public.quote_booking('overnight', '2027-07-10', 9.4, '2027-07-12') ->> 'gross_cents')::int,
  2 * 10 * pg_temp.list('berth_night_per_metre') + 2 * pg_temp.list('additional_costs_night'),
  'two nights for 10 running metres: 2 x 10 x berth tariff + 2 x additional costs, gross (71,40 €)');
select is((public.quote_booking('day', '2027-07-10', 7.2, p_day_start => '10:00', p_day_end => '14:00') ->> 'gross_cents')::int,
  8 * pg_temp.list('day_berth_per_metre'), 'a day stay: 8 metres x the day tariff, gross');
select is(public.quote_booking('overnight', '2027-07-10', 9.4, '2027-07-12') -> 'vat_breakdown',
  '[{"vat_rate": 19, "net_cents": 6000, "vat_cents": 1140, "gross_cents": 7140}]'::jsonb,
  'the VAT is taken out of the gross per rate, as on the invoice');

-- ---------------------------------------------------------------- booked and invoiced at today's list
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('P1'), 'overnight', '2027-07-10', '{"name": "Alt", "length": 9.4, "width": 3}',
  '{"first_name": "Anna", "last_name": "Alt", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf"}', '2027-07-12');
select tests.authenticate_as('harbour');
select set_config('tests.alt', (select id::text from public.orders where boat ->> 'name' = 'Alt'), true);
select public.record_desk_payment(current_setting('tests.alt')::uuid, 'cash');
select tests.clear_authentication();
select results_eq($$ select kind, net_cents, vat_cents, gross_cents from public.invoices where order_id = current_setting('tests.alt')::uuid $$,
  $$ values ('invoice', 6000, 1140, 7140) $$, 'the invoice of the booking: 60 € net, 11,40 € VAT, 71,40 € as quoted');
select results_eq($$ select l ->> 'code', (l ->> 'quantity')::int, (l ->> 'unit_gross_cents')::int, (l ->> 'unit_price_cents')::int, (l ->> 'vat_rate')::int, (l ->> 'net_cents')::int
                     from public.invoices i, jsonb_array_elements(i.lines) l where i.order_id = current_setting('tests.alt')::uuid order by l ->> 'position' $$,
  $$ values ('berth_fee', 2, 2380, 2000, 19, 4000), ('additional_costs', 2, 1190, 1000, 19, 2000) $$,
  'its lines are the list''s gross prices with their rates (and the net in them)');

-- ---------------------------------------------------------------- who may change the list
select tests.authenticate_as('harbour');
select is_empty($$ update public.tariffs set gross_cents = 1 where code = 'berth_night_per_metre' returning code $$, 'staff cannot change a tariff');
select tests.authenticate_as_anon();
select throws_ok($$ update public.tariffs set gross_cents = 1 $$, '42501', null, 'anon cannot change a tariff');
select tests.authenticate_as('admin');
select throws_ok($$ insert into public.tariffs (code, name, name_en, unit, gross_cents, vat_rate) values ('berth_night_per_metre', 'X', 'X', 'metre_night', 1, 19) $$,
  '42501', null, 'nobody adds a tariff (three fixed rows)');
select throws_ok($$ delete from public.tariffs where code = 'day_berth_per_metre' $$, '42501', null, 'nor deletes one');
select throws_ok($$ update public.tariffs set gross_cents = 0 where code = 'berth_night_per_metre' $$, '23514', null, 'a price of 0 is refused');
select throws_ok($$ update public.tariffs set gross_cents = 100001 where code = 'berth_night_per_metre' $$, '23514', null, 'a price above 1.000 € is refused');
select throws_ok($$ update public.tariffs set vat_rate = 16 where code = 'berth_night_per_metre' $$, '23514', null, 'a VAT rate other than 19, 7 or 0 is refused');
select throws_ok($$ update public.tariffs set code = 'additional_costs_night', unit = 'night' where code = 'day_berth_per_metre' $$,
  '22023', 'tariff_code_fixed', 'the code the price rules look up never changes');

-- ---------------------------------------------------------------- a changed price
select results_eq($$ update public.tariffs set gross_cents = 250 where code = 'berth_night_per_metre' returning gross_cents $$,
  $$ values (250) $$, 'an admin raises the berth tariff to 2,50 € gross');
select is((select count(*)::int from public.audit_log where table_name = 'public.tariffs' and action = 'update' and new_values = '{"gross_cents": 250}'), 1,
  'the change is in the audit trail');
select tests.authenticate_as_anon();
select is(pg_temp.list('berth_night_per_metre'), 250, 'the list shows the new price');
select is((public.quote_booking('overnight', '2027-07-10', 9.4, '2027-07-12') ->> 'gross_cents')::int, 2 * 10 * 250 + 2 * 1190,
  'the next quote is priced from it (73,80 €)');
select results_eq($$ select (q ->> 'net_cents')::int, (q ->> 'vat_cents')::int from public.quote_booking('overnight', '2027-07-10', 9.4, '2027-07-12') q $$,
  $$ values (6202, 1178) $$, 'the VAT taken out of 73,80 € at 19 % (11,78 €)');
select tests.clear_authentication();
select results_eq($$ select price_cents, gross_cents from public.orders o join public.invoices i on i.order_id = o.id where o.id = current_setting('tests.alt')::uuid $$,
  $$ values (7140, 7140) $$, 'the booked order and its issued invoice keep the price they had');

-- ---------------------------------------------------------------- a sale code is a gross price per night
insert into public.sale_codes (code, value) values ('LISTE5', 500);
select tests.authenticate_as('customer');
select results_eq($$ select (q ->> 'additional_costs_gross_cents')::int, (q ->> 'gross_cents')::int
                     from public.quote_booking('overnight', '2027-07-10', 9.4, '2027-07-12', p_sale_code => 'liste5') q $$,
  $$ values (1000, 5000 + 1000) $$, 'a set-additional-costs code of 500 makes them 5 € a night including VAT');
select public.create_booking(tests.place_id('P2'), 'overnight', '2027-07-10', '{"name": "Neu", "length": 9.4, "width": 3}',
  '{"first_name": "Nina", "last_name": "Neu", "street": "Rheinufer 2", "postal_code": "40213", "city": "Düsseldorf"}', '2027-07-12', p_sale_code => 'liste5');
select tests.authenticate_as('harbour');
select public.record_desk_payment((select id from public.orders where boat ->> 'name' = 'Neu'), 'cash');
select tests.clear_authentication();
select results_eq($$ select o.price_cents, i.net_cents, i.vat_cents, i.gross_cents from public.orders o join public.invoices i on i.order_id = o.id
                     where o.boat ->> 'name' = 'Neu' $$,
  $$ values (6000, 5042, 958, 6000) $$, 'booked and invoiced at the new list price and the code: the invoice''s total is the quoted gross');

select tests.clear_authentication();
select * from finish();
rollback;
