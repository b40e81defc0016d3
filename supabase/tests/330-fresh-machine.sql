-- A fresh machine works (supabase/schemas/35_payments_ledger.sql): a cancelled or expired order is
-- never marked paid (no invoice for a stay that does not take place), whoever writes; and the
-- confirmation's link follows the site URL that Vault holds where it holds one.
begin;
select plan(10);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('F1', 4, 12, false, false), ('F2', 4, 12, false, false), ('F3', 4, 12, false, false);
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('F1'), 'overnight', '2027-05-20', '{"name": "Storniert", "length": 9, "width": 3}',
  '{"first_name": "Sven", "last_name": "Storno"}', '2027-05-21');
select public.staff_create_booking(tests.place_id('F2'), 'overnight', '2027-05-20', '{"name": "Abgelaufen", "length": 9, "width": 3}',
  '{"first_name": "Erik", "last_name": "Ende"}', '2027-05-21');
select public.staff_create_booking(tests.place_id('F3'), 'overnight', '2027-05-20', '{"name": "Offen", "length": 9, "width": 3}',
  '{"first_name": "Olga", "last_name": "Offen"}', '2027-05-21');
select set_config('tests.cancelled', (select id::text from public.orders where boat ->> 'name' = 'Storniert'), true);
select set_config('tests.expired', (select id::text from public.orders where boat ->> 'name' = 'Abgelaufen'), true);
select set_config('tests.open', (select id::text from public.orders where boat ->> 'name' = 'Offen'), true);
select public.cancel_booking(current_setting('tests.cancelled')::uuid);
select tests.clear_authentication();
update public.orders set status = 'expired' where id = current_setting('tests.expired')::uuid;

-- ---------------------------------------------------------------- staff cannot mark them paid
select tests.authenticate_as('harbour');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.cancelled')::uuid, 'cash') $$,
  'P0001', 'order_not_payable', 'staff cannot mark a cancelled order paid');
select throws_ok($$ select public.record_desk_payment(current_setting('tests.expired')::uuid, 'cash') $$,
  'P0001', 'order_not_payable', 'nor an expired one');
select tests.clear_authentication();
select results_eq($$ select o.payment_status::text, count(i.id)::int from public.orders o left join public.invoices i on i.order_id = o.id
                     where o.id = current_setting('tests.cancelled')::uuid group by 1 $$,
  $$ values ('pending', 0) $$, 'the cancelled order stays pending, and no invoice is issued');

-- Whoever writes: not even the table owner (a future webhook, a staff function) gets past it.
select throws_ok($$ update public.orders set payment_status = 'paid' where id = current_setting('tests.expired')::uuid $$,
  'P0001', 'order_not_payable', 'the trigger refuses it to a direct write too');

-- An open order is still paid as before, and a paid order can still be cancelled and refunded.
select tests.authenticate_as('harbour');
select lives_ok($$ select public.record_desk_payment(current_setting('tests.open')::uuid, 'cash') $$,
  'an open order is marked paid');
select lives_ok($$ select public.cancel_booking(current_setting('tests.open')::uuid) $$, 'and cancelled afterwards');
select lives_ok($$ select public.record_desk_refund(current_setting('tests.open')::uuid, 'cash', (select price_cents from public.orders where id = current_setting('tests.open')::uuid)) $$, 'and refunded');
select tests.clear_authentication();
select results_eq($$ select status::text, payment_status::text from public.orders where id = current_setting('tests.open')::uuid $$,
  $$ values ('cancelled', 'refunded') $$, 'paid, cancelled, refunded');

-- ---------------------------------------------------------------- links follow the site URL in Vault
select is(private.edge_setting('site_url'), (select value from private.app_settings where key = 'site_url'),
  'without a Vault secret the site URL is the operator setting');
delete from vault.secrets where name = 'site_url';
select vault.create_secret('http://localhost:3999', 'site_url');
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('F2'), 'overnight', '2027-06-01', '{"name": "Link", "length": 9, "width": 3}',
  '{"first_name": "Lena", "last_name": "Link", "email": "lena@example.org"}', '2027-06-02');
select tests.clear_authentication();
select matches((select body_text from public.outbox where recipient = 'lena@example.org' order by id desc limit 1),
  'http://localhost:3999/order/[0-9a-f-]{36}', 'the confirmation links to the site URL stored in Vault');

select * from finish();
rollback;
