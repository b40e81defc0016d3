-- Demo of overdue long-term fees (issue 42 item 5, docs/adr/0051-fee-reminders-and-door-code.md):
-- Otto Offen (otto.offen@hafen.test / Kunde1234, German) has a season instalment that fell due
-- 30 days before the day of seeding and is unpaid; the first reminder went out 27 days ago.
-- So the back office lists it (stage 1, door code withheld) and his door-code page explains why
-- the code is not shown. Inserted as the owner (no contract and no invoice document: the
-- contracts of ADR 0047 and the invoices of ADR 0048 are made by their own functions).
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, phone_change, phone_change_token, reauthentication_token,
  raw_app_meta_data, raw_user_meta_data, is_super_admin, is_sso_user, is_anonymous,
  created_at, updated_at, last_sign_in_at
) values (
  '00000000-0000-0000-0000-000000000000', 'a0000000-0000-4000-8000-000000000044', 'authenticated', 'authenticated',
  'otto.offen@hafen.test', extensions.crypt('Kunde1234', extensions.gen_salt('bf', 10)), now() - interval '400 days',
  '', '', '', '', '', '', '', '',
  '{"provider":"email","providers":["email"]}'::jsonb,
  '{"first_name":"Otto","last_name":"Offen","locale":"de"}'::jsonb,
  false, false, false,
  now() - interval '400 days', now() - interval '400 days', now() - interval '2 days'
);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', now() - interval '2 days', u.created_at, u.created_at
from auth.users u
where u.id = 'a0000000-0000-4000-8000-000000000044';

update public.profiles set first_name = 'Otto', last_name = 'Offen', locale = 'de', street = 'Kaiserswerther Str. 12',
                           postal_code = '40477', city = 'Düsseldorf', country = 'DE'
 where id = 'a0000000-0000-4000-8000-000000000044';

insert into public.long_term_fees (id, contract_id, reference, user_id, season_id, instalment, instalments, due_on, payment_method, lines, gross_cents)
select 'fe000000-0000-4000-8000-000000000044', 'c0000000-0000-4000-8000-000000000044', 'LV-DEMO-0044',
       'a0000000-0000-4000-8000-000000000044', s.id, 2, 2, private.berlin_date(now()) - 30, 'bank_transfer',
       jsonb_build_array(jsonb_build_object('code', 'berth_fee', 'description', 'Liegeplatzgebühr, Rate 2 von 2',
                                            'description_en', 'Berth fee, instalment 2 of 2', 'quantity', 1, 'unit', 'piece',
                                            'unit_price_cents', 68400, 'vat_rate', 19, 'gross_cents', 68400)),
       68400
from public.seasons s order by s.starts_on limit 1;

insert into public.fee_reminders (fee_id, stage, sent_on, sent_at, days_overdue, balance_cents, recipient)
values ('fe000000-0000-4000-8000-000000000044', 1, private.berlin_date(now()) - 27, now() - interval '27 days', 3, 68400,
        'otto.offen@hafen.test');
