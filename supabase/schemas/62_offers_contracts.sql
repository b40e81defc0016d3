-- Offers from the waiting list and contracts accepted online (issue 42, deliverables 2 and 3
-- without the insurance certificate; docs/adr/0047-offers-and-contracts.md).
--
-- contract_terms: the terms of /vertrag, versioned (a new version is a new row; old ones stay as
-- they were accepted). berth_offers: a berth free for a season offered to one applicant of the
-- waiting list with a deadline; accepted, declined, lapsed (the schedule) or withdrawn, then
-- moved on to the next applicant. contracts: what an applicant accepted, the rendered text with
-- its sha256, who, when, from which address; never updated except its status.
-- Every write goes through the security definer functions below; codes the app shows as
-- sentences (src/lib/errors).

-- ---------------------------------------------------------------- settings
insert into private.app_settings (key, value) values
  ('offer_deadline_days', '14'),
  ('offer_auto_next', 'false'),
  ('offer_keep_place_on_first_decline', 'true'),
  ('notice_period_days', '90')
on conflict (key) do nothing;

-- ---------------------------------------------------------------- helpers
-- An amount of cents as people read it: 1.070,00 € (de) or €1,070.00 (en).
create function private.format_euro(p_cents bigint, p_locale text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_locale = 'en'
    then case when p_cents < 0 then '-' else '' end || '€' || to_char(abs(p_cents) / 100.0, 'FM999,999,990.00')
    else replace(replace(replace(to_char(p_cents / 100.0, 'FM999,999,990.00'), ',', '#'), '.', ','), '#', '.') || ' €' end
$$;
comment on function private.format_euro(bigint, text) is 'Cents as text in a locale: 1.070,00 € (de), €1,070.00 (en).';
revoke execute on function private.format_euro(bigint, text) from public;

-- A day as people read it: 31.10.2027 (de) or 31 Oct 2027 (en).
create function private.format_day(p_day date, p_locale text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_locale = 'en' then to_char(p_day, 'FMDD Mon YYYY') else to_char(p_day, 'DD.MM.YYYY') end
$$;
comment on function private.format_day(date, text) is 'A calendar day as text: 31.10.2027 (de), 31 Oct 2027 (en).';
revoke execute on function private.format_day(date, text) from public;

-- The caller's verified e-mail address (lower case), null for anonymous or unconfirmed accounts:
-- an applicant who applied without an account reads the offers to the address they confirmed.
create function private.my_verified_email()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select lower(u.email) from auth.users u
  where u.id = (select auth.uid()) and not u.is_anonymous and u.email_confirmed_at is not null
$$;
comment on function private.my_verified_email() is 'The signed-in account''s confirmed e-mail address (lower case), null when anonymous or unconfirmed.';
revoke execute on function private.my_verified_email() from public;
grant execute on function private.my_verified_email() to authenticated, service_role;

-- ---------------------------------------------------------------- contract terms
create table public.contract_terms (
  id uuid primary key default gen_random_uuid(),
  version integer not null unique check (version >= 1),
  -- Plain text: paragraphs separated by a blank line, a line starting with "## " is a heading.
  body_de text not null check (char_length(btrim(body_de)) between 1 and 50000),
  body_en text not null check (char_length(btrim(body_en)) between 1 and 50000),
  published_at timestamptz not null default now(),
  published_by uuid references auth.users (id) on delete set null,
  -- What section "Laufzeit" of the text says: contracts on these terms renew for the next season
  -- unless noticed by the notice deadline (the renewal run renews only those; ADR 0052).
  renews_automatically boolean not null default false
);

alter table public.contract_terms enable row level security;

comment on column public.contract_terms.renews_automatically is 'Contracts accepted on these terms renew for the next season of their kind unless noticed by the notice deadline; false: they end, and the berth is offered again.';

comment on table public.contract_terms is 'The berth contract terms of /vertrag, versioned (append-only): the highest version is in force; a contract keeps the version accepted (docs/adr/0047-offers-and-contracts.md).';

create policy "contract_terms: everyone reads" on public.contract_terms
  for select to anon, authenticated
  using (true);

revoke insert, update, delete, truncate, references, trigger on public.contract_terms from anon, authenticated;

create trigger contract_terms_immutable before update or delete on public.contract_terms
  for each row execute function private.refuse_change('contract_terms_immutable', 'Contract terms are versioned: publish a new version.');

create trigger contract_terms_no_truncate before truncate on public.contract_terms
  for each statement execute function private.refuse_change('contract_terms_immutable', 'Contract terms are versioned: publish a new version.');

insert into public.contract_terms (version, body_de, body_en, published_at)
values (1,
$de$## 1. Vertragsgegenstand
Der Hafen überlässt dem Mieter einen Liegeplatz für das im Vertrag bezeichnete Boot. Ein Anspruch auf einen bestimmten Platz besteht nicht; der Hafen kann aus betrieblichen Gründen umlegen.

## 2. Laufzeit und Kündigung
Saisonverträge laufen vom 1. April bis 31. Oktober, Jahresverträge ein Jahr ab Vertragsbeginn. Sie verlängern sich nicht automatisch.

## 3. Entgelt
Das Liegegeld wird im Vertrag vereinbart und ist zu Beginn der Laufzeit fällig. Strom wird nach Verbrauch abgerechnet. Alle Preise inkl. gesetzlicher MwSt.

## 4. Pflichten des Mieters
Das Boot muss haftpflichtversichert, verkehrssicher und ordnungsgemäß vertäut sein. Die Hafenordnung gilt. Untervermietung ist nicht erlaubt.

## 5. Haftung
Der Hafen haftet nur für Vorsatz und grobe Fahrlässigkeit; für Hochwasser, Eisgang und Sturm haftet er nicht.$de$,
$en$## 1. Subject of the contract
The harbour provides the berth holder with a berth for the boat named in the contract. There is no claim to a particular berth; the harbour may move boats for operational reasons.

## 2. Term and termination
Seasonal contracts run from 1 April to 31 October, annual contracts for one year from the start. They are not renewed automatically.

## 3. Fees
The berth fee is agreed in the contract and is due at the start of the term. Electricity is charged by consumption. All prices include statutory VAT.

## 4. Duties of the berth holder
The boat must have liability insurance, be seaworthy and properly moored. The harbour regulations apply. Subletting is not allowed.

## 5. Liability
The harbour is liable only for intent and gross negligence; it is not liable for floods, drifting ice or storms.$en$,
'2026-12-07 00:00+01')
on conflict (version) do nothing;

-- Admins publish a new version of the terms (the next number); the old ones stay unchanged.
-- contract_terms_invalid (22023): a text empty or longer than 50 000 characters.
create function private.publish_contract_terms(p_body_de text, p_body_en text, p_renews_automatically boolean)
returns public.contract_terms
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contract_terms;
begin
  perform private.require_admin();
  if p_body_de is null or p_body_en is null
     or char_length(btrim(p_body_de)) not between 1 and 50000 or char_length(btrim(p_body_en)) not between 1 and 50000
     or p_renews_automatically is null then
    raise exception 'contract_terms_invalid' using errcode = '22023',
      hint = 'German and English text, 1 to 50 000 characters each, and whether contracts renew automatically.';
  end if;
  lock table public.contract_terms in exclusive mode;
  insert into public.contract_terms (version, body_de, body_en, published_at, published_by, renews_automatically)
  select coalesce(max(t.version), 0) + 1, btrim(p_body_de), btrim(p_body_en), private.now(), (select auth.uid()), p_renews_automatically
  from public.contract_terms t
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.publish_contract_terms(text, text, boolean) is 'The rule behind public.publish_contract_terms (security definer, not exposed by the API).';
revoke execute on function private.publish_contract_terms(text, text, boolean) from public;
grant execute on function private.publish_contract_terms(text, text, boolean) to authenticated, service_role;

create function public.publish_contract_terms(p_body_de text, p_body_en text, p_renews_automatically boolean)
returns public.contract_terms
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.publish_contract_terms(p_body_de, p_body_en, p_renews_automatically)
$$;
comment on function public.publish_contract_terms(text, text, boolean) is 'Admins publish the next version of the contract terms (German and English, and whether contracts on it renew automatically); earlier versions stay as accepted; contract_terms_invalid (22023), admin_only (42501).';
revoke execute on function public.publish_contract_terms(text, text, boolean) from anon, public;
grant execute on function public.publish_contract_terms(text, text, boolean) to authenticated;

-- ---------------------------------------------------------------- seam 1: a season's price lines
-- The lines of a season for a boat (seam 1 of docs/notes i42-design): the berth fee (running
-- metres or m², rounded up as private.long_term_price does) and the electricity flat rate when
-- there is one, gross cents per line (rounded once per line), priced by the row valid on the
-- season's first day. F's invoices and the renewal read these lines.
create function private.long_term_season_lines(p_season_id uuid, p_boat_length numeric, p_boat_width numeric)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_price jsonb := private.long_term_price(p_season_id, p_boat_length, p_boat_width);
  v_name text;
  v_metres boolean := v_price ->> 'basis' = 'running_metre';
  v_lines jsonb;
begin
  select s.name into v_name from public.seasons s where s.id = p_season_id;
  v_lines := jsonb_build_array(jsonb_build_object(
    'code', 'berth',
    'description', 'Liegegeld ' || v_name || ' (' || (v_price ->> 'units') || case when v_metres then ' lfd. m' else ' m²' end || ')',
    'description_en', 'Berth fee ' || v_name || ' (' || (v_price ->> 'units') || case when v_metres then ' running m' else ' m²' end || ')',
    'quantity', (v_price ->> 'units')::integer,
    'unit', case when v_metres then 'running_metre' else 'square_metre' end,
    'unit_price_cents', (v_price ->> 'unit_gross_cents')::integer,
    'vat_rate', (v_price ->> 'berth_vat_rate')::integer,
    'gross_cents', (v_price ->> 'berth_gross_cents')::bigint));
  if (v_price ->> 'electricity_gross_cents')::bigint > 0 then
    v_lines := v_lines || jsonb_build_array(jsonb_build_object(
      'code', 'electricity',
      'description', 'Strompauschale ' || v_name,
      'description_en', 'Electricity flat rate ' || v_name,
      'quantity', 1,
      'unit', 'season',
      'unit_price_cents', (v_price ->> 'electricity_gross_cents')::integer,
      'vat_rate', (v_price ->> 'electricity_vat_rate')::integer,
      'gross_cents', (v_price ->> 'electricity_gross_cents')::bigint));
  end if;
  return v_lines;
end
$$;
comment on function private.long_term_season_lines(uuid, numeric, numeric) is 'Seam 1 (issue 42): the price lines of a season for a boat, [{code, description, description_en, quantity, unit, unit_price_cents, vat_rate, gross_cents}], gross, by the price row valid on the season''s first day.';
revoke execute on function private.long_term_season_lines(uuid, numeric, numeric) from public;
grant execute on function private.long_term_season_lines(uuid, numeric, numeric) to service_role;

-- ---------------------------------------------------------------- offers
create table public.berth_offers (
  id uuid primary key default gen_random_uuid(),
  place_id uuid not null references public.places (id) on delete cascade,
  season_id uuid not null references public.seasons (id) on delete restrict,
  application_id uuid not null references public.long_term_applications (id) on delete cascade,
  -- The applicant as the application names them (user_id when they applied signed in).
  user_id uuid references auth.users (id) on delete set null,
  email text not null,
  locale text not null check (locale in ('de', 'en')),
  boat jsonb not null,
  lines jsonb not null,
  gross_cents bigint not null check (gross_cents >= 0),
  status text not null default 'open' check (status in ('open', 'accepted', 'declined', 'lapsed', 'withdrawn')),
  -- The last day to answer (Europe/Berlin); the offer lapses after it.
  deadline date not null,
  sent_at timestamptz not null default now(),
  sent_by uuid references auth.users (id) on delete set null,
  answered_at timestamptz,
  decline_reason text check (char_length(decline_reason) <= 1000),
  -- Whether the applicant kept the place on the waiting list after declining.
  kept_place boolean,
  -- The offer that followed this one for the same berth and season (one click or automatically).
  next_offer_id uuid references public.berth_offers (id) on delete set null,
  check ((status = 'open') = (answered_at is null))
);

alter table public.berth_offers enable row level security;

comment on table public.berth_offers is 'A berth free for a season offered to an applicant of the waiting list, with its price lines and a deadline: open, accepted, declined, lapsed or withdrawn; next_offer_id names the offer that followed (docs/adr/0047-offers-and-contracts.md).';

-- One open offer per berth and season, and per application.
create unique index berth_offers_one_open_per_berth on public.berth_offers (place_id, season_id) where status = 'open';

create unique index berth_offers_one_open_per_application on public.berth_offers (application_id) where status = 'open';

create index berth_offers_application_idx on public.berth_offers (application_id);

create index berth_offers_user_idx on public.berth_offers (user_id);

create index berth_offers_email_idx on public.berth_offers (lower(email));

create index berth_offers_season_idx on public.berth_offers (season_id);

create index berth_offers_next_idx on public.berth_offers (next_offer_id);

create index berth_offers_sent_by_idx on public.berth_offers (sent_by);

create index berth_offers_open_deadline_idx on public.berth_offers (deadline) where status = 'open';

create policy "berth_offers: applicant reads own, staff all" on public.berth_offers
  for select to authenticated
  using (user_id = (select auth.uid()) or lower(email) = (select private.my_verified_email()) or (select private.is_staff()));

revoke insert, update, delete, truncate, references, trigger on public.berth_offers from anon, authenticated;

create trigger berth_offers_audit after insert or update or delete on public.berth_offers
  for each row execute function private.audit_row('id', 'email', 'boat', 'decline_reason');

-- Why an open application is or is not proposed for a berth and season (empty: proposed):
-- boat_too_long, boat_too_wide, other_berth (applied for another berth), holds_berth (already
-- holds a berth in that season), offer_open (an offer waits for an answer), declined_before /
-- lapsed_before (this berth and season were offered to them before).
create function private.offer_candidates(p_place_id uuid, p_season_id uuid)
returns table (
  application_id uuid, waiting_position integer, first_name text, last_name text, email text, locale text,
  boat_name text, boat_length numeric, boat_width numeric, wanted_place_id uuid, wanted_place_name text,
  proposed boolean, reasons text[]
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_place public.places;
  v_season public.seasons;
begin
  perform private.require_admin();
  select * into v_place from public.places p where p.id = p_place_id;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  select * into v_season from public.seasons s where s.id = p_season_id;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  return query
    with queue as (
      select a.*, (row_number() over (order by a.queue_number))::integer as pos,
             (a.boat ->> 'length')::numeric as len, (a.boat ->> 'width')::numeric as wid
      from public.long_term_applications a
      where a.status = 'open'
    ), judged as (
      select q.*, array_remove(array[
        case when q.len > v_place.length then 'boat_too_long' end,
        case when q.wid > v_place.width then 'boat_too_wide' end,
        case when q.place_id is not null and q.place_id <> p_place_id then 'other_berth' end,
        case when exists (
          select 1 from public.long_term_holders h
          where (h.user_id = q.user_id or lower(h.email) = lower(q.email))
            and h.starts_on <= v_season.ends_on and coalesce(h.ends_on, 'infinity'::date) >= v_season.starts_on
        ) then 'holds_berth' end,
        case when exists (select 1 from public.berth_offers o where o.application_id = q.id and o.status = 'open') then 'offer_open' end,
        case when exists (select 1 from public.berth_offers o where o.application_id = q.id and o.place_id = p_place_id
                            and o.season_id = p_season_id and o.status = 'declined') then 'declined_before' end,
        case when exists (select 1 from public.berth_offers o where o.application_id = q.id and o.place_id = p_place_id
                            and o.season_id = p_season_id and o.status = 'lapsed') then 'lapsed_before' end
      ], null) as why
      from queue q
    )
    select j.id, j.pos, j.first_name, j.last_name, j.email, j.locale, j.boat ->> 'name', j.len, j.wid,
           j.place_id, wp.name, cardinality(j.why) = 0, j.why
    from judged j
    left join public.places wp on wp.id = j.place_id
    order by j.queue_number;
end
$$;
comment on function private.offer_candidates(uuid, uuid) is 'The rule behind public.offer_candidates (security definer, not exposed by the API).';
revoke execute on function private.offer_candidates(uuid, uuid) from public;
grant execute on function private.offer_candidates(uuid, uuid) to authenticated, service_role;

create function public.offer_candidates(p_place_id uuid, p_season_id uuid)
returns table (
  application_id uuid, waiting_position integer, first_name text, last_name text, email text, locale text,
  boat_name text, boat_length numeric, boat_width numeric, wanted_place_id uuid, wanted_place_name text,
  proposed boolean, reasons text[]
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.offer_candidates(p_place_id, p_season_id)
$$;
comment on function public.offer_candidates(uuid, uuid) is 'Admins: the open applications in queue order for a berth and season, proposed or not, with the reasons (boat_too_long, boat_too_wide, other_berth, holds_berth, offer_open, declined_before, lapsed_before).';
revoke execute on function public.offer_candidates(uuid, uuid) from anon, public;
grant execute on function public.offer_candidates(uuid, uuid) to authenticated;

-- The berths free for a whole season: not archived, no holder in the season, no open offer, no
-- contract that will renew into it.
create function private.free_berths_for_season(p_season_id uuid)
returns table (place_id uuid, name text, pier text, length numeric, width numeric)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_season public.seasons;
begin
  perform private.require_admin();
  select * into v_season from public.seasons s where s.id = p_season_id;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  return query
    select p.id, p.name, p.pier, p.length, p.width
    from public.places p
    where not p.archived and not p.one_day
      and not exists (select 1 from public.long_term_holders h
                      where h.place_id = p.id and h.starts_on <= v_season.ends_on
                        and coalesce(h.ends_on, 'infinity'::date) >= v_season.starts_on)
      and not exists (select 1 from public.berth_offers o
                      where o.place_id = p.id and o.season_id = p_season_id and o.status = 'open')
      -- A contract that will renew into the season holds it already (66_renewal_notice.sql).
      and not private.berth_renews_into(p.id, p_season_id)
    order by p.name;
end
$$;
comment on function private.free_berths_for_season(uuid) is 'The rule behind public.free_berths_for_season (security definer, not exposed by the API).';
revoke execute on function private.free_berths_for_season(uuid) from public;
grant execute on function private.free_berths_for_season(uuid) to authenticated, service_role;

create function public.free_berths_for_season(p_season_id uuid)
returns table (place_id uuid, name text, pier text, length numeric, width numeric)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.free_berths_for_season(p_season_id)
$$;
comment on function public.free_berths_for_season(uuid) is 'Admins: the berths free for a whole season (no holder in it, no open offer, no contract renewing into it), to offer from the waiting list.';
revoke execute on function public.free_berths_for_season(uuid) from anon, public;
grant execute on function public.free_berths_for_season(uuid) to authenticated;

-- Sends an offer (admins, or the automatic next step): checks the berth is free for the season
-- and the boat fits, prices the season for the boat, e-mails the applicant in their language.
create function private.create_offer(p_application_id uuid, p_place_id uuid, p_season_id uuid, p_deadline date, p_actor uuid)
returns public.berth_offers
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_app public.long_term_applications;
  v_place public.places;
  v_season public.seasons;
  v_today date := private.berlin_date(private.now());
  v_deadline date := coalesce(p_deadline, v_today + coalesce(private.setting('offer_deadline_days')::integer, 14));
  v_lines jsonb;
  v_row public.berth_offers;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), private.setting('site_url'), '');
begin
  select * into v_place from public.places p where p.id = p_place_id and not p.archived for update;
  if not found then
    raise exception 'place_not_found' using errcode = 'PT404';
  end if;
  select * into v_season from public.seasons s where s.id = p_season_id;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  select * into v_app from public.long_term_applications a where a.id = p_application_id for update;
  if not found then
    raise exception 'application_not_found' using errcode = 'PT404';
  end if;
  if v_app.status <> 'open' then
    raise exception 'application_not_open' using errcode = 'P0001';
  end if;
  if v_season.ends_on < v_today then
    raise exception 'season_over' using errcode = 'P0001', hint = 'Offer a season that has not ended.';
  end if;
  if v_deadline < v_today or v_deadline > v_today + 90 then
    raise exception 'offer_deadline_invalid' using errcode = '22023', hint = 'Today up to 90 days ahead.';
  end if;
  if exists (select 1 from public.long_term_holders h
             where h.place_id = p_place_id and h.starts_on <= v_season.ends_on
               and coalesce(h.ends_on, 'infinity'::date) >= v_season.starts_on) then
    raise exception 'berth_already_held' using errcode = '23P01';
  end if;
  if private.berth_renews_into(p_place_id, p_season_id) then
    raise exception 'berth_renews' using errcode = '23P01',
      hint = 'The holder''s contract renews into this season; it is free only once they give notice or the contract is ended.';
  end if;
  if exists (select 1 from public.berth_offers o where o.place_id = p_place_id and o.season_id = p_season_id and o.status = 'open') then
    raise exception 'berth_offer_open' using errcode = '23P01', hint = 'Withdraw the open offer for this berth and season first.';
  end if;
  if exists (select 1 from public.berth_offers o where o.application_id = p_application_id and o.status = 'open') then
    raise exception 'offer_already_open' using errcode = '23P01';
  end if;
  if (v_app.boat ->> 'length')::numeric > v_place.length or (v_app.boat ->> 'width')::numeric > v_place.width then
    raise exception 'offer_boat_does_not_fit' using errcode = 'P0001';
  end if;
  v_lines := private.long_term_season_lines(p_season_id, (v_app.boat ->> 'length')::numeric, (v_app.boat ->> 'width')::numeric);

  insert into public.berth_offers (place_id, season_id, application_id, user_id, email, locale, boat, lines, gross_cents,
                                   deadline, sent_at, sent_by)
  values (p_place_id, p_season_id, p_application_id, v_app.user_id, lower(v_app.email), v_app.locale, v_app.boat, v_lines,
          (select coalesce(sum((l ->> 'gross_cents')::bigint), 0) from jsonb_array_elements(v_lines) l),
          v_deadline, private.now(), p_actor)
  returning * into v_row;

  v_en := v_row.locale = 'en';
  perform private.queue_mail(
    'berth_offer', v_row.email, v_row.locale,
    case when v_en then format('Offer: long-term berth %s for %s', v_place.name, v_season.name)
         else format('Angebot: Langzeitliegeplatz %s für %s', v_place.name, v_season.name) end,
    private.mail_text(v_row.locale, concat_ws(' ', v_app.first_name, v_app.last_name), concat_ws(E'\n',
      case when v_en then 'good news: a berth on the waiting list is free for you. We offer you:'
           else 'gute Nachricht: Für Sie ist ein Liegeplatz von der Warteliste frei. Wir bieten Ihnen an:' end,
      '',
      case when v_en then 'Berth: ' else 'Liegeplatz: ' end || v_place.name,
      case when v_en then 'Season: ' else 'Saison: ' end || v_season.name || ' (' || private.format_day(v_season.starts_on, v_row.locale)
        || ' – ' || private.format_day(v_season.ends_on, v_row.locale) || ')',
      case when v_en then 'Boat: ' else 'Boot: ' end || coalesce(v_app.boat ->> 'name', '–'),
      case when v_en then 'Price for the season: ' else 'Preis für die Saison: ' end || private.format_euro(v_row.gross_cents, v_row.locale)
        || case when v_en then ' (VAT included)' else ' (inkl. MwSt.)' end,
      case when v_en then 'Please answer by: ' else 'Bitte antworten Sie bis: ' end || private.format_day(v_row.deadline, v_row.locale),
      '',
      case when v_en then 'Read the contract, accept or decline in your account:'
           else 'Vertrag lesen, annehmen oder ablehnen in Ihrem Konto:' end,
      v_site || case when v_en then '/en' else '' end || '/account/long-term?offer=' || v_row.id,
      case when v_en then '(Sign in with this e-mail address.)' else '(Melden Sie sich mit dieser E-Mail-Adresse an.)' end)),
    '[]'::jsonb, private.setting('harbour_email'), null);
  return v_row;
end
$$;
comment on function private.create_offer(uuid, uuid, uuid, date, uuid) is 'Creates and e-mails an offer of a berth for a season to an open application; the checks of send_offer without the admin check (also used by the automatic next step).';
revoke execute on function private.create_offer(uuid, uuid, uuid, date, uuid) from public;

create function private.send_offer(p_application_id uuid, p_place_id uuid, p_season_id uuid, p_deadline date default null)
returns public.berth_offers
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.create_offer(p_application_id, p_place_id, p_season_id, p_deadline, (select auth.uid()));
end
$$;
comment on function private.send_offer(uuid, uuid, uuid, date) is 'The rule behind public.send_offer (security definer, not exposed by the API).';
revoke execute on function private.send_offer(uuid, uuid, uuid, date) from public;
grant execute on function private.send_offer(uuid, uuid, uuid, date) to authenticated, service_role;

create function public.send_offer(p_application_id uuid, p_place_id uuid, p_season_id uuid, p_deadline date default null)
returns public.berth_offers
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.send_offer(p_application_id, p_place_id, p_season_id, p_deadline)
$$;
comment on function public.send_offer(uuid, uuid, uuid, date) is 'Admins offer a berth for a season to an open application with a deadline (default: setting offer_deadline_days); application_not_open, berth_already_held, berth_renews, berth_offer_open, offer_already_open, offer_boat_does_not_fit, offer_deadline_invalid, season_over.';
revoke execute on function public.send_offer(uuid, uuid, uuid, date) from anon, public;
grant execute on function public.send_offer(uuid, uuid, uuid, date) to authenticated;

-- The offer that follows a declined, lapsed or withdrawn one: the first proposed applicant for
-- the same berth and season, with the default deadline. Null when nobody is proposed.
create function private.offer_to_next(p_offer public.berth_offers, p_actor uuid)
returns public.berth_offers
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_next uuid;
  v_row public.berth_offers;
begin
  if exists (select 1 from public.long_term_holders h join public.seasons s on s.id = p_offer.season_id
             where h.place_id = p_offer.place_id and h.starts_on <= s.ends_on and coalesce(h.ends_on, 'infinity'::date) >= s.starts_on)
     or exists (select 1 from public.berth_offers o where o.place_id = p_offer.place_id and o.season_id = p_offer.season_id and o.status = 'open')
     or private.berth_renews_into(p_offer.place_id, p_offer.season_id) then
    return null;
  end if;
  -- The candidates as an admin sees them, without the admin check (the schedule runs this too).
  select a.id into v_next
  from public.long_term_applications a
  join public.places p on p.id = p_offer.place_id
  join public.seasons s on s.id = p_offer.season_id
  where a.status = 'open'
    and (a.boat ->> 'length')::numeric <= p.length and (a.boat ->> 'width')::numeric <= p.width
    and (a.place_id is null or a.place_id = p.id)
    and not exists (select 1 from public.long_term_holders h
                    where (h.user_id = a.user_id or lower(h.email) = lower(a.email))
                      and h.starts_on <= s.ends_on and coalesce(h.ends_on, 'infinity'::date) >= s.starts_on)
    and not exists (select 1 from public.berth_offers o where o.application_id = a.id
                      and (o.status = 'open' or (o.place_id = p.id and o.season_id = s.id and o.status in ('declined', 'lapsed'))))
  order by a.queue_number
  limit 1;
  if v_next is null then
    return null;
  end if;
  v_row := private.create_offer(v_next, p_offer.place_id, p_offer.season_id, null, p_actor);
  update public.berth_offers o set next_offer_id = v_row.id where o.id = p_offer.id;
  return v_row;
end
$$;
comment on function private.offer_to_next(public.berth_offers, uuid) is 'Offers the berth and season of a closed offer to the first proposed applicant (default deadline) and links it as next_offer_id; null when nobody is proposed or the berth is taken.';
revoke execute on function private.offer_to_next(public.berth_offers, uuid) from public;

create function private.offer_next_applicant(p_offer_id uuid)
returns public.berth_offers
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_offer public.berth_offers;
  v_row public.berth_offers;
begin
  perform private.require_admin();
  select * into v_offer from public.berth_offers o where o.id = p_offer_id for update;
  if not found then
    raise exception 'offer_not_found' using errcode = 'PT404';
  end if;
  if v_offer.status not in ('declined', 'lapsed', 'withdrawn') or v_offer.next_offer_id is not null then
    raise exception 'offer_not_closed' using errcode = 'P0001', hint = 'Only a declined, lapsed or withdrawn offer moves on, once.';
  end if;
  v_row := private.offer_to_next(v_offer, (select auth.uid()));
  if v_row.id is null then
    raise exception 'no_candidate' using errcode = 'P0001', hint = 'No open application fits this berth and season.';
  end if;
  return v_row;
end
$$;
comment on function private.offer_next_applicant(uuid) is 'The rule behind public.offer_next_applicant (security definer, not exposed by the API).';
revoke execute on function private.offer_next_applicant(uuid) from public;
grant execute on function private.offer_next_applicant(uuid) to authenticated, service_role;

create function public.offer_next_applicant(p_offer_id uuid)
returns public.berth_offers
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.offer_next_applicant(p_offer_id)
$$;
comment on function public.offer_next_applicant(uuid) is 'Admins: one click after a declined, lapsed or withdrawn offer: the same berth and season go to the first proposed applicant; offer_not_found, offer_not_closed, no_candidate.';
revoke execute on function public.offer_next_applicant(uuid) from anon, public;
grant execute on function public.offer_next_applicant(uuid) to authenticated;

create function private.withdraw_offer(p_offer_id uuid)
returns public.berth_offers
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.berth_offers;
begin
  perform private.require_admin();
  update public.berth_offers o set status = 'withdrawn', answered_at = private.now()
   where o.id = p_offer_id and o.status = 'open'
  returning * into v_row;
  if not found then
    if exists (select 1 from public.berth_offers o where o.id = p_offer_id) then
      raise exception 'offer_not_open' using errcode = 'P0001';
    end if;
    raise exception 'offer_not_found' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function private.withdraw_offer(uuid) is 'The rule behind public.withdraw_offer (security definer, not exposed by the API).';
revoke execute on function private.withdraw_offer(uuid) from public;
grant execute on function private.withdraw_offer(uuid) to authenticated, service_role;

create function public.withdraw_offer(p_offer_id uuid)
returns public.berth_offers
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.withdraw_offer(p_offer_id)
$$;
comment on function public.withdraw_offer(uuid) is 'Admins withdraw an open offer; offer_not_found, offer_not_open.';
revoke execute on function public.withdraw_offer(uuid) from anon, public;
grant execute on function public.withdraw_offer(uuid) to authenticated;

-- An open offer of the caller (by account or verified e-mail), locked; offer_not_found when it
-- is not theirs, offer_not_open / offer_lapsed when it can no longer be answered.
create function private.my_open_offer(p_offer_id uuid)
returns public.berth_offers
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.berth_offers;
begin
  if (select auth.uid()) is null or private.is_anonymous() then
    raise exception 'sign_in_required' using errcode = '42501';
  end if;
  select * into v_row from public.berth_offers o
   where o.id = p_offer_id and (o.user_id = (select auth.uid()) or lower(o.email) = private.my_verified_email())
   for update;
  if not found then
    raise exception 'offer_not_found' using errcode = 'PT404';
  end if;
  if v_row.status = 'lapsed' or (v_row.status = 'open' and v_row.deadline < private.berlin_date(private.now())) then
    raise exception 'offer_lapsed' using errcode = 'P0001';
  end if;
  if v_row.status <> 'open' then
    raise exception 'offer_not_open' using errcode = 'P0001';
  end if;
  return v_row;
end
$$;
comment on function private.my_open_offer(uuid) is 'The caller''s open offer (by account or verified e-mail), locked for the answer; sign_in_required, offer_not_found, offer_lapsed, offer_not_open.';
revoke execute on function private.my_open_offer(uuid) from public;

-- Mail to the office about an answer (declined, lapsed).
create function private.offer_office_mail(p_offer public.berth_offers, p_what text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_app public.long_term_applications;
  v_place text;
  v_season text;
begin
  select * into v_app from public.long_term_applications a where a.id = p_offer.application_id;
  select p.name into v_place from public.places p where p.id = p_offer.place_id;
  select s.name into v_season from public.seasons s where s.id = p_offer.season_id;
  perform private.queue_mail(
    'berth_offer_' || p_what, private.setting('harbour_email'), 'de',
    case p_what when 'declined' then 'Angebot abgelehnt: ' when 'lapsed' then 'Angebot verfallen: ' else 'Angebot angenommen: ' end
      || v_place || ', ' || v_season || ' (' || concat_ws(' ', v_app.first_name, v_app.last_name) || ')',
    private.mail_text('de', null, concat_ws(E'\n',
      case p_what
        when 'declined' then concat_ws(' ', v_app.first_name, v_app.last_name) || ' hat das Angebot abgelehnt.'
        when 'lapsed' then 'Die Antwortfrist (' || private.format_day(p_offer.deadline, 'de') || ') ist ohne Antwort abgelaufen.'
        else concat_ws(' ', v_app.first_name, v_app.last_name) || ' hat das Angebot angenommen.' end,
      case when p_offer.decline_reason is not null then 'Begründung: ' || p_offer.decline_reason end,
      case when p_what = 'declined' then
        case when p_offer.kept_place then 'Der Platz auf der Warteliste bleibt erhalten.' else 'Die Bewerbung rückt an das Ende der Warteliste.' end end,
      case when p_offer.next_offer_id is not null then 'Der Liegeplatz wurde automatisch dem nächsten Bewerber angeboten.'
           when p_what in ('declined', 'lapsed') then 'Der Liegeplatz kann in der Verwaltung dem nächsten Bewerber angeboten werden.' end)),
    '[]'::jsonb, null, null);
end
$$;
comment on function private.offer_office_mail(public.berth_offers, text) is 'E-mails the harbour office (German) that an offer was declined, lapsed or accepted.';
revoke execute on function private.offer_office_mail(public.berth_offers, text) from public;

-- The applicant declines. On the first decline the application keeps its place when the
-- setting offer_keep_place_on_first_decline is true; otherwise it moves to the end of the list.
create function private.decline_offer(p_offer_id uuid, p_reason text default null)
returns public.berth_offers
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.berth_offers := private.my_open_offer(p_offer_id);
  v_first boolean;
  v_keep boolean;
  v_next public.berth_offers;
begin
  if char_length(p_reason) > 1000 then
    raise exception 'invalid_message' using errcode = '22023', hint = 'At most 1000 characters.';
  end if;
  v_first := not exists (select 1 from public.berth_offers o where o.application_id = v_row.application_id and o.status = 'declined');
  v_keep := v_first and coalesce(private.setting('offer_keep_place_on_first_decline'), 'true') = 'true';
  update public.berth_offers o
     set status = 'declined', answered_at = private.now(), decline_reason = nullif(btrim(p_reason), ''), kept_place = v_keep
   where o.id = v_row.id
  returning * into v_row;
  if not v_keep then
    -- To the end of the waiting list: a new queue number.
    update public.long_term_applications a set queue_number = default where a.id = v_row.application_id;
  end if;
  if coalesce(private.setting('offer_auto_next'), 'false') = 'true' then
    v_next := private.offer_to_next(v_row, null);
    if v_next.id is not null then
      v_row.next_offer_id := v_next.id;
    end if;
  end if;
  perform private.offer_office_mail(v_row, 'declined');
  return v_row;
end
$$;
comment on function private.decline_offer(uuid, text) is 'The rule behind public.decline_offer (security definer, not exposed by the API).';
revoke execute on function private.decline_offer(uuid, text) from public;
grant execute on function private.decline_offer(uuid, text) to authenticated, service_role;

create function public.decline_offer(p_offer_id uuid, p_reason text default null)
returns public.berth_offers
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.decline_offer(p_offer_id, p_reason)
$$;
comment on function public.decline_offer(uuid, text) is 'The applicant declines an open offer (optionally with a reason); the first decline keeps the place on the waiting list (setting offer_keep_place_on_first_decline), a later one moves it to the end; offer_not_found, offer_not_open, offer_lapsed.';
revoke execute on function public.decline_offer(uuid, text) from anon, public;
grant execute on function public.decline_offer(uuid, text) to authenticated;

-- The schedule: open offers past their deadline lapse, the office hears of it, and with
-- offer_auto_next the berth goes to the next applicant. Returns how many lapsed.
create function private.lapse_offers()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.berth_offers;
  v_next public.berth_offers;
  v_count integer := 0;
begin
  for v_row in
    update public.berth_offers o set status = 'lapsed', answered_at = private.now()
     where o.status = 'open' and o.deadline < private.berlin_date(private.now())
    returning *
  loop
    v_count := v_count + 1;
    if coalesce(private.setting('offer_auto_next'), 'false') = 'true' then
      v_next := private.offer_to_next(v_row, null);
      v_row.next_offer_id := v_next.id;
    end if;
    perform private.offer_office_mail(v_row, 'lapsed');
  end loop;
  return v_count;
end
$$;
comment on function private.lapse_offers() is 'Schedule (99_cron.sql, lapse-offers): open offers past their deadline lapse; the office is e-mailed; with offer_auto_next the next applicant gets the offer.';
revoke execute on function private.lapse_offers() from public;

-- ---------------------------------------------------------------- contracts
create table public.contracts (
  id uuid primary key default gen_random_uuid(),
  contract_number text not null unique,
  -- Null for a renewed contract (66_renewal_notice.sql: renews_contract_id names the one it renews).
  offer_id uuid unique references public.berth_offers (id) on delete restrict,
  user_id uuid references auth.users (id) on delete set null,
  -- The holding the acceptance created. No foreign key: an admin may still remove a holding
  -- that has not begun (remove_long_term_holder deletes it, its event keeps the snapshot) and
  -- the contract stays as accepted.
  holder_id uuid not null,
  place_id uuid not null references public.places (id) on delete restrict,
  season_id uuid not null references public.seasons (id) on delete restrict,
  starts_on date not null,
  ends_on date not null,
  email text not null,
  locale text not null check (locale in ('de', 'en')),
  holder jsonb not null,
  boat jsonb not null,
  lines jsonb not null,
  gross_cents bigint not null check (gross_cents >= 0),
  payment_plan integer not null check (payment_plan in (1, 2, 4)),
  payment_method text not null check (payment_method in ('sepa_debit', 'bank_transfer')),
  terms_version integer not null references public.contract_terms (version) on delete restrict,
  contract_text text not null,
  contract_sha256 text not null check (contract_sha256 ~ '^[0-9a-f]{64}$'),
  accepted_at timestamptz not null,
  accepted_ip text,
  accepted_user_agent text,
  notice_deadline date not null,
  status text not null default 'active' check (status in ('active', 'noticed', 'ended')),
  created_at timestamptz not null default now(),
  check (ends_on > starts_on)
);

alter table public.contracts enable row level security;

comment on table public.contracts is 'A long-term berth contract accepted online: the rendered text as accepted with its sha256, terms version, price lines, payment plan and method, who (user, IP, user agent) and when; only the status changes, through functions (docs/adr/0047-offers-and-contracts.md).';

create index contracts_user_idx on public.contracts (user_id);

create index contracts_email_idx on public.contracts (lower(email));

create index contracts_holder_idx on public.contracts (holder_id);

create index contracts_place_idx on public.contracts (place_id);

create index contracts_season_idx on public.contracts (season_id);

create index contracts_terms_idx on public.contracts (terms_version);

create policy "contracts: holder reads own, staff all" on public.contracts
  for select to authenticated
  using (user_id = (select auth.uid()) or lower(email) = (select private.my_verified_email()) or (select private.is_staff()));

revoke insert, update, delete, truncate, references, trigger on public.contracts from anon, authenticated;

-- The accepted text and its data never change: only the status may, and nothing is deleted.
create function private.contracts_immutable()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'contract_immutable' using errcode = '42501', hint = 'A contract is kept; end it instead.';
  end if;
  -- Besides the status, only the account link may go (a deleted account: user_id set null);
  -- the contract itself is kept (retention, HGB § 257).
  if (to_jsonb(new) - 'status' - 'user_id') is distinct from (to_jsonb(old) - 'status' - 'user_id')
     or (new.user_id is distinct from old.user_id and new.user_id is not null) then
    raise exception 'contract_immutable' using errcode = '42501', hint = 'Only the status of a contract changes.';
  end if;
  return new;
end
$$;
comment on function private.contracts_immutable() is 'Trigger: a contract''s accepted text and data never change (only its status); it is never deleted.';
revoke execute on function private.contracts_immutable() from public;

create trigger contracts_immutable before update or delete on public.contracts
  for each row execute function private.contracts_immutable();

create trigger contracts_no_truncate before truncate on public.contracts
  for each statement execute function private.refuse_change('contract_immutable', 'A contract is kept; end it instead.');

create trigger contracts_audit after insert or update or delete on public.contracts
  for each row execute function private.audit_row('id', 'email', 'holder', 'boat', 'contract_text', 'accepted_ip', 'accepted_user_agent');

-- The outbox attachment that names a contract: send-mail renders its PDF/A when it sends the
-- e-mail (supabase/functions/_shared/contract-pdf.ts), so no PDF is stored (ADR 0047).
create function private.contract_mail_attachment(p_contract public.contracts)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'contract_id', p_contract.id,
    'filename', case when p_contract.locale = 'en' then 'Contract-' else 'Vertrag-' end || p_contract.contract_number || '.pdf',
    'content_type', 'application/pdf')
$$;
comment on function private.contract_mail_attachment(public.contracts) is 'The outbox attachment entry that names a contract; send-mail renders its PDF when sending.';
revoke execute on function private.contract_mail_attachment(public.contracts) from public;

-- What an accepted (or renewed) contract starts: its season's fees, one invoice per instalment
-- in the one series, and for a direct debit their collection once the mandate is there
-- (63_long_term_fees.sql, docs/adr/0048-seasonal-fees-and-sepa.md). Idempotent per contract.
create function private.on_contract_accepted(p_contract_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.create_contract_fees(p_contract_id);
end
$$;
comment on function private.on_contract_accepted(uuid) is 'Called as the last step of accept_offer (and of a renewal): creates the contract''s fees and their invoices (private.create_contract_fees, idempotent per contract).';
revoke execute on function private.on_contract_accepted(uuid) from public;

-- The contract text of an offer with a payment plan and method, as the applicant reads it and
-- accepts it: the terms in force in the applicant's language, berth, boat, season, price lines
-- with VAT, payment plan and method, the notice deadline. Deterministic for the same data, so
-- its sha256 proves what was shown.
create function private.render_contract(p_offer public.berth_offers, p_payment_plan integer, p_payment_method text, p_terms public.contract_terms)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_en boolean := p_offer.locale = 'en';
  v_l text := p_offer.locale;
  v_app public.long_term_applications;
  v_place public.places;
  v_season public.seasons;
  v_notice date;
  v_lines text;
  v_vat text;
  v_plan text;
begin
  select * into v_app from public.long_term_applications a where a.id = p_offer.application_id;
  select * into v_place from public.places p where p.id = p_offer.place_id;
  select * into v_season from public.seasons s where s.id = p_offer.season_id;
  v_notice := v_season.ends_on - coalesce(private.setting('notice_period_days')::integer, 90);
  select string_agg(format('- %s: %s × %s = %s (%s %% %s)',
           case when v_en then l ->> 'description_en' else l ->> 'description' end,
           l ->> 'quantity', private.format_euro((l ->> 'unit_price_cents')::bigint, v_l),
           private.format_euro((l ->> 'gross_cents')::bigint, v_l), l ->> 'vat_rate', case when v_en then 'VAT' else 'MwSt.' end), E'\n' order by o)
    into v_lines
  from jsonb_array_elements(p_offer.lines) with ordinality x(l, o);
  select string_agg(format(case when v_en then '  included VAT %s %%: %s' else '  enthaltene MwSt. %s %%: %s' end,
           v ->> 'vat_rate', private.format_euro((v ->> 'vat_cents')::bigint, v_l)), E'\n')
    into v_vat
  from jsonb_array_elements(private.invoice_vat_breakdown(
         (select coalesce(jsonb_agg(jsonb_build_object('vat_rate', l -> 'vat_rate', 'quantity', 1, 'unit_gross_cents', l -> 'gross_cents')), '[]'::jsonb)
          from jsonb_array_elements(p_offer.lines) l))) v
  where (v ->> 'vat_cents')::bigint > 0;
  v_plan := case p_payment_plan
    when 1 then case when v_en then 'in full at the start of the season' else 'in einer Zahlung zu Beginn der Saison' end
    else case when v_en then p_payment_plan || ' instalments during the season' else 'in ' || p_payment_plan || ' Raten während der Saison' end end;
  return concat_ws(E'\n',
    case when v_en then 'BERTH CONTRACT (long-term berth)' else 'LIEGEPLATZVERTRAG (Langzeitliegeplatz)' end,
    '',
    case when v_en then 'Between ' else 'Zwischen ' end || coalesce(private.setting('invoice_name'), 'Hafen Düsseldorf') || ', '
      || concat_ws(', ', private.setting('invoice_street'), concat_ws(' ', private.setting('invoice_postal_code'), private.setting('invoice_city')))
      || case when v_en then ' (the harbour)' else ' (der Hafen)' end,
    case when v_en then 'and ' else 'und ' end || concat_ws(' ', v_app.first_name, v_app.last_name) || ', ' || p_offer.email
      || case when v_en then ' (the berth holder)' else ' (der Mieter)' end,
    '',
    case when v_en then 'Berth: ' else 'Liegeplatz: ' end || v_place.name || coalesce(' (' || nullif(v_place.pier, '') || ')', '')
      || format(case when v_en then ', %s m × %s m' else ', %s m × %s m' end,
                case when v_en then v_place.length::text else replace(v_place.length::text, '.', ',') end,
                case when v_en then v_place.width::text else replace(v_place.width::text, '.', ',') end),
    case when v_en then 'Boat: ' else 'Boot: ' end || coalesce(p_offer.boat ->> 'name', '–')
      || coalesce(' (' || nullif(p_offer.boat ->> 'tag', '') || ')', '')
      || format(', %s m × %s m',
                case when v_en then p_offer.boat ->> 'length' else replace(p_offer.boat ->> 'length', '.', ',') end,
                case when v_en then p_offer.boat ->> 'width' else replace(p_offer.boat ->> 'width', '.', ',') end),
    case when v_en then 'Season: ' else 'Saison: ' end || v_season.name || ', ' || private.format_day(v_season.starts_on, v_l)
      || ' – ' || private.format_day(v_season.ends_on, v_l),
    '',
    case when v_en then 'Price for the season (VAT included):' else 'Preis für die Saison (inkl. MwSt.):' end,
    v_lines,
    case when v_en then 'Total: ' else 'Gesamt: ' end || private.format_euro(p_offer.gross_cents, v_l),
    v_vat,
    '',
    case when v_en then 'Payment: ' else 'Zahlung: ' end || v_plan || ', '
      || case p_payment_method
           when 'sepa_debit' then case when v_en then 'by SEPA direct debit' else 'per SEPA-Lastschrift' end
           else case when v_en then 'by bank transfer' else 'per Überweisung' end end || '.',
    case when v_en then 'Notice: ' || 'by ' || private.format_day(v_notice, v_l) || ' for the end of the season.'
         else 'Kündigung: bis ' || private.format_day(v_notice, v_l) || ' zum Ende der Saison.' end,
    '',
    case when v_en then format('Terms of the contract (version %s of %s):', p_terms.version, private.format_day(private.berlin_date(p_terms.published_at), v_l))
         else format('Vertragsbedingungen (Fassung %s vom %s):', p_terms.version, private.format_day(private.berlin_date(p_terms.published_at), v_l)) end,
    '',
    replace(case when v_en then p_terms.body_en else p_terms.body_de end, E'\r\n', E'\n'));
end
$$;
comment on function private.render_contract(public.berth_offers, integer, text, public.contract_terms) is 'The contract text of an offer for a payment plan and method under a terms version, in the applicant''s language (deterministic: its sha256 proves what was shown).';
revoke execute on function private.render_contract(public.berth_offers, integer, text, public.contract_terms) from public;

create function private.check_payment_choice(p_payment_plan integer, p_payment_method text)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_payment_plan is null or p_payment_plan not in (1, 2, 4) then
    raise exception 'payment_plan_invalid' using errcode = '22023', hint = '1, 2 or 4 instalments.';
  end if;
  if p_payment_method is null or p_payment_method not in ('sepa_debit', 'bank_transfer') then
    raise exception 'payment_method_invalid' using errcode = '22023', hint = 'sepa_debit or bank_transfer.';
  end if;
end
$$;
comment on function private.check_payment_choice(integer, text) is 'payment_plan_invalid (1, 2 or 4) and payment_method_invalid (sepa_debit, bank_transfer), 22023.';
revoke execute on function private.check_payment_choice(integer, text) from public;

-- The contract as the applicant would accept it now: text, sha256, terms version.
create function private.offer_contract(p_offer_id uuid, p_payment_plan integer default 1, p_payment_method text default 'bank_transfer')
returns table (contract_text text, contract_sha256 text, terms_version integer, terms_published_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_offer public.berth_offers;
  v_terms public.contract_terms;
  v_text text;
begin
  perform private.check_payment_choice(p_payment_plan, p_payment_method);
  select * into v_offer from public.berth_offers o
   where o.id = p_offer_id
     and (o.user_id = (select auth.uid()) or lower(o.email) = private.my_verified_email() or private.is_staff());
  if not found then
    raise exception 'offer_not_found' using errcode = 'PT404';
  end if;
  select * into v_terms from public.contract_terms t order by t.version desc limit 1;
  v_text := private.render_contract(v_offer, p_payment_plan, p_payment_method, v_terms);
  return query select v_text, encode(pg_catalog.sha256(convert_to(v_text, 'UTF8')), 'hex'), v_terms.version, v_terms.published_at;
end
$$;
comment on function private.offer_contract(uuid, integer, text) is 'The rule behind public.offer_contract (security definer, not exposed by the API).';
revoke execute on function private.offer_contract(uuid, integer, text) from public;
grant execute on function private.offer_contract(uuid, integer, text) to authenticated, service_role;

create function public.offer_contract(p_offer_id uuid, p_payment_plan integer default 1, p_payment_method text default 'bank_transfer')
returns table (contract_text text, contract_sha256 text, terms_version integer, terms_published_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.offer_contract(p_offer_id, p_payment_plan, p_payment_method)
$$;
comment on function public.offer_contract(uuid, integer, text) is 'The applicant (or staff): the contract text of an offer for a payment plan and method under the terms in force, with its sha256 and terms version; offer_not_found, payment_plan_invalid, payment_method_invalid.';
revoke execute on function public.offer_contract(uuid, integer, text) from anon, public;
grant execute on function public.offer_contract(uuid, integer, text) to authenticated;

-- The applicant accepts: the text is rendered again and must hash to what the client showed
-- (contract_text_changed when the terms or the price changed meanwhile); the contract is stored
-- with who, when, IP and user agent; the berth is held for the season (long_term_holders) and
-- the application is answered; the confirmation with the contract goes out; then seam 3.
create function private.accept_offer(p_offer_id uuid, p_payment_plan integer, p_payment_method text, p_contract_sha256 text)
returns public.contracts
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_offer public.berth_offers;
  v_app public.long_term_applications;
  v_season public.seasons;
  v_place public.places;
  v_terms public.contract_terms;
  v_text text;
  v_hash text;
  v_holder public.long_term_holders;
  v_row public.contracts;
  v_headers jsonb;
  v_ip text;
  v_number text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), private.setting('site_url'), '');
begin
  v_offer := private.my_open_offer(p_offer_id);
  perform private.check_payment_choice(p_payment_plan, p_payment_method);
  select * into v_terms from public.contract_terms t order by t.version desc limit 1;
  v_text := private.render_contract(v_offer, p_payment_plan, p_payment_method, v_terms);
  v_hash := encode(pg_catalog.sha256(convert_to(v_text, 'UTF8')), 'hex');
  if p_contract_sha256 is null or lower(btrim(p_contract_sha256)) <> v_hash then
    raise exception 'contract_text_changed' using errcode = 'P0001', hint = 'The contract changed since it was shown: read it again and accept the text shown now.';
  end if;
  select * into v_app from public.long_term_applications a where a.id = v_offer.application_id for update;
  select * into v_season from public.seasons s where s.id = v_offer.season_id;
  select * into v_place from public.places p where p.id = v_offer.place_id for update;
  if v_app.status <> 'open' then
    raise exception 'application_not_open' using errcode = 'P0001';
  end if;
  if exists (select 1 from public.long_term_holders h
             where h.place_id = v_offer.place_id and h.starts_on <= v_season.ends_on
               and coalesce(h.ends_on, 'infinity'::date) >= v_season.starts_on) then
    raise exception 'offer_berth_unavailable' using errcode = '23P01';
  end if;

  begin
    v_headers := nullif(current_setting('request.headers', true), '')::jsonb;
  exception when others then
    v_headers := null;
  end;
  v_ip := nullif(btrim(split_part(v_headers ->> 'x-forwarded-for', ',', 1)), '');

  -- The draught (ADR 0053 "Draught against depth"): the application does not ask for it, so the
  -- offer's boat has it only if given; else the applicant's profile (null: not known).
  insert into public.long_term_holders (place_id, user_id, email, first_name, last_name, starts_on, ends_on,
                                        boat_name, boat_tag, boat_length, boat_width, boat_draught, note)
  values (v_offer.place_id, (select auth.uid()), v_offer.email, v_app.first_name, v_app.last_name, v_season.starts_on, v_season.ends_on,
          v_offer.boat ->> 'name', v_offer.boat ->> 'tag', (v_offer.boat ->> 'length')::numeric, (v_offer.boat ->> 'width')::numeric,
          coalesce(case when jsonb_typeof(v_offer.boat -> 'draught') = 'number' then (v_offer.boat ->> 'draught')::numeric end,
                   (select pr.boat_draught from public.profiles pr where pr.id = (select auth.uid()))),
          null)
  returning * into v_holder;
  insert into public.long_term_holder_events (holder_id, place_id, user_id, action, starts_on, ends_on, holder, actor, created_at)
  values (v_holder.id, v_holder.place_id, v_holder.user_id, 'assigned', v_holder.starts_on, v_holder.ends_on, to_jsonb(v_holder),
          (select auth.uid()), private.now());

  update public.berth_offers o set status = 'accepted', answered_at = private.now() where o.id = v_offer.id;
  update public.long_term_applications a
     set status = 'accepted', holder_id = v_holder.id, answered_at = private.now(), answered_by = (select auth.uid())
   where a.id = v_app.id;

  lock table public.contracts in exclusive mode;
  v_number := 'LV-' || extract(year from v_season.starts_on)::int || '-'
    || lpad((coalesce((select max(split_part(c.contract_number, '-', 3)::integer) from public.contracts c
                       where c.contract_number like 'LV-' || extract(year from v_season.starts_on)::int || '-%'), 0) + 1)::text, 4, '0');

  insert into public.contracts (contract_number, offer_id, user_id, holder_id, place_id, season_id, starts_on, ends_on, email, locale,
                                holder, boat, lines, gross_cents, payment_plan, payment_method, terms_version, contract_text,
                                contract_sha256, accepted_at, accepted_ip, accepted_user_agent, notice_deadline)
  values (v_number, v_offer.id, (select auth.uid()), v_holder.id, v_offer.place_id, v_offer.season_id, v_season.starts_on, v_season.ends_on,
          v_offer.email, v_offer.locale,
          jsonb_build_object('first_name', v_app.first_name, 'last_name', v_app.last_name, 'email', v_offer.email, 'phone', v_app.phone),
          v_offer.boat, v_offer.lines, v_offer.gross_cents, p_payment_plan, p_payment_method, v_terms.version, v_text, v_hash,
          private.now(), left(v_ip, 100), left(v_headers ->> 'user-agent', 500),
          v_season.ends_on - coalesce(private.setting('notice_period_days')::integer, 90))
  returning * into v_row;

  v_en := v_row.locale = 'en';
  perform private.queue_mail(
    'contract_accepted', v_row.email, v_row.locale,
    case when v_en then format('Your berth contract %s: berth %s, %s', v_number, v_place.name, v_season.name)
         else format('Ihr Liegeplatzvertrag %s: Liegeplatz %s, %s', v_number, v_place.name, v_season.name) end,
    private.mail_text(v_row.locale, concat_ws(' ', v_app.first_name, v_app.last_name), concat_ws(E'\n',
      case when v_en then format('thank you: you accepted the contract online on %s. Here is its text as you accepted it (SHA-256 %s).',
                                 private.format_berlin(v_row.accepted_at, v_row.locale), v_hash)
           else format('vielen Dank: Sie haben den Vertrag am %s online angenommen. Hier ist sein Text, wie Sie ihn angenommen haben (SHA-256 %s).',
                       private.format_berlin(v_row.accepted_at, v_row.locale), v_hash) end,
      case when v_en then 'Contract number: ' else 'Vertragsnummer: ' end || v_number,
      case when v_en then format('The contract is attached to this e-mail as a PDF (%s).', private.contract_mail_attachment(v_row) ->> 'filename')
           else format('Der Vertrag liegt dieser E-Mail als PDF bei (%s).', private.contract_mail_attachment(v_row) ->> 'filename') end,
      case when v_en then 'In your account: ' else 'In Ihrem Konto: ' end || v_site || case when v_en then '/en' else '' end || '/account/long-term',
      '',
      '----------------------------------------',
      v_text,
      '----------------------------------------')),
    jsonb_build_array(private.contract_mail_attachment(v_row)), private.setting('harbour_email'), null);
  perform private.offer_office_mail(v_offer, 'accepted');

  perform private.on_contract_accepted(v_row.id);
  return v_row;
end
$$;
comment on function private.accept_offer(uuid, integer, text, text) is 'The rule behind public.accept_offer (security definer, not exposed by the API).';
revoke execute on function private.accept_offer(uuid, integer, text, text) from public;
grant execute on function private.accept_offer(uuid, integer, text, text) to authenticated, service_role;

create function public.accept_offer(p_offer_id uuid, p_payment_plan integer, p_payment_method text, p_contract_sha256 text)
returns public.contracts
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.accept_offer(p_offer_id, p_payment_plan, p_payment_method, p_contract_sha256)
$$;
comment on function public.accept_offer(uuid, integer, text, text) is 'The applicant accepts an open offer with a payment plan (1, 2, 4) and method (sepa_debit, bank_transfer) and the sha256 of the contract text shown; contract_text_changed when it differs; creates the contract and the holding; offer_not_found, offer_not_open, offer_lapsed, offer_berth_unavailable.';
revoke execute on function public.accept_offer(uuid, integer, text, text) from anon, public;
grant execute on function public.accept_offer(uuid, integer, text, text) to authenticated;

-- The contract's status changes (notice, end) only through functions; F and the renewal add
-- theirs. Admins set it here.
create function private.set_contract_status(p_contract_id uuid, p_status text)
returns public.contracts
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contracts;
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('active', 'noticed', 'ended') then
    raise exception 'contract_status_invalid' using errcode = '22023';
  end if;
  update public.contracts c set status = p_status where c.id = p_contract_id returning * into v_row;
  if not found then
    raise exception 'contract_not_found' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function private.set_contract_status(uuid, text) is 'The rule behind public.set_contract_status (security definer, not exposed by the API).';
revoke execute on function private.set_contract_status(uuid, text) from public;
grant execute on function private.set_contract_status(uuid, text) to authenticated, service_role;

create function public.set_contract_status(p_contract_id uuid, p_status text)
returns public.contracts
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.set_contract_status(p_contract_id, p_status)
$$;
comment on function public.set_contract_status(uuid, text) is 'Admins set a contract''s status (active, noticed, ended); its text and data never change; contract_status_invalid, contract_not_found.';
revoke execute on function public.set_contract_status(uuid, text) from anon, public;
grant execute on function public.set_contract_status(uuid, text) to authenticated;
