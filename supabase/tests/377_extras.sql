-- Extras (supabase/schemas/55_extras.sql, issue 21 item 3): the catalogue is seeded with the
-- spec's price list, everyone reads the active entries, only admins write, nobody deletes;
-- only staff add extras to an order (priced as then), which flows into the order's price and
-- its invoice documents: an invoiced order gets a cancellation and a new invoice with gapless
-- numbers; deposits carry no VAT and go back as a refund in the ledger (and the cash book); a
-- desk sale issues a receipt in the same number series and a cash one enters the cash book; a
-- service request accepted by staff becomes an extra on the order; bad input is refused with
-- a clear code, never a 500.
begin;
select plan(68);
select private.freeze_clock('2027-07-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('X1', 4, 13, false, false), ('X2', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

-- Extra: 2 nights, 10 m, full address (7140 cents). Offen: the customer's, 1 night, 9 m (3332), unpaid.
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('X1'), 'overnight', '2027-07-10', '{"name": "Extra", "length": 10, "width": 3}',
  '{"first_name": "Eva", "last_name": "Extra", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf"}', '2027-07-12');
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('X2'), 'overnight', '2027-07-10', '{"name": "Offen", "length": 9, "width": 3}',
  '{"first_name": "Otto", "last_name": "Offen"}', '2027-07-11');
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;

create function pg_temp.docs(p_order text) returns table (invoice_number text, kind text, reason text, gross_cents integer)
language sql as $$
  select i.invoice_number, i.kind, i.reason, i.gross_cents from public.invoices i
   where i.order_id = p_order::uuid order by i.year, i.number
$$;
create function pg_temp.x(p_code text) returns uuid language sql security definer as $$ select id from public.extras where code = p_code $$;

-- ---------------------------------------------------------------- the catalogue
select results_eq($$ select code, name, name_en, unit, price_cents, price_from, vat_rate, deposit from public.extras order by sort_order $$,
  $$ values ('washing_machine', 'Waschmaschine', 'Washing machine', 'load', 500, false, 19, false),
            ('boat_lift', 'Bootskran', 'Boat lift', 'day', 10000, true, 19, false),
            ('ice_2kg', 'Eis 2 kg', 'Ice 2 kg', 'piece', 300, false, 7, false),
            ('ice_5kg', 'Eis 5 kg', 'Ice 5 kg', 'piece', 500, false, 7, false),
            ('cooler_deposit', 'Kühlbox-Pfand', 'Cooler deposit', 'piece', 2000, false, 0, true),
            ('parking_key_deposit', 'Pfand Parkschranken-Schlüssel', 'Parking barrier key deposit', 'piece', 2000, false, 0, true) $$,
  'the catalogue holds the spec''s price list (gross cents, VAT rate, deposits)');
select ok((select relrowsecurity from pg_class where oid = 'public.extras'::regclass), 'the catalogue has row level security');
select tests.authenticate_as('admin');
select lives_ok($$ insert into public.extras (code, name, name_en, unit, price_cents, vat_rate, active)
                   values ('diesel_can', 'Diesel-Kanister', 'Diesel can', 'piece', 1500, 19, false) $$, 'an admin adds an entry');
select results_eq($$ update public.extras set price_cents = 600 where code = 'washing_machine' returning price_cents $$,
  $$ values (600) $$, 'an admin changes a price');
update public.extras set price_cents = 500 where code = 'washing_machine';
select throws_ok($$ insert into public.extras (code, name, name_en, unit, price_cents, vat_rate, deposit)
                    values ('bad_deposit', 'Pfand', 'Deposit', 'piece', 1000, 19, true) $$, '23514', null,
  'a deposit with VAT is refused by the database');
select throws_ok($$ insert into public.extras (code, name, name_en, unit, price_cents, vat_rate) values ('odd_rate', 'X', 'X', 'piece', 100, 16) $$,
  '23514', null, 'a VAT rate other than 19, 7 or 0 is refused');
select throws_ok($$ delete from public.extras where code = 'diesel_can' $$, '42501', null, 'nobody deletes an entry, not even an admin (deactivate it)');
select tests.authenticate_as_anon();
select is((select count(*)::integer from public.extras), 6, 'anon reads the active entries only');
select throws_ok($$ insert into public.extras (code, name, name_en, unit, price_cents, vat_rate) values ('anon', 'X', 'X', 'piece', 1, 19) $$,
  '42501', null, 'anon writes nothing');
select tests.authenticate_as('customer');
select is((select count(*)::integer from public.extras), 6, 'a customer reads the active entries only');
select throws_ok($$ insert into public.extras (code, name, name_en, unit, price_cents, vat_rate) values ('cust', 'X', 'X', 'piece', 1, 19) $$,
  '42501', null, 'a customer adds nothing');
select is_empty($$ update public.extras set price_cents = 1 returning id $$, 'a customer changes nothing');
select tests.authenticate_as('harbour');
select is((select count(*)::integer from public.extras), 7, 'staff read the inactive entries too');
select is_empty($$ update public.extras set price_cents = 1 returning id $$, 'staff who are not admins change no price');

-- ---------------------------------------------------------------- only staff add extras
select tests.authenticate_as('customer');
select throws_ok($$ select public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('washing_machine'), 1) $$,
  '42501', 'staff_only', 'a customer cannot add an extra, not even to their own order');
select is_empty($$ select 1 from public.order_extras $$, 'nothing was added');
select tests.authenticate_as_anon();
select throws_ok($$ select public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('washing_machine'), 1) $$,
  '42501', null, 'anon cannot call it');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('washing_machine'), 0) $$,
  '22023', 'invalid_quantity', 'quantity 0 is refused');
select throws_ok($$ select public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('washing_machine'), 100) $$,
  '22023', 'invalid_quantity', 'quantity 100 is refused');
select throws_ok($$ select public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('diesel_can'), 1) $$,
  'PT404', 'extra_not_found', 'an inactive entry is not sold');
select throws_ok($$ select public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('washing_machine'), 1, 400) $$,
  '22023', 'invalid_price', 'a fixed price is not changed');
select throws_ok($$ select public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('boat_lift'), 1, 9999) $$,
  '22023', 'invalid_price', 'a "from" price is never lowered');

-- An unpaid order: the extra joins its price, no document yet; removed, it no longer bills.
select results_eq($$ select name, unit_price_cents, vat_rate, quantity, added_by = tests.get_user_id('harbour')
                     from public.add_order_extra(current_setting('tests.offen')::uuid, pg_temp.x('boat_lift'), 2, 12000) $$,
  $$ values ('Bootskran', 12000, 19, 2, true) $$, 'staff add an extra: a snapshot of the entry, who added it; a "from" price raised');
select is((select price_cents from public.orders where id = current_setting('tests.offen')::uuid), 3332 + 24000, 'the order''s price grows by its gross');
select is_empty($$ select * from pg_temp.docs(current_setting('tests.offen')) $$, 'an unpaid order has no document');
select lives_ok($$ select public.remove_order_extra((select id from public.order_extras where order_id = current_setting('tests.offen')::uuid)) $$,
  'staff remove it before it is invoiced');
select is((select price_cents from public.orders where id = current_setting('tests.offen')::uuid), 3332, 'the price is back');
select throws_ok($$ select public.remove_order_extra((select id from public.order_extras where order_id = current_setting('tests.offen')::uuid)) $$,
  'P0001', 'order_extra_closed', 'removed once only');
select tests.authenticate_as('customer');
select results_eq($$ select name, removed_at is not null from public.order_extras $$, $$ values ('Bootskran', true) $$,
  'the owner reads the extras of their order');

-- ---------------------------------------------------------------- an invoiced order: corrections
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.extra')::uuid, 'cash');
select results_eq($$ select * from pg_temp.docs(current_setting('tests.extra')) $$,
  $$ values ('RE-2027-00001', 'invoice', 'payment', 7140) $$, 'paid: the invoice');
select lives_ok($$ select public.add_order_extra(current_setting('tests.extra')::uuid, pg_temp.x('washing_machine'), 1) $$,
  'staff add a washing machine load to the invoiced order');
select results_eq($$ select * from pg_temp.docs(current_setting('tests.extra')) $$,
  $$ values ('RE-2027-00001', 'invoice', 'payment', 7140), ('RE-2027-00002', 'cancellation', 'changed', -7140),
            ('RE-2027-00003', 'invoice', 'correction', 7640) $$,
  'the invoice is cancelled and a new one issued with the extra, numbers gapless');
select results_eq($$ select l ->> 'description', (l ->> 'quantity')::int, l ->> 'unit', (l ->> 'vat_rate')::numeric, (l ->> 'net_cents')::int
                     from public.invoices i, jsonb_array_elements(i.lines) l where i.invoice_number = 'RE-2027-00003' and (l ->> 'position')::int = 3 $$,
  $$ values ('Waschmaschine', 1, 'load', 19::numeric, 420) $$, 'the new invoice has the extra''s line (gross 5.00: net 4.20)');
select is((select (private.order_balance(current_setting('tests.extra')::uuid) ->> 'outstanding_cents')::int), 500,
  'the extra is outstanding on the paid order');

-- Deposits carry no VAT.
select lives_ok($$ select public.add_order_extra(current_setting('tests.extra')::uuid, pg_temp.x('cooler_deposit'), 1) $$, 'a cooler deposit');
select results_eq($$ select invoice_number, gross_cents, vat_cents, vat_breakdown from public.invoices where invoice_number = 'RE-2027-00005' $$,
  $$ values ('RE-2027-00005', 9640, 1220,
             '[{"vat_rate": 19, "net_cents": 6420, "vat_cents": 1220, "gross_cents": 7640}, {"vat_rate": 0, "net_cents": 2000, "vat_cents": 0, "gross_cents": 2000}]'::jsonb) $$,
  'the deposit is a 0 % line: no VAT on it, the 19 % part unchanged');
select results_eq($$ select l ->> 'description', (l ->> 'vat_rate')::numeric, (l ->> 'net_cents')::int
                     from public.invoices i, jsonb_array_elements(i.lines) l where i.invoice_number = 'RE-2027-00005' and l ->> 'code' = 'extra:cooler_deposit' $$,
  $$ values ('Kühlbox-Pfand (Pfand, nicht steuerbar)', 0::numeric, 2000) $$, 'its line says it is a deposit');
select lives_ok($$ select public.record_desk_payment(current_setting('tests.extra')::uuid, 'cash') $$, 'the guest pays the rest in cash');
select results_eq($$ select payment_status::text, price_cents from public.orders where id = current_setting('tests.extra')::uuid $$,
  $$ values ('paid', 9640) $$, 'the order is paid again');
select is((select count(*)::int from public.invoices where order_id = current_setting('tests.extra')::uuid), 5, 'paying the rest issues nothing new');

-- Returning the deposit: a refund in the ledger and the cash book; the invoice no longer bills it.
select throws_ok($$ select public.return_deposit((select id from public.order_extras where code = 'washing_machine'), 'cash') $$,
  'P0001', 'not_a_deposit', 'only a deposit is returned');
select throws_ok($$ select public.return_deposit((select id from public.order_extras where code = 'cooler_deposit'), 'card_terminal') $$,
  '22023', 'invalid_payment_method', 'a deposit goes back in cash or by transfer');
select lives_ok($$ select public.return_deposit((select id from public.order_extras where code = 'cooler_deposit'), 'cash') $$,
  'staff take the cooler back');
select results_eq($$ select kind, method::text, amount_cents, note from public.payments where order_id = current_setting('tests.extra')::uuid order by recorded_at, kind $$,
  $$ values ('payment', 'cash', 7140, null::text), ('payment', 'cash', 2500, null), ('refund', 'cash', 2000, 'Pfandrückgabe: 1 × Kühlbox-Pfand') $$,
  'the deposit goes back as a refund in the ledger');
select results_eq($$ select kind, amount_cents from public.cash_book_entries where order_id = current_setting('tests.extra')::uuid order by entry_no $$,
  $$ values ('payment', 7140), ('payment', 2500), ('refund', -2000) $$, 'and out of the till');
select results_eq($$ select * from pg_temp.docs(current_setting('tests.extra')) offset 5 $$,
  $$ values ('RE-2027-00006', 'cancellation', 'changed', -9640), ('RE-2027-00007', 'invoice', 'correction', 7640) $$,
  'the documents follow: cancellation, new invoice without the deposit, no credit note');
select throws_ok($$ select public.return_deposit((select id from public.order_extras where code = 'cooler_deposit'), 'cash') $$,
  'P0001', 'order_extra_closed', 'a deposit is returned once');

-- Removing an invoiced extra is a correction.
select lives_ok($$ select public.remove_order_extra((select id from public.order_extras where code = 'washing_machine')) $$,
  'staff remove the washing machine from the invoiced order');
select results_eq($$ select * from pg_temp.docs(current_setting('tests.extra')) offset 7 $$,
  $$ values ('RE-2027-00008', 'cancellation', 'changed', -7640), ('RE-2027-00009', 'invoice', 'correction', 7140) $$,
  'cancellation and new invoice; the issued ones unchanged');
select is((select (private.order_balance(current_setting('tests.extra')::uuid) ->> 'to_refund_cents')::int), 500, 'what was paid for it is to be refunded');

-- ---------------------------------------------------------------- desk sales
select throws_ok($$ select public.sell_at_desk('[{"extra_id": "00000000-0000-4000-8000-000000000000", "quantity": 1}]', 'cash') $$,
  'PT404', 'extra_not_found', 'an unknown extra is refused');
select throws_ok($$ select public.sell_at_desk('[]', 'cash') $$, '22023', 'invalid_items', 'an empty sale is refused');
select throws_ok($$ select public.sell_at_desk('"x"', 'cash') $$, '22023', 'invalid_items', 'garbage is refused');
select throws_ok($$ select public.sell_at_desk(jsonb_build_array(jsonb_build_object('extra_id', pg_temp.x('ice_2kg'), 'quantity', 1.5)), 'cash') $$,
  '22023', 'invalid_quantity', 'a fractional quantity is refused');
select throws_ok($$ select public.sell_at_desk(jsonb_build_array(jsonb_build_object('extra_id', pg_temp.x('cooler_deposit'), 'quantity', 1)), 'cash') $$,
  'P0001', 'deposit_needs_order', 'a deposit goes onto a booking, not a desk sale');
select throws_ok($$ select public.sell_at_desk(jsonb_build_array(jsonb_build_object('extra_id', pg_temp.x('boat_lift'), 'quantity', 3)), 'card_terminal') $$,
  '22023', 'buyer_required', 'above EUR 250 the buyer is required');
select results_eq($$ select invoice_number, order_id, kind, small_amount, recipient, gross_cents, vat_breakdown
                     from public.sell_at_desk(jsonb_build_array(jsonb_build_object('extra_id', pg_temp.x('ice_2kg'), 'quantity', 2),
                                                                jsonb_build_object('extra_id', pg_temp.x('washing_machine'), 'quantity', 1)), 'cash') $$,
  $$ values ('RE-2027-00010', null::uuid, 'invoice', true, null::jsonb, 1100,
             '[{"vat_rate": 19, "net_cents": 420, "vat_cents": 80, "gross_cents": 500}, {"vat_rate": 7, "net_cents": 561, "vat_cents": 39, "gross_cents": 600}]'::jsonb) $$,
  'a desk sale issues a receipt: the next number of the one series, a Kleinbetragsrechnung, VAT per rate taken out of the gross prices');
select results_eq($$ select e.kind, e.amount_cents, e.source_kind, e.order_id, e.reason, e.recorded_by = tests.get_user_id('harbour')
                     from public.cash_book_entries e join public.desk_sales s on s.id = e.source_id $$,
  $$ values ('payment', 1100, 'desk_sale', null::uuid, 'Barverkauf RE-2027-00010', true) $$, 'a cash desk sale enters the cash book');
select results_eq($$ select method::text, gross_cents, jsonb_array_length(items) from public.desk_sales $$,
  $$ values ('cash', 1100, 2) $$, 'the sale is stored with its items');
select results_eq($$ select invoice_number, small_amount, recipient ->> 'name', gross_cents
                     from public.sell_at_desk(jsonb_build_array(jsonb_build_object('extra_id', pg_temp.x('boat_lift'), 'quantity', 3)), 'card_terminal',
                                              '{"name": "Bernd Boot", "street": "Kai 3", "postal_code": "40221", "city": "Düsseldorf"}') $$,
  $$ values ('RE-2027-00011', false, 'Bernd Boot', 30000) $$, 'with the buyer: a full invoice');
select is((select count(*)::int from public.cash_book_entries where source_kind = 'desk_sale'), 1, 'a card sale does not touch the till');
select is((select array_agg(number order by number) from public.invoices where year = 2027), array[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  'one gapless series over invoices, cancellations and receipts');
select tests.authenticate_as('customer');
select throws_ok($$ select public.sell_at_desk(jsonb_build_array(jsonb_build_object('extra_id', pg_temp.x('ice_2kg'), 'quantity', 1)), 'cash') $$,
  '42501', 'staff_only', 'a customer sells nothing');
select is_empty($$ select 1 from public.invoices where desk_sale_id is not null $$, 'and reads no receipt');

-- ---------------------------------------------------------------- a service request accepted
select tests.clear_authentication();
select set_config('tests.request', public.request_service('washing_machine', 'Otto Offen', 'otto@test.local', 'Bitte zwei Waschgänge morgen früh.')::text, true);
select tests.authenticate_as('harbour');
select results_eq($$ select name, quantity, service_request_id::text
                     from public.accept_service_request(current_setting('tests.request')::uuid, current_setting('tests.offen')::uuid, pg_temp.x('washing_machine'), 2) $$,
  $$ values ('Waschmaschine', 2, current_setting('tests.request')) $$, 'staff accept the request: the extra is on the order');
select results_eq($$ select status, done_by = tests.get_user_id('harbour') from public.contact_messages where id = current_setting('tests.request')::uuid $$,
  $$ values ('done', true) $$, 'and the request is done');
select throws_ok($$ select public.accept_service_request(current_setting('tests.request')::uuid, current_setting('tests.offen')::uuid, pg_temp.x('washing_machine'), 2) $$,
  'P0001', 'request_done', 'accepted once');

-- ---------------------------------------------------------------- audited
select tests.authenticate_as('admin');
select results_eq($$ select action, actor = tests.get_user_id('harbour'), new_values ->> 'name' from public.audit_log
                     where table_name = 'public.order_extras' and action = 'insert' order by id limit 1 $$,
  $$ values ('insert', true, 'Bootskran') $$, 'adding an extra is in the audit trail with its actor');

select * from finish();
rollback;
