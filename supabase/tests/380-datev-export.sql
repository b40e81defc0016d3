-- DATEV export (supabase/schemas/82_datev.sql, issue 21 item 5): only admins read the postings
-- and the settings; a range must be ordered and inside one fiscal year; every invoice document
-- of the range gives one line per VAT rate (gross on the debtor against the revenue account of
-- the rate, invoices S, cancellations and credit notes H, a 0 % line on the 0 % account) and
-- every ledger row one line on its money account; settings are checked before they are stored.
begin;
select plan(23);
select private.freeze_clock('2027-07-05 12:00+02');

select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
insert into public.places (name, width, length, archived) values ('R1', 3, 7, false), ('R2', 3.5, 9, false), ('R3', 4, 12, false);

-- 1 paid in cash; 2 paid at the card terminal, 5 EUR refunded in cash (a credit note); 3 paid
-- by bank transfer, then cancelled (a cancellation invoice); 4 confirmed but unpaid (nothing).
create temporary table fixture (n int, place text, starts_at timestamptz, ends_at timestamptz, boat_length numeric, nights int);
insert into fixture values
  (1, 'R1', '2027-07-01 14:00+02', '2027-07-04 12:00+02', 6.5, 3),
  (2, 'R2', '2027-07-02 14:00+02', '2027-07-05 12:00+02', 8.2, 3),
  (3, 'R3', '2027-07-10 14:00+02', '2027-07-11 12:00+02', 11, 1),
  (4, 'R1', '2027-07-20 14:00+02', '2027-07-21 12:00+02', 6, 1);
insert into public.orders (id, place_id, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown, email,
                           place_snapshot, boat, person)
select ('00000000-0000-4000-8000-00000000000' || f.n)::uuid, tests.place_id(f.place), 'overnight', f.starts_at, f.ends_at, 'confirmed', 'pending',
       (private.price_breakdown('overnight', f.nights, f.boat_length, null, null) ->> 'gross_cents')::int,
       private.price_breakdown('overnight', f.nights, f.boat_length, null, null), 'gast' || f.n || '@example.org',
       jsonb_build_object('name', f.place), jsonb_build_object('name', 'Boot ' || f.n, 'length', f.boat_length, 'width', 2.5),
       jsonb_build_object('first_name', 'Gast', 'last_name', f.n::text, 'street', 'Weg 1', 'postal_code', '40221', 'city', 'Düsseldorf')
from fixture f;
insert into public.payments (order_id, kind, method, amount_cents, recorded_at)
select o.id, 'payment', (array['cash', 'card_terminal', 'bank_transfer'])[right(o.id::text, 1)::int]::public.payment_method, o.price_cents, private.now()
from public.orders o where right(o.id::text, 1)::int <= 3;
insert into public.payments (order_id, kind, method, amount_cents, refund_of, recorded_at)
select p.order_id, 'refund', 'cash', 500, p.id, private.now() from public.payments p where p.order_id = '00000000-0000-4000-8000-000000000002';
update public.orders set status = 'cancelled' where id = '00000000-0000-4000-8000-000000000003';
-- A document with a 0 % line (a deposit, not revenue) beside a 19 % one.
select id from private.insert_invoice_document(
  (select o from public.orders o where o.id = '00000000-0000-4000-8000-000000000004'), 'invoice', 'payment', null,
  '[{"position": 1, "code": "ice", "vat_rate": 19, "net_cents": 1000}, {"position": 2, "code": "deposit", "vat_rate": 0, "net_cents": 2000}]',
  private.invoice_vat_breakdown('[{"vat_rate": 19, "net_cents": 1000}, {"vat_rate": 0, "net_cents": 2000}]'),
  '{"first_name": "Gast", "last_name": "4"}', false, '2027-07-20', '2027-07-21');

-- Who may export.
select tests.authenticate_as('harbour');
select throws_ok($$ select * from public.datev_postings('2027-07-01', '2027-07-31') $$, '42501', 'admin_only', 'harbour staff export nothing');
select throws_ok($$ select public.datev_settings() $$, '42501', 'admin_only', 'harbour staff read no DATEV settings');
select throws_ok($$ select public.save_datev_settings('{"client_number": "2"}') $$, '42501', 'admin_only', 'harbour staff change no DATEV settings');
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.datev_postings('2027-07-01', '2027-07-31') $$, '42501', 'admin_only', 'a customer exports nothing');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.datev_postings('2027-07-01', '2027-07-31') $$, '42501', null, 'anon exports nothing');

select tests.authenticate_as('admin');
select throws_ok($$ select * from public.datev_postings('2027-07-31', '2027-07-01') $$, '22023', 'invalid_range', 'the range is ordered');
select throws_ok($$ select * from public.datev_postings('2026-12-01', '2027-07-31') $$, '22023', 'datev_range_fiscal_year', 'one fiscal year per batch');
select lives_ok($$ select * from public.datev_postings('2027-01-01', '2027-12-31') $$, 'a whole fiscal year is one batch');

-- The lines: per document and rate, then the ledger; sides, accounts, Belegfeld 1.
select results_eq(
  $$ select side, account, contra_account, source, vat_rate from public.datev_postings('2027-07-01', '2027-07-31') where line_no <= 7 order by line_no $$,
  $$ values ('S', '10000', '8400', 'invoice', 19::numeric), ('S', '10000', '8400', 'invoice', 19::numeric),
            ('S', '10000', '8400', 'invoice', 19::numeric), ('H', '10000', '8400', 'credit_note', 19::numeric),
            ('H', '10000', '8400', 'cancellation', 19::numeric),
            ('S', '10000', '8400', 'invoice', 19::numeric), ('S', '10000', '1590', 'invoice', 0::numeric) $$,
  'documents first, in number order, per rate: invoices S, corrections H, 0 % on 1590');
select set_eq(
  $$ select side, account, contra_account, source, amount_cents from public.datev_postings('2027-07-01', '2027-07-31') where line_no > 7 $$,
  $$ select case y.kind when 'payment' then 'S' else 'H' end as side,
            case y.method when 'cash' then '1000' when 'card_terminal' then '1360' else '1200' end as account, '10000' as contra, y.kind, y.amount_cents::bigint
       from public.payments y $$,
  'then the ledger: payments S and refunds H on Kasse, Geldtransit and Bank against the debtor');
select results_eq(
  $$ select p.amount_cents, p.document_number, p.document_date
       from public.datev_postings('2027-07-01', '2027-07-31') p where p.source not in ('payment', 'refund') order by p.line_no $$,
  $$ select abs((b ->> 'gross_cents')::bigint), i.invoice_number, date '2027-07-05'
       from public.invoices i cross join lateral jsonb_array_elements(i.vat_breakdown) b
      order by i.year, i.number, (b ->> 'vat_rate')::numeric desc $$,
  'every document line carries the gross of its rate, its number and its Berlin issue day');
select is((select sum(p.amount_cents) from public.datev_postings('2027-07-01', '2027-07-31') p where p.source = 'credit_note'), 500::numeric,
  'the credit note is the 5 EUR refunded');
select results_eq(
  $$ select p.document_number from public.datev_postings('2027-07-01', '2027-07-31') p where p.source in ('payment', 'refund') order by p.line_no $$,
  $$ select o.booking_number from public.payments y join public.orders o on o.id = y.order_id order by y.recorded_at, y.kind, y.id::text $$,
  'ledger lines carry the booking number');
select ok((select bool_and(p.amount_cents > 0 and length(p.posting_text) <= 60) from public.datev_postings('2027-07-01', '2027-07-31') p),
  'amounts are positive, texts at most 60 characters');
-- Sums per revenue account equal the documents' net and VAT per rate, to the cent.
select results_eq(
  $$ select p.contra_account, sum(case p.side when 'S' then p.amount_cents else -p.amount_cents end)::bigint, sum(p.net_cents)::bigint, sum(p.vat_cents)::bigint
       from public.datev_postings('2027-07-01', '2027-07-31') p where p.source not in ('payment', 'refund') group by 1 order by 1 $$,
  $$ select case (b ->> 'vat_rate')::numeric when 19 then '8400' else '1590' end, sum((b ->> 'gross_cents')::bigint)::bigint,
            sum((b ->> 'net_cents')::bigint)::bigint, sum((b ->> 'vat_cents')::bigint)::bigint
       from public.invoices i cross join lateral jsonb_array_elements(i.vat_breakdown) b group by 1 order by 1 $$,
  'per revenue account: gross, net and VAT as on the documents');
select is((select sum(p.vat_cents) from public.datev_postings('2027-07-01', '2027-07-31') p where p.vat_rate = 0), 0::numeric, 'a 0 % line has no VAT');
select is((select count(*) from public.datev_postings('2027-08-01', '2027-08-31')), 0::bigint, 'a month without documents or payments is empty');

-- Settings: admins read and change them; bad values are refused, naming the field.
select is(public.datev_settings() ->> 'account_revenue_19', '8400', 'SKR03 defaults: 8400 for 19 %');
select is(public.save_datev_settings('{"consultant_number": "29098", "client_number": "55003", "fiscal_year_start": "07-01", "account_revenue_19": "8401"}') ->> 'consultant_number',
  '29098', 'an admin stores the Beraternummer');
select is((select contra_account from public.datev_postings('2027-07-01', '2027-07-31') order by line_no limit 1), '8401', 'the export uses the stored account');
select throws_ok($$ select * from public.datev_postings('2027-06-01', '2027-07-31') $$, '22023', 'datev_range_fiscal_year', 'the fiscal year begins on the stored day');
select throws_ok($$ select public.save_datev_settings('{"account_cash": "100"}') $$, '22023', 'datev_invalid_setting', 'an account has the Sachkontenlänge');
select throws_ok($$ select public.save_datev_settings('{"fiscal_year_start": "02-30"}') $$, '22023', 'datev_invalid_setting', 'WJ-Beginn is a real day');

select * from finish();
rollback;
