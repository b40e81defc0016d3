-- Demo of overdue long-term fees (issue 42 item 5, docs/adr/0051-fee-reminders-and-door-code.md):
-- Otto Offen (otto.offen@hafen.test / Kunde1234, German) has a season instalment that fell due
-- 30 days before the day of seeding and is unpaid; the first reminder went out 27 days ago.
-- So the back office lists it (stage 1, door code withheld) and his door-code page explains why
-- the code is not shown.
--
-- The fee belongs to a real contract (long_term_fees.contract_id references public.contracts):
-- Otto applied for D07, was offered Sommer 2027 and accepted 60 days ago in two instalments by
-- bank transfer. The application, the offer and the contract are inserted as the owner with the
-- columns public.accept_offer stores (the contract text is private.render_contract's for the
-- offer, its sha256 as accept_offer takes it), not through accept_offer itself: that acts as the
-- signed-in applicant and on_contract_accepted would issue both instalments with the season's
-- due days, while this demo needs instalment 2 overdue today. Its lines are the contract's
-- agreed price (13 running metres at 96,00 EUR and the electricity flat rate, 1.368,00 EUR), so
-- instalment 2 of 2 is private.fee_instalment_plan's second row, 684,00 EUR, as
-- create_season_fees would make it; only its due day is moved to 30 days before seeding.
-- Not seeded: the holding accept_offer creates (contracts.holder_id has no foreign key; the
-- demo berths' occupancy stays as other tests expect), instalment 1 and the invoice documents
-- (issued by private.issue_fee_invoice in the gapless series).
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

do $$
declare
  v_otto constant uuid := 'a0000000-0000-4000-8000-000000000044';
  v_admin constant uuid := 'a0000000-0000-4000-8000-000000000001';
  v_contract constant uuid := 'c0000000-0000-4000-8000-000000000044';
  v_accepted timestamptz := now() - interval '60 days';
  v_boat constant jsonb := '{"name": "Offenbach", "length": 12.4, "width": 3.9, "tag": "D-0044"}';
  v_season public.seasons;
  v_place public.places;
  v_terms public.contract_terms;
  v_app uuid;
  v_offer public.berth_offers;
  v_lines jsonb;
  v_text text;
  v_fee record;
begin
  select * into v_season from public.seasons s order by s.starts_on limit 1;
  select * into v_place from public.places p where p.name = 'D07';
  select * into v_terms from public.contract_terms t order by t.version desc limit 1;
  v_lines := jsonb_build_array(
    jsonb_build_object('code', 'berth', 'description', 'Liegegeld ' || v_season.name || ' (13 lfd. m)',
                       'description_en', 'Berth fee ' || v_season.name || ' (13 running m)', 'quantity', 13, 'unit', 'running_metre',
                       'unit_price_cents', 9600, 'vat_rate', 19, 'gross_cents', 124800),
    jsonb_build_object('code', 'electricity', 'description', 'Strompauschale ' || v_season.name,
                       'description_en', 'Electricity flat rate ' || v_season.name, 'quantity', 1, 'unit', 'season',
                       'unit_price_cents', 12000, 'vat_rate', 19, 'gross_cents', 12000));

  insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, locale, boat, status, answered_at,
                                             answered_by, created_at)
  values (v_place.id, v_otto, 'otto.offen@hafen.test', 'Otto', 'Offen', 'de', v_boat, 'accepted', v_accepted, v_otto,
          now() - interval '120 days')
  returning id into v_app;
  insert into public.berth_offers (place_id, season_id, application_id, user_id, email, locale, boat, lines, gross_cents, status,
                                   deadline, sent_at, sent_by, answered_at)
  values (v_place.id, v_season.id, v_app, v_otto, 'otto.offen@hafen.test', 'de', v_boat, v_lines, 136800, 'accepted',
          private.berlin_date(now() - interval '70 days') + 14, now() - interval '70 days', v_admin, v_accepted)
  returning * into v_offer;
  v_text := private.render_contract(v_offer, 2, 'bank_transfer', v_terms);
  insert into public.contracts (id, contract_number, offer_id, user_id, holder_id, place_id, season_id, starts_on, ends_on, email, locale,
                                holder, boat, lines, gross_cents, payment_plan, payment_method, terms_version, contract_text,
                                contract_sha256, accepted_at, notice_deadline, created_at)
  values (v_contract, 'LV-DEMO-0044', v_offer.id, v_otto, 'b0000000-0000-4000-8000-000000000044', v_place.id, v_season.id,
          v_season.starts_on, v_season.ends_on, 'otto.offen@hafen.test', 'de',
          jsonb_build_object('first_name', 'Otto', 'last_name', 'Offen', 'email', 'otto.offen@hafen.test', 'phone', null),
          v_boat, v_lines, 136800, 2, 'bank_transfer', v_terms.version, v_text,
          encode(pg_catalog.sha256(convert_to(v_text, 'UTF8')), 'hex'), v_accepted,
          v_season.ends_on - coalesce(private.setting('notice_period_days')::integer, 90), v_accepted);

  select * into v_fee
    from private.fee_instalment_plan(v_lines, 2, v_season.starts_on, v_season.ends_on, private.berlin_date(v_accepted)) p
   where p.instalment = 2;
  insert into public.long_term_fees (id, contract_id, reference, user_id, season_id, instalment, instalments, due_on, payment_method,
                                     lines, gross_cents)
  values ('fe000000-0000-4000-8000-000000000044', v_contract, 'LV-DEMO-0044', v_otto, v_season.id, 2, 2,
          private.berlin_date(now()) - 30, 'bank_transfer', v_fee.lines, v_fee.gross_cents);
end
$$;

insert into public.fee_reminders (fee_id, stage, sent_on, sent_at, days_overdue, balance_cents, recipient)
values ('fe000000-0000-4000-8000-000000000044', 1, private.berlin_date(now()) - 27, now() - interval '27 days', 3, 68400,
        'otto.offen@hafen.test');
