-- Renewal and notice (issue 42 deliverable 6, docs/adr/0052-renewal-and-notice.md): the preview
-- of a season's contracts (refused without a next season; price change, notice, notice still
-- open); the confirmation issues the next season's contracts at the new price with the plan and
-- method carried over, holds the berths and e-mails the holders, once (a retry and a second run
-- issue nothing); notice before the deadline, refused after it; the harbour ends a contract with
-- a reason; an ended or noticed contract frees its berth for the next season. Only contracts
-- whose terms say they renew are renewed (contract_terms.renews_automatically): the schema's
-- version 1 says they do not; this harbour publishes a version 2 that says they do, and a version
-- 3 that says they do not again, under which Dora's contract ends with its season.
begin;
select plan(43);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('admin', array['admin']);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('anna');
select tests.create_user('ben');
select tests.create_user('carla');
select tests.create_user('dora');

insert into public.places (name, width, length) values ('R-1', 4.5, 12.0), ('R-2', 4.5, 12.0), ('R-3', 4.5, 12.0), ('R-4', 4.5, 12.0);
insert into public.seasons (name, name_en, kind, starts_on, ends_on) values ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');

create function pg_temp.place(p_name text) returns uuid language sql as $$ select id from public.places where name = p_name $$;
create function pg_temp.season(p_name text) returns uuid language sql as $$ select id from public.seasons where name = p_name $$;
create function pg_temp.uid(p_ident text) returns uuid language sql as $$ select id from auth.users where email = p_ident || '@test.local' $$;
create function pg_temp.contract(p_ident text, p_season text) returns uuid language sql as $$
  select c.id from public.contracts c where c.email = p_ident || '@test.local' and c.season_id = pg_temp.season(p_season)
$$;

-- Anna (10 × 4 m), Ben (8 × 3 m), Carla (8 × 3 m) and Dora (8 × 3 m) hold R-1 to R-4 for summer 2027.
insert into public.long_term_applications (user_id, email, first_name, last_name, locale, boat)
values (pg_temp.uid('anna'), 'anna@test.local', 'Anna', 'Albers', 'de', '{"name": "Aurora", "length": 10.0, "width": 4.0}'),
       (pg_temp.uid('ben'), 'ben@test.local', 'Ben', 'Brandt', 'en', '{"name": "Bora", "length": 8.0, "width": 3.0}'),
       (pg_temp.uid('carla'), 'carla@test.local', 'Carla', 'Conrad', 'de', '{"name": "Calypso", "length": 8.0, "width": 3.0}'),
       (pg_temp.uid('dora'), 'dora@test.local', 'Dora', 'Diehl', 'de', '{"name": "Delfin", "length": 8.0, "width": 3.0}');
select tests.authenticate_as('admin');
select throws_ok($$ select public.publish_contract_terms('## 2. Laufzeit', '## 2. Term', null) $$, '22023', 'contract_terms_invalid',
  'terms say whether contracts renew: not saying is refused');
select results_eq(
  $$ select version, renews_automatically from public.publish_contract_terms(
       E'## 2. Laufzeit\nDer Vertrag verlängert sich um die nächste Saison, wenn er nicht bis zur Kündigungsfrist gekündigt wird.',
       E'## 2. Term\nThe contract renews for the next season unless notice is given by the notice deadline.', true) $$,
  $$ values (2, true) $$, 'the harbour publishes terms under which contracts renew (version 1 says they do not)');
select public.send_offer(a.id, pg_temp.place(p.name), pg_temp.season('Sommer 2027'))
from public.long_term_applications a
join (values ('anna@test.local', 'R-1'), ('ben@test.local', 'R-2'), ('carla@test.local', 'R-3'), ('dora@test.local', 'R-4')) p(email, name)
  on p.email = a.email;

select tests.authenticate_as('anna');
select public.accept_offer(o.id, 2, 'sepa_debit', (select contract_sha256 from public.offer_contract(o.id, 2, 'sepa_debit')))
from public.berth_offers o where o.email = 'anna@test.local';
select tests.authenticate_as('ben');
select public.accept_offer(o.id, 4, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 4, 'bank_transfer')))
from public.berth_offers o where o.email = 'ben@test.local';
select tests.authenticate_as('carla');
select public.accept_offer(o.id, 1, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 1, 'bank_transfer')))
from public.berth_offers o where o.email = 'carla@test.local';
-- Dora accepts after the harbour went back to terms without renewal (version 3).
select tests.authenticate_as('admin');
select public.publish_contract_terms('## 2. Laufzeit' || chr(10) || 'Der Vertrag endet mit der Saison.', '## 2. Term' || chr(10) || 'The contract ends with the season.', false);
select tests.authenticate_as('dora');
select public.accept_offer(o.id, 1, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 1, 'bank_transfer')))
from public.berth_offers o where o.email = 'dora@test.local';
select tests.clear_authentication();
select results_eq($$ select email, gross_cents, notice_deadline, terms_version from public.contracts order by email $$,
  $$ values ('anna@test.local', 107000::bigint, '2027-08-02'::date, 2), ('ben@test.local', 88000::bigint, '2027-08-02'::date, 2),
            ('carla@test.local', 88000::bigint, '2027-08-02'::date, 2), ('dora@test.local', 88000::bigint, '2027-08-02'::date, 3) $$,
  'set-up: four contracts for summer 2027 accepted online (running metres, electricity), notice by 2 August, on the terms in force');

-- ---------------------------------------------------------------- no next season
select tests.authenticate_as('admin');
select throws_ok($$ select * from public.renewal_preview(pg_temp.season('Sommer 2027')) $$, 'P0001', 'renewal_no_next_season',
  'without a next season of the kind the preview is refused with a clear code');
select throws_ok($$ select public.confirm_renewal(pg_temp.season('Sommer 2027'), gen_random_uuid()) $$, 'P0001', 'renewal_no_next_season',
  'and so is the confirmation');

-- The next summer, priced by m² from 2028: 40 m² × 23,75 € = 950,00 € (Anna: unchanged), 24 m² = 570,00 € (Ben: cheaper).
select tests.clear_authentication();
insert into public.seasons (name, name_en, kind, starts_on, ends_on) values ('Sommer 2028', 'Summer 2028', 'summer', '2028-04-01', '2028-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'square_metre', 2375, 19, 12000, 19, '2028-01-01');

-- ---------------------------------------------------------------- notice before the deadline
select private.freeze_clock('2027-08-02 23:00+02');
select tests.authenticate_as('ben');
select throws_ok(format('select public.give_contract_notice(%L)', pg_temp.contract('carla', 'Sommer 2027')), 'PT404', 'contract_not_found',
  'a holder cannot give notice of someone else''s contract');
select tests.authenticate_as('carla');
select is((select status from public.give_contract_notice(pg_temp.contract('carla', 'Sommer 2027'))), 'noticed',
  'on the deadline day (Europe/Berlin) the holder gives notice');
select throws_ok(format('select public.give_contract_notice(%L)', pg_temp.contract('carla', 'Sommer 2027')), 'P0001', 'contract_not_active',
  'a second notice is refused');
select results_eq($$ select kind, reason is null, given_by = auth.uid() from public.contract_notices $$,
  $$ values ('notice', true, true) $$, 'the notice is recorded with who gave it; the holder reads it');
select tests.clear_authentication();
select results_eq($$ select kind, recipient, locale from public.outbox where kind in ('contract_notice', 'contract_notice_office') order by kind $$,
  $$ values ('contract_notice', 'carla@test.local', 'de'), ('contract_notice_office', private.setting('harbour_email'), 'de') $$,
  'the holder gets the confirmation, the office a note');
select ok((select body_text like '%Kündigung des Vertrags LV-2027-0003%nicht verlängert%' from public.outbox where kind = 'contract_notice'),
  'the confirmation names the contract and says it is not renewed');

select tests.authenticate_as('admin');
select results_eq($$ select contract_number, action from public.renewal_preview(pg_temp.season('Sommer 2027')) $$,
  $$ values ('LV-2027-0001', 'notice_open'), ('LV-2027-0002', 'notice_open'), ('LV-2027-0003', 'noticed'), ('LV-2027-0004', 'terms_end') $$,
  'before the deadline has passed nothing renews yet (the holders may still give notice)');
select is((select issued from public.confirm_renewal(pg_temp.season('Sommer 2027'), gen_random_uuid())), 0,
  'a confirmation before the deadline issues nothing');

-- ---------------------------------------------------------------- after the deadline
select tests.clear_authentication();
select private.freeze_clock('2027-08-03 00:30+02');
select tests.authenticate_as('ben');
select throws_ok(format('select public.give_contract_notice(%L)', pg_temp.contract('ben', 'Sommer 2027')), 'P0001', 'notice_deadline_passed',
  'after the deadline the notice is refused with a clear code');
select is((select status from public.contracts where id = pg_temp.contract('ben', 'Sommer 2027')), 'active', 'and the contract stays active');
select throws_ok($$ select * from public.renewal_preview(pg_temp.season('Sommer 2027')) $$, '42501', 'admin_only', 'only admins preview');
select throws_ok($$ select public.confirm_renewal(pg_temp.season('Sommer 2027'), gen_random_uuid()) $$, '42501', 'admin_only',
  'only admins confirm');

select tests.authenticate_as('admin');
select results_eq(
  $$ select contract_number, first_name, place_name, boat_name, old_gross_cents, new_gross_cents, action, changes, next_season_name
     from public.renewal_preview(pg_temp.season('Sommer 2027')) $$,
  $$ values ('LV-2027-0001', 'Anna', 'R-1', 'Aurora', 107000::bigint, 107000::bigint, 'renew', '{terms_newer}'::text[], 'Sommer 2028'),
            ('LV-2027-0002', 'Ben', 'R-2', 'Bora', 88000::bigint, 69000::bigint, 'renew', '{price_changed,terms_newer}'::text[], 'Sommer 2028'),
            ('LV-2027-0003', 'Carla', 'R-3', 'Calypso', 88000::bigint, 69000::bigint, 'noticed', '{price_changed,terms_newer}'::text[], 'Sommer 2028'),
            ('LV-2027-0004', 'Dora', 'R-4', 'Delfin', 88000::bigint, 69000::bigint, 'terms_end', '{price_changed}'::text[], 'Sommer 2028') $$,
  'the preview: holder, berth, boat, old and new price (the list valid on the next season''s first day), what happens and the changes; Dora''s terms end her contract with the season');
select is((select count(*)::int from public.contracts where renews_contract_id is not null), 0, 'the preview issues nothing');

-- ---------------------------------------------------------------- confirm, twice
select is((select issued from public.confirm_renewal(pg_temp.season('Sommer 2027'), '00000000-0000-4000-8000-000000000001')), 2,
  'the confirmation issues the two contracts that renew');
select is((select issued from public.confirm_renewal(pg_temp.season('Sommer 2027'), '00000000-0000-4000-8000-000000000001')), 2,
  'a retry with the same request key answers the first run');
select is((select count(*)::int from public.contract_renewal_runs), 2, 'and adds no run (the one before the deadline and this one)');
select is((select issued from public.confirm_renewal(pg_temp.season('Sommer 2027'), gen_random_uuid())), 0,
  'a second run issues nothing twice');
select results_eq(
  $$ select c.contract_number, c.renews_contract_id = pg_temp.contract(split_part(c.email, '@', 1), 'Sommer 2027'), c.offer_id is null,
            c.gross_cents, c.payment_plan, c.payment_method, c.terms_version, c.starts_on, c.ends_on, c.notice_deadline, c.status
     from public.contracts c where c.season_id = pg_temp.season('Sommer 2028') order by c.contract_number $$,
  $$ values ('LV-2028-0001', true, true, 107000::bigint, 2, 'sepa_debit', 2, '2028-04-01'::date, '2028-10-31'::date, '2028-08-02'::date, 'active'),
            ('LV-2028-0002', true, true, 69000::bigint, 4, 'bank_transfer', 2, '2028-04-01'::date, '2028-10-31'::date, '2028-08-02'::date, 'active') $$,
  'the renewed contracts: next season, new price, plan and method and terms version carried over, a notice deadline of their own; none for Dora');
select ok((select lines @> '[{"code": "berth", "quantity": 24, "unit": "square_metre", "unit_price_cents": 2375}]'::jsonb
           from public.contracts where id = pg_temp.contract('ben', 'Sommer 2028')), 'the lines are the next season''s (24 m² at 23,75 €)');
select ok((select contract_text like 'Renewal of contract LV-2027-0002 for Summer 2028.%' and contract_text like '%Total: €690.00%'
                  and contract_sha256 = encode(sha256(convert_to(contract_text, 'UTF8')), 'hex')
           from public.contracts where id = pg_temp.contract('ben', 'Sommer 2028')),
  'the text names the contract it renews, in the holder''s language, with its hash');
select results_eq(
  $$ select p.name, h.first_name, h.starts_on, h.ends_on from public.long_term_holders h join public.places p on p.id = h.place_id
     where h.starts_on = '2028-04-01' order by p.name $$,
  $$ values ('R-1', 'Anna', '2028-04-01'::date, '2028-10-31'::date), ('R-2', 'Ben', '2028-04-01'::date, '2028-10-31'::date) $$,
  'the berths are held for the next season');
select results_eq($$ select recipient, locale from public.outbox where kind = 'contract_renewed' order by recipient $$,
  $$ values ('anna@test.local', 'de'), ('ben@test.local', 'en') $$, 'each holder is e-mailed once, in their language');
select ok((select subject like 'Your berth contract is renewed: LV-2028-0002%' and body_text like '%€690.00 (last season: €880.00)%'
                  and body_text like '%The contract is attached to this e-mail as a PDF (Contract-LV-2028-0002.pdf).%'
           from public.outbox where kind = 'contract_renewed' and recipient = 'ben@test.local'),
  'the e-mail names the new and the old price and says the PDF is attached');
select ok((select body_text like '%Der Vertrag liegt dieser E-Mail als PDF bei (Vertrag-LV-2028-0001.pdf).%'
           from public.outbox where kind = 'contract_renewed' and recipient = 'anna@test.local'),
  'so does the German one');
select is((select attachments from public.outbox where kind = 'contract_renewed' and recipient = 'ben@test.local'),
  jsonb_build_array(jsonb_build_object('contract_id', pg_temp.contract('ben', 'Sommer 2028'), 'filename', 'Contract-LV-2028-0002.pdf',
                                       'content_type', 'application/pdf')),
  'the renewal e-mail attaches the new contract''s PDF by reference');
select is((select action from public.renewal_preview(pg_temp.season('Sommer 2027')) where contract_number = 'LV-2027-0001'), 'renewed',
  'the preview now shows them renewed');

-- ---------------------------------------------------------------- the harbour ends a contract
select throws_ok(format('select public.end_contract(%L, %L)', pg_temp.contract('anna', 'Sommer 2028'), '  '), '22023',
  'contract_end_reason_invalid', 'ending a contract needs a reason');
select tests.authenticate_as('harbour');
select throws_ok(format('select public.end_contract(%L, %L)', pg_temp.contract('anna', 'Sommer 2028'), 'x'), '42501', 'admin_only',
  'only admins end a contract');
select tests.authenticate_as('admin');
select is((select status from public.end_contract(pg_temp.contract('anna', 'Sommer 2028'), 'Liegeplatz wird umgebaut')), 'ended',
  'an admin ends the renewed contract with a reason');
select results_eq($$ select kind, reason from public.contract_notices where contract_id = pg_temp.contract('anna', 'Sommer 2028') $$,
  $$ values ('ended', 'Liegeplatz wird umgebaut') $$, 'the end is recorded with its reason');
select ok((select body_text like '%Grund: Liegeplatz wird umgebaut%' from public.outbox where kind = 'contract_ended' and recipient = 'anna@test.local'),
  'the holder is told, with the reason');
select is((select count(*)::int from public.long_term_holders where place_id = pg_temp.place('R-1') and starts_on = '2028-04-01'), 0,
  'the holding of the season not yet begun is given up');
select results_eq($$ select name from public.free_berths_for_season(pg_temp.season('Sommer 2028')) order by name $$,
  $$ values ('R-1'), ('R-3'), ('R-4') $$,
  'the ended, the noticed and the not renewing contract''s berths are free for the next season (offers); the renewed one is not');

-- ---------------------------------------------------------------- who reads
select tests.authenticate_as('ben');
select is((select count(*)::int from public.contract_notices), 0, 'a holder reads no one else''s notice');
select is((select count(*)::int from public.contract_renewal_runs), 0, 'nor the renewal runs');
select tests.authenticate_as('harbour');
select is((select count(*)::int from public.contract_notices), 2, 'staff read the notices');
select throws_ok($$ update public.contract_notices set reason = 'x' $$, '42501', null, 'nobody writes notices directly');

select * from finish();
rollback;
