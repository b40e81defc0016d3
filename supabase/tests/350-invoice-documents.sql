-- Invoice documents (supabase/schemas/35b_invoice_documents.sql, issue 21): a paid order's invoice is
-- stored whole (seller, buyer, service period, lines, VAT per rate, totals) and nobody changes or
-- deletes it, not even a security-definer function or the service role; a move, a cancellation, a
-- full refund and partial refunds issue cancellation invoices, new invoices and credit notes with
-- gapless numbers and amounts to the cent; up to EUR 250 without the buyer's address it is a
-- Kleinbetragsrechnung without the buyer; owners read their documents, staff all.
begin;
select plan(51);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('D1', 4, 13, false, false), ('D2', 4, 13, false, false), ('D3', 4, 13, false, false), ('D4', 4, 13, false, false),
  ('D5', 4, 13, false, false), ('D6', 4, 13, false, false), ('D7', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('harbour', array['harbor']);

-- Umzug: the customer's, 2 nights, 10 m, full address (7140 cents). Storno: 1 night, 9 m, no
-- address (3332). Erstattet: the same, refunded in full. Teil: 10 nights, 12 m, full address
-- (40460), refunded in part twice, then moved.
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('D1'), 'overnight', '2027-05-20', '{"name": "Umzug", "length": 10, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf", "country": "Deutschland"}', '2027-05-22');
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('D3'), 'overnight', '2027-05-20', '{"name": "Storno", "length": 9, "width": 3}',
  '{"first_name": "Sven", "last_name": "Storno"}', '2027-05-21');
select public.staff_create_booking(tests.place_id('D4'), 'overnight', '2027-05-20', '{"name": "Erstattet", "length": 9, "width": 3}',
  '{"first_name": "Erna", "last_name": "Erstattet"}', '2027-05-21');
select public.staff_create_booking(tests.place_id('D5'), 'overnight', '2027-05-20', '{"name": "Teil", "length": 12, "width": 3}',
  '{"first_name": "Tina", "last_name": "Teil", "company": "Teil GmbH", "street": "Hafenstraße 2", "postal_code": "40221", "city": "Düsseldorf"}', '2027-05-30');
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;

create function pg_temp.docs(p_order text) returns table (invoice_number text, kind text, refers_to_number text, reason text, gross_cents integer)
language sql as $$
  select i.invoice_number, i.kind, i.refers_to_number, i.reason, i.gross_cents from public.invoices i
   where i.order_id = p_order::uuid order by i.year, i.number
$$;

-- ---------------------------------------------------------------- the invoice, stored whole
select public.record_desk_payment(current_setting('tests.umzug')::uuid, 'cash');
select tests.clear_authentication();
select results_eq($$ select * from pg_temp.docs(current_setting('tests.umzug')) $$,
  $$ values ('RE-2027-00001', 'invoice', null::text, 'payment', 7140) $$, 'paying issues the invoice with the first number of the year');
select results_eq(
  $$ select net_cents, vat_cents, gross_cents, service_from, service_to, small_amount, currency, recipient ->> 'last_name', recipient ->> 'street',
            recipient ->> 'city', recipient ->> 'email', issuer ->> 'vat_id', issuer ->> 'name', issued_at
     from public.invoices where order_id = current_setting('tests.umzug')::uuid $$,
  $$ values (6000, 1140, 7140, '2027-05-20'::date, '2027-05-22'::date, false, 'EUR', 'Kunde', 'Rheinufer 1', 'Düsseldorf', 'customer@test.local',
             'DE000000000', 'Hafen Düsseldorf', '2027-05-10 12:00+02'::timestamptz) $$,
  'it keeps totals, service period, the buyer from the person form and the seller from the settings');
select results_eq(
  $$ select (l ->> 'position')::int, l ->> 'code', l ->> 'description', (l ->> 'quantity')::numeric, l ->> 'unit',
            (l ->> 'unit_price_cents')::int, (l ->> 'vat_rate')::numeric, (l ->> 'net_cents')::int
     from public.invoices i, jsonb_array_elements(i.lines) l where i.order_id = current_setting('tests.umzug')::uuid order by 1 $$,
  $$ values (1, 'berth_fee', 'Liegegebühr Liegeplatz D1, Boot 10 m', 2::numeric, 'night', 2000, 19::numeric, 4000),
            (2, 'additional_costs', 'Nebenkosten (Strom, Wasser, Dusche/WC, Müll)', 2::numeric, 'night', 1000, 19::numeric, 2000) $$,
  'every line: description with the berth, quantity, unit, unit price, VAT rate, net');
select is((select vat_breakdown from public.invoices where order_id = current_setting('tests.umzug')::uuid),
  '[{"vat_rate": 19, "net_cents": 6000, "vat_cents": 1140, "gross_cents": 7140}]'::jsonb, 'net, VAT and gross per rate');
select is(private.order_billable_lines((select o from public.orders o where o.id = current_setting('tests.umzug')::uuid)),
  (select lines from public.invoices where order_id = current_setting('tests.umzug')::uuid), 'the lines are the order''s billable lines');

-- ---------------------------------------------------------------- nobody changes or deletes it
select tests.authenticate_as('customer');
select throws_ok($$ update public.invoices set gross_cents = 0 $$, '42501', null, 'the owner cannot update the own invoice');
select throws_ok($$ delete from public.invoices $$, '42501', null, 'nor delete it');
select throws_ok($$ insert into public.invoices (order_id, year, number, net_cents, vat_cents, gross_cents, recipient) values (current_setting('tests.umzug')::uuid, 2099, 1, 0, 0, 0, '{}') $$,
  '42501', null, 'nor write one');
select tests.authenticate_as('harbour');
select throws_ok($$ update public.invoices set lines = '[]' $$, '42501', null, 'staff cannot update');
select throws_ok($$ delete from public.invoices $$, '42501', null, 'nor delete');
select throws_ok($$ truncate public.invoices cascade $$, '42501', null, 'nor truncate');
select tests.clear_authentication();
set local role service_role;
select throws_ok($$ update public.invoices set recipient = null $$, '42501', null, 'the service role cannot update');
select throws_ok($$ delete from public.invoices $$, '42501', null, 'nor delete');
reset role;
select ok(not has_table_privilege('service_role', 'public.invoices', 'UPDATE') and not has_table_privilege('authenticated', 'public.invoices', 'DELETE')
          and not has_table_privilege('anon', 'public.invoices', 'INSERT') and not has_table_privilege('service_role', 'public.invoices', 'TRUNCATE'),
  'no API role holds a write grant');
-- A security-definer function (owned by postgres, as every staff function is) is refused by the trigger.
create function pg_temp.tamper(p_sql text) returns void language plpgsql security definer set search_path = '' as $$
begin
  execute p_sql;
end $$;
grant execute on function pg_temp.tamper(text) to authenticated;
select tests.authenticate_as('harbour');
select throws_ok($$ select pg_temp.tamper('update public.invoices set gross_cents = 1') $$, '42501', 'invoice_immutable', 'a security-definer function cannot update');
select throws_ok($$ select pg_temp.tamper('delete from public.invoices') $$, '42501', 'invoice_immutable', 'nor delete');
select tests.clear_authentication();
select throws_ok($$ update public.invoices set net_cents = 1 $$, '42501', 'invoice_immutable', 'the owner itself is refused');
select throws_ok($$ delete from public.invoices $$, '42501', 'invoice_immutable', 'delete too');
select throws_ok($$ truncate public.invoices cascade $$, '42501', 'invoice_immutable', 'and truncate');

-- ---------------------------------------------------------------- a move: cancellation and new invoice
select tests.authenticate_as('harbour');
select public.move_booking(current_setting('tests.umzug')::uuid, tests.place_id('D2'));
select results_eq($$ select * from pg_temp.docs(current_setting('tests.umzug')) $$,
  $$ values ('RE-2027-00001', 'invoice', null::text, 'payment', 7140),
            ('RE-2027-00002', 'cancellation', 'RE-2027-00001', 'changed', -7140),
            ('RE-2027-00003', 'invoice', null::text, 'correction', 7140) $$,
  'a move cancels the invoice (negative, referring to it) and issues a new one, numbers gapless');
select results_eq(
  $$ select invoice_number, lines -> 0 ->> 'description', (lines -> 0 ->> 'quantity')::numeric, (lines -> 0 ->> 'net_cents')::int, net_cents, vat_cents
     from public.invoices where order_id = current_setting('tests.umzug')::uuid order by number $$,
  $$ values ('RE-2027-00001', 'Liegegebühr Liegeplatz D1, Boot 10 m', 2::numeric, 4000, 6000, 1140),
            ('RE-2027-00002', 'Liegegebühr Liegeplatz D1, Boot 10 m', -2::numeric, -4000, -6000, -1140),
            ('RE-2027-00003', 'Liegegebühr Liegeplatz D2, Boot 10 m', 2::numeric, 4000, 6000, 1140) $$,
  'the old invoice and its cancellation keep the old berth, the new one names the new berth');
select is((select vat_breakdown from public.invoices where invoice_number = 'RE-2027-00002'),
  '[{"vat_rate": 19, "net_cents": -6000, "vat_cents": -1140, "gross_cents": -7140}]'::jsonb, 'the cancellation''s VAT per rate is the negative');
select tests.clear_authentication();
update public.orders set price_breakdown = price_breakdown, status = status where id = current_setting('tests.umzug')::uuid;
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.umzug')::uuid), 3, 'a change that leaves the document as it is issues nothing');
select private.sync_invoice_documents(current_setting('tests.umzug')::uuid);
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.umzug')::uuid), 3, 'syncing again issues nothing');

-- ---------------------------------------------------------------- a Kleinbetragsrechnung, then a cancellation
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.storno')::uuid, 'card_terminal');
select results_eq(
  $$ select invoice_number, kind, small_amount, recipient, gross_cents, net_cents, vat_cents from public.invoices where order_id = current_setting('tests.storno')::uuid $$,
  $$ values ('RE-2027-00004', 'invoice', true, null::jsonb, 3332, 2800, 532) $$,
  'up to EUR 250 without the buyer''s address: a Kleinbetragsrechnung without the buyer');
select public.cancel_booking(current_setting('tests.storno')::uuid);
select results_eq($$ select * from pg_temp.docs(current_setting('tests.storno')) $$,
  $$ values ('RE-2027-00004', 'invoice', null::text, 'payment', 3332), ('RE-2027-00005', 'cancellation', 'RE-2027-00004', 'cancelled', -3332) $$,
  'cancelling a paid booking issues its cancellation invoice and no new invoice');
select results_eq($$ select small_amount, recipient from public.invoices where invoice_number = 'RE-2027-00005' $$,
  $$ values (true, null::jsonb) $$, 'the cancellation of a Kleinbetragsrechnung is one too');
select public.record_desk_refund(current_setting('tests.storno')::uuid, 'cash', 3332);
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.storno')::uuid), 2, 'refunding the cancelled booking issues nothing more');

-- ---------------------------------------------------------------- a full refund
select public.record_desk_payment(current_setting('tests.erstattet')::uuid, 'cash');
select public.record_desk_refund(current_setting('tests.erstattet')::uuid, 'cash', 3332);
select results_eq($$ select * from pg_temp.docs(current_setting('tests.erstattet')) $$,
  $$ values ('RE-2027-00006', 'invoice', null::text, 'payment', 3332), ('RE-2027-00007', 'cancellation', 'RE-2027-00006', 'refunded', -3332) $$,
  'a full refund issues the cancellation invoice');
select is((select status::text || '/' || payment_status::text from public.orders where id = current_setting('tests.erstattet')::uuid), 'cancelled/refunded',
  'and the booking is cancelled as before');

-- ---------------------------------------------------------------- partial refunds: credit notes
select public.record_desk_payment(current_setting('tests.teil')::uuid, 'bank_transfer');
select results_eq(
  $$ select invoice_number, small_amount, recipient ->> 'company', recipient ->> 'last_name', net_cents, vat_cents, gross_cents
     from public.invoices where order_id = current_setting('tests.teil')::uuid $$,
  $$ values ('RE-2027-00008', false, 'Teil GmbH', 'Teil', 34000, 6460, 40460) $$, 'over EUR 250 the invoice names the buyer');
select public.record_desk_refund(current_setting('tests.teil')::uuid, 'bank_transfer', 1000);
select results_eq(
  $$ select invoice_number, kind, refers_to_number, reason, net_cents, vat_cents, gross_cents, lines -> 0 ->> 'description', recipient ->> 'company'
     from public.invoices where order_id = current_setting('tests.teil')::uuid and kind = 'credit_note' $$,
  $$ values ('RE-2027-00009', 'credit_note', 'RE-2027-00008', 'partial_refund', -840, -160, -1000,
             'Erstattung (Preisminderung) zu Rechnung RE-2027-00008', 'Teil GmbH') $$,
  'a partial refund issues a credit note for that amount, referring to the invoice (the VAT it contains taken out)');
select public.record_desk_refund(current_setting('tests.teil')::uuid, 'bank_transfer', 2500);
select results_eq(
  $$ select invoice_number, net_cents, vat_cents, gross_cents from public.invoices where order_id = current_setting('tests.teil')::uuid and kind = 'credit_note' order by number $$,
  $$ values ('RE-2027-00009', -840, -160, -1000), ('RE-2027-00010', -2101, -399, -2500) $$,
  'a second partial refund (the payment status stays partly refunded) issues a second credit note');
select results_eq($$ select vat_breakdown from public.invoices where invoice_number = 'RE-2027-00010' $$,
  $$ values ('[{"vat_rate": 19, "net_cents": -2101, "vat_cents": -399, "gross_cents": -2500}]'::jsonb) $$, 'with its VAT per rate');
-- Then moved: every open document is cancelled, the new invoice issued and the refunds credited against it.
select public.move_booking(current_setting('tests.teil')::uuid, tests.place_id('D6'));
select tests.clear_authentication();
select results_eq($$ select * from pg_temp.docs(current_setting('tests.teil')) $$,
  $$ values ('RE-2027-00008', 'invoice', null::text, 'payment', 40460),
            ('RE-2027-00009', 'credit_note', 'RE-2027-00008', 'partial_refund', -1000),
            ('RE-2027-00010', 'credit_note', 'RE-2027-00008', 'partial_refund', -2500),
            ('RE-2027-00011', 'cancellation', 'RE-2027-00010', 'changed', 2500),
            ('RE-2027-00012', 'cancellation', 'RE-2027-00009', 'changed', 1000),
            ('RE-2027-00013', 'cancellation', 'RE-2027-00008', 'changed', -40460),
            ('RE-2027-00014', 'invoice', null::text, 'correction', 40460),
            ('RE-2027-00015', 'credit_note', 'RE-2027-00014', 'partial_refund', -3500) $$,
  'a move after partial refunds cancels the credit notes and the invoice, then invoices and credits anew');
select is((select sum(gross_cents)::int from public.invoices where order_id = current_setting('tests.teil')::uuid),
  (select (paid_cents - refunded_cents)::int from private.order_ledger(current_setting('tests.teil')::uuid)),
  'the documents'' sum is what the harbour keeps, to the cent');
select results_eq(
  $$ select sum(net_cents)::int, sum(vat_cents)::int from public.invoices where order_id = current_setting('tests.teil')::uuid $$,
  $$ values (34000 - 2941, 6460 - 559) $$, 'net and VAT add up too');

-- ---------------------------------------------------------------- numbers: gapless, one series
select is((select array_agg(number order by number) from public.invoices where year = 2027), array[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  'one gapless series for invoices, cancellations and credit notes');
select is((select last_number from private.invoice_counters where year = 2027), 15, 'the counter stands at the last number');
select is((select count(*)::int from public.invoices where gross_cents <> net_cents + vat_cents), 0, 'every document: gross = net + VAT');
select is((select count(*)::int from public.invoices i where i.net_cents <> (select sum((l ->> 'net_cents')::int) from jsonb_array_elements(i.lines) l)), 0,
  'every document: net = the sum of its lines');

-- ---------------------------------------------------------------- VAT per rate
select is(private.invoice_vat_breakdown(
  '[{"vat_rate": 19, "net_cents": 1000}, {"vat_rate": 7, "net_cents": 299}, {"vat_rate": 19, "net_cents": 505}, {"vat_rate": 0, "net_cents": 2000}]'),
  '[{"vat_rate": 19, "net_cents": 1505, "vat_cents": 286, "gross_cents": 1791},
    {"vat_rate": 7, "net_cents": 299, "vat_cents": 21, "gross_cents": 320},
    {"vat_rate": 0, "net_cents": 2000, "vat_cents": 0, "gross_cents": 2000}]'::jsonb,
  'VAT per rate: net summed per rate, VAT half up on each (a deposit at 0 % carries none)');
select is(private.invoice_vat_breakdown('[{"vat_rate": 19, "net_cents": -1505}]'),
  '[{"vat_rate": 19, "net_cents": -1505, "vat_cents": -286, "gross_cents": -1791}]'::jsonb, 'negative lines give the exact negative');

-- ---------------------------------------------------------------- who reads them
select tests.authenticate_as('customer');
select results_eq($$ select invoice_number from public.invoices order by number $$,
  $$ values ('RE-2027-00001'), ('RE-2027-00002'), ('RE-2027-00003') $$, 'the customer reads the own order''s documents');
select is(jsonb_array_length(public.export_my_data() -> 'invoices'), 3, 'and exports them');
select is((public.export_my_data() #>> '{invoices,1,kind}'), 'cancellation', 'with their kind');
select tests.authenticate_as('other');
select is_empty($$ select * from public.invoices $$, 'another customer reads none');
select tests.authenticate_as_anon();
select is_empty($$ select * from public.invoices $$, 'anon reads none');
select tests.authenticate_as('harbour');
select is((select count(*)::int from public.invoices), 15, 'staff read all');

-- ---------------------------------------------------------------- deleting the account keeps them
select tests.authenticate_as('customer');
select lives_ok($$ select public.delete_my_account() $$, 'the customer deletes the account');
select tests.clear_authentication();
select results_eq(
  $$ select invoice_number, recipient ->> 'last_name' from public.invoices where order_id = current_setting('tests.umzug')::uuid order by number $$,
  $$ values ('RE-2027-00001', 'Kunde'), ('RE-2027-00002', 'Kunde'), ('RE-2027-00003', 'Kunde'), ('RE-2027-00016', 'Kunde') $$,
  'the documents stay with the buyer as billed; the cancelled future stay got its cancellation invoice');

select * from finish();
rollback;
