-- Offers from the waiting list and contracts accepted online (issue 42 deliverables 2 and 3,
-- docs/adr/0047-offers-and-contracts.md): the candidates of a berth and season in queue order
-- with the reasons; an offer with the default deadline and its e-mail; acceptance checks the
-- hash of the text shown (refused when the terms changed meanwhile), stores the contract with
-- who, when, IP and user agent, holds the berth and ends the offer; the contract never changes
-- but its status; a decline keeps the place once (setting), the next applicant with one click;
-- a lapsed offer (the schedule) and the automatic next step; the terms are versioned.
begin;
select plan(63);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('admin', array['admin']);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('anna');
select tests.create_user('ben');
select tests.create_user('carla');
select tests.create_user('fiona');
select tests.create_user('gus');
select tests.create_user('other');

insert into public.places (name, width, length) values
  ('T-1', 4.0, 12.0), ('T-2', 3.0, 8.0), ('T-3', 4.0, 12.0), ('T-4', 4.0, 12.0), ('T-9', 5.0, 15.0);
insert into public.seasons (name, kind, starts_on, ends_on) values ('Sommer 2027', 'summer', '2027-04-01', '2027-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');

create function pg_temp.place(p_name text) returns uuid language sql as $$ select id from public.places where name = p_name $$;
create function pg_temp.season() returns uuid language sql as $$ select id from public.seasons where name = 'Sommer 2027' $$;
create function pg_temp.app(p_email text) returns uuid language sql as $$ select id from public.long_term_applications where email = p_email $$;
create function pg_temp.offer(p_email text, p_place text) returns uuid language sql as $$
  select o.id from public.berth_offers o where o.email = p_email and o.place_id = pg_temp.place(p_place) order by o.sent_at desc, o.id limit 1
$$;
create function pg_temp.uid(p_ident text) returns uuid language sql as $$ select id from auth.users where email = p_ident || '@test.local' $$;

-- The waiting list in order: anna applied without an account (her address is later verified),
-- ben's boat is too long for T-1, erik holds a berth, dora wants T-2, carla, fiona and gus fit.
insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, locale, boat)
values (null, null, 'anna@test.local', 'Anna', 'Albers', 'de', '{"name": "Aurora", "length": 9.4, "width": 3.2}'),
       (null, pg_temp.uid('ben'), 'ben@test.local', 'Ben', 'Brandt', 'de', '{"name": "Bora", "length": 14.0, "width": 3.5}'),
       (null, null, 'erik@test.local', 'Erik', 'Ernst', 'de', '{"name": "Eider", "length": 8.0, "width": 3.0}'),
       (pg_temp.place('T-2'), null, 'dora@test.local', 'Dora', 'Dahl', 'en', '{"name": "Dune", "length": 7.0, "width": 2.5}'),
       (null, pg_temp.uid('carla'), 'carla@test.local', 'Carla', 'Conrad', 'en', '{"name": "Calypso", "length": 10.0, "width": 3.8}'),
       (null, pg_temp.uid('fiona'), 'fiona@test.local', 'Fiona', 'Fink', 'en', '{"name": "Fjord", "length": 8.0, "width": 3.0}'),
       (null, pg_temp.uid('gus'), 'gus@test.local', 'Gus', 'Graf', 'de', '{"name": "Gischt", "length": 8.0, "width": 3.0}');
insert into public.long_term_holders (place_id, email, last_name, starts_on) values (pg_temp.place('T-9'), 'erik@test.local', 'Ernst', '2026-04-01');

-- ---------------------------------------------------------------- terms
select results_eq($$ select version, body_de like '## 1. Vertragsgegenstand%', body_en like '## 1. Subject of the contract%' from public.contract_terms $$,
  $$ values (1, true, true) $$, 'version 1 of the terms holds the text /vertrag showed, in German and English');
select tests.authenticate_as_anon();
select is((select count(*)::int from public.contract_terms), 1, 'everyone reads the terms (anon too)');
select tests.authenticate_as('anna');
select throws_ok($$ select public.publish_contract_terms('x', 'y', false) $$, '42501', 'admin_only', 'only admins publish terms');
select throws_ok($$ update public.contract_terms set body_de = 'x' $$, '42501', null, 'nobody writes the terms directly');
select tests.clear_authentication();
select throws_ok($$ update public.contract_terms set body_de = 'x' where version = 1 $$, '42501', 'contract_terms_immutable',
  'a published version never changes, whoever writes');

-- ---------------------------------------------------------------- candidates
select tests.authenticate_as('anna');
select throws_ok($$ select * from public.offer_candidates(pg_temp.place('T-1'), pg_temp.season()) $$, '42501', 'admin_only',
  'only admins see the candidates');
select tests.authenticate_as('admin');
select results_eq(
  $$ select first_name, waiting_position, proposed, reasons from public.offer_candidates(pg_temp.place('T-1'), pg_temp.season()) $$,
  $$ values ('Anna', 1, true, '{}'::text[]), ('Ben', 2, false, '{boat_too_long}'::text[]), ('Erik', 3, false, '{holds_berth}'::text[]),
            ('Dora', 4, false, '{other_berth}'::text[]), ('Carla', 5, true, '{}'::text[]), ('Fiona', 6, true, '{}'::text[]),
            ('Gus', 7, true, '{}'::text[]) $$,
  'the candidates of T-1 for summer 2027 in queue order, each with why proposed or not');
select ok((select bool_and(name <> 'T-9') from public.free_berths_for_season(pg_temp.season())), 'a held berth is not free for the season');
select ok((select count(*) = 4 from public.free_berths_for_season(pg_temp.season())), 'the four others are');

-- ---------------------------------------------------------------- offer
select throws_ok($$ select public.send_offer(pg_temp.app('ben@test.local'), pg_temp.place('T-1'), pg_temp.season()) $$,
  'P0001', 'offer_boat_does_not_fit', 'a boat too long for the berth gets no offer');
select throws_ok($$ select public.send_offer(pg_temp.app('anna@test.local'), pg_temp.place('T-9'), pg_temp.season()) $$,
  '23P01', 'berth_already_held', 'a held berth is not offered');
select throws_ok($$ select public.send_offer(pg_temp.app('anna@test.local'), pg_temp.place('T-1'), pg_temp.season(), '2027-01-14') $$,
  '22023', 'offer_deadline_invalid', 'a deadline in the past is refused');
select results_eq(
  $$ select status, deadline, gross_cents, jsonb_array_length(lines) from public.send_offer(pg_temp.app('anna@test.local'), pg_temp.place('T-1'), pg_temp.season()) $$,
  $$ values ('open', '2027-01-29'::date, 107000::bigint, 2) $$,
  'anna gets T-1 with the default deadline (14 days) at 10 m x 95 € + 120 € electricity = 1.070 €');
select tests.clear_authentication();
select results_eq(
  $$ select l ->> 'code', (l ->> 'quantity')::int, l ->> 'unit', (l ->> 'unit_price_cents')::int, (l ->> 'vat_rate')::int, (l ->> 'gross_cents')::int
     from jsonb_array_elements(private.long_term_season_lines(pg_temp.season(), 9.4, 3.2)) l $$,
  $$ values ('berth', 10, 'running_metre', 9500, 19, 95000), ('electricity', 1, 'season', 12000, 19, 12000) $$,
  'seam 1: the season lines of a boat, gross per line');
select tests.authenticate_as('admin');
select ok(exists (select 1 from public.outbox where kind = 'berth_offer' and recipient = 'anna@test.local'
                  and subject = 'Angebot: Langzeitliegeplatz T-1 für Sommer 2027' and body_text like '%1.070,00 €%'
                  and body_text like '%29.01.2027%' and body_text like '%/account/long-term?offer=%'),
  'anna is e-mailed the offer in German: berth, season, price, deadline and the link to her account');
select throws_ok($$ select public.send_offer(pg_temp.app('carla@test.local'), pg_temp.place('T-1'), pg_temp.season()) $$,
  '23P01', 'berth_offer_open', 'one open offer per berth and season');
select throws_ok($$ select public.send_offer(pg_temp.app('anna@test.local'), pg_temp.place('T-3'), pg_temp.season()) $$,
  '23P01', 'offer_already_open', 'one open offer per application');
select is((select reasons from public.offer_candidates(pg_temp.place('T-3'), pg_temp.season()) where first_name = 'Anna'), '{offer_open}'::text[],
  'for another berth anna is not proposed while her offer is open');

-- Who reads the offer: anna by her verified address (she applied without an account), staff all.
select tests.authenticate_as('anna');
select is((select count(*)::int from public.berth_offers), 1, 'anna reads her offer (matched by her verified e-mail address)');
select tests.authenticate_as('other');
select is((select count(*)::int from public.berth_offers), 0, 'another customer reads none');
select throws_ok($$ select * from public.offer_contract(pg_temp.offer('anna@test.local', 'T-1')) $$, 'PT404', 'offer_not_found',
  'nor its contract text');
select throws_ok($$ select public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 1, 'bank_transfer', repeat('0', 64)) $$,
  'PT404', 'offer_not_found', 'nor accepts it');
select tests.authenticate_as('harbour');
select is((select count(*)::int from public.berth_offers), 1, 'harbour staff read the offers');

-- ---------------------------------------------------------------- accept
select tests.authenticate_as('anna');
create temporary table shown on commit drop as
  select * from public.offer_contract(pg_temp.offer('anna@test.local', 'T-1'), 2, 'bank_transfer');
select ok((select contract_text like '%Liegeplatz: T-1%' and contract_text like '%Boot: Aurora, 9,4 m × 3,2 m%'
                  and contract_text like '%Gesamt: 1.070,00 €%' and contract_text like '%in 2 Raten%'
                  and contract_text like '%per Überweisung%' and contract_text like '%Kündigung: bis 02.08.2027%'
                  and contract_text like '%Vertragsbedingungen (Fassung 1 vom %' and contract_text like '%## 5. Haftung%' from shown),
  'the contract text: berth, boat, price, payment plan and method, notice deadline (90 days before the end) and the terms, in German');
select is((select contract_sha256 from shown), (select encode(sha256(convert_to(contract_text, 'UTF8')), 'hex') from shown),
  'its sha256 is the hash of the text shown');
select throws_ok($$ select public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 2, 'bank_transfer', repeat('a', 64)) $$,
  'P0001', 'contract_text_changed', 'a hash that is not the text''s is refused');
select throws_ok($$ select public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 3, 'bank_transfer', (select contract_sha256 from shown)) $$,
  '22023', 'payment_plan_invalid', '1, 2 or 4 instalments only');
select throws_ok($$ select public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 2, 'cash', (select contract_sha256 from shown)) $$,
  '22023', 'payment_method_invalid', 'SEPA debit or bank transfer only');
select throws_ok($$ select public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 1, 'bank_transfer', (select contract_sha256 from shown)) $$,
  'P0001', 'contract_text_changed', 'the hash of the text for two instalments does not accept one payment');

-- The terms change while anna reads: the text she saw is no longer the one in force.
select tests.authenticate_as('admin');
select is((select version from public.publish_contract_terms(
  (select body_de || E'\n\n## 6. Schlussbestimmungen\nEs gilt deutsches Recht.' from public.contract_terms where version = 1),
  (select body_en || E'\n\n## 6. Final provisions\nGerman law applies.' from public.contract_terms where version = 1), false)), 2,
  'an admin publishes version 2 of the terms');
select is((select body_de from public.contract_terms where version = 1), (select body_de from public.contract_terms where version = 1 and body_de not like '%Schluss%'),
  'version 1 stays as it was');
select tests.authenticate_as('anna');
select throws_ok($$ select public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 2, 'bank_transfer', (select contract_sha256 from shown)) $$,
  'P0001', 'contract_text_changed', 'the text shown under version 1 is refused once version 2 is in force');

select set_config('request.headers', '{"x-forwarded-for": "203.0.113.7, 10.0.0.1", "user-agent": "pgTAP browser"}', true);
select results_eq(
  $$ select c.contract_number, c.terms_version, c.payment_plan, c.payment_method, c.gross_cents, c.accepted_ip, c.accepted_user_agent,
            c.accepted_at, c.user_id = auth.uid(), c.status, c.notice_deadline, c.contract_text like '%Fassung 2 vom%'
     from public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 2, 'bank_transfer',
                              (select contract_sha256 from public.offer_contract(pg_temp.offer('anna@test.local', 'T-1'), 2, 'bank_transfer'))) c $$,
  $$ values ('LV-2027-0001', 2, 2, 'bank_transfer', 107000::bigint, '203.0.113.7', 'pgTAP browser', '2027-01-15 10:00+01'::timestamptz,
             true, 'active', '2027-08-02'::date, true) $$,
  'anna accepts the text of version 2: the contract with number, terms version, plan, method, price, IP and user agent, when and who');
select tests.clear_authentication();
select results_eq(
  $$ select o.status, a.status, h.place_id = pg_temp.place('T-1'), h.starts_on, h.ends_on, h.user_id = pg_temp.uid('anna'), h.boat_name
     from public.contracts c join public.berth_offers o on o.id = c.offer_id join public.long_term_applications a on a.id = o.application_id
     join public.long_term_holders h on h.id = c.holder_id $$,
  $$ values ('accepted', 'accepted', true, '2027-04-01'::date, '2027-10-31'::date, true, 'Aurora') $$,
  'the offer and the application end accepted; anna holds T-1 for the season');
select is((select contract_sha256 from public.contracts), (select encode(sha256(convert_to(contract_text, 'UTF8')), 'hex') from public.contracts),
  'the stored hash is the stored text''s');
select ok(exists (select 1 from public.long_term_holder_events e where e.action = 'assigned' and e.place_id = pg_temp.place('T-1')),
  'the holding is in the history');
select ok(exists (select 1 from public.outbox where kind = 'contract_accepted' and recipient = 'anna@test.local'
                  and subject = 'Ihr Liegeplatzvertrag LV-2027-0001: Liegeplatz T-1, Sommer 2027' and body_text like '%LIEGEPLATZVERTRAG%'
                  and body_text like '%Der Vertrag liegt dieser E-Mail als PDF bei (Vertrag-LV-2027-0001.pdf).%'),
  'anna is e-mailed the confirmation with the contract text, saying the PDF is attached');
select is((select attachments from public.outbox where kind = 'contract_accepted' and recipient = 'anna@test.local'),
  (select jsonb_build_array(jsonb_build_object('contract_id', id, 'filename', 'Vertrag-LV-2027-0001.pdf', 'content_type', 'application/pdf'))
     from public.contracts where contract_number = 'LV-2027-0001'),
  'the confirmation attaches the contract''s PDF by reference (send-mail renders it)');

select tests.authenticate_as('anna');
select throws_ok($$ select public.accept_offer(pg_temp.offer('anna@test.local', 'T-1'), 2, 'bank_transfer', repeat('a', 64)) $$,
  'P0001', 'offer_not_open', 'an accepted offer is not accepted twice');
select is((select count(*)::int from public.contracts), 1, 'anna reads her contract');
select tests.authenticate_as('other');
select is((select count(*)::int from public.contracts), 0, 'another customer reads none');

-- ---------------------------------------------------------------- immutable
select tests.clear_authentication();
select throws_ok($$ update public.contracts set contract_text = 'anders' $$, '42501', 'contract_immutable', 'the accepted text never changes, whoever writes');
select throws_ok($$ update public.contracts set gross_cents = 1 $$, '42501', 'contract_immutable', 'nor its price');
select throws_ok($$ delete from public.contracts $$, '42501', 'contract_immutable', 'a contract is never deleted');
select tests.authenticate_as('admin');
select ok(not exists (select 1 from public.free_berths_for_season(pg_temp.season()) where name = 'T-1'), 'T-1 is no longer free for the season');
select is((select status from public.set_contract_status((select id from public.contracts), 'noticed')), 'noticed', 'its status changes through the function');
select throws_ok($$ update public.contracts set status = 'ended' $$, '42501', null, 'and through nothing else');

-- ---------------------------------------------------------------- decline, keep place, next
select lives_ok($$ select public.send_offer(pg_temp.app('carla@test.local'), pg_temp.place('T-3'), pg_temp.season()) $$, 'carla gets T-3');
select tests.authenticate_as('carla');
create temporary table queue_before on commit drop as select queue_number from public.long_term_applications where email = 'carla@test.local';
select results_eq($$ select status, kept_place, decline_reason from public.decline_offer(pg_temp.offer('carla@test.local', 'T-3'), 'Zu weit vom Steg') $$,
  $$ values ('declined', true, 'Zu weit vom Steg') $$, 'carla declines T-3 for the first time and keeps her place');
select tests.clear_authentication();
select is((select queue_number from public.long_term_applications where email = 'carla@test.local'), (select queue_number from queue_before),
  'her queue number is unchanged');
select ok(exists (select 1 from public.outbox where kind = 'berth_offer_declined' and recipient = 'hafen@hafen-duesseldorf.de'
                  and body_text like '%Zu weit vom Steg%'), 'the office is told of the decline');
select tests.authenticate_as('admin');
select is((select reasons from public.offer_candidates(pg_temp.place('T-3'), pg_temp.season()) where first_name = 'Carla'), '{declined_before}'::text[],
  'carla is not proposed for T-3 again');
select is((select email from public.offer_next_applicant(pg_temp.offer('carla@test.local', 'T-3'))), 'fiona@test.local',
  'one click: the next proposed applicant (fiona; dora wants another berth) gets T-3');
select is((select next_offer_id from public.berth_offers where id = pg_temp.offer('carla@test.local', 'T-3')), pg_temp.offer('fiona@test.local', 'T-3'),
  'the declined offer names the one that followed');
select throws_ok($$ select public.offer_next_applicant(pg_temp.offer('carla@test.local', 'T-3')) $$, 'P0001', 'offer_not_closed',
  'an offer moves on once');

select lives_ok($$ select public.send_offer(pg_temp.app('carla@test.local'), pg_temp.place('T-4'), pg_temp.season()) $$, 'carla gets T-4');
select tests.authenticate_as('carla');
select is((select kept_place from public.decline_offer(pg_temp.offer('carla@test.local', 'T-4'))), false, 'her second decline does not keep the place');
select tests.clear_authentication();
select ok((select queue_number from public.long_term_applications where email = 'carla@test.local')
          = (select max(queue_number) from public.long_term_applications), 'she moves to the end of the waiting list');

-- ---------------------------------------------------------------- lapse and the automatic next step
select private.freeze_clock('2027-01-30 00:10+01');
select tests.authenticate_as('fiona');
select throws_ok($$ select public.decline_offer(pg_temp.offer('fiona@test.local', 'T-3')) $$, 'P0001', 'offer_lapsed',
  'after the deadline fiona can no longer answer');
select tests.clear_authentication();
update private.app_settings set value = 'true' where key = 'offer_auto_next';
select is(private.lapse_offers(), 1, 'the schedule lapses the offer past its deadline');
select results_eq($$ select o.status, n.email, n.status from public.berth_offers o join public.berth_offers n on n.id = o.next_offer_id
                     where o.id = pg_temp.offer('fiona@test.local', 'T-3') $$,
  $$ values ('lapsed', 'gus@test.local', 'open') $$, 'with offer_auto_next the next proposed applicant (gus) gets T-3 at once');
select ok(exists (select 1 from public.outbox where kind = 'berth_offer_lapsed' and body_text like '%automatisch%'), 'the office is told');
select is(private.lapse_offers(), 0, 'nothing else lapses');

select * from finish();
rollback;
