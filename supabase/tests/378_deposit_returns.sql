-- A returned deposit paid back (issue 21): its money left with the deposit's line, so it is no
-- refund of the stay. The order stays paid (not partially refunded), the refund row is marked
-- deposit_return, no credit note is issued for it, and an extra added afterwards is owed (before
-- the fix the balance said nothing was outstanding after any refund, and the next correction
-- credited the deposit a second time).
begin;
select plan(12);
select private.freeze_clock('2027-07-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('X1', 4, 13, false, false);
select tests.create_user('harbour', array['harbor']);
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('X1'), 'overnight', '2027-07-10', '{"name": "Pfand", "length": 10, "width": 3}',
  '{"first_name": "Paula", "last_name": "Pfand", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf"}', '2027-07-12');
select set_config('tests.order', (select id::text from public.orders), true);

create function pg_temp.docs() returns table (invoice_number text, kind text, reason text, gross_cents integer)
language sql as $$
  select i.invoice_number, i.kind, i.reason, i.gross_cents from public.invoices i
   where i.order_id = current_setting('tests.order')::uuid order by i.year, i.number
$$;
create function pg_temp.x(p_code text) returns uuid language sql security definer as $$ select id from public.extras where code = p_code $$;
create function pg_temp.balance(p_key text) returns integer language sql as $$
  select (public.order_balance(current_setting('tests.order')::uuid) ->> p_key)::integer
$$;
create function pg_temp.status() returns text language sql security definer as $$
  select payment_status::text from public.orders where id = current_setting('tests.order')::uuid
$$;

-- Paid, then a cooler deposit joins and is paid too.
select public.record_desk_payment(current_setting('tests.order')::uuid, 'cash');
select public.add_order_extra(current_setting('tests.order')::uuid, pg_temp.x('cooler_deposit'), 1);
select public.record_desk_payment(current_setting('tests.order')::uuid, 'cash');
select is(pg_temp.status(), 'paid', 'berth and deposit are paid');

-- The cooler comes back.
select lives_ok($$ select public.return_deposit((select id from public.order_extras where code = 'cooler_deposit'), 'cash') $$,
  'staff take the cooler back and pay the deposit out');
select results_eq($$ select kind, amount_cents, deposit_return from public.payments where order_id = current_setting('tests.order')::uuid order by recorded_at, kind $$,
  $$ values ('payment', 7140, false), ('payment', 2000, false), ('refund', 2000, true) $$,
  'the refund is marked as a returned deposit');
select is(pg_temp.status(), 'paid', 'the stay is still paid: a returned deposit is no partial refund');
select is(pg_temp.balance('outstanding_cents'), 0, 'nothing is outstanding');
select is(pg_temp.balance('to_refund_cents'), 0, 'nothing is to be refunded');
select results_eq($$ select * from pg_temp.docs() $$,
  $$ values ('RE-2027-00001', 'invoice', 'payment', 7140), ('RE-2027-00002', 'cancellation', 'changed', -7140),
            ('RE-2027-00003', 'invoice', 'correction', 9140), ('RE-2027-00004', 'cancellation', 'changed', -9140),
            ('RE-2027-00005', 'invoice', 'correction', 7140) $$,
  'the documents drop the deposit: cancellation and new invoice, no credit note');

-- Ice afterwards: owed, and not credited against the deposit that went back.
select lives_ok($$ select public.add_order_extra(current_setting('tests.order')::uuid, pg_temp.x('ice_2kg'), 1) $$, 'the guest takes ice');
select is(pg_temp.balance('outstanding_cents'), 300, 'the ice is outstanding although a deposit was paid back before');
select is_empty($$ select 1 from public.invoices where order_id = current_setting('tests.order')::uuid and kind = 'credit_note' $$,
  'no credit note: the deposit was not a price reduction');
select public.record_desk_payment(current_setting('tests.order')::uuid, 'cash');
select results_eq($$ select pg_temp.status(), pg_temp.balance('outstanding_cents'), pg_temp.balance('net_cents') $$,
  $$ values ('paid', 0, 7440) $$, 'paid for the ice: paid, nothing outstanding, the harbour holds the new price');
select results_eq($$ select * from pg_temp.docs() offset 5 $$,
  $$ values ('RE-2027-00006', 'cancellation', 'changed', -7140), ('RE-2027-00007', 'invoice', 'correction', 7440) $$,
  'the ice is invoiced: cancellation and new invoice, numbers gapless');

select * from finish();
rollback;
