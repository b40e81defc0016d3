-- The PDF archive's documents (supabase/schemas/82_datev.sql, public.invoice_archive_documents;
-- issue 21 item 5): only admins read them, for an ordered range of at most 366 Berlin days; every
-- stored document issued in the range (invoice, cancellation, desk receipt), none outside it,
-- in number order, as stored, with the language of its order (desk receipts German).
begin;
select plan(14);
select private.freeze_clock('2027-07-05 12:00+02');

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
insert into public.places (name, width, length, archived) values ('R1', 3, 7, false), ('R2', 3.5, 9, false);
create function pg_temp.x(p_code text) returns uuid language sql security definer as $$ select id from public.extras where code = p_code $$;

-- Order 1 (English) paid, then cancelled: an invoice and a cancellation; order 2 (German) paid.
insert into public.orders (id, place_id, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown, email, place_snapshot, boat, person)
select ('00000000-0000-4000-8000-00000000000' || n)::uuid, tests.place_id(place), 'overnight', s, s + interval '2 days', 'confirmed', 'pending',
       (private.price_breakdown('overnight', 2, 8, null, null) ->> 'gross_cents')::int, private.price_breakdown('overnight', 2, 8, null, null),
       'gast' || n || '@example.org', jsonb_build_object('name', place), '{"name": "Boot", "length": 8, "width": 2.5}',
       jsonb_build_object('first_name', 'Gast', 'last_name', n::text, 'street', 'Weg 1', 'postal_code', '40221', 'city', 'Düsseldorf', 'locale', loc)
from (values (1, 'R1', timestamptz '2027-07-10 14:00+02', 'en'), (2, 'R2', timestamptz '2027-07-12 14:00+02', 'de')) v(n, place, s, loc);
insert into public.payments (order_id, kind, method, amount_cents, recorded_at)
select id, 'payment', 'cash', price_cents, private.now() from public.orders;
update public.orders set status = 'cancelled' where id = '00000000-0000-4000-8000-000000000001';
-- A desk receipt.
select tests.authenticate_as('harbour');
select invoice_number from public.sell_at_desk(jsonb_build_array(jsonb_build_object('extra_id', pg_temp.x('ice_2kg'), 'quantity', 1)), 'cash');
select tests.clear_authentication();
-- A document of the next day (outside a range that ends today).
select private.freeze_clock('2027-07-06 00:30+02');
insert into public.payments (order_id, kind, method, amount_cents, refund_of, recorded_at)
select p.order_id, 'refund', 'cash', 500, p.id, private.now() from public.payments p where p.order_id = '00000000-0000-4000-8000-000000000002';

select is((select count(*)::int from public.invoices where private.berlin_date(issued_at) = '2027-07-05'), 4, 'four documents on 5 July');
select is((select count(*)::int from public.invoices where private.berlin_date(issued_at) = '2027-07-06'), 1, 'a credit note on 6 July');

-- Who may read the archive.
select tests.authenticate_as('harbour');
select throws_ok($$ select * from public.invoice_archive_documents('2027-07-01', '2027-07-31') $$, '42501', 'admin_only', 'harbour staff get no archive');
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.invoice_archive_documents('2027-07-01', '2027-07-31') $$, '42501', 'admin_only', 'a customer gets no archive');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.invoice_archive_documents('2027-07-01', '2027-07-31') $$, '42501', null, 'anon gets no archive');

select tests.authenticate_as('admin');
select throws_ok($$ select * from public.invoice_archive_documents('2027-07-31', '2027-07-01') $$, '22023', 'invalid_range', 'the range is ordered');
select throws_ok($$ select * from public.invoice_archive_documents(null, '2027-07-01') $$, '22023', 'invalid_range', 'both days are given');
select throws_ok($$ select * from public.invoice_archive_documents('2026-07-04', '2027-07-05') $$, '22023', 'archive_range_too_long', '367 days are too long');
select lives_ok($$ select * from public.invoice_archive_documents('2026-07-05', '2027-07-05') $$, '366 days are one archive');
select is((select count(*)::int from public.invoice_archive_documents('2027-07-06', '2027-07-06')), 1, 'a range of one day');

select results_eq(
  $$ select document ->> 'invoice_number', document ->> 'kind', locale, document ->> 'desk_sale_id' is not null from public.invoice_archive_documents('2027-07-01', '2027-07-05') $$,
  $$ values ('RE-2027-00001', 'invoice', 'en', false), ('RE-2027-00002', 'invoice', 'de', false),
            ('RE-2027-00003', 'cancellation', 'en', false), ('RE-2027-00004', 'invoice', 'de', true) $$,
  'every document of the range in number order, with its language; the desk receipt German');
select is(
  (select array_agg(document order by document ->> 'invoice_number') from public.invoice_archive_documents('2027-07-01', '2027-07-31')),
  (select array_agg(to_jsonb(i) order by i.invoice_number) from public.invoices i),
  'the documents exactly as stored');
select is(
  (select count(*)::int from public.invoice_archive_documents('2027-07-06', '2027-07-31') a where a.document ->> 'kind' = 'credit_note'), 1,
  'the next day''s credit note starts the next range');
select is((select count(*)::int from public.invoice_archive_documents('2027-08-01', '2027-08-31')), 0, 'a range without documents is empty');

select * from finish();
rollback;
