-- Cancelling a desk sale and telling the guest about a returned deposit (issue 21, session 11;
-- supabase/schemas/57_desk_sales.sql and 56_deposits.sql). A desk receipt is cancelled by a Stornorechnung with the next
-- number of the one series, every amount negated per VAT rate, referring to the receipt, which
-- stays as issued; cash goes back as a refund entry of the cash book on the open business day
-- (the closed day is untouched; the book's balance stays the sum of its entries), a card sale's
-- money is recorded beside the book; once only, staff only. A returned deposit mails the guest
-- in their language what went back, how and when (cash, or to their card through Stripe).
begin;
select plan(34);
select private.freeze_clock('2027-07-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('D1', 4, 13, false, false), ('D2', 4, 13, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
create function pg_temp.x(p_code text) returns uuid language sql security definer as $$ select id from public.extras where code = p_code $$;

-- ---------------------------------------------------------------- two desk sales on 1 July
select tests.authenticate_as('harbour');
select set_config('tests.cash_receipt', (select id::text from public.sell_at_desk(jsonb_build_array(
  jsonb_build_object('extra_id', pg_temp.x('ice_2kg'), 'quantity', 2),
  jsonb_build_object('extra_id', pg_temp.x('washing_machine'), 'quantity', 1)), 'cash')), true);
select set_config('tests.card_receipt', (select id::text from public.sell_at_desk(jsonb_build_array(
  jsonb_build_object('extra_id', pg_temp.x('washing_machine'), 'quantity', 1)), 'card_terminal')), true);
select set_config('tests.receipt_before', (select to_jsonb(i)::text from public.invoices i where id = current_setting('tests.cash_receipt')::uuid), true);
-- The day is counted and closed in the evening.
select tests.clear_authentication();
select private.freeze_clock('2027-07-01 18:00+02');
select tests.authenticate_as('harbour');
select public.close_cash_day('2027-07-01', 1100, 'Abend');
select set_config('tests.closed_day', (select jsonb_agg(to_jsonb(e) order by entry_no)::text from public.cash_book_entries e where business_day = '2027-07-01'), true);

-- ---------------------------------------------------------------- who may cancel
select tests.clear_authentication();
select private.freeze_clock('2027-07-02 09:00+02');
select tests.authenticate_as('customer');
select throws_ok($$ select public.cancel_desk_sale(current_setting('tests.cash_receipt')::uuid, 'Versuch') $$, '42501', 'staff_only', 'a customer cancels no desk sale');
select tests.authenticate_as_anon();
select throws_ok($$ select public.cancel_desk_sale(current_setting('tests.cash_receipt')::uuid, 'Versuch') $$, '42501', null, 'nor does anon');
select tests.authenticate_as('harbour');
select throws_ok($$ select public.cancel_desk_sale(current_setting('tests.cash_receipt')::uuid, '  ') $$, '22023', 'reason_required', 'a reason is required');
select throws_ok($$ select public.cancel_desk_sale('00000000-0000-4000-8000-000000000000', 'x') $$, 'PT404', 'receipt_not_found', 'an unknown receipt is not found');

-- ---------------------------------------------------------------- the cash sale cancelled the next morning
select results_eq($$ select invoice_number, kind, reason, refers_to_number, desk_sale_id::text, order_id, small_amount, recipient, net_cents, vat_cents, gross_cents, vat_breakdown
                     from public.cancel_desk_sale(current_setting('tests.cash_receipt')::uuid, 'Falscher Artikel') $$,
  $$ values ('RE-2027-00003', 'cancellation', 'cancelled', 'RE-2027-00001',
             (select desk_sale_id::text from public.invoices where id = current_setting('tests.cash_receipt')::uuid), null::uuid, true, null::jsonb,
             -981, -119, -1100,
             '[{"vat_rate": 19, "net_cents": -420, "vat_cents": -80, "gross_cents": -500}, {"vat_rate": 7, "net_cents": -561, "vat_cents": -39, "gross_cents": -600}]'::jsonb) $$,
  'the Stornorechnung: next number, refers to the receipt, same sale, every amount negated per rate');
select results_eq($$ select (l ->> 'quantity')::numeric, l ->> 'description', (l ->> 'net_cents')::integer
                     from public.invoices i, jsonb_array_elements(i.lines) l where i.kind = 'cancellation' order by (l ->> 'position')::integer $$,
  $$ values (-2::numeric, 'Eis 2 kg', -561), (-1::numeric, 'Waschmaschine', -420) $$, 'its lines repeat the receipt''s with negative quantities and amounts');
select is((select to_jsonb(i)::text from public.invoices i where id = current_setting('tests.cash_receipt')::uuid), current_setting('tests.receipt_before'),
  'the receipt itself is unchanged');
select results_eq($$ select business_day, kind, amount_cents, source_kind, order_id, recorded_by = tests.get_user_id('harbour'), reason
                     from public.cash_book_entries where source_kind = 'desk_sale_cancel' $$,
  $$ values ('2027-07-02'::date, 'refund', -1100, 'desk_sale_cancel', null::uuid, true,
             'Storno Barverkauf RE-2027-00001 (RE-2027-00003): Falscher Artikel') $$,
  'the cash goes out of the till as a refund entry on today''s open day');
select is((select jsonb_agg(to_jsonb(e) order by entry_no)::text from public.cash_book_entries e where business_day = '2027-07-01'), current_setting('tests.closed_day'),
  'the closed day is untouched');
select is((select balance_cents from public.cash_book_entries order by entry_no desc limit 1), (select sum(amount_cents) from public.cash_book_entries),
  'the book''s balance equals the sum of its entries');
select is((select balance_cents from public.cash_book_entries order by entry_no desc limit 1), 0::bigint, 'the till is empty again');
select results_eq($$ select method::text, amount_cents, reason, cancelled_by = tests.get_user_id('harbour'), document_id = (select id from public.invoices where invoice_number = 'RE-2027-00003')
                     from public.desk_sale_cancellations $$,
  $$ values ('cash', 1100, 'Falscher Artikel', true, true) $$, 'the cancellation is recorded: how, how much, why, who, which document');
select throws_ok($$ select public.cancel_desk_sale(current_setting('tests.cash_receipt')::uuid, 'nochmal') $$, 'P0001', 'desk_sale_cancelled', 'a sale is cancelled once');
select throws_ok($$ select public.cancel_desk_sale((select id from public.invoices where invoice_number = 'RE-2027-00003'), 'Storno vom Storno') $$,
  'PT404', 'receipt_not_found', 'a Stornorechnung is not itself cancelled');

-- ---------------------------------------------------------------- a card sale cancelled
select results_eq($$ select invoice_number, gross_cents, refers_to_number
                     from public.cancel_desk_sale(current_setting('tests.card_receipt')::uuid, 'Gast hat es sich anders überlegt') $$,
  $$ values ('RE-2027-00004', -500, 'RE-2027-00002') $$, 'a card sale''s Stornorechnung');
select is((select count(*)::integer from public.cash_book_entries where source_kind = 'desk_sale_cancel'), 1, 'a card refund does not touch the till');
select is((select method::text from public.desk_sale_cancellations where amount_cents = 500), 'card_terminal', 'it goes back to the card, recorded beside the book');
select is((select array_agg(number order by number) from public.invoices where year = 2027), array[1, 2, 3, 4], 'receipts and Stornorechnungen in one gapless series');

-- ---------------------------------------------------------------- nobody changes it
select throws_ok($$ update public.desk_sale_cancellations set reason = 'anders' $$, '42501', null, 'staff cannot edit a cancellation');
select tests.clear_authentication();
select throws_ok($$ delete from public.desk_sale_cancellations $$, '42501', 'desk_sale_immutable', 'not even the owner deletes one');
select throws_ok($$ update public.invoices set gross_cents = 0 where kind = 'cancellation' $$, '42501', 'invoice_immutable', 'nor changes the Stornorechnung');
select tests.authenticate_as('customer');
select is_empty($$ select 1 from public.desk_sale_cancellations $$, 'a customer reads no cancellation');

-- ---------------------------------------------------------------- DATEV
select tests.authenticate_as('admin');
select results_eq($$ select document_number, side, amount_cents, account, source from public.datev_postings('2027-07-01', '2027-07-02')
                     where document_number = 'RE-2027-00003' order by line_no $$,
  $$ values ('RE-2027-00003', 'H', 500::bigint, '10000', 'cancellation'), ('RE-2027-00003', 'H', 600::bigint, '10000', 'cancellation'),
            ('RE-2027-00003', 'H', 1100::bigint, '1000', 'refund') $$,
  'DATEV: the Stornorechnung credits the revenue per rate, the cash refund leaves the till');
select is((select sum(case side when 'S' then amount_cents else -amount_cents end) from public.datev_postings('2027-07-01', '2027-07-02') where source in ('invoice', 'cancellation')),
  0::numeric, 'and the cancelled sales leave no revenue');

-- ---------------------------------------------------------------- a deposit returned: the guest's e-mail
select tests.clear_authentication();
select private.freeze_clock('2027-07-02 10:00+02');
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('D1'), 'overnight', '2027-07-10', '{"name": "Kuehl", "length": 9, "width": 3}',
  '{"first_name": "Penny", "last_name": "Pfand", "locale": "en"}', '2027-07-11');
select public.create_booking(tests.place_id('D2'), 'overnight', '2027-07-10', '{"name": "Karte", "length": 9, "width": 3}',
  '{"first_name": "Klara", "last_name": "Karte", "locale": "de"}', '2027-07-11');
select tests.clear_authentication();
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;
create function pg_temp.mail(p_order text, p_kind text) returns public.outbox language sql as $$
  select * from public.outbox where order_id = p_order::uuid and kind = p_kind order by id desc limit 1
$$;

-- Paid at the desk in cash, cooler taken back in cash: English.
select tests.authenticate_as('harbour');
select public.add_order_extra(current_setting('tests.kuehl')::uuid, pg_temp.x('cooler_deposit'), 1);
select public.record_desk_payment(current_setting('tests.kuehl')::uuid, 'cash');
select tests.clear_authentication();
select private.freeze_clock('2027-07-02 11:30+02');
select tests.authenticate_as('harbour');
select public.return_deposit((select id from public.order_extras where order_id = current_setting('tests.kuehl')::uuid), 'cash');
select results_eq($$ select recipient, locale, subject from pg_temp.mail(current_setting('tests.kuehl'), 'deposit_return') $$,
  $$ values ((select email from public.orders where id = current_setting('tests.kuehl')::uuid), 'en',
             format('Deposit returned: EUR 20.00, booking %s', (select booking_number from public.orders where id = current_setting('tests.kuehl')::uuid))) $$,
  'the guest is mailed in their language (English) with the amount and the booking number');
select ok((select body_text from pg_temp.mail(current_setting('tests.kuehl'), 'deposit_return'))
  like '%you have returned 1 × Cooler deposit. Your deposit of EUR 20.00 goes back to you:%paid out to you in cash at the harbour office.%Returned on: 2 Jul 2027, 11:30%',
  'what was returned, how (cash at the office) and when');
select is((select count(*)::integer from public.outbox where order_id = current_setting('tests.kuehl')::uuid and kind = 'refund_notice'), 0,
  'no second, generic refund mail for it');

-- Paid online (Stripe), cooler taken back: German, to the card through refund-payment.
select tests.authenticate_as('harbour');
select public.add_order_extra(current_setting('tests.karte')::uuid, pg_temp.x('cooler_deposit'), 1);
select tests.clear_authentication();
insert into public.payments (order_id, kind, method, amount_cents, currency, provider, provider_payment_id, recorded_at)
select id, 'payment', 'online', price_cents, 'eur', 'stripe', 'pi_deposit', private.now() from public.orders where id = current_setting('tests.karte')::uuid;
select tests.authenticate_as('harbour');
select throws_ok($$ select public.return_deposit((select id from public.order_extras where order_id = current_setting('tests.karte')::uuid), 'online') $$,
  '22023', 'deposit_refund_online', 'return_deposit does not pretend to refund online: refund-payment does');
select throws_ok($$ select public.prepare_deposit_refund((select id from public.order_extras where order_id = current_setting('tests.kuehl')::uuid)) $$,
  'P0001', 'order_extra_closed', 'a deposit goes back once');
select results_eq($$ select r ->> 'order_id', (r ->> 'back_cents')::integer, r ->> 'payment_intent', (r ->> 'refundable_cents')::integer > 2000
                     from public.prepare_deposit_refund((select id from public.order_extras where order_id = current_setting('tests.karte')::uuid)) r $$,
  $$ values (current_setting('tests.karte'), 2000, 'pi_deposit', true) $$, 'prepare_deposit_refund names the payment to refund and the amount');
select ok((select locale = 'de' and subject like 'Pfand zurückgegeben: 20,00 €, Buchung %'
                  and body_text like '%Sie haben 1 × Kühlbox-Pfand zurückgegeben.%auf die Karte, mit der Sie online bezahlt haben (Stripe)%5 bis 10 Tagen%'
             from pg_temp.mail(current_setting('tests.karte'), 'deposit_return')),
  'the German guest is told it goes back to their card via Stripe, and how long that takes');
select tests.clear_authentication();
select private.record_online_refund('evt_deposit', jsonb_build_object('id', 're_deposit', 'object', 'refund', 'amount', 2000, 'currency', 'eur',
  'payment_intent', 'pi_deposit', 'status', 'succeeded', 'metadata', jsonb_build_object('order_id', current_setting('tests.karte'), 'deposit_return', 'true')));
select results_eq($$ select kind, method::text, amount_cents, deposit_return from public.payments where provider_refund_id = 're_deposit' $$,
  $$ values ('refund', 'online', 2000, true) $$, 'Stripe''s refund lands in the ledger as a deposit return');
select results_eq($$ select payment_status::text from public.orders where id = current_setting('tests.karte')::uuid $$,
  $$ values ('paid') $$, 'the stay stays paid');
select is((select count(*)::integer from public.outbox where order_id = current_setting('tests.karte')::uuid and kind in ('refund_notice', 'deposit_return')), 1,
  'one e-mail about it, not two');

select * from finish();
rollback;
