-- sale_codes: admins only; everyone else learns about codes only through quote_booking.
begin;
select plan(8);

insert into public.sale_codes (code, value) values ('RHEIN5', 500);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
select tests.create_user('guest', p_anonymous => true);

select tests.authenticate_as_anon();
select is_empty($$ select * from public.sale_codes $$, 'anon sees no sale codes');
select tests.authenticate_as('guest');
select is_empty($$ select * from public.sale_codes $$, 'a guest sees no sale codes');
select tests.authenticate_as('customer');
select is_empty($$ select * from public.sale_codes $$, 'a customer sees no sale codes');
select throws_ok($$ insert into public.sale_codes (code, value) values ('FREE', 0) $$, '42501', null, 'a customer cannot create codes');
select tests.authenticate_as('harbour');
select is_empty($$ select * from public.sale_codes $$, 'harbour staff see no sale codes');

select tests.authenticate_as('admin');
select results_eq($$ select code, type::text, value from public.sale_codes $$, $$ values ('RHEIN5', 'set-additional-costs', 500) $$,
  'an admin reads the codes');
select throws_ok($$ insert into public.sale_codes (code, value) values ('rhein5', 0) $$, '23505', null,
  'codes are unique regardless of case');
select results_eq($$ update public.sale_codes set value = 0 returning value $$, $$ values (0) $$, 'an admin changes a code');

select tests.clear_authentication();
select * from finish();
rollback;
