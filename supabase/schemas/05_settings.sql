-- Operator settings (harbour address, site URL, invoice issuer) in a table no API role can
-- read; functions read them through private.setting().

-- Operator settings that are not secrets worth the Vault: the harbour's address for messages,
-- the site's URL for links in e-mails, and (only where Vault is absent, i.e. the local stack)
-- the project URL and anon key the scheduler uses to call send-mail.
create table private.app_settings (
  key text primary key,
  value text not null
);

alter table private.app_settings enable row level security;

comment on table private.app_settings is 'Operator settings for mail: harbour_email, site_url, and locally project_url/anon_key for the send-mail schedule.';

insert into private.app_settings (key, value) values
  ('harbour_email', 'hafen@hafen-duesseldorf.de'),
  ('site_url', 'http://localhost:3000');

create function private.setting(p_key text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select s.value from private.app_settings s where s.key = p_key
$$;
comment on function private.setting(text) is 'An operator setting from private.app_settings (null when unset).';
revoke execute on function private.setting(text) from public;

-- What § 14 UStG wants on the invoice about the issuer. The VAT id here is the demo harbour's
-- placeholder until the operator sets the real one (README, hosted checklist).
insert into private.app_settings (key, value) values
  ('invoice_name', 'Hafen Düsseldorf'),
  ('invoice_street', 'Speditionstraße 25'),
  ('invoice_postal_code', '40221'),
  ('invoice_city', 'Düsseldorf'),
  ('invoice_vat_id', 'DE000000000'),
  ('invoice_email', 'hafen@hafen-duesseldorf.example')
on conflict (key) do nothing;

-- What an EN 16931 e-invoice (issue 21 item 6) needs about the seller beyond § 14 UStG: the
-- country (BT-40), the tax number (BT-32, beside or instead of the VAT id), the account the
-- buyer pays to (BT-84 IBAN, BT-86 BIC) and a phone for the seller contact (BT-42). Demo
-- placeholders: a well-known test IBAN and the BMF's example tax number, until the operator
-- sets the real ones.
insert into private.app_settings (key, value) values
  ('invoice_country', 'DE'),
  ('invoice_tax_number', '133/8150/8159'),
  ('invoice_iban', 'DE02120300000000202051'),
  ('invoice_bic', 'BYLADEM1001'),
  ('invoice_phone', '+49 211 1234560')
on conflict (key) do nothing;
