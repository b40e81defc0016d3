-- The seller on invoice documents (issue 21): the issuer's data every new document carries
-- (private.invoice_issuer, set by a trigger on insert), kept as settings admins edit on the
-- settings page, with the IBAN checked.

create function private.invoice_issuer()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'name', private.setting('invoice_name'),
    'street', private.setting('invoice_street'),
    'postal_code', private.setting('invoice_postal_code'),
    'city', private.setting('invoice_city'),
    'vat_id', private.setting('invoice_vat_id'),
    'email', private.setting('invoice_email'))
  -- For the e-invoice (docs/adr/0005-einvoice-schematron.md); left out when unset.
  || jsonb_strip_nulls(jsonb_build_object(
    'country', private.setting('invoice_country'),
    'tax_number', private.setting('invoice_tax_number'),
    'iban', private.setting('invoice_iban'),
    'bic', private.setting('invoice_bic'),
    'phone', private.setting('invoice_phone')))
$$;
comment on function private.invoice_issuer() is 'The issuer of invoices (name, address, VAT id, e-mail; for the e-invoice country, tax number, IBAN, BIC, phone when set) from the operator settings.';
revoke execute on function private.invoice_issuer() from public;

-- The seller's data on new documents, edited by admins on the settings page (issue 21; the keys
-- invoice_* of private.app_settings). Every value is checked here, whoever calls: name, street,
-- postal code, city and e-mail required; the country an ISO 3166-1 alpha-2 code; a VAT id or a
-- tax number (§ 14 Abs. 4 Nr. 2 UStG wants one of them); the IBAN by its ISO 13616 check digits
-- (mod 97 = 1, Germany 22 characters); the BIC by ISO 9362 (8 or 11 characters). IBAN, BIC and
-- phone may be left empty (the setting is then removed). A bad value raises
-- invoice_invalid_setting (22023) with the key in the hint. Documents already issued keep the
-- issuer they were stamped with.
-- ISO 7064 MOD 97-10 over letters and digits (letters as 10..35, as ISO 13616 and the EPC's
-- creditor identifier count them): the remainder, 1 when the check digits are right.
create function private.iso7064_mod97(p_chars text)
returns integer
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_digits text := '';
  v_rest integer := 0;
  v_char text;
begin
  foreach v_char in array regexp_split_to_array(p_chars, '') loop
    v_digits := v_digits || case when v_char ~ '[0-9]' then v_char else (ascii(v_char) - 55)::text end;
  end loop;
  while length(v_digits) > 0 loop
    v_rest := ((v_rest::text || left(v_digits, 7))::bigint % 97)::integer;
    v_digits := substr(v_digits, 8);
  end loop;
  return v_rest;
end
$$;
comment on function private.iso7064_mod97(text) is 'ISO 7064 MOD 97-10 remainder of capitals and digits (A = 10 ... Z = 35); 1 means the check digits are right.';
revoke execute on function private.iso7064_mod97(text) from public;

create function private.iban_valid(p_iban text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_iban is null or p_iban !~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' or (left(p_iban, 2) = 'DE' and length(p_iban) <> 22) then
    return false;
  end if;
  return private.iso7064_mod97(substr(p_iban, 5) || left(p_iban, 4)) = 1;
end
$$;
comment on function private.iban_valid(text) is 'Whether a normalised IBAN (capitals, no spaces) has a valid ISO 13616 structure and check digits (mod 97 = 1); a German one has 22 characters.';
revoke execute on function private.iban_valid(text) from public;

create function private.invoice_seller_object()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'name', coalesce(private.setting('invoice_name'), ''),
    'street', coalesce(private.setting('invoice_street'), ''),
    'postal_code', coalesce(private.setting('invoice_postal_code'), ''),
    'city', coalesce(private.setting('invoice_city'), ''),
    'country', coalesce(private.setting('invoice_country'), 'DE'),
    'email', coalesce(private.setting('invoice_email'), ''),
    'phone', coalesce(private.setting('invoice_phone'), ''),
    'vat_id', coalesce(private.setting('invoice_vat_id'), ''),
    'tax_number', coalesce(private.setting('invoice_tax_number'), ''),
    'iban', coalesce(private.setting('invoice_iban'), ''),
    'bic', coalesce(private.setting('invoice_bic'), ''))
$$;
comment on function private.invoice_seller_object() is 'The seller settings (invoice_* keys) as one object of texts, empty when unset (country DE).';
revoke execute on function private.invoice_seller_object() from public;

create function private.invoice_seller_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.invoice_seller_object();
end
$$;
comment on function private.invoice_seller_settings() is 'The rule behind public.invoice_seller_settings (security definer, not exposed by the API).';
revoke execute on function private.invoice_seller_settings() from public;
grant execute on function private.invoice_seller_settings() to authenticated, service_role;

create function public.invoice_seller_settings()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.invoice_seller_settings()
$$;
comment on function public.invoice_seller_settings() is 'Admins: the seller data printed on new invoice documents (name, street, postal_code, city, country, email, phone, vat_id, tax_number, iban, bic).';
revoke execute on function public.invoice_seller_settings() from anon, public;

create function private.save_invoice_seller_settings(p_settings jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v jsonb;
  v_key text;
begin
  perform private.require_admin();
  if jsonb_typeof(p_settings) is distinct from 'object' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'settings';
  end if;
  -- Texts trimmed; IBAN and BIC without spaces in capitals, the country and the VAT id in capitals.
  select jsonb_object_agg(key, btrim(coalesce(value, ''))) into v
    from jsonb_each_text(private.invoice_seller_object() || jsonb_strip_nulls(p_settings));
  v := v || jsonb_build_object(
    'iban', upper(regexp_replace(v ->> 'iban', '\s', '', 'g')),
    'bic', upper(regexp_replace(v ->> 'bic', '\s', '', 'g')),
    'country', upper(v ->> 'country'),
    'vat_id', upper(regexp_replace(v ->> 'vat_id', '\s', '', 'g')));
  foreach v_key in array array['name', 'street', 'postal_code', 'city', 'email'] loop
    if v ->> v_key = '' or length(v ->> v_key) > 100 then
      raise exception 'invoice_invalid_setting' using errcode = '22023', hint = v_key;
    end if;
  end loop;
  if v ->> 'email' !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'email';
  end if;
  if v ->> 'country' !~ '^[A-Z]{2}$' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'country';
  end if;
  if v ->> 'vat_id' <> '' and v ->> 'vat_id' !~ '^[A-Z]{2}[A-Z0-9+*]{2,12}$' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'vat_id';
  end if;
  if v ->> 'tax_number' <> '' and v ->> 'tax_number' !~ '^[0-9][0-9 /]{8,18}[0-9]$' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'tax_number';
  end if;
  if v ->> 'vat_id' = '' and v ->> 'tax_number' = '' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'tax_number';
  end if;
  if v ->> 'iban' <> '' and not private.iban_valid(v ->> 'iban') then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'iban';
  end if;
  if v ->> 'bic' <> '' and v ->> 'bic' !~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'bic';
  end if;
  if v ->> 'phone' <> '' and v ->> 'phone' !~ '^\+?[0-9][0-9 ()/-]{4,28}[0-9]$' then
    raise exception 'invoice_invalid_setting' using errcode = '22023', hint = 'phone';
  end if;
  insert into private.app_settings as s (key, value)
  select 'invoice_' || k, v ->> k
    from unnest(array['name', 'street', 'postal_code', 'city', 'country', 'email', 'phone', 'vat_id', 'tax_number', 'iban', 'bic']) k
   where v ->> k <> ''
  on conflict (key) do update set value = excluded.value where s.value is distinct from excluded.value;
  delete from private.app_settings s
   where s.key in (select 'invoice_' || k from unnest(array['phone', 'vat_id', 'tax_number', 'iban', 'bic']) k where v ->> k = '');
  return private.invoice_seller_object();
end
$$;
comment on function private.save_invoice_seller_settings(jsonb) is 'The rule behind public.save_invoice_seller_settings (security definer, not exposed by the API).';
revoke execute on function private.save_invoice_seller_settings(jsonb) from public;
grant execute on function private.save_invoice_seller_settings(jsonb) to authenticated, service_role;

create function public.save_invoice_seller_settings(p_settings jsonb)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.save_invoice_seller_settings(p_settings)
$$;
comment on function public.save_invoice_seller_settings(jsonb) is 'Admins: checks and stores the seller data of new invoice documents (keys as invoice_seller_settings returns them); invoice_invalid_setting (22023, hint = the key) on a bad value: IBAN check digits, BIC format, country code, VAT id or tax number.';
revoke execute on function public.save_invoice_seller_settings(jsonb) from anon, public;

create function private.invoice_set_issuer()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.issuer := coalesce(new.issuer, private.invoice_issuer());
  new.booking_number := coalesce(new.booking_number, (select o.booking_number from public.orders o where o.id = new.order_id));
  return new;
end
$$;
comment on function private.invoice_set_issuer() is 'Before insert on invoices: stamps the current issuer data and the order''s booking number onto the document.';
revoke execute on function private.invoice_set_issuer() from public;

create trigger invoices_set_issuer before insert on public.invoices
  for each row execute function private.invoice_set_issuer();
