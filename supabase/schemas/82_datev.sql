-- DATEV export (issue 21, item 5): the postings of a date range for DATEV's Buchungsstapel
-- (EXTF). The database builds the rows from the frozen invoice documents and the payments
-- ledger; the browser writes the file (src/features/admin/datev). Settings (Berater- and
-- Mandantennummer, WJ-Beginn, account numbers, SKR03 defaults) live in private.app_settings
-- (05_settings.sql) and only admins read or change them, through the functions below
-- (docs/adr/0035-datev-export.md).

-- No rows are inserted for the defaults: they live in private.datev_settings_object(), and the
-- first save writes all keys (so the audit trail names the admin who set the real numbers).

-- The settings as one object (numbers as text; the account length as a number).
create function private.datev_settings_object()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'consultant_number', coalesce(private.setting('datev_consultant_number'), '1001'),
    'client_number', coalesce(private.setting('datev_client_number'), '1'),
    'fiscal_year_start', coalesce(private.setting('datev_fiscal_year_start'), '01-01'),
    'account_length', coalesce(private.setting('datev_account_length'), '4')::integer,
    'account_debtor', coalesce(private.setting('datev_account_debtor'), '10000'),
    'account_revenue_19', coalesce(private.setting('datev_account_revenue_19'), '8400'),
    'account_revenue_7', coalesce(private.setting('datev_account_revenue_7'), '8300'),
    'account_revenue_0', coalesce(private.setting('datev_account_revenue_0'), '1590'),
    'account_cash', coalesce(private.setting('datev_account_cash'), '1000'),
    'account_bank', coalesce(private.setting('datev_account_bank'), '1200'),
    'account_transit', coalesce(private.setting('datev_account_transit'), '1360'))
$$;
comment on function private.datev_settings_object() is 'The DATEV export settings (Berater-/Mandantennummer, WJ-Beginn MM-DD, Sachkontenlänge, accounts) with SKR03 defaults.';
revoke execute on function private.datev_settings_object() from public;

create function private.datev_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.datev_settings_object();
end
$$;
comment on function private.datev_settings() is 'The rule behind public.datev_settings (security definer, not exposed by the API).';
revoke execute on function private.datev_settings() from public;
grant execute on function private.datev_settings() to authenticated, service_role;

create function public.datev_settings()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.datev_settings()
$$;
comment on function public.datev_settings() is 'Admins: the DATEV export settings (consultant_number, client_number, fiscal_year_start MM-DD, account_length, account_* numbers).';
revoke execute on function public.datev_settings() from anon, public;

-- Checks and stores the settings: Beraternummer 1001..9999999, Mandantennummer 1..99999 (the
-- header's ranges), WJ-Beginn a valid MM-DD, Sachkontenlänge 4..8, G/L accounts with exactly
-- that many digits, the debtor (a Personenkonto) one digit more. A bad value raises
-- datev_invalid_setting (22023) naming the key in the hint.
create function private.save_datev_settings(p_settings jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v jsonb := private.datev_settings_object() || coalesce(p_settings, '{}'::jsonb);
  v_length integer;
  v_key text;
begin
  perform private.require_admin();
  if jsonb_typeof(p_settings) is distinct from 'object' then
    raise exception 'datev_invalid_setting' using errcode = '22023', hint = 'settings';
  end if;
  if not (v ->> 'consultant_number' ~ '^[0-9]{4,7}$' and (v ->> 'consultant_number')::integer between 1001 and 9999999) then
    raise exception 'datev_invalid_setting' using errcode = '22023', hint = 'consultant_number';
  end if;
  if not (v ->> 'client_number' ~ '^[0-9]{1,5}$' and (v ->> 'client_number')::integer between 1 and 99999) then
    raise exception 'datev_invalid_setting' using errcode = '22023', hint = 'client_number';
  end if;
  -- A real day of a common year (29 February would have no start in three years of four).
  if not (v ->> 'fiscal_year_start' ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$')
     or extract(day from (date_trunc('month', ('2001-' || left(v ->> 'fiscal_year_start', 2) || '-01')::date) + interval '1 month - 1 day'))
        < right(v ->> 'fiscal_year_start', 2)::integer then
    raise exception 'datev_invalid_setting' using errcode = '22023', hint = 'fiscal_year_start';
  end if;
  if not (v ->> 'account_length' ~ '^[4-8]$') then
    raise exception 'datev_invalid_setting' using errcode = '22023', hint = 'account_length';
  end if;
  v_length := (v ->> 'account_length')::integer;
  foreach v_key in array array['account_revenue_19', 'account_revenue_7', 'account_revenue_0', 'account_cash', 'account_bank', 'account_transit'] loop
    if not (coalesce(v ->> v_key, '') ~ ('^[1-9][0-9]{' || (v_length - 1) || '}$')) then
      raise exception 'datev_invalid_setting' using errcode = '22023', hint = v_key;
    end if;
  end loop;
  if not (coalesce(v ->> 'account_debtor', '') ~ ('^[1-9][0-9]{' || v_length || '}$')) then
    raise exception 'datev_invalid_setting' using errcode = '22023', hint = 'account_debtor';
  end if;
  insert into private.app_settings as s (key, value)
  select 'datev_' || k, v ->> k
    from unnest(array['consultant_number', 'client_number', 'fiscal_year_start', 'account_length', 'account_debtor',
                      'account_revenue_19', 'account_revenue_7', 'account_revenue_0', 'account_cash', 'account_bank',
                      'account_transit']) k
  on conflict (key) do update set value = excluded.value where s.value is distinct from excluded.value;
  return private.datev_settings_object();
end
$$;
comment on function private.save_datev_settings(jsonb) is 'The rule behind public.save_datev_settings (security definer, not exposed by the API).';
revoke execute on function private.save_datev_settings(jsonb) from public;
grant execute on function private.save_datev_settings(jsonb) to authenticated, service_role;

create function public.save_datev_settings(p_settings jsonb)
returns jsonb
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.save_datev_settings(p_settings)
$$;
comment on function public.save_datev_settings(jsonb) is 'Admins: checks and stores the DATEV export settings (keys as datev_settings returns them); datev_invalid_setting (22023, hint = the key) on a bad value.';
revoke execute on function public.save_datev_settings(jsonb) from anon, public;

-- The fiscal year (WJ) that contains a day, for a WJ-Beginn of MM-DD.
create function private.datev_fiscal_year_start(p_day date, p_start text)
returns date
language sql
immutable
set search_path = ''
as $$
  select case when p_day >= to_date(extract(year from p_day)::text || '-' || p_start, 'YYYY-MM-DD')
              then to_date(extract(year from p_day)::text || '-' || p_start, 'YYYY-MM-DD')
              else to_date((extract(year from p_day)::integer - 1)::text || '-' || p_start, 'YYYY-MM-DD') end
$$;
comment on function private.datev_fiscal_year_start(date, text) is 'The first day of the fiscal year containing the day, for a fiscal year beginning on MM-DD.';
revoke execute on function private.datev_fiscal_year_start(date, text) from public;

-- One row per posting line of the Buchungsstapel, in the order of the file:
--   * every invoice document issued in the range (Belegdatum = its Berlin issue day, Belegfeld 1
--     = its number), one line per VAT rate of its breakdown: the gross on the debtor account
--     against the revenue account of the rate. The revenue accounts are DATEV automatic accounts
--     (SKR03 8400 / 8300 "AM"): DATEV takes the VAT out of the gross itself, so no BU-Schlüssel
--     is given (one on an automatic account is an error). A 0 % line (a deposit) goes to the 0 %
--     account (SKR03 1590 durchlaufende Posten), no VAT. Invoices are debit (S) on the debtor,
--     cancellations and credit notes (negative) credit (H);
--   * every ledger row recorded in the range: a payment debits the money account (cash: Kasse,
--     bank transfer: Bank, card terminal and online: Geldtransit) against the debtor, a refund
--     credits it (a payment that reverses a refund is a payment again);
--   * likewise the money of every desk sale (Belegfeld 1 = its receipt) and of every cancelled
--     desk sale (Belegfeld 1 = its Stornorechnung) in the range.
-- net_cents and vat_cents (signed, as on the document) are for checks, not for the file.
-- The range must be in order and inside one fiscal year (DATEV: Datum vom and Datum bis of a
-- Buchungsstapel lie in one WJ; the four-digit Belegdatum is read in it).
create function private.datev_postings(p_from date, p_to date)
returns table (
  line_no integer, amount_cents bigint, side text, account text, contra_account text,
  document_date date, document_number text, posting_text text, source text,
  vat_rate numeric, net_cents bigint, vat_cents bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_settings jsonb;
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin();
  if p_from is null or p_to is null or p_to < p_from then
    raise exception 'invalid_range' using errcode = '22023';
  end if;
  v_settings := private.datev_settings_object();
  if private.datev_fiscal_year_start(p_from, v_settings ->> 'fiscal_year_start')
     <> private.datev_fiscal_year_start(p_to, v_settings ->> 'fiscal_year_start') then
    raise exception 'datev_range_fiscal_year' using errcode = '22023',
      hint = 'A DATEV posting batch covers at most one fiscal year (WJ-Beginn ' || (v_settings ->> 'fiscal_year_start') || ').';
  end if;
  if exists (
    select 1 from public.invoices i cross join lateral jsonb_array_elements(i.vat_breakdown) b
     where i.issued_at >= private.berlin_at(p_from, time '00:00') and i.issued_at < private.berlin_at(p_to + 1, time '00:00')
       and (b ->> 'vat_rate')::numeric not in (19, 7, 0)
  ) then
    raise exception 'datev_vat_rate' using errcode = '22023', hint = 'Only documents at 19 %, 7 % or 0 % VAT can be exported.';
  end if;
  v_from := private.berlin_at(p_from, time '00:00');
  v_to := private.berlin_at(p_to + 1, time '00:00');
  return query
  with documents as (
    select i.issued_at as at, 1 as part, i.year, i.number, (b ->> 'vat_rate')::numeric as rate,
           (b ->> 'gross_cents')::bigint as gross, (b ->> 'net_cents')::bigint as net, (b ->> 'vat_cents')::bigint as vat,
           i.invoice_number, i.kind, i.refers_to_number, coalesce(i.booking_number, '') as booking_number
      from public.invoices i
      cross join lateral jsonb_array_elements(i.vat_breakdown) b
     where i.issued_at >= v_from and i.issued_at < v_to
       and (b ->> 'gross_cents')::bigint <> 0
  ),
  lines as (
    select d.at, d.part, d.year::text || lpad(d.number::text, 8, '0') as sort_key, -d.rate as sort_rate,
           abs(d.gross) as amount, case when d.gross > 0 then 'S' else 'H' end as side,
           v_settings ->> 'account_debtor' as account,
           v_settings ->> case d.rate when 19 then 'account_revenue_19' when 7 then 'account_revenue_7' else 'account_revenue_0' end as contra,
           private.berlin_date(d.at) as day, d.invoice_number as doc,
           left(case d.kind when 'invoice' then 'Rechnung ' || d.invoice_number
                            when 'cancellation' then 'Storno zu ' || coalesce(d.refers_to_number, '')
                            else 'Gutschrift zu ' || coalesce(d.refers_to_number, '') end
                || ', ' || d.booking_number
                || case when d.rate = 0 then ', ohne USt.' else ', ' || rtrim(to_char(d.rate, 'FM990.##'), '.') || ' % USt.' end, 60) as posting,
           d.kind as source, d.rate, d.net, d.vat
      from documents d
    union all
    select p.recorded_at, 2, p.kind || p.id::text, 0,
           p.amount_cents::bigint, case when p.kind = 'payment' then 'S' else 'H' end,
           v_settings ->> case p.method when 'cash' then 'account_cash' when 'bank_transfer' then 'account_bank' else 'account_transit' end,
           v_settings ->> 'account_debtor',
           private.berlin_date(p.recorded_at), coalesce(o.booking_number, fi.invoice_number),
           left(case when p.kind = 'payment' then 'Zahlung ' when p.fee_id is not null then 'Rücklastschrift ' else 'Erstattung ' end
                || case p.method when 'cash' then 'bar' when 'bank_transfer' then 'Überweisung'
                                 when 'card_terminal' then 'Kartenterminal'
                                 else case when p.fee_id is not null then 'SEPA-Lastschrift' else 'online' end end
                || ', ' || coalesce(o.booking_number, fi.invoice_number || ' ' || fi.booking_number), 60),
           p.kind, null::numeric, null::bigint, null::bigint
      from public.payments p
      left join public.orders o on o.id = p.order_id
      -- A long-term fee's payment (63_long_term_fees.sql): Belegfeld 1 is its invoice.
      left join public.invoices fi on fi.fee_id = p.fee_id and fi.kind = 'invoice'
     where p.recorded_at >= v_from and p.recorded_at < v_to
    union all
    -- The money of a desk sale (its receipt is a document above) and of its cancellation.
    select m.at, 2, m.kind || m.id::text, 0,
           m.amount, case when m.kind = 'payment' then 'S' else 'H' end,
           v_settings ->> case m.method when 'cash' then 'account_cash' when 'bank_transfer' then 'account_bank' else 'account_transit' end,
           v_settings ->> 'account_debtor',
           private.berlin_date(m.at), m.doc,
           left(case when m.kind = 'payment' then 'Zahlung ' else 'Erstattung ' end
                || case m.method when 'cash' then 'bar' when 'bank_transfer' then 'Überweisung' else 'Kartenterminal' end
                || ', Verkauf ' || m.receipt, 60),
           m.kind, null::numeric, null::bigint, null::bigint
      from (
        select s.sold_at as at, 'payment' as kind, s.id, s.gross_cents::bigint as amount, s.method::text as method,
               r.invoice_number as doc, r.invoice_number as receipt
          from public.desk_sales s
          join public.invoices r on r.desk_sale_id = s.id and r.kind = 'invoice'
         where s.sold_at >= v_from and s.sold_at < v_to
        union all
        select c.cancelled_at, 'refund', c.id, c.amount_cents::bigint, c.method::text,
               d.invoice_number, r.invoice_number
          from public.desk_sale_cancellations c
          join public.invoices d on d.id = c.document_id
          join public.invoices r on r.desk_sale_id = c.desk_sale_id and r.kind = 'invoice'
         where c.cancelled_at >= v_from and c.cancelled_at < v_to
      ) m
  )
  select (row_number() over (order by l.day, l.part, l.at, l.sort_key, l.sort_rate))::integer,
         l.amount, l.side, l.account, l.contra, l.day, l.doc, l.posting, l.source, l.rate, l.net, l.vat
    from lines l
   order by 1;
end
$$;
comment on function private.datev_postings(date, date) is 'The rule behind public.datev_postings (security definer, not exposed by the API).';
revoke execute on function private.datev_postings(date, date) from public;
grant execute on function private.datev_postings(date, date) to authenticated, service_role;

create function public.datev_postings(p_from date, p_to date)
returns table (
  line_no integer, amount_cents bigint, side text, account text, contra_account text,
  document_date date, document_number text, posting_text text, source text,
  vat_rate numeric, net_cents bigint, vat_cents bigint
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.datev_postings(p_from, p_to)
$$;
comment on function public.datev_postings(date, date) is 'Admins: the DATEV Buchungsstapel lines of a range of Berlin days inside one fiscal year: invoice documents per VAT rate (debtor against revenue account, gross) and ledger payments/refunds (money account against debtor). invalid_range, datev_range_fiscal_year, datev_vat_rate (22023); admin_only (42501).';
revoke execute on function public.datev_postings(date, date) from anon, public;

-- The PDF archive of a range's documents (issue 21, item 5, second half): the stored documents
-- themselves, read with the caller's rights (RLS on invoices and orders decides what is seen),
-- for admins only and for at most one year. The edge function invoice-archive renders them.
create function public.invoice_archive_documents(p_from date, p_to date)
returns table (document jsonb, locale text)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_from is null or p_to is null or p_to < p_from then
    raise exception 'invalid_range' using errcode = '22023';
  end if;
  if p_to - p_from >= 366 then
    raise exception 'archive_range_too_long' using errcode = '22023', hint = 'An archive covers at most 366 days.';
  end if;
  return query
  select to_jsonb(i), case when o.person ->> 'locale' = 'en' then 'en' else 'de' end
    from public.invoices i
    left join public.orders o on o.id = i.order_id
   where i.issued_at >= private.berlin_at(p_from, time '00:00')
     and i.issued_at < private.berlin_at(p_to + 1, time '00:00')
   order by i.year, i.number;
end
$$;
comment on function public.invoice_archive_documents(date, date) is 'Admins: every stored invoice document (invoices, cancellations, credit notes, desk receipts) issued in a range of Berlin days (at most 366), with the language it was issued in, in number order. invalid_range, archive_range_too_long (22023); admin_only (42501).';
revoke execute on function public.invoice_archive_documents(date, date) from anon, public;
grant execute on function public.invoice_archive_documents(date, date) to authenticated, service_role;
