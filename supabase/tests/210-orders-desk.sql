-- The order desk: staff list and search orders, see where an order can move, add notes, read
-- its history; the issuer (address, VAT id) is stamped on invoices. Customers are refused.
begin;
select plan(30);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, width, length, one_day, archived) values
  ('D1', 4, 12, false, false), ('D2', 4, 12, false, false), ('D3', 2.5, 6, false, false), ('D4', 4, 12, true, false), ('D5', 4, 12, false, true),
  ('D6', 4, 12, false, false);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('D1'), 'overnight', '2027-05-11', '{"name": "Rheinperle", "length": 9.4, "width": 3.2}',
  '{"first_name": "Klaus", "last_name": "Kunde", "email": "klaus@test.local"}', '2027-05-13');
select public.staff_create_booking(tests.place_id('D2'), 'overnight', '2027-06-01', '{"name": "Möwe_1", "length": 5, "width": 2}',
  '{"first_name": "Wanda", "last_name": "Walk"}', '2027-06-03');
select public.staff_create_booking(tests.place_id('D4'), 'day', '2027-05-20', '{"name": "Jolle", "length": 5, "width": 2}',
  '{"first_name": "Tina", "last_name": "Tag", "email": "tina@test.local"}', null, '10:00', '12:00');
-- One transaction shares one now(): spread the creation times so "newest first" is testable.
select tests.clear_authentication();
update public.orders set created_at = case boat ->> 'name' when 'Rheinperle' then '2027-05-10 09:00+02'
  when 'Möwe_1' then '2027-05-10 10:00+02' else '2027-05-10 11:00+02' end::timestamptz;

-- ---------------------------------------------------------------- list
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.staff_orders() $$, '42501', 'staff_only', 'a customer cannot list orders');
select throws_ok($$ select * from public.order_move_targets(gen_random_uuid()) $$, '42501', 'staff_only', 'nor ask for move targets');
select throws_ok($$ select public.add_order_note(gen_random_uuid(), 'x') $$, '42501', 'staff_only', 'nor add notes');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.staff_orders() $$, '42501', null, 'anon cannot list orders');

select tests.authenticate_as('harbour');
select results_eq($$ select boat_name, total_count::int from public.staff_orders() $$,
  $$ values ('Jolle', 3), ('Möwe_1', 3), ('Rheinperle', 3) $$, 'staff list all orders newest first with the total');
select results_eq($$ select boat_name, total_count::int from public.staff_orders(p_limit => 1, p_offset => 1) $$,
  $$ values ('Möwe_1', 3) $$, 'one page of one, the second');
select results_eq($$ select boat_name from public.staff_orders(p_query => 'KUNDE') $$, $$ values ('Rheinperle') $$, 'search by last name, any case');
select results_eq($$ select boat_name from public.staff_orders(p_query => 'möwe') $$, $$ values ('Möwe_1') $$, 'search by boat name');
select results_eq($$ select boat_name from public.staff_orders(p_query => 'tina@test') $$, $$ values ('Jolle') $$, 'search by e-mail');
select is_empty($$ select * from public.staff_orders(p_query => '%') $$, 'a % is a literal, not a wildcard');
select results_eq($$ select boat_name from public.staff_orders(p_query => 'e_1') $$, $$ values ('Möwe_1') $$, 'an _ is a literal too');
select results_eq($$ select boat_name from public.staff_orders(p_kind => 'day') $$, $$ values ('Jolle') $$, 'filter by kind');
select results_eq($$ select boat_name from public.staff_orders(p_from => '2027-05-12', p_to => '2027-05-20') $$,
  $$ values ('Jolle'), ('Rheinperle') $$, 'filter by stays touching a day range');
select results_eq($$ select boat_name from public.staff_orders(p_from => '2027-05-13', p_to => '2027-05-19') $$,
  $$ values ('Rheinperle') $$, 'a stay leaving at 12:00 on the first day of the range is in it; stays before and after are not');
select throws_ok($$ select * from public.staff_orders(p_limit => 1000) $$, '22023', 'invalid_paging', 'pages of at most 100');
select results_eq($$ select boat_name from public.staff_orders(p_sort => 'boat_name', p_desc => false) $$,
  $$ values ('Jolle'), ('Möwe_1'), ('Rheinperle') $$, 'sorted by boat, ascending');
select results_eq($$ select boat_name, total_count::int from public.staff_orders(p_limit => 1, p_offset => 0, p_sort => 'boat_name', p_desc => true) $$,
  $$ values ('Rheinperle', 3) $$, 'sorted by boat, descending, before the page is cut');
select throws_ok($$ select * from public.staff_orders(p_sort => 'o.id; drop table orders') $$, '22023', 'invalid_sort', 'only the known columns sort');
select throws_ok($$ select * from public.staff_orders(p_from => '2027-05-13', p_to => '2027-05-12') $$, '22023', 'invalid_period', 'the range must not end before it starts');

-- ---------------------------------------------------------------- move targets
select results_eq($$ select name from public.order_move_targets((select id from public.orders where boat ->> 'name' = 'Rheinperle')) $$,
  $$ values ('D2'), ('D6') $$, 'fitting free berths only: not the own, not too small, not archived, not for day guests only');
select public.staff_create_booking(tests.place_id('D2'), 'overnight', '2027-05-12', '{"name": "Blocker", "length": 5, "width": 2}',
  '{"first_name": "Bea", "last_name": "Block"}', '2027-05-14');
select results_eq($$ select name from public.order_move_targets((select id from public.orders where boat ->> 'name' = 'Rheinperle')) $$,
  $$ values ('D6') $$, 'an overlapping booking takes a berth off the list');
select results_eq($$ select name from public.order_move_targets((select id from public.orders where boat ->> 'name' = 'Jolle')) $$,
  $$ select null::text where false $$, 'a day stay moves only to day berths');

-- ---------------------------------------------------------------- notes and history
select results_eq($$ select body from public.add_order_note((select id from public.orders where boat ->> 'name' = 'Rheinperle'), '  Ruft morgen an  ') $$,
  $$ values ('Ruft morgen an') $$, 'staff add a note (trimmed)');
select throws_ok($$ select public.add_order_note((select id from public.orders where boat ->> 'name' = 'Rheinperle'), '   ') $$,
  '22023', 'invalid_note', 'an empty note is refused');
select throws_ok($$ select public.add_order_note(gen_random_uuid(), 'x') $$, 'PT404', 'order_not_found', 'a note needs an order');
select public.move_booking((select id from public.orders where boat ->> 'name' = 'Rheinperle'), tests.place_id('D6'));
select public.record_desk_payment((select id from public.orders where boat ->> 'name' = 'Rheinperle'), 'cash');
select results_eq(
  $$ select e.event, e.from_value, e.to_value, e.actor = tests.get_user_id('harbour') from public.order_events e
     join public.orders o on o.id = e.order_id where o.boat ->> 'name' = 'Rheinperle' order by e.id $$,
  $$ values ('created', null, 'confirmed', true), ('moved', 'D1', 'D6', true), ('payment_recorded', 'cash', '7140', true), ('payment', 'pending', 'paid', true) $$,
  'the history records creation, the move and the payment (method, amount, status), with who did it');
select results_eq(
  $$ select i.issuer ->> 'vat_id', i.issuer ->> 'city', i.invoice_number from public.invoices i join public.orders o on o.id = i.order_id where o.boat ->> 'name' = 'Rheinperle' $$,
  $$ values ('DE000000000', 'Düsseldorf', 'RE-2027-00001') $$, 'the invoice carries the issuer with address and VAT id');

select tests.authenticate_as('customer');
select is_empty($$ select * from public.order_notes $$, 'a customer reads no notes, not even on the own order');
select is_empty($$ select * from public.order_events $$, 'nor the history');
select throws_ok($$ insert into public.order_notes (order_id, body) values ((select id from public.orders limit 1), 'x') $$,
  '42501', null, 'and cannot write notes directly');
select * from finish();
rollback;
