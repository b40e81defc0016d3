-- Seasons and the long-term price list (issue 42, deliverable 1;
-- docs/adr/0046-seasons-and-long-term-prices.md): the seasons a long-term berth is let for, and
-- the prices per season kind with their history. Prices are what a consumer pays (PAngV § 3:
-- gross, VAT included), in integer cents with their VAT rate, as the guest tariffs
-- (docs/adr/0011-consumer-prices-with-vat.md). A price change is a new row with a later
-- valid_from: a season is priced by the row valid on its first day, so a change reaches the
-- contracts of the next season, never the season running. Admins write through the functions
-- below only (private.require_admin()); everyone reads the seasons and the prices in force or
-- announced; staff also read the superseded prices.

create table public.seasons (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  -- summer (e.g. 1 April to 31 October), winter (on land or in the water), year_round.
  kind text not null check (kind in ('summer', 'winter', 'year_round')),
  -- Both days belong to the season (Europe/Berlin calendar days).
  starts_on date not null,
  ends_on date not null,
  created_at timestamptz not null default now(),
  -- The English name (the app shows it on English pages; null: the German name is shown).
  name_en text check (name_en is null or char_length(btrim(name_en)) between 1 and 100),
  constraint seasons_ends_after_starts check (ends_on > starts_on),
  constraint seasons_at_most_two_years check (ends_on - starts_on <= 731),
  -- Two seasons of one kind never share a day: a berth's contract names one season of a kind.
  constraint seasons_no_overlap exclude using gist (kind with =, daterange(starts_on, ends_on, '[]') with &&)
);

alter table public.seasons enable row level security;

comment on table public.seasons is 'A season long-term berths are let for (summer, winter, year-round): name (German, English) and first and last day; two seasons of one kind never overlap. Everyone reads them; admins add, edit and delete them through add_season, update_season and delete_season.';

create policy "seasons: everyone reads" on public.seasons
  for select to anon, authenticated
  using (true);

revoke insert, update, delete, truncate, references, trigger on public.seasons from anon, authenticated;

create trigger seasons_audit after insert or update or delete on public.seasons
  for each row execute function private.audit_row('id');

-- The long-term price list with its history: one row per season kind and valid_from; a change
-- is a new row (append-only). Several rows with one valid_from: the last added (highest id) is
-- the one that counts (a correction of an announced price).
create table public.long_term_prices (
  id bigint generated always as identity primary key,
  season_kind text not null check (season_kind in ('summer', 'winter', 'year_round')),
  -- square_metre: per m² of length x width; running_metre: per metre of boat length.
  basis text not null check (basis in ('square_metre', 'running_metre')),
  -- Gross cents per unit and season (what the holder pays, VAT included) and its rate.
  gross_cents integer not null check (gross_cents between 1 and 10000000),
  vat_rate integer not null check (vat_rate in (0, 7, 19)),
  -- The electricity flat rate per season, gross cents (0: none) and its rate.
  electricity_gross_cents integer not null default 0 check (electricity_gross_cents between 0 and 10000000),
  electricity_vat_rate integer not null default 19 check (electricity_vat_rate in (0, 7, 19)),
  -- The first season starting on or after this day is priced by this row.
  valid_from date not null,
  created_at timestamptz not null default now(),
  created_by uuid default auth.uid()
);

alter table public.long_term_prices enable row level security;

comment on table public.long_term_prices is 'The long-term price list per season kind with its history (append-only): basis (per m² or per running metre), gross cents per unit and VAT rate, electricity flat rate, valid_from. A season is priced by the row valid on its first day.';

create index long_term_prices_kind_valid_from_idx on public.long_term_prices (season_kind, valid_from, id);

create trigger long_term_prices_immutable before update or delete on public.long_term_prices
  for each row execute function private.refuse_change('long_term_prices_immutable', 'The long-term price list is append-only: a change is a new row with a later valid_from.');

create trigger long_term_prices_no_truncate before truncate on public.long_term_prices
  for each statement execute function private.refuse_change('long_term_prices_immutable', 'The long-term price list is append-only: a change is a new row with a later valid_from.');

create trigger long_term_prices_audit after insert or update or delete on public.long_term_prices
  for each row execute function private.audit_row('id');

-- The row of a kind that prices a season starting on a day: the latest valid_from on or before
-- it, the last added of that day.
create function private.long_term_price_row(p_kind text, p_day date)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.long_term_prices p
  where p.season_kind = p_kind and p.valid_from <= p_day
  order by p.valid_from desc, p.id desc
  limit 1
$$;
comment on function private.long_term_price_row(text, date) is 'The long-term price row of a season kind valid on a day (latest valid_from on or before it, last added first); null when none.';
revoke execute on function private.long_term_price_row(text, date) from public;
grant execute on function private.long_term_price_row(text, date) to anon, authenticated, service_role;

-- What the public sees of the list: the row in force today and the rows announced for later
-- (each day's last added), not the history a later row replaced.
create function private.long_term_price_listed(p_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.long_term_prices p
    where p.id = p_id
      and p.id = private.long_term_price_row(p.season_kind, greatest(p.valid_from, private.berlin_date(private.now())))
  )
$$;
comment on function private.long_term_price_listed(bigint) is 'Whether a long-term price row is in force today or announced for later (not replaced): what anon and holders may read.';
revoke execute on function private.long_term_price_listed(bigint) from public;
grant execute on function private.long_term_price_listed(bigint) to anon, authenticated, service_role;

create policy "long_term_prices: everyone reads the prices in force and announced" on public.long_term_prices
  for select to anon
  using (private.long_term_price_listed(id));

create policy "long_term_prices: staff read all, others the prices in force and announced" on public.long_term_prices
  for select to authenticated
  using ((select private.is_staff()) or private.long_term_price_listed(id));

revoke insert, update, delete, truncate, references, trigger on public.long_term_prices from anon, authenticated;

-- Whether a contract or a holder refers to a season: then its dates stay and it is not deleted
-- (update_season, delete_season). Nothing refers to seasons yet, so it answers false; the lead
-- extends it at the merge of issue 42 (e.g. `exists (select 1 from public.contracts c where
-- c.season_id = p_season_id)`, and holders or offers that name the season).
-- plpgsql: the offers and contracts it reads are declared later (62_offers_contracts.sql).
create function private.season_in_use(p_season_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.contracts c where c.season_id = p_season_id)
      or exists (select 1 from public.berth_offers o where o.season_id = p_season_id);
end
$$;
comment on function private.season_in_use(uuid) is 'Whether a contract or an offer names the season (then its dates and kind stay and it is not deleted).';
revoke execute on function private.season_in_use(uuid) from public;
grant execute on function private.season_in_use(uuid) to authenticated, service_role;

-- The checks add_season and update_season share: names, kind, dates, no overlap with another
-- season of the kind (p_except: the season being edited).
create function private.check_season(p_except uuid, p_name text, p_name_en text, p_kind text, p_starts_on date, p_ends_on date)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_name is null or char_length(btrim(p_name)) not between 1 and 100
     or (p_name_en is not null and char_length(btrim(p_name_en)) not between 1 and 100) then
    raise exception 'season_name_invalid' using errcode = '22023';
  end if;
  if p_kind is null or p_kind not in ('summer', 'winter', 'year_round') then
    raise exception 'season_kind_invalid' using errcode = '22023';
  end if;
  if p_starts_on is null or p_ends_on is null or p_ends_on <= p_starts_on or p_ends_on - p_starts_on > 731 then
    raise exception 'season_dates_invalid' using errcode = '22023', hint = 'The last day comes after the first; a season lasts at most two years.';
  end if;
  if exists (select 1 from public.seasons s
             where s.kind = p_kind and s.id is distinct from p_except
               and daterange(s.starts_on, s.ends_on, '[]') && daterange(p_starts_on, p_ends_on, '[]')) then
    raise exception 'season_overlap' using errcode = '23P01', hint = 'Another season of this kind shares a day.';
  end if;
end
$$;
comment on function private.check_season(uuid, text, text, text, date, date) is 'The checks of add_season and update_season: season_name_invalid, season_kind_invalid, season_dates_invalid (22023), season_overlap (23P01).';
revoke execute on function private.check_season(uuid, text, text, text, date, date) from public;

-- Adds a season (admins). Bad input is refused with a code the app shows as a sentence:
-- season_name_invalid, season_kind_invalid, season_dates_invalid (22023), season_overlap (23P01).
-- p_name_en: the English name (null or empty: none, the German one is shown).
create function private.add_season(p_name text, p_kind text, p_starts_on date, p_ends_on date, p_name_en text default null)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_name_en text := nullif(btrim(p_name_en), '');
begin
  perform private.require_admin();
  perform private.check_season(null, p_name, v_name_en, p_kind, p_starts_on, p_ends_on);
  begin
    insert into public.seasons (name, name_en, kind, starts_on, ends_on)
    values (btrim(p_name), v_name_en, p_kind, p_starts_on, p_ends_on)
    returning id into v_id;
  exception when exclusion_violation then
    -- A season added at the same moment by someone else.
    raise exception 'season_overlap' using errcode = '23P01', hint = 'Another season of this kind shares a day.';
  end;
  return v_id;
end
$$;
comment on function private.add_season(text, text, date, date, text) is 'Admins: adds a season (name, kind, first and last day, English name); season_name_invalid, season_kind_invalid, season_dates_invalid (22023), season_overlap (23P01), admin_only (42501).';
revoke execute on function private.add_season(text, text, date, date, text) from public;
grant execute on function private.add_season(text, text, date, date, text) to authenticated;

create function public.add_season(p_name text, p_kind text, p_starts_on date, p_ends_on date, p_name_en text default null)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.add_season(p_name, p_kind, p_starts_on, p_ends_on, p_name_en)
$$;
comment on function public.add_season(text, text, date, date, text) is 'Admins: adds a season; see private.add_season for the refusals.';
revoke execute on function public.add_season(text, text, date, date, text) from anon, public;
grant execute on function public.add_season(text, text, date, date, text) to authenticated;

-- Edits a season (admins): the names always; the first and last day only while nothing refers to
-- the season (private.season_in_use: a contract priced and dated by it keeps its season), else
-- season_in_use (23503). The kind stays (a wrong kind: delete the season and add it again).
-- season_not_found (PT404) and the refusals of add_season.
create function private.update_season(p_id uuid, p_name text, p_name_en text, p_starts_on date, p_ends_on date)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_season public.seasons;
  v_name_en text := nullif(btrim(p_name_en), '');
begin
  perform private.require_admin();
  select * into v_season from public.seasons s where s.id = p_id for update;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  perform private.check_season(p_id, p_name, v_name_en, v_season.kind, p_starts_on, p_ends_on);
  if (p_starts_on, p_ends_on) is distinct from (v_season.starts_on, v_season.ends_on) and private.season_in_use(p_id) then
    raise exception 'season_in_use' using errcode = '23503', hint = 'A contract refers to this season: its dates stay.';
  end if;
  begin
    update public.seasons
    set name = btrim(p_name), name_en = v_name_en, starts_on = p_starts_on, ends_on = p_ends_on
    where id = p_id;
  exception when exclusion_violation then
    raise exception 'season_overlap' using errcode = '23P01', hint = 'Another season of this kind shares a day.';
  end;
end
$$;
comment on function private.update_season(uuid, text, text, date, date) is 'Admins: edits a season''s names and, while nothing refers to it (private.season_in_use), its dates; season_not_found (PT404), season_in_use (23503), season_name_invalid, season_dates_invalid (22023), season_overlap (23P01), admin_only (42501).';
revoke execute on function private.update_season(uuid, text, text, date, date) from public;
grant execute on function private.update_season(uuid, text, text, date, date) to authenticated;

create function public.update_season(p_id uuid, p_name text, p_name_en text, p_starts_on date, p_ends_on date)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.update_season(p_id, p_name, p_name_en, p_starts_on, p_ends_on)
$$;
comment on function public.update_season(uuid, text, text, date, date) is 'Admins: edits a season; see private.update_season for the refusals.';
revoke execute on function public.update_season(uuid, text, text, date, date) from anon, public;
grant execute on function public.update_season(uuid, text, text, date, date) to authenticated;

-- Deletes a season nothing refers to (admins; private.season_in_use), else season_in_use (23503);
-- season_not_found (PT404). The audit trail keeps the deleted row.
create function private.delete_season(p_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  perform 1 from public.seasons s where s.id = p_id for update;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  if private.season_in_use(p_id) then
    raise exception 'season_in_use' using errcode = '23503', hint = 'A contract refers to this season.';
  end if;
  delete from public.seasons where id = p_id;
end
$$;
comment on function private.delete_season(uuid) is 'Admins: deletes a season nothing refers to; season_not_found (PT404), season_in_use (23503), admin_only (42501).';
revoke execute on function private.delete_season(uuid) from public;
grant execute on function private.delete_season(uuid) to authenticated;

create function public.delete_season(p_id uuid)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.delete_season(p_id)
$$;
comment on function public.delete_season(uuid) is 'Admins: deletes a season not in use; see private.delete_season for the refusals.';
revoke execute on function public.delete_season(uuid) from anon, public;
grant execute on function public.delete_season(uuid) to authenticated;

-- Adds a price change (admins): a new row valid from a day after today (Europe/Berlin), so no
-- season that has begun changes its price. long_term_price_invalid (an amount out of range),
-- vat_rate_invalid, long_term_price_basis_invalid, season_kind_invalid,
-- long_term_price_valid_from_past (22023).
create function private.add_long_term_price(
  p_season_kind text,
  p_basis text,
  p_gross_cents integer,
  p_vat_rate integer,
  p_electricity_gross_cents integer,
  p_electricity_vat_rate integer,
  p_valid_from date
)
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  perform private.require_admin();
  if p_season_kind is null or p_season_kind not in ('summer', 'winter', 'year_round') then
    raise exception 'season_kind_invalid' using errcode = '22023';
  end if;
  if p_basis is null or p_basis not in ('square_metre', 'running_metre') then
    raise exception 'long_term_price_basis_invalid' using errcode = '22023';
  end if;
  if p_gross_cents is null or p_gross_cents not between 1 and 10000000
     or p_electricity_gross_cents is null or p_electricity_gross_cents not between 0 and 10000000 then
    raise exception 'long_term_price_invalid' using errcode = '22023', hint = 'A price is 0,01 to 100.000 EUR; the electricity flat rate 0 to 100.000 EUR.';
  end if;
  if p_vat_rate is null or p_vat_rate not in (0, 7, 19) or p_electricity_vat_rate is null or p_electricity_vat_rate not in (0, 7, 19) then
    raise exception 'vat_rate_invalid' using errcode = '22023', hint = 'VAT rates: 19, 7 or 0 %.';
  end if;
  if p_valid_from is null or p_valid_from <= private.berlin_date(private.now()) then
    raise exception 'long_term_price_valid_from_past' using errcode = '22023', hint = 'A price change applies from a day after today.';
  end if;
  insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
  values (p_season_kind, p_basis, p_gross_cents, p_vat_rate, p_electricity_gross_cents, p_electricity_vat_rate, p_valid_from)
  returning id into v_id;
  return v_id;
end
$$;
comment on function private.add_long_term_price(text, text, integer, integer, integer, integer, date) is 'Admins: adds a long-term price row valid from a day after today; long_term_price_invalid, vat_rate_invalid, long_term_price_basis_invalid, season_kind_invalid, long_term_price_valid_from_past (22023), admin_only (42501).';
revoke execute on function private.add_long_term_price(text, text, integer, integer, integer, integer, date) from public;
grant execute on function private.add_long_term_price(text, text, integer, integer, integer, integer, date) to authenticated;

create function public.add_long_term_price(
  p_season_kind text,
  p_basis text,
  p_gross_cents integer,
  p_vat_rate integer,
  p_electricity_gross_cents integer,
  p_electricity_vat_rate integer,
  p_valid_from date
)
returns bigint
language sql
volatile
security invoker
set search_path = ''
as $$
  select private.add_long_term_price(p_season_kind, p_basis, p_gross_cents, p_vat_rate, p_electricity_gross_cents, p_electricity_vat_rate, p_valid_from)
$$;
comment on function public.add_long_term_price(text, text, integer, integer, integer, integer, date) is 'Admins: adds a long-term price change valid from a later day; see private.add_long_term_price for the refusals.';
revoke execute on function public.add_long_term_price(text, text, integer, integer, integer, integer, date) from anon, public;
grant execute on function public.add_long_term_price(text, text, integer, integer, integer, integer, date) to authenticated;

-- The price of a season for a boat: the row valid on the season's first day; the units rounded
-- up as the guest prices do (private.price_breakdown): whole running metres of the length, or
-- whole m² of length x width; berth = units x gross per unit, plus the electricity flat rate;
-- the VAT taken out per rate (private.invoice_vat_breakdown, as on the invoice), net = gross - VAT.
-- season_not_found (PT404), long_term_price_missing (P0001), boat_size_invalid (22023).
create function private.long_term_price(p_season_id uuid, p_length numeric, p_width numeric)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_season public.seasons;
  v_price public.long_term_prices;
  v_units integer;
  v_berth bigint;
  v_vat jsonb;
  v_vat_cents bigint;
begin
  if p_length is null or p_length <= 0 or p_length > 100 or p_width is null or p_width <= 0 or p_width > 30 then
    raise exception 'boat_size_invalid' using errcode = '22023', hint = 'Length 0 to 100 m, width 0 to 30 m.';
  end if;
  select * into v_season from public.seasons s where s.id = p_season_id;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  select * into v_price from public.long_term_prices p where p.id = private.long_term_price_row(v_season.kind, v_season.starts_on);
  if not found then
    raise exception 'long_term_price_missing' using errcode = 'P0001', hint = v_season.kind;
  end if;
  v_units := case v_price.basis when 'running_metre' then ceil(p_length)::integer else ceil(p_length * p_width)::integer end;
  v_berth := v_units::bigint * v_price.gross_cents;
  v_vat := private.invoice_vat_breakdown(
    (select coalesce(jsonb_agg(l), '[]'::jsonb) from (values
      (jsonb_build_object('vat_rate', v_price.vat_rate, 'quantity', 1, 'unit_gross_cents', v_berth)),
      (jsonb_build_object('vat_rate', v_price.electricity_vat_rate, 'quantity', 1, 'unit_gross_cents', v_price.electricity_gross_cents))) x(l)
     where (l ->> 'unit_gross_cents')::bigint <> 0));
  v_vat_cents := (select coalesce(sum((v ->> 'vat_cents')::bigint), 0) from jsonb_array_elements(v_vat) v);
  return jsonb_build_object(
    'season_id', v_season.id,
    'season_kind', v_season.kind,
    'starts_on', v_season.starts_on,
    'ends_on', v_season.ends_on,
    'price_id', v_price.id,
    'valid_from', v_price.valid_from,
    'basis', v_price.basis,
    'units', v_units,
    'unit_gross_cents', v_price.gross_cents,
    'berth_vat_rate', v_price.vat_rate,
    'berth_gross_cents', v_berth,
    'electricity_gross_cents', v_price.electricity_gross_cents,
    'electricity_vat_rate', v_price.electricity_vat_rate,
    'gross_cents', v_berth + v_price.electricity_gross_cents,
    'vat_cents', v_vat_cents,
    'net_cents', v_berth + v_price.electricity_gross_cents - v_vat_cents,
    'vat_breakdown', v_vat,
    'prices_include_vat', true
  );
end
$$;
comment on function private.long_term_price(uuid, numeric, numeric) is 'The price of a season for a boat (length, width in m): the row valid on the season''s first day, units rounded up (running metres or m²), berth + electricity gross, VAT per rate; season_not_found, long_term_price_missing, boat_size_invalid.';
revoke execute on function private.long_term_price(uuid, numeric, numeric) from public;
grant execute on function private.long_term_price(uuid, numeric, numeric) to anon, authenticated, service_role;

create function public.long_term_price(p_season_id uuid, p_length numeric, p_width numeric)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.long_term_price(p_season_id, p_length, p_width)
$$;
comment on function public.long_term_price(uuid, numeric, numeric) is 'The price of a season for a boat (length, width in m), gross with its VAT breakdown; see private.long_term_price.';
revoke execute on function public.long_term_price(uuid, numeric, numeric) from public;
grant execute on function public.long_term_price(uuid, numeric, numeric) to anon, authenticated, service_role;
