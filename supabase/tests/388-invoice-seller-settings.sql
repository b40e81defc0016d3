-- The seller data of new invoice documents (supabase/schemas/35b_invoice_seller.sql,
-- public.save_invoice_seller_settings): admins only; IBAN check digits (ISO 13616, mod 97), BIC
-- format (ISO 9362), country code, VAT id or tax number required; a saved value is stamped on
-- the next document, an issued one keeps its issuer; an empty optional value removes the setting.
begin;
select plan(18);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

-- Issue 40 item 12: the demo harbour's invoices give the office's phone, as its pages do.
select is(private.setting('invoice_phone'), (select h.contact_phone from public.harbour_settings h where h.id = 1),
  'the invoice phone is the phone the public pages show');

select ok(private.iban_valid('DE02120300000000202051'), 'a valid German IBAN');
select ok(not private.iban_valid('DE02120300000000202052'), 'a wrong check digit is refused');
select ok(not private.iban_valid('DE0212030000000020205'), 'a German IBAN has 22 characters');
select ok(private.iban_valid('GB82WEST12345698765432'), 'a valid British IBAN');
select ok(not private.iban_valid('de02120300000000202051'), 'only the normalised form');

select tests.authenticate_as('harbour');
select throws_ok($$ select public.invoice_seller_settings() $$, '42501', 'admin_only', 'harbour staff read no seller settings');
select throws_ok($$ select public.save_invoice_seller_settings('{"phone": "+49 211 1"}') $$, '42501', 'admin_only', 'harbour staff change nothing');

select tests.authenticate_as('admin');
select is(public.invoice_seller_settings() ->> 'iban', 'DE02120300000000202051', 'the admin reads the settings');
select throws_ok($$ select public.save_invoice_seller_settings('{"iban": "DE02120300000000202052"}') $$, '22023', 'invoice_invalid_setting', 'a bad IBAN is refused');
select throws_ok($$ select public.save_invoice_seller_settings('{"bic": "BYLA DE"}') $$, '22023', 'invoice_invalid_setting', 'a bad BIC is refused');
select throws_ok($$ select public.save_invoice_seller_settings('{"country": "Deutschland"}') $$, '22023', 'invoice_invalid_setting', 'the country is a code');
select throws_ok($$ select public.save_invoice_seller_settings('{"vat_id": "", "tax_number": ""}') $$, '22023', 'invoice_invalid_setting', 'a VAT id or a tax number is required');
select throws_ok($$ select public.save_invoice_seller_settings('{"name": " "}') $$, '22023', 'invoice_invalid_setting', 'the name is required');
select is(public.save_invoice_seller_settings('{"iban": "gb82 west 1234 5698 7654 32", "bic": "westgb2l", "phone": "+49 211 123456", "tax_number": "103/5555/1234"}')
          - array['name', 'street', 'postal_code', 'city', 'email', 'vat_id'],
          '{"iban": "GB82WEST12345698765432", "bic": "WESTGB2L", "phone": "+49 211 123456", "tax_number": "103/5555/1234", "country": "DE"}'::jsonb,
          'IBAN and BIC stored without spaces in capitals');
select tests.clear_authentication();
select is(private.invoice_issuer() ->> 'iban', 'GB82WEST12345698765432', 'the next document''s issuer has the new IBAN');
select tests.authenticate_as('admin');
select is(public.save_invoice_seller_settings('{"phone": ""}') ->> 'phone', '', 'an empty phone is removed');
select tests.clear_authentication();
select ok(not (private.invoice_issuer() ? 'phone'), 'the issuer then has no phone');

select * from finish();
rollback;
