-- Staff move a stay to other dates (issue 24, item 2: drag a bar on the timeline to other days):
-- reschedule_booking applies the booking rules to the new dates, reprices the order to the cent
-- as a quote for the new dates (sale code kept), refuses an overlap, non-staff and a new arrival
-- for a checked-in stay, and the invoice machinery issues a cancellation and a new invoice with
-- gapless numbers; the guest hears of it with the new price.
begin;
select plan(31);
select private.freeze_clock('2027-05-10 12:00+02');

insert into public.places (name, pier, width, length, one_day, archived) values
  ('R1', 'A', 4, 13, false, false), ('R2', 'A', 4, 13, false, false), ('R3', 'A', 4, 13, false, false),
  ('R4', 'A', 4, 13, false, false), ('R5', 'A', 4, 13, false, false), ('RT', 'T', 4, 13, true, false);
insert into public.sale_codes (code, value) values ('RESCHED5', 500);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);

-- Umbuch: the customer's, 2 nights 10 m on R1 (7140 cents). Block: R2 25-27 May. Rabatt: staff,
-- sale code RESCHED5, R3. Hier: arrives today on R4, checked in. Tag: a day stay on RT.
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('R1'), 'overnight', '2027-05-20', '{"name": "Umbuch", "length": 10, "width": 3}',
  '{"first_name": "Klaus", "last_name": "Kunde", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf"}', '2027-05-22');
select tests.authenticate_as('harbour');
select public.staff_create_booking(tests.place_id('R2'), 'overnight', '2027-05-25', '{"name": "Block", "length": 9, "width": 3}',
  '{"first_name": "Berta", "last_name": "Block"}', '2027-05-27');
select public.staff_create_booking(tests.place_id('R3'), 'overnight', '2027-05-20', '{"name": "Rabatt", "length": 11.2, "width": 3}',
  '{"first_name": "Rita", "last_name": "Rabatt"}', '2027-05-23', null, null, 'resched5');
select public.staff_create_booking(tests.place_id('R4'), 'overnight', '2027-05-10', '{"name": "Hier", "length": 8, "width": 3}',
  '{"first_name": "Hans", "last_name": "Hier", "email": "hier@test.local"}', '2027-05-12');
select public.staff_create_booking(tests.place_id('RT'), 'day', '2027-05-20', '{"name": "Tag", "length": 8, "width": 3}',
  '{"first_name": "Tina", "last_name": "Tag"}', null, '10:00', '14:00');
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;
select public.check_in(current_setting('tests.hier')::uuid);
select tests.clear_authentication();

create function pg_temp.o(p_name text) returns public.orders language sql as $$
  select * from public.orders where id = current_setting('tests.' || p_name)::uuid
$$;
create function pg_temp.x(p_code text) returns uuid language sql security definer as $$ select id from public.extras where code = p_code $$;
create function pg_temp.extra_lines(p_invoice_id uuid) returns table (code text, quantity integer, unit_price_cents integer, vat_rate integer, net_cents integer)
language sql as $$
  select l ->> 'code', (l ->> 'quantity')::int, (l ->> 'unit_price_cents')::int, (l ->> 'vat_rate')::int, (l ->> 'net_cents')::int
    from public.invoices i, jsonb_array_elements(i.lines) l
   where i.id = p_invoice_id and l ->> 'code' in ('washing_machine', 'ice_2kg') order by 1
$$;
create function pg_temp.docs(p_order text) returns table (invoice_number text, kind text, refers_to_number text, reason text, gross_cents integer)
language sql as $$
  select i.invoice_number, i.kind, i.refers_to_number, i.reason, i.gross_cents from public.invoices i
   where i.order_id = p_order::uuid order by i.year, i.number
$$;

-- ---------------------------------------------------------------- only staff
select tests.authenticate_as('customer');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.umbuch')::uuid, '2027-05-24', '2027-05-26') $$,
  '42501', 'staff_only', 'the guest cannot reschedule even the own booking');
select throws_ok($$ select public.reschedule_quote(current_setting('tests.umbuch')::uuid, '2027-05-24', '2027-05-26') $$,
  '42501', 'staff_only', 'nor ask for its price');
select tests.authenticate_as_anon();
select throws_ok($$ select public.reschedule_booking(current_setting('tests.umbuch')::uuid, '2027-05-24', '2027-05-26') $$,
  '42501', null, 'anonymous callers may not call it');
select tests.clear_authentication();
select is((pg_temp.o('umbuch')).starts_at, '2027-05-20 14:00+02'::timestamptz, 'the refused calls changed nothing');

-- ---------------------------------------------------------------- paid, then two days later and one night longer
select tests.authenticate_as('harbour');
select public.record_desk_payment(current_setting('tests.umbuch')::uuid, 'cash');
select is(public.reschedule_quote(current_setting('tests.umbuch')::uuid, '2027-05-22', '2027-05-25') -> 'quote',
  (public.quote_booking('overnight', '2027-05-22', 10, '2027-05-25') - 'sale_code_valid' - 'starts_at' - 'ends_at'),
  'the reschedule quote is the booking quote of the new dates');
select public.reschedule_booking(current_setting('tests.umbuch')::uuid, '2027-05-22', '2027-05-25');
select tests.clear_authentication();
select results_eq($$ select starts_at, ends_at, place_id, price_cents from pg_temp.o('umbuch') $$,
  $$ values ('2027-05-22 14:00+02'::timestamptz, '2027-05-25 12:00+02'::timestamptz, tests.place_id('R1'), 10710) $$,
  'the order has the new dates and the price of 3 nights for 10 m (3 x 20 + 3 x 10 = 90 EUR net, 107.10 gross)');
select is((pg_temp.o('umbuch')).price_cents, ((public.quote_booking('overnight', '2027-05-22', 10, '2027-05-25') ->> 'gross_cents')::int),
  'to the cent what a new booking of these dates would cost');
select results_eq($$ select starts_at, ends_at, type::text from public.place_statuses where order_id = current_setting('tests.umbuch')::uuid and not cancelled $$,
  $$ values ('2027-05-22 14:00+02'::timestamptz, '2027-05-25 12:00+02'::timestamptz, 'reservation') $$, 'the berth status moved with it');
select results_eq($$ select (price_breakdown ->> 'nights')::int, (price_breakdown ->> 'gross_cents')::int from pg_temp.o('umbuch') $$,
  $$ values (3, 10710) $$, 'the breakdown is the new one');
select results_eq($$ select * from pg_temp.docs(current_setting('tests.umbuch')) $$,
  $$ values ('RE-2027-00001', 'invoice', null::text, 'payment', 7140),
            ('RE-2027-00002', 'cancellation', 'RE-2027-00001', 'changed', -7140),
            ('RE-2027-00003', 'invoice', null::text, 'correction', 10710) $$,
  'the invoice is cancelled and a new one issued, numbers without a gap');
select results_eq($$ select service_from, service_to from public.invoices where invoice_number = 'RE-2027-00003' $$,
  $$ values ('2027-05-22'::date, '2027-05-25'::date) $$, 'the new invoice names the new service period');
select is(private.order_balance_of(pg_temp.o('umbuch')) ->> 'outstanding_cents', '3570', 'the balance shows the difference still owed');
select results_eq($$ select event, from_value, to_value from public.order_events where order_id = current_setting('tests.umbuch')::uuid and event = 'rescheduled' $$,
  $$ values ('rescheduled', '2027-05-20/2027-05-22', '2027-05-22/2027-05-25') $$, 'the history records the old and new dates');
select ok((select body_text from public.outbox where order_id = current_setting('tests.umbuch')::uuid and kind = 'booking_changed' order by id desc limit 1)
  like '%Ankunft: %22.05.2027%Preis: 107,10 €%bisher: 71,40 €%', 'the guest is told the new dates and the new price');
select ok((select attachments -> 0 ->> 'content' from public.outbox where order_id = current_setting('tests.umbuch')::uuid and kind = 'booking_changed' order by id desc limit 1)
  like '%SEQUENCE:1%', 'the calendar entry counts up');

-- ---------------------------------------------------------------- refused: an occupied day, and the dates' rules
select tests.authenticate_as('harbour');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.umbuch')::uuid, '2027-05-26', '2027-05-28', tests.place_id('R2')) $$,
  '23P01', 'berth_no_longer_available', 'onto a berth taken on one of the days: refused (the exclusion constraint)');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.block')::uuid, '2027-05-23', '2027-05-25', tests.place_id('R1')) $$,
  '23P01', 'berth_no_longer_available', 'onto the same days of another stay on the same berth: refused');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.umbuch')::uuid, '2027-05-09', '2027-05-11') $$,
  '22023', 'period_in_past', 'not into the past');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.umbuch')::uuid, '2027-05-22', '2027-09-22') $$,
  '22023', 'stay_too_long', 'not longer than 90 nights');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.umbuch')::uuid, '2027-05-22', '2027-05-22') $$,
  '22023', 'invalid_period', 'departure after arrival');
select tests.clear_authentication();
select is((pg_temp.o('umbuch')).ends_at, '2027-05-25 12:00+02'::timestamptz, 'a refusal leaves the order as it was');

-- ---------------------------------------------------------------- sale code kept, berth and dates together
select tests.authenticate_as('harbour');
select public.reschedule_booking(current_setting('tests.rabatt')::uuid, '2027-05-28', '2027-05-30', tests.place_id('R5'), false);
select is((pg_temp.o('rabatt')).price_cents, (public.quote_booking('overnight', '2027-05-28', 11.2, '2027-05-30', null, null, 'RESCHED5') ->> 'gross_cents')::int,
  'a discounted order is repriced with its sale code, as a quote with the code');
select tests.clear_authentication();
select results_eq($$ select place_id, place_snapshot ->> 'name', sale_code from pg_temp.o('rabatt') $$,
  $$ values (tests.place_id('R5'), 'R5', 'RESCHED5') $$, 'on the new berth, the code still on the order');
select is((select count(*)::int from public.outbox where order_id = current_setting('tests.rabatt')::uuid and kind = 'booking_changed'), 0,
  'p_notify = false: no e-mail');

-- ---------------------------------------------------------------- checked in: departure only; a day stay keeps its window
select tests.authenticate_as('harbour');
select throws_ok($$ select public.reschedule_booking(current_setting('tests.hier')::uuid, '2027-05-11', '2027-05-13') $$,
  'P0001', 'checked_in_arrival_fixed', 'a checked-in stay cannot get another arrival');
select public.reschedule_booking(current_setting('tests.hier')::uuid, '2027-05-10', '2027-05-14');
select public.reschedule_booking(current_setting('tests.tag')::uuid, '2027-05-21');
select tests.clear_authentication();
select results_eq($$ select starts_at, ends_at, price_cents, status::text from pg_temp.o('hier') $$,
  $$ values ('2027-05-10 14:00+02'::timestamptz, '2027-05-14 12:00+02'::timestamptz, (public.quote_booking('overnight', '2027-05-10', 8, '2027-05-14') ->> 'gross_cents')::int, 'checked_in') $$,
  'its departure moved, arrival and check-in kept, repriced for 4 nights');
select results_eq($$ select starts_at, ends_at from pg_temp.o('tag') $$,
  $$ values ('2027-05-21 10:00+02'::timestamptz, '2027-05-21 14:00+02'::timestamptz) $$, 'a day stay moves to the new day with its hours');

-- ---------------------------------------------------------------- extras stay as booked
-- Hier (checked in, now 10-14 May) takes two washing loads (19 %) and ice (7 %), pays, then stays a night longer.
select tests.authenticate_as('harbour');
select public.add_order_extra(current_setting('tests.hier')::uuid, pg_temp.x('washing_machine'), 2);
select public.add_order_extra(current_setting('tests.hier')::uuid, pg_temp.x('ice_2kg'), 1);
select public.record_desk_payment(current_setting('tests.hier')::uuid, 'cash');
select tests.clear_authentication();
create temp table hier_before as
  select e.id, e.code, e.unit_price_cents, e.vat_rate, e.quantity, e.added_at, e.removed_at from public.order_extras e
   where e.order_id = current_setting('tests.hier')::uuid;
select set_config('tests.hier_invoice', (select id::text from public.invoices where order_id = current_setting('tests.hier')::uuid and kind = 'invoice'), true);
select tests.authenticate_as('harbour');
select public.reschedule_booking(current_setting('tests.hier')::uuid, '2027-05-10', '2027-05-15');
select tests.clear_authentication();
select results_eq($$ select e.id, e.code, e.unit_price_cents, e.vat_rate, e.quantity, e.added_at, e.removed_at from public.order_extras e
                     where e.order_id = current_setting('tests.hier')::uuid order by e.code $$,
  $$ select * from hier_before order by code $$, 'the extras are the same rows, unchanged, after the new dates');
select is((pg_temp.o('hier')).price_cents,
  (public.quote_booking('overnight', '2027-05-10', 8, '2027-05-15') ->> 'gross_cents')::int + 2 * 500 + 300,
  'the price is the berth price of the new dates plus the extras as booked');
select results_eq($$ select * from pg_temp.extra_lines((select id from public.invoices where order_id = current_setting('tests.hier')::uuid
                                                          and kind = 'invoice' order by year desc, number desc limit 1)) $$,
  $$ select * from pg_temp.extra_lines(current_setting('tests.hier_invoice')::uuid) $$,
  'the new invoice bills the extras exactly as the cancelled one did');
select is((select gross_cents from public.invoices where order_id = current_setting('tests.hier')::uuid and kind = 'invoice' order by year desc, number desc limit 1),
  (pg_temp.o('hier')).price_cents, 'and its total is the new price');

select * from finish();
rollback;
