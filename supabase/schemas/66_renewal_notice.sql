-- Renewal and notice of long-term berth contracts (issue 42, deliverable 6;
-- docs/adr/0052-renewal-and-notice.md).
--
-- Renewal: an admin chooses the season that ends; renewal_preview lists every contract of it with
-- what the renewal does (renew at the price of the next season of the same kind, or why not);
-- confirm_renewal issues the next season's contracts once (a contract renews at most once:
-- unique renews_contract_id; a retry with the same request key answers the first run), holds the
-- berth for the next season, e-mails each holder and calls private.on_contract_accepted, the
-- path every accepted contract takes (its fees). A contract renews only after its notice deadline
-- has passed, so a notice and a renewal never cross.
-- Notice: the holder gives notice until the notice deadline (give_contract_notice); the harbour
-- ends a contract with a reason (end_contract). Either way it is not renewed, and the berth is
-- free for the next season (free_berths_for_season, offers).

-- ---------------------------------------------------------------- contracts: the renewal link
alter table public.contracts add column renews_contract_id uuid unique references public.contracts (id) on delete restrict;

alter table public.contracts add constraint contracts_offer_or_renewal check ((offer_id is null) <> (renews_contract_id is null));

comment on column public.contracts.renews_contract_id is 'The contract this one renews (issued by the renewal run, no offer); unique: a contract is renewed at most once.';

-- ---------------------------------------------------------------- notices
create table public.contract_notices (
  id uuid primary key default gen_random_uuid(),
  contract_id uuid not null unique references public.contracts (id) on delete restrict,
  -- notice: the holder gave notice (before the deadline); ended: the harbour ended it.
  kind text not null check (kind in ('notice', 'ended')),
  reason text check (char_length(reason) <= 1000),
  given_at timestamptz not null default now(),
  given_by uuid references auth.users (id) on delete set null,
  check (kind = 'notice' or char_length(btrim(reason)) >= 1)
);

alter table public.contract_notices enable row level security;

comment on table public.contract_notices is 'A notice by the holder or the end of a contract by the harbour (with its reason): one per contract, never changed (docs/adr/0052-renewal-and-notice.md).';

create index contract_notices_given_by_idx on public.contract_notices (given_by);

create policy "contract_notices: holder reads own, staff all" on public.contract_notices
  for select to authenticated
  using (exists (select 1 from public.contracts c where c.id = contract_id
                   and (c.user_id = (select auth.uid()) or lower(c.email) = (select private.my_verified_email())))
         or (select private.is_staff()));

revoke insert, update, delete, truncate, references, trigger on public.contract_notices from anon, authenticated;

create trigger contract_notices_immutable before update or delete on public.contract_notices
  for each row execute function private.refuse_change('contract_notice_immutable', 'A notice is kept as given.');

create trigger contract_notices_audit after insert on public.contract_notices
  for each row execute function private.audit_row('id', 'reason');

-- ---------------------------------------------------------------- renewal runs
create table public.contract_renewal_runs (
  id uuid primary key default gen_random_uuid(),
  -- The client's key for one confirmation: a retry (a lost answer, a double click) answers this row.
  request_key uuid not null unique,
  from_season_id uuid not null references public.seasons (id) on delete restrict,
  to_season_id uuid not null references public.seasons (id) on delete restrict,
  issued integer not null check (issued >= 0),
  run_at timestamptz not null default now(),
  run_by uuid references auth.users (id) on delete set null
);

alter table public.contract_renewal_runs enable row level security;

comment on table public.contract_renewal_runs is 'Each confirmed renewal run: from which season to which, how many contracts it issued, who and when; request_key makes a retry answer the first run.';

create index contract_renewal_runs_from_idx on public.contract_renewal_runs (from_season_id);

create index contract_renewal_runs_to_idx on public.contract_renewal_runs (to_season_id);

create index contract_renewal_runs_run_by_idx on public.contract_renewal_runs (run_by);

create policy "contract_renewal_runs: staff read" on public.contract_renewal_runs
  for select to authenticated
  using ((select private.is_staff()));

revoke insert, update, delete, truncate, references, trigger on public.contract_renewal_runs from anon, authenticated;

-- ---------------------------------------------------------------- the next season
-- The next season of the same kind: the first that starts after this one ends.
create function private.next_season_of(p_season_id uuid)
returns public.seasons
language sql
stable
security definer
set search_path = ''
as $$
  select n.* from public.seasons s
  join public.seasons n on n.kind = s.kind and n.starts_on > s.ends_on
  where s.id = p_season_id
  order by n.starts_on
  limit 1
$$;
comment on function private.next_season_of(uuid) is 'The next season of the same kind (the first starting after the season ends), null when none is defined.';
revoke execute on function private.next_season_of(uuid) from public;

-- Whether a berth is promised for a season to the holder whose contract will renew into it: an
-- active contract (no notice, not ended) of the season before it (private.next_season_of), under
-- terms that renew, not yet renewed (a renewal holds the berth itself). Until the renewal run
-- such a berth has no holding in the next season, yet it is not free: the offers leave it out
-- (free_berths_for_season, create_offer, offer_to_next; ADR 0052).
create function private.berth_renews_into(p_place_id uuid, p_season_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.contracts c
      join public.contract_terms t on t.version = c.terms_version
      join public.seasons s on s.id = c.season_id
      join public.seasons n on n.id = p_season_id and n.kind = s.kind and n.starts_on > s.ends_on
     where c.place_id = p_place_id and c.status = 'active' and t.renews_automatically
       and (private.next_season_of(c.season_id)).id = p_season_id
       and not exists (select 1 from public.contracts r where r.renews_contract_id = c.id))
$$;
comment on function private.berth_renews_into(uuid, uuid) is 'Whether an active contract under renewing terms will renew into this season on this berth (not yet renewed): the berth is not free for offers.';
revoke execute on function private.berth_renews_into(uuid, uuid) from public;

-- ---------------------------------------------------------------- preview
-- Every contract of the season with what the renewal does: action renew (with the new price and
-- changes: price_changed, terms_newer), renewed (issued before), or not renewed: noticed, ended,
-- terms_end (the terms the holder accepted say the contract ends: it is not renewed, the berth is
-- offered again), berth_archived, berth_taken (someone else holds the berth or it is offered in the next season),
-- notice_open (the holder may still give notice until the deadline: renewed after it).
create function private.renewal_preview(p_season_id uuid)
returns table (
  contract_id uuid, contract_number text, first_name text, last_name text, email text, place_id uuid, place_name text,
  boat_name text, old_gross_cents bigint, new_gross_cents bigint, new_lines jsonb, notice_deadline date,
  action text, changes text[], next_season_id uuid, next_season_name text, next_season_name_en text
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_season public.seasons;
  v_next public.seasons;
  v_today date := private.berlin_date(private.now());
  v_terms integer := (select max(t.version) from public.contract_terms t);
begin
  perform private.require_admin();
  select * into v_season from public.seasons s where s.id = p_season_id;
  if not found then
    raise exception 'season_not_found' using errcode = 'PT404';
  end if;
  v_next := private.next_season_of(p_season_id);
  if v_next.id is null then
    raise exception 'renewal_no_next_season' using errcode = 'P0001',
      hint = 'Define the next season of the same kind (and its price) first.';
  end if;
  return query
    with base as (
      select c.*, p.name as pname, p.archived as parchived,
             private.long_term_season_lines(v_next.id, (c.boat ->> 'length')::numeric, (c.boat ->> 'width')::numeric) as nl,
             (select r.id from public.contracts r where r.renews_contract_id = c.id) as renewed_by
      from public.contracts c
      join public.places p on p.id = c.place_id
      where c.season_id = p_season_id
    )
    select b.id, b.contract_number, b.holder ->> 'first_name', b.holder ->> 'last_name', b.email, b.place_id, b.pname,
           b.boat ->> 'name', b.gross_cents,
           (select coalesce(sum((l ->> 'gross_cents')::bigint), 0) from jsonb_array_elements(b.nl) l)::bigint,
           b.nl, b.notice_deadline,
           case
             when b.renewed_by is not null then 'renewed'
             when b.status = 'noticed' then 'noticed'
             when b.status = 'ended' then 'ended'
             when not (select t.renews_automatically from public.contract_terms t where t.version = b.terms_version) then 'terms_end'
             when b.parchived then 'berth_archived'
             when exists (select 1 from public.long_term_holders h
                          where h.place_id = b.place_id and h.starts_on <= v_next.ends_on
                            and coalesce(h.ends_on, 'infinity'::date) >= v_next.starts_on)
               or exists (select 1 from public.berth_offers o where o.place_id = b.place_id and o.season_id = v_next.id and o.status = 'open')
               then 'berth_taken'
             when b.notice_deadline >= v_today then 'notice_open'
             else 'renew' end,
           array_remove(array[
             case when (select coalesce(sum((l ->> 'gross_cents')::bigint), 0) from jsonb_array_elements(b.nl) l) <> b.gross_cents
                  then 'price_changed' end,
             case when b.terms_version < v_terms then 'terms_newer' end,
             -- The price the renewal applies was added after the holder's last day to give notice:
             -- the holder could not react to it (the office should tell them, ADR 0052).
             case when (select coalesce(sum((l ->> 'gross_cents')::bigint), 0) from jsonb_array_elements(b.nl) l) <> b.gross_cents
                   and private.berlin_date((select p.created_at from public.long_term_prices p
                                            where p.id = private.long_term_price_row(v_next.kind, v_next.starts_on))) > b.notice_deadline
                  then 'price_announced_late' end], null),
           v_next.id, v_next.name, v_next.name_en
    from base b
    order by b.pname, b.contract_number;
end
$$;
comment on function private.renewal_preview(uuid) is 'The rule behind public.renewal_preview (security definer, not exposed by the API).';
revoke execute on function private.renewal_preview(uuid) from public;
grant execute on function private.renewal_preview(uuid) to authenticated, service_role;

create function public.renewal_preview(p_season_id uuid)
returns table (
  contract_id uuid, contract_number text, first_name text, last_name text, email text, place_id uuid, place_name text,
  boat_name text, old_gross_cents bigint, new_gross_cents bigint, new_lines jsonb, notice_deadline date,
  action text, changes text[], next_season_id uuid, next_season_name text, next_season_name_en text
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.renewal_preview(p_season_id)
$$;
comment on function public.renewal_preview(uuid) is 'Admins: every contract of a season with what the renewal into the next season of the same kind does (renew, renewed, noticed, ended, terms_end, berth_archived, berth_taken, notice_open), old and new price, changes (price_changed, terms_newer, price_announced_late); renewal_no_next_season, season_not_found.';
revoke execute on function public.renewal_preview(uuid) from anon, public;
grant execute on function public.renewal_preview(uuid) to authenticated;

-- ---------------------------------------------------------------- confirm
-- Issues the next season's contract for every row the preview marks renew: the same holder,
-- berth, boat, payment plan and method and terms version, the price of the next season; the
-- holding of the next season; the e-mail; then private.on_contract_accepted (the fees).
create function private.confirm_renewal(p_season_id uuid, p_request_key uuid)
returns public.contract_renewal_runs
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_run public.contract_renewal_runs;
  v_next public.seasons;
  v_p record;
  v_old public.contracts;
  v_new public.contracts;
  v_holder public.long_term_holders;
  v_terms public.contract_terms;
  v_place public.places;
  v_offer public.berth_offers;
  v_text text;
  v_number text;
  v_year integer;
  v_count integer := 0;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), private.setting('site_url'), '');
begin
  perform private.require_admin();
  if p_request_key is null then
    raise exception 'invalid_request_key' using errcode = '22023';
  end if;
  select * into v_run from public.contract_renewal_runs r where r.request_key = p_request_key;
  if found then
    return v_run;
  end if;
  -- One run at a time: a second confirmation waits and then finds the contracts renewed.
  lock table public.contracts in exclusive mode;
  select * into v_run from public.contract_renewal_runs r where r.request_key = p_request_key;
  if found then
    return v_run;
  end if;
  v_next := private.next_season_of(p_season_id);
  for v_p in select * from private.renewal_preview(p_season_id) x where x.action = 'renew' loop
    select * into v_old from public.contracts c where c.id = v_p.contract_id;
    select * into v_place from public.places p where p.id = v_old.place_id;
    select * into v_terms from public.contract_terms t where t.version = v_old.terms_version;

    -- The draught is not in the contract's boat: the renewed holding's (the admin may have
    -- entered it there), else the holder's profile (ADR 0053 "Draught against depth").
    insert into public.long_term_holders (place_id, user_id, email, first_name, last_name, starts_on, ends_on,
                                          boat_name, boat_tag, boat_length, boat_width, boat_draught, note)
    values (v_old.place_id, v_old.user_id, v_old.email, v_old.holder ->> 'first_name', v_old.holder ->> 'last_name',
            v_next.starts_on, v_next.ends_on, v_old.boat ->> 'name', v_old.boat ->> 'tag',
            (v_old.boat ->> 'length')::numeric, (v_old.boat ->> 'width')::numeric,
            coalesce((select h.boat_draught from public.long_term_holders h where h.id = v_old.holder_id),
                     (select pr.boat_draught from public.profiles pr where pr.id = v_old.user_id)),
            null)
    returning * into v_holder;
    insert into public.long_term_holder_events (holder_id, place_id, user_id, action, starts_on, ends_on, holder, actor, created_at)
    values (v_holder.id, v_holder.place_id, v_holder.user_id, 'assigned', v_holder.starts_on, v_holder.ends_on, to_jsonb(v_holder),
            (select auth.uid()), private.now());

    -- The text: which contract it renews, then the contract as render_contract writes it for the
    -- next season (the application of the first offer gives the names; the boat and lines are
    -- the renewed ones).
    v_offer := null;
    v_offer.place_id := v_old.place_id;
    v_offer.season_id := v_next.id;
    v_offer.application_id := (
      with recursive chain as (
        select c.id, c.offer_id, c.renews_contract_id from public.contracts c where c.id = v_old.id
        union all
        select c.id, c.offer_id, c.renews_contract_id from public.contracts c join chain ch on c.id = ch.renews_contract_id
      )
      select o.application_id from chain ch join public.berth_offers o on o.id = ch.offer_id limit 1);
    v_offer.email := v_old.email;
    v_offer.locale := v_old.locale;
    v_offer.boat := v_old.boat;
    v_offer.lines := v_p.new_lines;
    v_offer.gross_cents := v_p.new_gross_cents;
    v_en := v_old.locale = 'en';
    v_text := concat_ws(E'\n',
      case when v_en then format('Renewal of contract %s for %s.', v_old.contract_number, coalesce(v_next.name_en, v_next.name))
           else format('Verlängerung des Vertrags %s für %s.', v_old.contract_number, v_next.name) end,
      '',
      private.render_contract(v_offer, v_old.payment_plan, v_old.payment_method, v_terms));

    v_year := extract(year from v_next.starts_on)::int;
    v_number := 'LV-' || v_year || '-'
      || lpad((coalesce((select max(split_part(c.contract_number, '-', 3)::integer) from public.contracts c
                         where c.contract_number like 'LV-' || v_year || '-%'), 0) + 1)::text, 4, '0');

    insert into public.contracts (contract_number, offer_id, renews_contract_id, user_id, holder_id, place_id, season_id, starts_on, ends_on,
                                  email, locale, holder, boat, lines, gross_cents, payment_plan, payment_method, terms_version,
                                  contract_text, contract_sha256, accepted_at, accepted_ip, accepted_user_agent, notice_deadline)
    values (v_number, null, v_old.id, v_old.user_id, v_holder.id, v_old.place_id, v_next.id, v_next.starts_on, v_next.ends_on,
            v_old.email, v_old.locale, v_old.holder, v_old.boat, v_p.new_lines, v_p.new_gross_cents, v_old.payment_plan,
            v_old.payment_method, v_old.terms_version, v_text, encode(pg_catalog.sha256(convert_to(v_text, 'UTF8')), 'hex'),
            private.now(), null, null, v_next.ends_on - coalesce(private.setting('notice_period_days')::integer, 90))
    returning * into v_new;

    perform private.queue_mail(
      'contract_renewed', v_new.email, v_new.locale,
      case when v_en then format('Your berth contract is renewed: %s, berth %s, %s', v_number, v_place.name, coalesce(v_next.name_en, v_next.name))
           else format('Ihr Liegeplatzvertrag ist verlängert: %s, Liegeplatz %s, %s', v_number, v_place.name, v_next.name) end,
      private.mail_text(v_new.locale, concat_ws(' ', v_old.holder ->> 'first_name', v_old.holder ->> 'last_name'), concat_ws(E'\n',
        case when v_en then format('your contract %s is renewed for %s (%s – %s) on the same terms (version %s).',
                                   v_old.contract_number, coalesce(v_next.name_en, v_next.name),
                                   private.format_day(v_next.starts_on, 'en'), private.format_day(v_next.ends_on, 'en'), v_old.terms_version)
             else format('Ihr Vertrag %s ist für %s (%s – %s) zu denselben Bedingungen (Fassung %s) verlängert.',
                         v_old.contract_number, v_next.name,
                         private.format_day(v_next.starts_on, 'de'), private.format_day(v_next.ends_on, 'de'), v_old.terms_version) end,
        case when v_en then 'Price for the season (VAT included): ' else 'Preis für die Saison (inkl. MwSt.): ' end
          || private.format_euro(v_new.gross_cents, v_new.locale)
          || case when v_new.gross_cents <> v_old.gross_cents
                  then case when v_en then ' (last season: ' else ' (letzte Saison: ' end || private.format_euro(v_old.gross_cents, v_new.locale) || ')'
                  else '' end,
        case when v_en then 'Payment as before; notice by ' || private.format_day(v_new.notice_deadline, 'en') || ' for the end of the season.'
             else 'Zahlung wie bisher; Kündigung bis ' || private.format_day(v_new.notice_deadline, 'de') || ' zum Ende der Saison.' end,
        case when v_en then 'Contract number: ' else 'Vertragsnummer: ' end || v_number,
        case when v_en then format('The contract is attached to this e-mail as a PDF (%s).', private.contract_mail_attachment(v_new) ->> 'filename')
             else format('Der Vertrag liegt dieser E-Mail als PDF bei (%s).', private.contract_mail_attachment(v_new) ->> 'filename') end,
        case when v_en then 'In your account: ' else 'In Ihrem Konto: ' end || v_site || case when v_en then '/en' else '' end || '/account/long-term',
        '',
        '----------------------------------------',
        v_text,
        '----------------------------------------')),
      jsonb_build_array(private.contract_mail_attachment(v_new)), private.setting('harbour_email'), null);

    perform private.on_contract_accepted(v_new.id);
    v_count := v_count + 1;
  end loop;

  insert into public.contract_renewal_runs (request_key, from_season_id, to_season_id, issued, run_at, run_by)
  values (p_request_key, p_season_id, v_next.id, v_count, private.now(), (select auth.uid()))
  returning * into v_run;
  return v_run;
end
$$;
comment on function private.confirm_renewal(uuid, uuid) is 'The rule behind public.confirm_renewal (security definer, not exposed by the API).';
revoke execute on function private.confirm_renewal(uuid, uuid) from public;
grant execute on function private.confirm_renewal(uuid, uuid) to authenticated, service_role;

create function public.confirm_renewal(p_season_id uuid, p_request_key uuid)
returns public.contract_renewal_runs
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.confirm_renewal(p_season_id, p_request_key)
$$;
comment on function public.confirm_renewal(uuid, uuid) is 'Admins: issues the next season''s contracts of every contract the preview marks renew (at most once per contract; a retry with the same request key answers the first run), holds the berths, e-mails the holders; renewal_no_next_season, season_not_found, invalid_request_key.';
revoke execute on function public.confirm_renewal(uuid, uuid) from anon, public;
grant execute on function public.confirm_renewal(uuid, uuid) to authenticated;

-- ---------------------------------------------------------------- notice and end
-- The mails of a notice or an end: to the holder (their language) and a note to the office.
create function private.contract_notice_mails(p_contract public.contracts, p_kind text, p_reason text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_en boolean := p_contract.locale = 'en';
  v_place text := (select p.name from public.places p where p.id = p_contract.place_id);
  v_season public.seasons;
  v_name text := concat_ws(' ', p_contract.holder ->> 'first_name', p_contract.holder ->> 'last_name');
begin
  select * into v_season from public.seasons s where s.id = p_contract.season_id;
  perform private.queue_mail(
    case when p_kind = 'notice' then 'contract_notice' else 'contract_ended' end, p_contract.email, p_contract.locale,
    case when p_kind = 'notice' then
           case when v_en then format('Notice received: contract %s, berth %s', p_contract.contract_number, v_place)
                else format('Kündigung erhalten: Vertrag %s, Liegeplatz %s', p_contract.contract_number, v_place) end
         else case when v_en then format('Your berth contract %s ends', p_contract.contract_number)
                   else format('Ihr Liegeplatzvertrag %s endet', p_contract.contract_number) end end,
    private.mail_text(p_contract.locale, v_name, concat_ws(E'\n',
      case when p_kind = 'notice' then
             case when v_en then format('we confirm your notice of contract %s (berth %s). It ends with the season on %s and is not renewed.',
                                        p_contract.contract_number, v_place, private.format_day(p_contract.ends_on, 'en'))
                  else format('wir bestätigen Ihre Kündigung des Vertrags %s (Liegeplatz %s). Er endet mit der Saison am %s und wird nicht verlängert.',
                              p_contract.contract_number, v_place, private.format_day(p_contract.ends_on, 'de')) end
           else case when v_en then format('the harbour ends your contract %s (berth %s) with the season on %s; it is not renewed.',
                                          p_contract.contract_number, v_place, private.format_day(p_contract.ends_on, 'en'))
                     else format('der Hafen beendet Ihren Vertrag %s (Liegeplatz %s) zum Ende der Saison am %s; er wird nicht verlängert.',
                                 p_contract.contract_number, v_place, private.format_day(p_contract.ends_on, 'de')) end end,
      case when p_reason is not null then case when v_en then 'Reason: ' else 'Grund: ' end || p_reason end,
      case when v_en then 'Questions? Reply to this e-mail.' else 'Fragen? Antworten Sie einfach auf diese E-Mail.' end)),
    '[]'::jsonb, private.setting('harbour_email'), null);
  perform private.queue_mail(
    'contract_notice_office', private.setting('harbour_email'), 'de',
    case when p_kind = 'notice' then 'Kündigung: ' else 'Vertrag beendet: ' end
      || p_contract.contract_number || ', Liegeplatz ' || v_place || ' (' || v_name || ')',
    private.mail_text('de', null, concat_ws(E'\n',
      case when p_kind = 'notice' then v_name || ' hat den Vertrag ' || p_contract.contract_number || ' zum ' || private.format_day(p_contract.ends_on, 'de') || ' gekündigt.'
           else 'Der Vertrag ' || p_contract.contract_number || ' (' || v_name || ') wurde zum ' || private.format_day(p_contract.ends_on, 'de') || ' beendet.' end,
      case when p_reason is not null then 'Grund: ' || p_reason end,
      'Der Liegeplatz ' || v_place || ' ist ab der nächsten Saison frei und kann in der Verwaltung angeboten werden.')),
    '[]'::jsonb, null, null);
end
$$;
comment on function private.contract_notice_mails(public.contracts, text, text) is 'E-mails the holder (their language) and the office (German) about a notice or the end of a contract.';
revoke execute on function private.contract_notice_mails(public.contracts, text, text) from public;

-- The holder gives notice for the end of the contract's season, at the latest on its notice
-- deadline (Europe/Berlin).
create function private.give_contract_notice(p_contract_id uuid)
returns public.contracts
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contracts;
begin
  select * into v_row from public.contracts c
   where c.id = p_contract_id
     and (c.user_id = (select auth.uid()) or lower(c.email) = private.my_verified_email())
  for update;
  if not found then
    raise exception 'contract_not_found' using errcode = 'PT404';
  end if;
  if v_row.status <> 'active' then
    raise exception 'contract_not_active' using errcode = 'P0001', hint = 'The contract was already given notice or ended.';
  end if;
  if private.berlin_date(private.now()) > v_row.notice_deadline then
    raise exception 'notice_deadline_passed' using errcode = 'P0001',
      hint = 'The notice deadline of this contract has passed; ask the harbour office.';
  end if;
  update public.contracts c set status = 'noticed' where c.id = v_row.id returning * into v_row;
  insert into public.contract_notices (contract_id, kind, reason, given_at, given_by)
  values (v_row.id, 'notice', null, private.now(), (select auth.uid()));
  perform private.contract_notice_mails(v_row, 'notice', null);
  return v_row;
end
$$;
comment on function private.give_contract_notice(uuid) is 'The rule behind public.give_contract_notice (security definer, not exposed by the API).';
revoke execute on function private.give_contract_notice(uuid) from public;
grant execute on function private.give_contract_notice(uuid) to authenticated, service_role;

create function public.give_contract_notice(p_contract_id uuid)
returns public.contracts
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.give_contract_notice(p_contract_id)
$$;
comment on function public.give_contract_notice(uuid) is 'The holder gives notice of an active contract for the end of its season, at the latest on its notice deadline; contract_not_found, contract_not_active, notice_deadline_passed.';
revoke execute on function public.give_contract_notice(uuid) from anon, public;
grant execute on function public.give_contract_notice(uuid) to authenticated;

-- The fees of a contract whose season will not happen (ended before it began): every
-- instalment's invoice not yet cancelled gets its cancellation invoice (Storno, the one gapless
-- series, private.cancel_invoice_document as for an order), so the fee no longer owes anything:
-- not collected (due_fee_debits), not overdue or reminded (overdue_fees), state cancelled. What
-- the ledger already holds for it stays there and shows as overpaid, the money to return
-- (long_term_fees_overview, contract_balances); paying it back is the office's.
create function private.cancel_contract_fees(p_contract_id uuid)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_doc public.invoices;
  v_count integer := 0;
begin
  for v_doc in
    select i.* from public.long_term_fees f
      join public.invoices i on i.id = f.invoice_id
     where f.contract_id = p_contract_id
       and not exists (select 1 from public.invoices c where c.refers_to = i.id and c.kind = 'cancellation')
     order by f.instalment
       for update of f
  loop
    perform private.cancel_invoice_document(null::public.orders, v_doc, 'cancelled');
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
comment on function private.cancel_contract_fees(uuid) is 'Cancels the invoices of a contract''s instalments (a cancellation invoice each, once) when its season will not happen; what was paid shows as overpaid.';
revoke execute on function private.cancel_contract_fees(uuid) from public;

-- The harbour ends a contract with a reason: not renewed; a contract whose season has not begun
-- (a renewal already issued) gives up its holding, so the berth is free for that season, and its
-- fee invoices are cancelled (private.cancel_contract_fees).
create function private.end_contract(p_contract_id uuid, p_reason text)
returns public.contracts
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contracts;
  v_holder public.long_term_holders;
  v_reason text := nullif(btrim(p_reason), '');
  v_successor uuid;
begin
  perform private.require_admin();
  if v_reason is null or char_length(v_reason) > 1000 then
    raise exception 'contract_end_reason_invalid' using errcode = '22023', hint = 'A reason of 1 to 1000 characters.';
  end if;
  select * into v_row from public.contracts c where c.id = p_contract_id for update;
  if not found then
    raise exception 'contract_not_found' using errcode = 'PT404';
  end if;
  if v_row.status = 'ended' then
    raise exception 'contract_not_active' using errcode = 'P0001', hint = 'The contract has already ended.';
  end if;
  update public.contracts c set status = 'ended' where c.id = v_row.id returning * into v_row;
  -- A notice given before stays recorded; the end replaces it only when there was none.
  insert into public.contract_notices (contract_id, kind, reason, given_at, given_by)
  values (v_row.id, 'ended', v_reason, private.now(), (select auth.uid()))
  on conflict (contract_id) do nothing;
  if v_row.starts_on > private.berlin_date(private.now()) then
    delete from public.long_term_holders h where h.id = v_row.holder_id returning * into v_holder;
    if v_holder.id is not null then
      insert into public.long_term_holder_events (holder_id, place_id, user_id, action, starts_on, ends_on, holder, actor, created_at)
      values (v_holder.id, v_holder.place_id, v_holder.user_id, 'removed', v_holder.starts_on, v_holder.ends_on, to_jsonb(v_holder),
              (select auth.uid()), private.now());
    end if;
    -- The season will not happen: its instalments are cancelled, not left payable.
    perform private.cancel_contract_fees(v_row.id);
  end if;
  perform private.contract_notice_mails(v_row, 'ended', v_reason);
  -- The renewal already issued continues this lease into the next season (ADR 0052): the
  -- harbour ending the lease ends it too, with the same reason (its own holding given up, its
  -- fees cancelled, its own e-mail), and so on down the chain.
  for v_successor in
    select c.id from public.contracts c where c.renews_contract_id = v_row.id and c.status <> 'ended'
  loop
    perform private.end_contract(v_successor, v_reason);
  end loop;
  return v_row;
end
$$;
comment on function private.end_contract(uuid, text) is 'The rule behind public.end_contract (security definer, not exposed by the API).';
revoke execute on function private.end_contract(uuid, text) from public;
grant execute on function private.end_contract(uuid, text) to authenticated, service_role;

create function public.end_contract(p_contract_id uuid, p_reason text)
returns public.contracts
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.end_contract(p_contract_id, p_reason)
$$;
comment on function public.end_contract(uuid, text) is 'Admins end a contract with a reason (e-mailed to the holder): not renewed; a contract not yet begun gives up its holding and its fee invoices are cancelled; its renewal, if already issued, is ended with it; contract_end_reason_invalid, contract_not_found, contract_not_active.';
revoke execute on function public.end_contract(uuid, text) from anon, public;
grant execute on function public.end_contract(uuid, text) to authenticated;
