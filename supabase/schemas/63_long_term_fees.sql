-- Seasonal fees of long-term contracts (issue 42, deliverable 4 and the money of 7;
-- docs/adr/0048-seasonal-fees-and-sepa.md). A contract season is billed in 1, 2 or 4
-- instalments; each instalment is an invoice document in the one gapless series
-- (public.invoices.fee_id) and is paid into the one ledger (public.payments.fee_id): by SEPA
-- direct debit through Stripe (a mandate taken in a Checkout Session in setup mode, an
-- off-session PaymentIntent on the collection day) or by bank transfer recorded by staff. A
-- failed or returned debit is reversed by a new ledger row, never by changing one.
--
-- Seam 3 (docs, notes/i42-design.md), closed: fees and mandates reference public.contracts(id)
-- (on delete restrict; contracts are never deleted); from the contract only id, user_id,
-- holder_id, season_id, lines, gross_cents, payment_plan and payment_method are read
-- (private.create_contract_fees).

insert into private.app_settings (key, value) values
  -- The harbour's SEPA creditor identifier (Gläubiger-Identifikationsnummer). The demo value
  -- is the Bundesbank's documented test creditor id, never valid for real collections.
  ('sepa_creditor_id', 'DE98ZZZ09999999999'),
  -- Days between the pre-notification (the invoice e-mail) and the collection (SEPA Rulebook:
  -- 14 calendar days unless agreed otherwise).
  ('sepa_prenotification_days', '14'),
  -- Days a fee may be overdue before door code and wifi are withheld (65_fee_reminders.sql).
  -- The reminders' days are 65's fee_reminder_first_days and fee_reminder_second_days.
  ('fee_door_code_grace_days', '14')
on conflict (key) do nothing;

create function private.setting_int(p_key text, p_default integer)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(case when s.value ~ '^[0-9]{1,4}$' then s.value::integer end, p_default)
    from (select private.setting(p_key) as value) s
$$;
comment on function private.setting_int(text, integer) is 'An integer operator setting (0..9999), or the default when unset or not a number.';
revoke execute on function private.setting_int(text, integer) from public;

-- The SEPA creditor settings, edited by admins on the settings page (docs/adr/0048). The
-- creditor identifier as the EPC's Creditor Identifier Overview (EPC262-08) defines it:
-- positions 1-2 the ISO country code, 3-4 check digits by ISO 7064 MOD 97-10, 5-7 the creditor
-- business code (ZZZ when unused; not part of the check), from 8 the national identifier (in
-- Germany 11 characters, 18 in all; at most 35). The check digits are right when the national
-- identifier, the country code and the check digits, letters counted 10..35, leave 1 mod 97.
create function private.sepa_creditor_id_valid(p_id text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_id is null or p_id !~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{3}[A-Z0-9]{1,28}$' or (left(p_id, 2) = 'DE' and length(p_id) <> 18) then
    return false;
  end if;
  return private.iso7064_mod97(substr(p_id, 8) || left(p_id, 4)) = 1;
end
$$;
comment on function private.sepa_creditor_id_valid(text) is 'Whether a normalised SEPA creditor identifier (capitals, no spaces) has the EPC structure and ISO 7064 MOD 97-10 check digits (the business code, positions 5-7, left out); a German one has 18 characters.';
revoke execute on function private.sepa_creditor_id_valid(text) from public;

create function private.sepa_settings_object()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'creditor_id', coalesce(private.setting('sepa_creditor_id'), ''),
    'prenotification_days', private.setting_int('sepa_prenotification_days', 14))
$$;
comment on function private.sepa_settings_object() is 'The SEPA settings: creditor_id (empty when unset) and prenotification_days (14 when unset).';
revoke execute on function private.sepa_settings_object() from public;

create function private.sepa_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.sepa_settings_object();
end
$$;
comment on function private.sepa_settings() is 'The rule behind public.sepa_settings (security definer, not exposed by the API).';
revoke execute on function private.sepa_settings() from public;
grant execute on function private.sepa_settings() to authenticated, service_role;

create function public.sepa_settings()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.sepa_settings()
$$;
comment on function public.sepa_settings() is 'Admins: the SEPA creditor identifier and the pre-notification days (creditor_id, prenotification_days).';
revoke execute on function public.sepa_settings() from anon, public;

-- Checked here, whoever calls: the creditor identifier (spaces removed, capitals) by
-- private.sepa_creditor_id_valid; the pre-notification days whole days from 1 to 30 (the SEPA
-- Core rulebook's default is 14 calendar days; fewer only where agreed with the debtor, e.g. in
-- the contract terms). A bad value raises sepa_invalid_setting (22023) with the field in the
-- hint. A change applies to the debits scheduled from now on: a pre-notification already sent
-- keeps its collection days.
create function private.save_sepa_settings(p_creditor_id text, p_prenotification_days integer)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_id text := upper(regexp_replace(coalesce(p_creditor_id, ''), '\s', '', 'g'));
begin
  perform private.require_admin();
  if not private.sepa_creditor_id_valid(v_id) then
    raise exception 'sepa_invalid_setting' using errcode = '22023', hint = 'creditor_id';
  end if;
  if p_prenotification_days is null or p_prenotification_days not between 1 and 30 then
    raise exception 'sepa_invalid_setting' using errcode = '22023', hint = 'prenotification_days';
  end if;
  insert into private.app_settings as s (key, value)
  values ('sepa_creditor_id', v_id), ('sepa_prenotification_days', p_prenotification_days::text)
  on conflict (key) do update set value = excluded.value where s.value is distinct from excluded.value;
  return private.sepa_settings_object();
end
$$;
comment on function private.save_sepa_settings(text, integer) is 'The rule behind public.save_sepa_settings (security definer, not exposed by the API).';
revoke execute on function private.save_sepa_settings(text, integer) from public;
grant execute on function private.save_sepa_settings(text, integer) to authenticated, service_role;

create function public.save_sepa_settings(p_creditor_id text, p_prenotification_days integer)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.save_sepa_settings(p_creditor_id, p_prenotification_days)
$$;
comment on function public.save_sepa_settings(text, integer) is 'Admins: stores the SEPA creditor identifier (EPC structure, ISO 7064 MOD 97-10 check digits) and the pre-notification days (1 to 30); sepa_invalid_setting (22023, hint creditor_id or prenotification_days) on a bad value.';
revoke execute on function public.save_sepa_settings(text, integer) from anon, public;

-- ---------------------------------------------------------------------------------------------
-- SEPA mandates (Stripe's Mandate object of a sepa_debit PaymentMethod), stored when the
-- webhook reports the setup as completed. A mandate is never changed except its status (Stripe
-- reports it inactive when revoked); a new one is a new row.
create table public.sepa_mandates (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  -- The contract it was taken for (null: a mandate for the account, not one contract).
  contract_id uuid references public.contracts (id) on delete restrict,
  stripe_customer text check (stripe_customer ~ '^cus_[A-Za-z0-9_]+$'),
  stripe_payment_method text not null check (stripe_payment_method ~ '^pm_[A-Za-z0-9_]+$'),
  stripe_mandate text not null unique check (stripe_mandate ~ '^mandate_[A-Za-z0-9_]+$'),
  -- The mandate reference printed on the pre-notification (Stripe's payment_method_details.sepa_debit.reference).
  reference text not null check (char_length(reference) between 1 and 35),
  iban_last4 text not null check (iban_last4 ~ '^[0-9A-Z]{4}$'),
  bank_country text check (bank_country ~ '^[A-Z]{2}$'),
  -- Stripe's customer_acceptance: {type, accepted_at, online: {ip_address, user_agent}}.
  customer_acceptance jsonb not null check (jsonb_typeof(customer_acceptance) = 'object'),
  status text not null default 'active' check (status in ('active', 'inactive', 'pending')),
  created_at timestamptz not null default now()
);

alter table public.sepa_mandates enable row level security;

comment on table public.sepa_mandates is 'SEPA Direct Debit mandates taken through Stripe (mandate id, reference, IBAN last four, customer acceptance), written only by the webhook (record_sepa_mandate); the holder reads own, staff all.';

create index sepa_mandates_user_idx on public.sepa_mandates (user_id, created_at desc);

create index sepa_mandates_contract_idx on public.sepa_mandates (contract_id, created_at desc) where contract_id is not null;

create policy "sepa_mandates: holder reads own, staff all" on public.sepa_mandates
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

revoke all on public.sepa_mandates from anon;

revoke insert, update, delete, truncate, references, trigger on public.sepa_mandates from authenticated, service_role;

create trigger sepa_mandates_audit after insert or update or delete on public.sepa_mandates
  for each row execute function private.audit_row('id');

-- ---------------------------------------------------------------------------------------------
-- One row per instalment of a contract season. What is owed and paid is not stored here: the
-- invoice (invoice_id) says what is owed, the ledger what was paid. The debit columns follow
-- Stripe's PaymentIntent (debit_state) and change; the money documents never do.
create table public.long_term_fees (
  id uuid primary key default gen_random_uuid(),
  -- The contract (unique (contract_id, instalment) below is the index the key uses).
  contract_id uuid not null references public.contracts (id) on delete restrict,
  -- The contract as readable on documents (contract_number), for the invoices' reference.
  reference text not null check (char_length(reference) between 1 and 40),
  user_id uuid not null,
  holder_id uuid,
  season_id uuid not null references public.seasons (id),
  instalment smallint not null check (instalment between 1 and 4),
  instalments smallint not null check (instalments in (1, 2, 4)),
  due_on date not null,
  payment_method text not null check (payment_method in ('sepa_debit', 'bank_transfer')),
  -- The instalment's lines (gross-priced, as on its invoice) and gross.
  lines jsonb not null check (jsonb_typeof(lines) = 'array'),
  gross_cents integer not null check (gross_cents > 0),
  invoice_id uuid unique references public.invoices (id),
  -- SEPA: the day Stripe is asked to collect (never earlier than the pre-notification allows),
  -- the PaymentIntent, its state and the last failure code.
  collect_on date,
  mandate_id uuid references public.sepa_mandates (id),
  payment_intent text unique check (payment_intent ~ '^pi_[A-Za-z0-9_]+$'),
  debit_state text check (debit_state in ('requested', 'processing', 'succeeded', 'failed', 'returned')),
  debit_failure text check (char_length(debit_failure) <= 100),
  debit_attempts smallint not null default 0,
  prenotified_at timestamptz,
  created_at timestamptz not null default now(),
  unique (contract_id, instalment),
  constraint long_term_fees_instalment_in_plan check (instalment <= instalments)
);

alter table public.long_term_fees enable row level security;

comment on table public.long_term_fees is 'The instalments of a long-term contract season: due day, gross and lines, its invoice (public.invoices.fee_id) and, for SEPA, the collection day, mandate and PaymentIntent state. What is paid is the ledger (public.payments.fee_id). Holders read their own, staff all; written only by the functions in 63_long_term_fees.sql.';

create index long_term_fees_user_idx on public.long_term_fees (user_id, due_on);

create index long_term_fees_due_idx on public.long_term_fees (due_on);

create index long_term_fees_collect_idx on public.long_term_fees (collect_on) where payment_method = 'sepa_debit' and debit_state is null;

create index long_term_fees_season_idx on public.long_term_fees (season_id);

create index long_term_fees_mandate_idx on public.long_term_fees (mandate_id) where mandate_id is not null;

create policy "long_term_fees: holder reads own, staff all" on public.long_term_fees
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

revoke all on public.long_term_fees from anon;

revoke insert, update, delete, truncate, references, trigger on public.long_term_fees from authenticated, service_role;

create trigger long_term_fees_audit after insert or update or delete on public.long_term_fees
  for each row execute function private.audit_row('id');

-- Staff request keys for recorded transfers: the same key again answers the same row.
create table private.fee_transfer_requests (
  request_key uuid primary key,
  fee_id uuid not null references public.long_term_fees (id),
  amount_cents integer not null,
  payment_id uuid not null references public.payments (id),
  requested_by uuid,
  requested_at timestamptz not null default now(),
  -- payment: a transfer received (record_fee_transfer); refund: an overpayment paid back
  -- (repay_fee_overpayment), payment_id then its last ledger row.
  kind text not null default 'payment' check (kind in ('payment', 'refund'))
);

alter table private.fee_transfer_requests enable row level security;

comment on table private.fee_transfer_requests is 'The request key of each transfer staff recorded for a fee, received (kind payment) or paid back (kind refund): a retried request (a double click, a lost answer) finds it and records nothing more.';

revoke all on table private.fee_transfer_requests from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Splitting a season into instalments. Every line (one VAT rate each) is split on its own:
-- each instalment gets floor(gross / n) of it and the first instalment also the remainder
-- cents, so per VAT rate the instalments add up to the season's price to the cent and the
-- later instalments are equal. Due days: the season's first day and then evenly over the
-- season (day offsets of (k-1)/n of its length), never earlier than p_today.
create function private.fee_instalment_plan(p_lines jsonb, p_instalments integer, p_starts_on date, p_ends_on date, p_today date)
returns table (instalment integer, due_on date, lines jsonb, gross_cents integer)
language plpgsql
immutable
set search_path = ''
as $$
declare
  k integer;
  v_lines jsonb;
  v_line jsonb;
  v_gross bigint;
  v_part bigint;
  v_rate numeric;
  v_pos integer;
  v_total bigint;
begin
  if p_instalments not in (1, 2, 4) then
    raise exception 'invalid_payment_plan' using errcode = '22023', hint = '1, 2 or 4 instalments.';
  end if;
  if jsonb_typeof(p_lines) is distinct from 'array' or jsonb_array_length(p_lines) = 0 then
    raise exception 'invalid_fee_lines' using errcode = '22023', hint = 'The season''s lines (seam 1).';
  end if;
  for k in 1 .. p_instalments loop
    v_lines := '[]'::jsonb;
    v_pos := 0;
    v_total := 0;
    for v_line in select l from jsonb_array_elements(p_lines) l loop
      v_gross := (v_line ->> 'gross_cents')::bigint;
      v_rate := (v_line ->> 'vat_rate')::numeric;
      if v_gross is null or v_gross <= 0 or v_rate is null or v_rate not in (0, 7, 19) then
        raise exception 'invalid_fee_lines' using errcode = '22023', hint = 'Each line: gross_cents > 0, vat_rate 0, 7 or 19.';
      end if;
      v_part := v_gross / p_instalments + case when k = 1 then v_gross % p_instalments else 0 end;
      v_pos := v_pos + 1;
      v_total := v_total + v_part;
      v_lines := v_lines || jsonb_build_object(
        'position', v_pos,
        'code', 'season:' || coalesce(v_line ->> 'code', 'fee'),
        'description', coalesce(v_line ->> 'description', 'Saisonliegegebühr')
                       || case when p_instalments > 1 then format(', Rate %s von %s', k, p_instalments) else '' end,
        'description_en', coalesce(v_line ->> 'description_en', v_line ->> 'description', 'Seasonal berth fee')
                          || case when p_instalments > 1 then format(', instalment %s of %s', k, p_instalments) else '' end,
        'quantity', 1, 'unit', 'piece',
        'unit_gross_cents', v_part,
        'unit_price_cents', v_part - round(v_part * v_rate / (100 + v_rate))::bigint,
        'vat_rate', v_rate,
        'net_cents', v_part - round(v_part * v_rate / (100 + v_rate))::bigint);
    end loop;
    instalment := k;
    due_on := greatest(p_starts_on + ((k - 1) * (p_ends_on - p_starts_on + 1)) / p_instalments, p_today);
    lines := v_lines;
    gross_cents := v_total;
    return next;
  end loop;
end
$$;
comment on function private.fee_instalment_plan(jsonb, integer, date, date, date) is 'Splits a season''s gross lines into 1, 2 or 4 instalments: per line floor(gross/n), the remainder cents on the first instalment (each VAT rate sums to the cent); due days spread evenly from the season''s first day, never before today.';
revoke execute on function private.fee_instalment_plan(jsonb, integer, date, date, date) from public;

-- The holder as the invoice's recipient (§ 14 Abs. 4 Nr. 1 UStG), from the account's profile
-- as it is when the document is issued (the document keeps it).
create function private.fee_recipient(p_user_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_strip_nulls(jsonb_build_object(
           'first_name', p.first_name, 'last_name', p.last_name, 'company', p.company,
           'street', p.street, 'postal_code', p.postal_code, 'city', p.city, 'country', p.country,
           'email', coalesce(p.email, u.email)))
    from auth.users u
    left join public.profiles p on p.id = u.id
   where u.id = p_user_id
$$;
comment on function private.fee_recipient(uuid) is 'The invoice recipient of a fee: the account holder''s name, address and e-mail from the profile.';
revoke execute on function private.fee_recipient(uuid) from public;

create function private.fee_locale(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select p.locale from public.profiles p where p.id = p_user_id), 'de')
$$;
comment on function private.fee_locale(uuid) is 'The language of a holder''s e-mails (the profile''s, else German).';
revoke execute on function private.fee_locale(uuid) from public;

-- Issues the invoice of one instalment (service period = the season, § 14 Abs. 4 Nr. 6 UStG),
-- in the one gapless series (private.insert_invoice_document), and links it to the fee.
create function private.issue_fee_invoice(p_fee public.long_term_fees)
returns public.invoices
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_season public.seasons;
  v_recipient jsonb := private.fee_recipient(p_fee.user_id);
  v_small boolean;
  v_doc public.invoices;
begin
  if p_fee.invoice_id is not null then
    select * into v_doc from public.invoices i where i.id = p_fee.invoice_id;
    return v_doc;
  end if;
  select * into v_season from public.seasons s where s.id = p_fee.season_id;
  v_small := p_fee.gross_cents <= 25000
             and (coalesce(v_recipient ->> 'street', '') = '' or coalesce(v_recipient ->> 'city', '') = ''
                  or coalesce(v_recipient ->> 'postal_code', '') = '');
  -- Not an order's document: the order argument is a null row; the fee is set right after.
  v_doc := private.insert_fee_invoice_document(p_fee, v_recipient, v_small, v_season.starts_on, v_season.ends_on);
  update public.long_term_fees f set invoice_id = v_doc.id where f.id = p_fee.id;
  return v_doc;
end
$$;
comment on function private.issue_fee_invoice(public.long_term_fees) is 'Issues the invoice of one instalment (once; service period the season) and links it to the fee.';
revoke execute on function private.issue_fee_invoice(public.long_term_fees) from public;

-- insert_invoice_document's sibling for a fee (same counter, same totals from the breakdown).
create function private.insert_fee_invoice_document(p_fee public.long_term_fees, p_recipient jsonb, p_small boolean,
                                                    p_from date, p_to date)
returns public.invoices
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_year integer := extract(year from private.now() at time zone 'Europe/Berlin')::integer;
  v_number integer;
  v_breakdown jsonb := private.invoice_vat_breakdown(p_fee.lines);
  v_row public.invoices;
begin
  insert into private.invoice_counters as c (year, last_number) values (v_year, 1)
  on conflict (year) do update set last_number = c.last_number + 1
  returning c.last_number into v_number;
  insert into public.invoices (fee_id, year, number, net_cents, vat_cents, gross_cents, recipient, issued_at,
                               kind, reason, small_amount, service_from, service_to, lines, vat_breakdown, booking_number)
  select p_fee.id, v_year, v_number,
         coalesce(sum((v ->> 'net_cents')::bigint), 0), coalesce(sum((v ->> 'vat_cents')::bigint), 0),
         coalesce(sum((v ->> 'gross_cents')::bigint), 0),
         case when p_small then null else p_recipient end, private.now(), 'invoice', 'season_fee',
         p_small, p_from, p_to, p_fee.lines, v_breakdown,
         p_fee.reference || case when p_fee.instalments > 1 then '/' || p_fee.instalment else '' end
  from jsonb_array_elements(v_breakdown) v
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.insert_fee_invoice_document(public.long_term_fees, jsonb, boolean, date, date) is 'Issues an instalment''s invoice with the next gapless number of the year (the one series), totals from its VAT breakdown; booking_number carries the contract reference and instalment.';
revoke execute on function private.insert_fee_invoice_document(public.long_term_fees, jsonb, boolean, date, date) from public;

-- ---------------------------------------------------------------------------------------------
-- The money of a fee: paid (payments not reversing anything), refunded (refunds and returned
-- debits minus reversals), net, balance (invoice gross minus net; negative = overpaid).
create function private.fee_balance(p_fee_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'gross_cents', f.gross_cents,
           'cancelled_cents', x.cancelled,
           'paid_cents', l.paid,
           'refunded_cents', l.refunded,
           'net_cents', l.paid - l.refunded,
           'balance_cents', f.gross_cents - x.cancelled - (l.paid - l.refunded),
           'state', case when l.paid - l.refunded > f.gross_cents - x.cancelled then 'overpaid'
                         when x.cancelled > 0 and l.paid - l.refunded = 0 then 'cancelled'
                         when l.paid - l.refunded = f.gross_cents - x.cancelled then 'paid'
                         when f.debit_state = 'processing' then 'processing'
                         when f.debit_state in ('failed', 'returned') then 'failed'
                         when l.paid - l.refunded > 0 then 'partially_paid'
                         when f.due_on < private.berlin_date(private.now()) then 'overdue'
                         else 'open' end)
    from public.long_term_fees f
    -- What a cancellation invoice (Storno) of the fee's invoice took back (its gross is negative).
    cross join lateral (
      select coalesce(-sum(c.gross_cents), 0)::bigint as cancelled
        from public.invoices c where c.refers_to = f.invoice_id and c.kind = 'cancellation'
    ) x
    cross join lateral (
      select coalesce(sum(p.amount_cents) filter (where p.kind = 'payment' and p.refund_of is null), 0)::bigint as paid,
             (coalesce(sum(p.amount_cents) filter (where p.kind = 'refund'), 0)
              - coalesce(sum(p.amount_cents) filter (where p.kind = 'payment' and p.refund_of is not null), 0))::bigint as refunded
        from public.payments p where p.fee_id = f.id
    ) l
   where f.id = p_fee_id
$$;
comment on function private.fee_balance(uuid) is 'A fee''s money from the ledger: gross, cancelled (by a cancellation invoice of its invoice), paid, refunded (returned debits included), net, balance (gross - cancelled - net; negative: overpaid, money to return) and its state (open, overdue, processing, partially_paid, paid, overpaid, failed, cancelled).';
revoke execute on function private.fee_balance(uuid) from public;
grant execute on function private.fee_balance(uuid) to authenticated, service_role;

-- The fees with their invoice and money, for the holder's list and the back office (RLS of
-- the tables decides: a holder sees own rows, staff all).
create view public.long_term_fee_status
with (security_invoker = true)
as
  select f.id, f.contract_id, f.reference, f.user_id, f.holder_id, f.season_id, f.instalment, f.instalments,
         f.due_on, f.payment_method, f.gross_cents, f.invoice_id, i.invoice_number, f.collect_on,
         f.mandate_id, f.debit_state, f.debit_failure, f.created_at,
         (b ->> 'paid_cents')::bigint as paid_cents,
         (b ->> 'refunded_cents')::bigint as refunded_cents,
         (b ->> 'balance_cents')::bigint as balance_cents,
         b ->> 'state' as state,
         (b ->> 'cancelled_cents')::bigint as cancelled_cents
    from public.long_term_fees f
    left join public.invoices i on i.id = f.invoice_id
    cross join lateral (select private.fee_balance(f.id) as b) x(b);

comment on view public.long_term_fee_status is 'Each instalment with its invoice number, paid, refunded and balance cents, state (open, overdue, processing, partially_paid, paid, overpaid, failed, cancelled) and what a cancellation invoice took back (cancelled_cents); RLS of the tables decides who sees which.';

revoke all on public.long_term_fee_status from anon;

revoke insert, update, delete, truncate, references, trigger on public.long_term_fee_status from authenticated, service_role;

-- A write is a privilege error, not a server error (70_hours.sql says why; its
-- private.refuse_view_write is declared after this file).
create function private.refuse_fee_status_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'read_only_view' using errcode = '42501', detail = tg_table_name || ' is read-only';
end
$$;
comment on function private.refuse_fee_status_write() is 'INSTEAD OF trigger of long_term_fee_status: refuses every write with 42501.';
revoke execute on function private.refuse_fee_status_write() from public;

create trigger long_term_fee_status_read_only
  instead of insert or update or delete on public.long_term_fee_status
  for each row execute function private.refuse_fee_status_write();

-- ---------------------------------------------------------------------------------------------
-- Creating a contract season's fees (seam 3). Idempotent by contract: called again it
-- returns the existing instalments. Issues every instalment's invoice at once and e-mails
-- them (the e-mail is the SEPA pre-notification when the contract pays by direct debit and a
-- mandate is there; else it repeats when the mandate arrives).
create function private.create_season_fees(
  p_contract_id uuid, p_reference text, p_user_id uuid, p_holder_id uuid, p_season_id uuid,
  p_lines jsonb, p_gross_cents integer, p_payment_plan integer, p_payment_method text)
returns setof public.long_term_fees
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_season public.seasons;
  v_plan record;
  v_fee public.long_term_fees;
  v_sum bigint;
  v_today date := private.berlin_date(private.now());
begin
  if p_contract_id is null or p_user_id is null or coalesce(btrim(p_reference), '') = '' then
    raise exception 'invalid_contract' using errcode = '22023', hint = 'contract id, account and reference are required.';
  end if;
  if p_payment_method not in ('sepa_debit', 'bank_transfer') then
    raise exception 'invalid_payment_method' using errcode = '22023', hint = 'sepa_debit or bank_transfer.';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('long_term_fees:' || p_contract_id::text, 0));
  if exists (select 1 from public.long_term_fees f where f.contract_id = p_contract_id) then
    return query select * from public.long_term_fees f where f.contract_id = p_contract_id order by f.instalment;
    return;
  end if;
  select * into v_season from public.seasons s where s.id = p_season_id;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  select coalesce(sum((l ->> 'gross_cents')::bigint), 0) into v_sum from jsonb_array_elements(p_lines) l;
  if v_sum <> p_gross_cents then
    raise exception 'invalid_fee_lines' using errcode = '22023', hint = 'The lines do not add up to the contract''s gross.';
  end if;
  for v_plan in select * from private.fee_instalment_plan(p_lines, p_payment_plan, v_season.starts_on, v_season.ends_on, v_today) loop
    insert into public.long_term_fees (contract_id, reference, user_id, holder_id, season_id, instalment, instalments, due_on,
                                       payment_method, lines, gross_cents)
    values (p_contract_id, btrim(p_reference), p_user_id, p_holder_id, p_season_id, v_plan.instalment, p_payment_plan,
            v_plan.due_on, p_payment_method, v_plan.lines, v_plan.gross_cents)
    returning * into v_fee;
    perform private.issue_fee_invoice(v_fee);
  end loop;
  -- A mandate taken before (the acceptance page's set-up step) schedules the debits now.
  perform private.schedule_fee_debits(p_contract_id);
  perform private.queue_fee_invoice_mail(p_contract_id);
  return query select * from public.long_term_fees f where f.contract_id = p_contract_id order by f.instalment;
end
$$;
comment on function private.create_season_fees(uuid, text, uuid, uuid, uuid, jsonb, integer, integer, text) is 'Creates a contract season''s instalments (1, 2 or 4; sums to the cent per VAT rate), issues each one''s invoice and e-mails them; idempotent by contract.';
revoke execute on function private.create_season_fees(uuid, text, uuid, uuid, uuid, jsonb, integer, integer, text) from public;

-- Seam 3: what private.on_contract_accepted calls once the lead wires it (reads only the
-- columns the design note lists, plus contract_number for the documents' reference).
create function private.create_contract_fees(p_contract_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v record;
begin
  select c.id, c.contract_number, c.user_id, c.holder_id, c.season_id, c.lines, c.gross_cents, c.payment_plan, c.payment_method
    into v from public.contracts c where c.id = p_contract_id;
  if v.id is null then
    raise exception 'contract_not_found' using errcode = 'PT404';
  end if;
  perform private.create_season_fees(v.id, v.contract_number, v.user_id, v.holder_id, v.season_id, v.lines,
                                     v.gross_cents::integer, v.payment_plan, v.payment_method);
end
$$;
comment on function private.create_contract_fees(uuid) is 'Seam 3: creates the fees of an accepted contract from public.contracts (id, contract_number, user_id, holder_id, season_id, lines, gross_cents, payment_plan, payment_method).';
revoke execute on function private.create_contract_fees(uuid) from public;

-- ---------------------------------------------------------------------------------------------
-- SEPA: the mandate, the collection day and the pre-notification.

-- The collection days of a contract's unpaid SEPA instalments with a mandate: the due day, but
-- never earlier than the pre-notification allows (sepa_prenotification_days after the e-mail
-- that announces it, which is queued right after this).
create function private.schedule_fee_debits(p_contract_id uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_mandate public.sepa_mandates;
  v_earliest date := private.berlin_date(private.now()) + private.setting_int('sepa_prenotification_days', 14);
  v_count integer;
begin
  select m.* into v_mandate from public.sepa_mandates m
   where m.status = 'active'
     and (m.contract_id = p_contract_id
          or (m.contract_id is null and m.user_id = (select f.user_id from public.long_term_fees f where f.contract_id = p_contract_id limit 1)))
   order by m.contract_id is null, m.created_at desc
   limit 1;
  if not found then
    return 0;
  end if;
  update public.long_term_fees f
     set mandate_id = v_mandate.id, collect_on = greatest(f.due_on, v_earliest), prenotified_at = private.now()
   where f.contract_id = p_contract_id and f.payment_method = 'sepa_debit' and f.debit_state is null
     and (f.mandate_id is distinct from v_mandate.id or f.collect_on is null);
  get diagnostics v_count = row_count;
  return v_count;
end
$$;
comment on function private.schedule_fee_debits(uuid) is 'Sets mandate and collection day (due day, at least sepa_prenotification_days from now) of a contract''s SEPA instalments not yet collected; answers how many.';
revoke execute on function private.schedule_fee_debits(uuid) from public;

-- The invoice e-mail of a contract's instalments; for SEPA with a mandate it is the
-- pre-notification: creditor identifier, mandate reference, amount and collection day of each
-- debit. For bank transfer: the harbour's IBAN, the amounts and due days.
create function private.queue_fee_invoice_mail(p_contract_id uuid)
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_first public.long_term_fees;
  v_recipient jsonb;
  v_locale text;
  v_en boolean;
  v_mandate public.sepa_mandates;
  v_sepa boolean;
  v_list text;
  v_attachments jsonb;
  v_body text;
begin
  select * into v_first from public.long_term_fees f where f.contract_id = p_contract_id order by f.instalment limit 1;
  if not found then
    return null;
  end if;
  v_recipient := private.fee_recipient(v_first.user_id);
  if coalesce(v_recipient ->> 'email', '') !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_locale := private.fee_locale(v_first.user_id);
  v_en := v_locale = 'en';
  select * into v_mandate from public.sepa_mandates m where m.id = v_first.mandate_id;
  v_sepa := v_first.payment_method = 'sepa_debit' and v_mandate.id is not null;
  select string_agg(
           format('%s  %s  %s  %s', i.invoice_number,
                  case when v_en then 'instalment ' else 'Rate ' end || f.instalment || '/' || f.instalments,
                  private.format_eur(f.gross_cents, v_locale),
                  case when v_sepa then (case when v_en then 'collected on ' else 'Einzug am ' end) || to_char(f.collect_on, 'DD.MM.YYYY')
                       else (case when v_en then 'due on ' else 'fällig am ' end) || to_char(f.due_on, 'DD.MM.YYYY') end),
           E'\n' order by f.instalment),
         coalesce(jsonb_agg(private.invoice_mail_attachment(i, v_locale) order by f.instalment), '[]'::jsonb)
    into v_list, v_attachments
    from public.long_term_fees f join public.invoices i on i.id = f.invoice_id
   where f.contract_id = p_contract_id;
  v_body := concat_ws(E'\n',
    case when v_en then format('please find attached the invoices for your berth contract %s.', v_first.reference)
         else format('anbei erhalten Sie die Rechnungen zu Ihrem Liegeplatzvertrag %s.', v_first.reference) end,
    '',
    v_list,
    '',
    case when v_sepa then
      case when v_en then concat_ws(E'\n',
          'We will collect these amounts by SEPA direct debit on the days shown (pre-notification).',
          'Creditor identifier: ' || coalesce(private.setting('sepa_creditor_id'), ''),
          'Mandate reference: ' || v_mandate.reference,
          'Account: IBAN ending ' || v_mandate.iban_last4,
          'Please make sure the account is covered on those days.')
      else concat_ws(E'\n',
          'Wir ziehen die Beträge an den genannten Tagen per SEPA-Lastschrift ein (Vorabankündigung).',
          'Gläubiger-Identifikationsnummer: ' || coalesce(private.setting('sepa_creditor_id'), ''),
          'Mandatsreferenz: ' || v_mandate.reference,
          'Konto: IBAN endend auf ' || v_mandate.iban_last4,
          'Bitte sorgen Sie an diesen Tagen für ausreichende Deckung.') end
    when v_first.payment_method = 'sepa_debit' then
      case when v_en then 'Please set up the SEPA direct debit mandate in your account; we will announce each collection in advance.'
           else 'Bitte richten Sie das SEPA-Lastschriftmandat in Ihrem Konto ein; jeden Einzug kündigen wir vorab an.' end
    else
      case when v_en then 'Please transfer each amount by its due day to IBAN ' || coalesce(private.setting('invoice_iban'), '') || ', reference: the invoice number.'
           else 'Bitte überweisen Sie jeden Betrag bis zum Fälligkeitstag auf IBAN ' || coalesce(private.setting('invoice_iban'), '') || ', Verwendungszweck: die Rechnungsnummer.' end
    end);
  return private.queue_mail(
    case when v_sepa then 'sepa_prenotification' else 'fee_invoice' end,
    v_recipient ->> 'email', v_locale,
    case when v_en then format('Invoices for your berth contract %s', v_first.reference)
         else format('Rechnungen zu Ihrem Liegeplatzvertrag %s', v_first.reference) end,
    private.mail_text(v_locale, concat_ws(' ', v_recipient ->> 'first_name', v_recipient ->> 'last_name'), v_body),
    v_attachments,
    private.setting('harbour_email'),
    null);
end
$$;
comment on function private.queue_fee_invoice_mail(uuid) is 'E-mails a contract''s instalment invoices; with a SEPA mandate it is the pre-notification (creditor id, mandate reference, amounts, collection days).';
revoke execute on function private.queue_fee_invoice_mail(uuid) from public;

-- The webhook (service role) stores a mandate once Stripe reports the setup complete (the edge
-- function reads the SetupIntent with its mandate and payment method): idempotent by Stripe's
-- mandate id. The contract's SEPA instalments are scheduled and pre-notified.
create function private.record_sepa_mandate(p_mandate jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.sepa_mandates;
  v_contract uuid;
  v_user uuid;
begin
  if jsonb_typeof(p_mandate) is distinct from 'object' then
    raise exception 'invalid_mandate' using errcode = '22023';
  end if;
  begin
    v_contract := nullif(p_mandate ->> 'contract_id', '')::uuid;
    v_user := (p_mandate ->> 'user_id')::uuid;
  exception when invalid_text_representation then
    raise exception 'invalid_mandate' using errcode = '22023', hint = 'user_id and contract_id are UUIDs.';
  end;
  if v_user is null then
    raise exception 'invalid_mandate' using errcode = '22023', hint = 'user_id is required.';
  end if;
  begin
    insert into public.sepa_mandates (user_id, contract_id, stripe_customer, stripe_payment_method, stripe_mandate, reference,
                                      iban_last4, bank_country, customer_acceptance, status, created_at)
    values (v_user, v_contract, p_mandate ->> 'customer', p_mandate ->> 'payment_method', p_mandate ->> 'mandate',
            p_mandate ->> 'reference', upper(p_mandate ->> 'last4'), upper(p_mandate ->> 'country'),
            coalesce(p_mandate -> 'customer_acceptance', '{}'::jsonb),
            coalesce(p_mandate ->> 'status', 'active'), private.now())
    on conflict (stripe_mandate) do nothing
    returning * into v_row;
  exception when check_violation or not_null_violation then
    raise exception 'invalid_mandate' using errcode = '22023', hint = 'mandate, payment_method, reference and last4 as Stripe reports them.';
  end;
  if v_row.id is null then
    select * into v_row from public.sepa_mandates m where m.stripe_mandate = p_mandate ->> 'mandate';
    return to_jsonb(v_row) || jsonb_build_object('replay', true);
  end if;
  if v_contract is not null and private.schedule_fee_debits(v_contract) > 0 then
    perform private.queue_fee_invoice_mail(v_contract);
  end if;
  return to_jsonb(v_row) || jsonb_build_object('replay', false);
end
$$;
comment on function private.record_sepa_mandate(jsonb) is 'The rule behind public.record_sepa_mandate (security definer, not exposed by the API).';
revoke execute on function private.record_sepa_mandate(jsonb) from public;

create function public.record_sepa_mandate(p_mandate jsonb)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.record_sepa_mandate(p_mandate)
$$;
comment on function public.record_sepa_mandate(jsonb) is 'Service role only (stripe-webhook): stores a SEPA mandate {user_id, contract_id, customer, payment_method, mandate, reference, last4, country, customer_acceptance, status} once by Stripe''s mandate id and schedules and pre-notifies the contract''s debits.';
revoke execute on function public.record_sepa_mandate(jsonb) from anon, authenticated, public;
grant execute on function private.record_sepa_mandate(jsonb) to service_role;
grant execute on function public.record_sepa_mandate(jsonb) to service_role;

-- The scheduled job's list: SEPA instalments whose collection day has come (Berlin), with the
-- data of the off-session PaymentIntent and its Idempotency-Key (one per fee and attempt, so a
-- retried run never creates a second debit).
create function private.due_fee_debits(p_limit integer default 50)
returns table (fee_id uuid, amount_cents integer, customer text, payment_method text, mandate text,
               idempotency_key text, description text, invoice_number text)
language sql
stable
security definer
set search_path = ''
as $$
  select f.id, (private.fee_balance(f.id) ->> 'balance_cents')::integer, m.stripe_customer, m.stripe_payment_method, m.stripe_mandate,
         'fee-' || f.id::text || '-' || f.debit_attempts, i.invoice_number || ' ' || f.reference, i.invoice_number
    from public.long_term_fees f
    join public.sepa_mandates m on m.id = f.mandate_id and m.status = 'active'
    join public.invoices i on i.id = f.invoice_id
   where f.payment_method = 'sepa_debit' and f.debit_state is null
     and f.collect_on <= private.berlin_date(private.now())
     and (private.fee_balance(f.id) ->> 'balance_cents')::integer > 0
   order by f.collect_on, f.id
   limit least(greatest(coalesce(p_limit, 50), 1), 200)
$$;
comment on function private.due_fee_debits(integer) is 'SEPA instalments to collect today: amount (the balance), Stripe customer, payment method and mandate, and the Idempotency-Key fee-<id>-<attempt>.';
revoke execute on function private.due_fee_debits(integer) from public;

create function public.due_fee_debits(p_limit integer default 50)
returns table (fee_id uuid, amount_cents integer, customer text, payment_method text, mandate text,
               idempotency_key text, description text, invoice_number text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.due_fee_debits(p_limit)
$$;
comment on function public.due_fee_debits(integer) is 'Service role only (collect-fees): the SEPA instalments whose collection day has come, with the Stripe data and Idempotency-Key of their off-session PaymentIntent.';
revoke execute on function public.due_fee_debits(integer) from anon, authenticated, public;
grant execute on function private.due_fee_debits(integer) to service_role;
grant execute on function public.due_fee_debits(integer) to service_role;

-- The job notes the PaymentIntent it created (idempotent: the same intent again is a no-op).
create function private.note_fee_debit(p_fee_id uuid, p_payment_intent text)
returns public.long_term_fees
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_fee public.long_term_fees;
begin
  select * into v_fee from public.long_term_fees f where f.id = p_fee_id for update;
  if not found then
    raise exception 'fee_not_found' using errcode = 'PT404';
  end if;
  if v_fee.payment_intent = p_payment_intent then
    return v_fee;
  end if;
  if v_fee.debit_state is not null and v_fee.debit_state not in ('failed', 'returned') then
    raise exception 'fee_debit_in_flight' using errcode = 'PT409';
  end if;
  update public.long_term_fees f
     set payment_intent = p_payment_intent, debit_state = 'requested', debit_failure = null
   where f.id = p_fee_id
  returning * into v_fee;
  return v_fee;
end
$$;
comment on function private.note_fee_debit(uuid, text) is 'Notes the PaymentIntent created for a fee''s collection (debit_state requested); the same intent again changes nothing.';
revoke execute on function private.note_fee_debit(uuid, text) from public;

create function public.note_fee_debit(p_fee_id uuid, p_payment_intent text)
returns public.long_term_fees
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.note_fee_debit(p_fee_id, p_payment_intent)
$$;
comment on function public.note_fee_debit(uuid, text) is 'Service role only (collect-fees): notes the PaymentIntent created for a fee.';
revoke execute on function public.note_fee_debit(uuid, text) from anon, authenticated, public;
grant execute on function private.note_fee_debit(uuid, text) to service_role;
grant execute on function public.note_fee_debit(uuid, text) to service_role;

-- The holder and the office are told that a debit failed or came back.
create function private.queue_fee_debit_failed_mail(p_fee public.long_term_fees, p_reason text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_recipient jsonb := private.fee_recipient(p_fee.user_id);
  v_locale text := private.fee_locale(p_fee.user_id);
  v_en boolean := private.fee_locale(p_fee.user_id) = 'en';
  v_number text := (select i.invoice_number from public.invoices i where i.id = p_fee.invoice_id);
begin
  if coalesce(v_recipient ->> 'email', '') ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    perform private.queue_mail('fee_debit_failed', v_recipient ->> 'email', v_locale,
      case when v_en then format('Direct debit failed: invoice %s', v_number)
           else format('Lastschrift nicht eingelöst: Rechnung %s', v_number) end,
      private.mail_text(v_locale, concat_ws(' ', v_recipient ->> 'first_name', v_recipient ->> 'last_name'), concat_ws(E'\n',
        case when v_en then format('the direct debit of %s for invoice %s (contract %s) was not honoured by your bank (%s).',
                                   private.format_eur(p_fee.gross_cents, 'en'), v_number, p_fee.reference, p_reason)
             else format('die Lastschrift über %s zu Rechnung %s (Vertrag %s) wurde von Ihrer Bank nicht eingelöst (%s).',
                         private.format_eur(p_fee.gross_cents, 'de'), v_number, p_fee.reference, p_reason) end,
        case when v_en then 'The fee is open again. Please transfer it to IBAN ' || coalesce(private.setting('invoice_iban'), '') || ' with the invoice number as reference, or contact the harbour office.'
             else 'Die Gebühr ist wieder offen. Bitte überweisen Sie sie auf IBAN ' || coalesce(private.setting('invoice_iban'), '') || ' mit der Rechnungsnummer als Verwendungszweck oder melden Sie sich im Hafenbüro.' end)),
      '[]'::jsonb, private.setting('harbour_email'), null);
  end if;
  if coalesce(private.setting('harbour_email'), '') ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    perform private.queue_mail('fee_debit_failed', private.setting('harbour_email'), 'de',
      format('Lastschrift zurück: %s (%s)', v_number, p_fee.reference),
      concat_ws(E'\n', format('Die Lastschrift über %s zu Rechnung %s (Vertrag %s, Rate %s/%s) ist gescheitert: %s.',
                              private.format_eur(p_fee.gross_cents, 'de'), v_number, p_fee.reference, p_fee.instalment, p_fee.instalments, p_reason),
                'Die Gebühr ist wieder offen (Verwaltung, Liegeplatzgebühren).'),
      '[]'::jsonb, null, null);
  end if;
end
$$;
comment on function private.queue_fee_debit_failed_mail(public.long_term_fees, text) is 'E-mails the holder (in their language) and the harbour office that a fee''s direct debit failed or was returned.';
revoke execute on function private.queue_fee_debit_failed_mail(public.long_term_fees, text) from public;

-- A Stripe event about a fee's debit (called by private.apply_stripe_event for objects whose
-- metadata names a fee_id; the event is stored and de-duplicated there):
--   payment_intent.processing      -> debit_state processing (nothing in the ledger yet)
--   payment_intent.succeeded       -> a ledger payment (one per intent), debit_state succeeded
--   payment_intent.payment_failed  -> debit_state failed; a payment already recorded for the
--                                     intent is reversed by a refund row (a return after success)
--   charge.dispute.created         -> debit_state returned; the payment reversed likewise
-- Failure and return e-mail the holder and the office once.
create function private.apply_fee_stripe_event(p_event_id text, p_fee_id uuid)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_event private.stripe_events;
  v_obj jsonb;
  v_fee public.long_term_fees;
  v_pi text;
  v_amount integer;
  v_payment public.payments;
  v_reason text;
  v_left bigint;
begin
  select * into v_event from private.stripe_events e where e.id = p_event_id;
  v_obj := v_event.payload #> '{data,object}';
  select * into v_fee from public.long_term_fees f where f.id = p_fee_id for update;
  if not found then
    update private.stripe_events set detail = 'no_fee' where id = p_event_id;
    return 'rejected';
  end if;
  v_pi := case when v_event.type like 'payment_intent.%' then v_obj ->> 'id' else v_obj ->> 'payment_intent' end;
  v_amount := (v_obj ->> case when v_event.type = 'payment_intent.succeeded' then 'amount_received' else 'amount' end)::integer;
  if v_event.type = 'payment_intent.processing' then
    if v_fee.debit_state in ('requested') or v_fee.debit_state is null then
      update public.long_term_fees f set debit_state = 'processing', payment_intent = coalesce(f.payment_intent, v_pi) where f.id = v_fee.id;
      return 'updated';
    end if;
    return 'ignored';
  elsif v_event.type = 'payment_intent.succeeded' then
    if lower(v_obj ->> 'currency') is distinct from 'eur' or v_amount is null or v_amount <= 0 then
      update private.stripe_events set detail = 'amount_mismatch' where id = p_event_id;
      return 'rejected';
    end if;
    if exists (select 1 from public.payments p where p.provider_payment_id = v_pi and p.kind = 'payment' and p.refund_of is null) then
      return 'duplicate';
    end if;
    insert into public.payments (fee_id, kind, method, amount_cents, provider, provider_payment_id, provider_event_id, recorded_by, recorded_at, note)
    values (v_fee.id, 'payment', 'online', v_amount, 'stripe', v_pi, p_event_id, null, private.now(), 'sepa_debit')
    returning * into v_payment;
    if v_fee.debit_state = 'returned' and v_fee.payment_intent = v_pi then
      -- Stripe delivers events concurrently: the dispute of this debit came first. The money
      -- arrived and went back: the payment and its reversal, the fee stays open.
      insert into public.payments (fee_id, kind, method, amount_cents, provider, provider_payment_id, provider_event_id, refund_of,
                                   recorded_by, recorded_at, note)
      values (v_fee.id, 'refund', 'online', v_amount, 'stripe', v_pi, p_event_id, v_payment.id, null, private.now(),
              'sepa_returned: ' || coalesce(v_fee.debit_failure, 'disputed'));
    else
      update public.long_term_fees f set debit_state = 'succeeded', payment_intent = coalesce(f.payment_intent, v_pi), debit_failure = null
       where f.id = v_fee.id;
    end if;
    return 'recorded';
  elsif v_event.type in ('payment_intent.payment_failed', 'charge.dispute.created') then
    v_reason := left(coalesce(v_obj #>> '{last_payment_error,code}', v_obj ->> 'reason', v_obj #>> '{last_payment_error,decline_code}', 'failed'), 100);
    if v_fee.debit_state in ('failed', 'returned') and v_fee.payment_intent is not distinct from v_pi then
      -- Stripe sends a failure once per intent; a dispute after it changes nothing more.
      null;
    end if;
    select * into v_payment from public.payments p
     where p.fee_id = v_fee.id and p.provider_payment_id = v_pi and p.kind = 'payment' and p.refund_of is null;
    if found then
      v_left := v_payment.amount_cents - coalesce((select sum(r.amount_cents) from public.payments r where r.refund_of = v_payment.id and r.kind = 'refund'), 0);
      if v_left > 0 then
        insert into public.payments (fee_id, kind, method, amount_cents, provider, provider_payment_id, provider_event_id, refund_of,
                                     recorded_by, recorded_at, note)
        values (v_fee.id, 'refund', 'online', v_left, 'stripe', v_pi, p_event_id, v_payment.id, null, private.now(),
                'sepa_returned: ' || v_reason);
      end if;
    end if;
    if v_fee.debit_state is distinct from 'failed' and v_fee.debit_state is distinct from 'returned' then
      update public.long_term_fees f
         set debit_state = case when v_event.type = 'charge.dispute.created' then 'returned' else 'failed' end,
             debit_failure = v_reason, debit_attempts = f.debit_attempts + 1
       where f.id = v_fee.id
      returning * into v_fee;
      perform private.queue_fee_debit_failed_mail(v_fee, v_reason);
    end if;
    return 'recorded';
  end if;
  return 'ignored';
end
$$;
comment on function private.apply_fee_stripe_event(text, uuid) is 'Applies a stored Stripe event to a fee''s SEPA debit: processing, succeeded (ledger payment once per intent), payment_failed and charge.dispute.created (the payment reversed by a refund row, the fee open again, holder and office e-mailed once).';
revoke execute on function private.apply_fee_stripe_event(text, uuid) from public;

-- ---------------------------------------------------------------------------------------------
-- What a transfer staff record for a fee (received: kind payment; paid back: kind refund) checks
-- first: staff, a request key, an amount in cents, a note of at most 500 characters, the fee
-- (locked for the rest of the transaction). A key already used answers the first request again
-- (the replay; with another fee, kind or amount request_key_reused); null: a new request, which
-- is refused while a direct debit of the fee is in flight.
create function private.fee_transfer_request(p_kind text, p_fee_id uuid, p_amount_cents integer, p_request_key uuid, p_note text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_fee public.long_term_fees;
  v_request private.fee_transfer_requests;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  if p_request_key is null then
    raise exception 'invalid_request_key' using errcode = '22023', hint = 'A transfer names its request key (a UUID the caller keeps for retries).';
  end if;
  if p_amount_cents is null or p_amount_cents <= 0 or p_amount_cents > 10000000 then
    raise exception 'invalid_amount' using errcode = '22023', hint = 'Cents between 1 and 10,000,000.';
  end if;
  if char_length(p_note) > 500 then
    raise exception 'invalid_note' using errcode = '22023', hint = 'At most 500 characters.';
  end if;
  select * into v_fee from public.long_term_fees f where f.id = p_fee_id for update;
  if not found then
    raise exception 'fee_not_found' using errcode = 'PT404';
  end if;
  select * into v_request from private.fee_transfer_requests q where q.request_key = p_request_key;
  if found then
    if v_request.fee_id <> p_fee_id or v_request.amount_cents <> p_amount_cents or v_request.kind <> p_kind then
      raise exception 'request_key_reused' using errcode = 'PT422', hint = 'This request key was used for another transfer.';
    end if;
    return jsonb_build_object('payment_id', v_request.payment_id, 'replay', true) || private.fee_balance(p_fee_id);
  end if;
  if v_fee.debit_state in ('requested', 'processing') then
    raise exception 'fee_debit_in_flight' using errcode = 'PT409', hint = 'A direct debit of this fee is being collected.';
  end if;
  return null;
end
$$;
comment on function private.fee_transfer_request(text, uuid, integer, uuid, text) is 'The checks a fee transfer (payment received or refund paid back) starts with; locks the fee; answers the replay of a request key already used, else null.';
revoke execute on function private.fee_transfer_request(text, uuid, integer, uuid, text) from public;

-- ---------------------------------------------------------------------------------------------
-- Staff record an incoming bank transfer for a fee. Idempotent by the caller's request key:
-- the same key again answers the same ledger row (replay); with another fee or amount it is
-- refused. More than the balance is recorded as received (the money is there) and shows as
-- overpaid (balance negative) until it is paid back; less leaves the rest open.
create function private.record_fee_transfer(p_fee_id uuid, p_amount_cents integer, p_request_key uuid, p_note text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_replay jsonb;
  v_payment public.payments;
begin
  v_replay := private.fee_transfer_request('payment', p_fee_id, p_amount_cents, p_request_key, p_note);
  if v_replay is not null then
    return v_replay;
  end if;
  -- A fee whose invoice was cancelled (its contract ended before the season, ADR 0052) owes
  -- nothing: a transfer for it is not a payment of it (money that came anyway goes back).
  if exists (select 1 from public.long_term_fees f join public.invoices c on c.refers_to = f.invoice_id and c.kind = 'cancellation'
              where f.id = p_fee_id) then
    raise exception 'fee_cancelled' using errcode = 'PT409', hint = 'The fee''s invoice was cancelled: it owes nothing.';
  end if;
  insert into public.payments (fee_id, kind, method, amount_cents, recorded_by, recorded_at, note)
  values (p_fee_id, 'payment', 'bank_transfer', p_amount_cents, (select auth.uid()), private.now(), nullif(btrim(p_note), ''))
  returning * into v_payment;
  insert into private.fee_transfer_requests (request_key, fee_id, amount_cents, payment_id, requested_by, requested_at)
  values (p_request_key, p_fee_id, p_amount_cents, v_payment.id, (select auth.uid()), private.now());
  return jsonb_build_object('payment_id', v_payment.id, 'replay', false) || private.fee_balance(p_fee_id);
end
$$;
comment on function private.record_fee_transfer(uuid, integer, uuid, text) is 'The rule behind public.record_fee_transfer (security definer, not exposed by the API).';
revoke execute on function private.record_fee_transfer(uuid, integer, uuid, text) from public;
grant execute on function private.record_fee_transfer(uuid, integer, uuid, text) to authenticated, service_role;

create function public.record_fee_transfer(p_fee_id uuid, p_amount_cents integer, p_request_key uuid, p_note text default null)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.record_fee_transfer(p_fee_id, p_amount_cents, p_request_key, p_note)
$$;
comment on function public.record_fee_transfer(uuid, integer, uuid, text) is 'Staff: records an incoming bank transfer for a fee once per request key (replay answers the same payment; request_key_reused PT422 with another fee or amount); answers {payment_id, replay} and the fee''s balance. staff_only 42501, invalid_amount 22023, fee_not_found PT404, fee_debit_in_flight PT409, fee_cancelled PT409 (its invoice was cancelled).';
revoke execute on function public.record_fee_transfer(uuid, integer, uuid, text) from anon, public;

-- ---------------------------------------------------------------------------------------------
-- Staff pay an overpaid fee back to its holder by bank transfer (a cancelled fee that was paid,
-- ADR 0052; a transfer larger than the instalment). The shape of a deposit returned by transfer
-- (ADR 0032, private.record_desk_refund): refund rows in the ledger, each naming a payment of the
-- fee (newest first, never more than is left of it), never an update. At most what is overpaid
-- (-balance); idempotent by the caller's request key, as record_fee_transfer. A fee paid by SEPA
-- debit is paid back the same way (refund-payment refunds order payments only, ADR 0048).
create function private.repay_fee_overpayment(p_fee_id uuid, p_amount_cents integer, p_request_key uuid, p_note text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_replay jsonb;
  v_overpaid bigint;
  v_left integer := p_amount_cents;
  v_payment record;
  v_part integer;
  v_row public.payments;
begin
  v_replay := private.fee_transfer_request('refund', p_fee_id, p_amount_cents, p_request_key, p_note);
  if v_replay is not null then
    return v_replay;
  end if;
  v_overpaid := -(private.fee_balance(p_fee_id) ->> 'balance_cents')::bigint;
  if v_overpaid <= 0 then
    raise exception 'fee_not_overpaid' using errcode = 'P0001', hint = 'The fee holds no more than it bills: nothing to pay back.';
  end if;
  if p_amount_cents > v_overpaid then
    raise exception 'fee_repay_exceeds_overpaid' using errcode = 'P0001', hint = 'At most the overpaid amount (' || v_overpaid || ' cents).';
  end if;
  for v_payment in
    select p.id, p.amount_cents - coalesce((select sum(r.amount_cents) from public.payments r where r.refund_of = p.id and r.kind = 'refund'), 0) as left_cents
      from public.payments p
     where p.fee_id = p_fee_id and p.kind = 'payment' and p.refund_of is null
     order by p.recorded_at desc, p.id
  loop
    exit when v_left <= 0;
    continue when v_payment.left_cents <= 0;
    v_part := least(v_left, v_payment.left_cents);
    insert into public.payments (fee_id, kind, method, amount_cents, refund_of, recorded_by, recorded_at, note)
    values (p_fee_id, 'refund', 'bank_transfer', v_part, v_payment.id, (select auth.uid()), private.now(),
            coalesce(nullif(btrim(p_note), ''), 'Überzahlung zurücküberwiesen'))
    returning * into v_row;
    v_left := v_left - v_part;
  end loop;
  if v_left > 0 then
    -- The payments hold less than the balance says (a row the rules above do not foresee).
    raise exception 'fee_repay_exceeds_overpaid' using errcode = 'P0001', hint = 'The fee''s payments hold less than that.';
  end if;
  insert into private.fee_transfer_requests (request_key, fee_id, kind, amount_cents, payment_id, requested_by, requested_at)
  values (p_request_key, p_fee_id, 'refund', p_amount_cents, v_row.id, (select auth.uid()), private.now());
  return jsonb_build_object('payment_id', v_row.id, 'replay', false) || private.fee_balance(p_fee_id);
end
$$;
comment on function private.repay_fee_overpayment(uuid, integer, uuid, text) is 'The rule behind public.repay_fee_overpayment (security definer, not exposed by the API).';
revoke execute on function private.repay_fee_overpayment(uuid, integer, uuid, text) from public;
grant execute on function private.repay_fee_overpayment(uuid, integer, uuid, text) to authenticated, service_role;

create function public.repay_fee_overpayment(p_fee_id uuid, p_amount_cents integer, p_request_key uuid, p_note text default null)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.repay_fee_overpayment(p_fee_id, p_amount_cents, p_request_key, p_note)
$$;
comment on function public.repay_fee_overpayment(uuid, integer, uuid, text) is 'Staff: records that an overpaid fee''s money went back to the holder by bank transfer (refund rows naming its payments), at most what is overpaid, once per request key (replay answers the same; request_key_reused PT422 otherwise); answers {payment_id, replay} and the fee''s balance. staff_only 42501, invalid_amount 22023, fee_not_found PT404, fee_debit_in_flight PT409, fee_not_overpaid and fee_repay_exceeds_overpaid P0001.';
revoke execute on function public.repay_fee_overpayment(uuid, integer, uuid, text) from anon, public;

-- Fee ledger rows obey these rules, whoever inserts (payments_check covers order rows only):
-- the fee exists and is locked; a refund names a payment of the same fee and never exceeds
-- what is left of it; a reversal is not used for fees.
create function private.fee_payments_check()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_of public.payments;
begin
  perform 1 from public.long_term_fees f where f.id = new.fee_id for update;
  if not found then
    raise exception 'fee_not_found' using errcode = 'PT404';
  end if;
  if new.method not in ('online', 'bank_transfer') then
    raise exception 'invalid_fee_payment_method' using errcode = '22023', hint = 'Fees are paid by SEPA direct debit (online) or by bank transfer.';
  end if;
  if new.refund_of is not null then
    select * into v_of from public.payments p where p.id = new.refund_of;
    if not found or v_of.fee_id is distinct from new.fee_id or new.kind <> 'refund' or v_of.kind <> 'payment' then
      raise exception 'invalid_refund' using errcode = '22023', hint = 'A fee refund names a payment of the same fee.';
    end if;
    if new.amount_cents > v_of.amount_cents
         - coalesce((select sum(r.amount_cents) from public.payments r where r.refund_of = v_of.id and r.kind = 'refund'), 0) then
      raise exception 'refund_exceeds_payment' using errcode = '22023';
    end if;
  end if;
  return new;
end
$$;
comment on function private.fee_payments_check() is 'Before insert on payments of a fee: the fee exists (locked), method online or bank transfer, a refund names a payment of the same fee and leaves no negative rest.';
revoke execute on function private.fee_payments_check() from public;

create trigger payments_fee_check before insert on public.payments
  for each row when (new.fee_id is not null) execute function private.fee_payments_check();

-- ---------------------------------------------------------------------------------------------
-- Back office: the fees with their state, for staff (overdue, failed debits, overpaid first).
create function private.long_term_fees_overview(p_state text default null, p_limit integer default 200)
returns setof public.long_term_fee_status
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  return query
    select s.* from public.long_term_fee_status s
     where p_state is null or s.state = p_state
     order by case s.state when 'failed' then 0 when 'overdue' then 1 when 'overpaid' then 2 when 'partially_paid' then 3 else 4 end,
              s.due_on, s.reference, s.instalment
     limit least(greatest(coalesce(p_limit, 200), 1), 1000);
end
$$;
comment on function private.long_term_fees_overview(text, integer) is 'The rule behind public.long_term_fees_overview (security definer, not exposed by the API).';
revoke execute on function private.long_term_fees_overview(text, integer) from public;
grant execute on function private.long_term_fees_overview(text, integer) to authenticated, service_role;

create function public.long_term_fees_overview(p_state text default null, p_limit integer default 200)
returns setof public.long_term_fee_status
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.long_term_fees_overview(p_state, p_limit)
$$;
comment on function public.long_term_fees_overview(text, integer) is 'Staff: every instalment with its state (failed debits, overdue, overpaid, partially paid first), due day, invoice and balance; optionally one state.';
revoke execute on function public.long_term_fees_overview(text, integer) from anon, public;

-- Back office: each contract's money over its instalments (the contracts table's balance
-- column, ADR 0048): the instalments' gross (what their invoices bill), what the ledger holds
-- for them (payments net of refunds and returned debits, private.fee_balance) and the balance
-- the holder owes now (negative: overpaid). Staff only: a holder reads the own instalments in
-- long_term_fee_status.
create function private.contract_balances()
returns table (contract_id uuid, fees integer, fees_gross_cents bigint, paid_cents bigint, balance_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  return query
    -- What the invoices bill now: the instalments' gross less what cancellation invoices took
    -- back (a contract ended before its season, private.cancel_contract_fees) = balance + net.
    select c.id, count(s.id)::integer, coalesce(sum(s.balance_cents + s.paid_cents - s.refunded_cents), 0)::bigint,
           coalesce(sum(s.paid_cents - s.refunded_cents), 0)::bigint, coalesce(sum(s.balance_cents), 0)::bigint
      from public.contracts c
      left join public.long_term_fee_status s on s.contract_id = c.id
     group by c.id;
end
$$;
comment on function private.contract_balances() is 'The rule behind public.contract_balances (security definer, not exposed by the API).';
revoke execute on function private.contract_balances() from public;
grant execute on function private.contract_balances() to authenticated, service_role;

create function public.contract_balances()
returns table (contract_id uuid, fees integer, fees_gross_cents bigint, paid_cents bigint, balance_cents bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.contract_balances()
$$;
comment on function public.contract_balances() is 'Staff: per contract its instalments, their gross, what the ledger holds for them (net of refunds and returned debits) and the balance owed now (negative: overpaid).';
revoke execute on function public.contract_balances() from anon, public;

-- Revenue of long-term fees per due month: what the instalment invoices bill (net, VAT,
-- gross) and what the ledger holds for them (net of returned debits and refunds).
create function private.report_long_term_fees(p_from date, p_to date)
returns table (month date, fees integer, net_cents bigint, vat_cents bigint, gross_cents bigint, paid_gross_cents bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin_range(p_from, p_to);
  return query
    select date_trunc('month', f.due_on::timestamp)::date, count(*)::integer, sum(i.net_cents + c.net)::bigint,
           sum(i.vat_cents + c.vat)::bigint, sum(i.gross_cents + c.gross)::bigint,
           sum((private.fee_balance(f.id) ->> 'net_cents')::bigint)::bigint
      from public.long_term_fees f
      join public.invoices i on i.id = f.invoice_id
      -- A cancellation invoice of the instalment's invoice (negative) takes its amounts back.
      cross join lateral (
        select coalesce(sum(x.net_cents), 0) as net, coalesce(sum(x.vat_cents), 0) as vat, coalesce(sum(x.gross_cents), 0) as gross
          from public.invoices x where x.refers_to = i.id and x.kind = 'cancellation'
      ) c
     where f.due_on between p_from and p_to
     group by 1
     order by 1;
end
$$;
comment on function private.report_long_term_fees(date, date) is 'The rule behind public.report_long_term_fees (security definer, not exposed by the API).';
revoke execute on function private.report_long_term_fees(date, date) from public;
grant execute on function private.report_long_term_fees(date, date) to authenticated, service_role;

create function public.report_long_term_fees(p_from date, p_to date)
returns table (month date, fees integer, net_cents bigint, vat_cents bigint, gross_cents bigint, paid_gross_cents bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.report_long_term_fees(p_from, p_to)
$$;
comment on function public.report_long_term_fees(date, date) is 'Admins: per due month the long-term fee instalments, their invoiced net, VAT and gross cents, and what the ledger holds for them.';
revoke execute on function public.report_long_term_fees(date, date) from anon, public;

-- ---------------------------------------------------------------------------------------------
-- The invoices and the ledger learn the second kind of debtor (their fee_id columns are
-- declared in 35b_invoice_documents.sql and 35_payments_ledger.sql).
alter table public.invoices add constraint invoices_fee_id_fkey foreign key (fee_id) references public.long_term_fees (id);

create index invoices_fee_idx on public.invoices (fee_id) where fee_id is not null;

-- One invoice per instalment (a correction would be a cancellation referring to it).
create unique index invoices_fee_invoice_key on public.invoices (fee_id) where fee_id is not null and kind = 'invoice';

alter table public.payments add constraint payments_fee_id_fkey foreign key (fee_id) references public.long_term_fees (id);

create index payments_fee_idx on public.payments (fee_id, recorded_at) where fee_id is not null;

-- One permissive policy per role and action (Supabase's advisor): owners of the order or of the
-- fee, staff all.
create policy "invoices: owner reads own, staff all" on public.invoices
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid()))
         or exists (select 1 from public.long_term_fees f where f.id = fee_id and f.user_id = (select auth.uid())));

create policy "payments: owner reads own order's, staff all" on public.payments
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid()))
         or exists (select 1 from public.long_term_fees f where f.id = fee_id and f.user_id = (select auth.uid())));

-- Which fee a Stripe object is about: the fee_id in its metadata (the PaymentIntents the
-- collect-fees job creates), else the fee whose PaymentIntent it names (a dispute).
create function private.stripe_event_fee(p_object jsonb, p_payment_intent text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    case when coalesce(p_object #>> '{metadata,fee_id}', '') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
         then (p_object #>> '{metadata,fee_id}')::uuid end,
    (select f.id from public.long_term_fees f where p_payment_intent is not null and f.payment_intent = p_payment_intent))
$$;
comment on function private.stripe_event_fee(jsonb, text) is 'The long-term fee a Stripe object is about (metadata.fee_id, or the fee whose PaymentIntent it names), else null.';
revoke execute on function private.stripe_event_fee(jsonb, text) from public;

-- The holder starts the direct debit set-up (create-sepa-setup, with the holder's token): the
-- contract must have SEPA instalments of the caller's; answers what the Checkout Session in
-- setup mode needs (e-mail, language, reference, the Stripe customer of an earlier mandate).
create function private.begin_sepa_setup(p_contract_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_fee public.long_term_fees;
  v_recipient jsonb;
begin
  if (select auth.uid()) is null then
    raise exception 'account_required' using errcode = '42501';
  end if;
  select * into v_fee from public.long_term_fees f
   where f.contract_id = p_contract_id and f.user_id = (select auth.uid()) and f.payment_method = 'sepa_debit'
   order by f.instalment limit 1;
  if not found then
    raise exception 'fee_not_found' using errcode = 'PT404', hint = 'No direct debit fees of yours under this contract.';
  end if;
  v_recipient := private.fee_recipient(v_fee.user_id);
  return jsonb_build_object(
    'contract_id', v_fee.contract_id,
    'reference', v_fee.reference,
    'user_id', v_fee.user_id,
    'email', v_recipient ->> 'email',
    'name', nullif(btrim(concat_ws(' ', v_recipient ->> 'first_name', v_recipient ->> 'last_name')), ''),
    'locale', private.fee_locale(v_fee.user_id),
    'customer', (select m.stripe_customer from public.sepa_mandates m where m.user_id = v_fee.user_id and m.stripe_customer is not null
                  order by m.created_at desc limit 1),
    'mandate', (select jsonb_build_object('reference', m.reference, 'iban_last4', m.iban_last4, 'created_at', m.created_at)
                  from public.sepa_mandates m where m.status = 'active' and m.contract_id = p_contract_id
                 order by m.created_at desc limit 1));
end
$$;
comment on function private.begin_sepa_setup(uuid) is 'The rule behind public.begin_sepa_setup (security definer, not exposed by the API).';
revoke execute on function private.begin_sepa_setup(uuid) from public;
grant execute on function private.begin_sepa_setup(uuid) to authenticated, service_role;

create function public.begin_sepa_setup(p_contract_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.begin_sepa_setup(p_contract_id)
$$;
comment on function public.begin_sepa_setup(uuid) is 'The holder: what create-sepa-setup needs for the Checkout Session in setup mode of a contract with direct debit fees ({contract_id, reference, user_id, email, name, locale, customer, mandate}); fee_not_found PT404 for another''s or none.';
revoke execute on function public.begin_sepa_setup(uuid) from anon, public;

-- The daily collection (99_cron.sql): asks collect-fees through pg_net, as send-mail is asked.
create function private.request_fee_collection()
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return private.request_edge_function('collect-fees', 60000);
end
$$;
comment on function private.request_fee_collection() is 'Asks collect-fees (through pg_net) to create the PaymentIntents of the SEPA instalments due today; a no-op where pg_net or the project URL is missing.';
revoke execute on function private.request_fee_collection() from public;
