-- A berth whose contract will renew is not free for the next season (issue 42, ADR 0052): until
-- the renewal run issues the renewal, the next season has no holding on it, yet the holder keeps
-- it unless they give notice or the harbour ends the contract. free_berths_for_season leaves it
-- out and send_offer refuses it (berth_renews); noticed, ended and not renewing contracts free
-- their berths; after the run the renewal holds it.
begin;
select plan(9);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('admin', array['admin']);
select tests.create_user('anna');
select tests.create_user('ben');
select tests.create_user('carla');
select tests.create_user('dora');
select tests.create_user('eva');

insert into public.places (name, width, length) values ('N-1', 4.5, 12.0), ('N-2', 4.5, 12.0), ('N-3', 4.5, 12.0), ('N-4', 4.5, 12.0), ('N-5', 4.5, 12.0);
insert into public.seasons (name, name_en, kind, starts_on, ends_on)
values ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31'), ('Sommer 2028', 'Summer 2028', 'summer', '2028-04-01', '2028-10-31');
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');

create function pg_temp.season(p_name text) returns uuid language sql as $$ select id from public.seasons where name = p_name $$;
create function pg_temp.place(p_name text) returns uuid language sql as $$ select id from public.places where name = p_name $$;
create function pg_temp.contract(p_ident text) returns uuid language sql as $$
  select c.id from public.contracts c where c.email = p_ident || '@test.local' and c.season_id = pg_temp.season('Sommer 2027')
$$;
create function pg_temp.accept(p_ident text) returns void language plpgsql as $$
begin
  perform tests.authenticate_as(p_ident);
  perform public.accept_offer(o.id, 1, 'bank_transfer', (select contract_sha256 from public.offer_contract(o.id, 1, 'bank_transfer')))
     from public.berth_offers o where o.email = p_ident || '@test.local';
end
$$;

-- Anna (N-1), Ben (N-2) and Dora (N-4) hold their berths for summer 2027 under terms that renew;
-- Carla (N-3) under terms that end with the season. N-5 has nobody. Eva waits.
insert into public.long_term_applications (user_id, email, first_name, last_name, locale, boat)
select tests.get_user_id(u), u || '@test.local', initcap(u), 'Test', 'de', '{"name": "Boot", "length": 8.0, "width": 3.0}'
  from unnest(array['anna', 'ben', 'carla', 'dora', 'eva']) u;
select tests.authenticate_as('admin');
select public.publish_contract_terms(E'## 2. Laufzeit\nDer Vertrag verlängert sich um die nächste Saison.',
                                     E'## 2. Term\nThe contract renews for the next season.', true);
select public.send_offer(a.id, pg_temp.place(x.name), pg_temp.season('Sommer 2027'))
from public.long_term_applications a
join (values ('anna@test.local', 'N-1'), ('ben@test.local', 'N-2'), ('dora@test.local', 'N-4')) x(email, name) on x.email = a.email;
select pg_temp.accept(u) from unnest(array['anna', 'ben', 'dora']) u;
select tests.authenticate_as('admin');
select public.publish_contract_terms(E'## 2. Laufzeit\nDer Vertrag endet mit der Saison.', E'## 2. Term\nThe contract ends with the season.', false);
select public.send_offer(a.id, pg_temp.place('N-3'), pg_temp.season('Sommer 2027')) from public.long_term_applications a where a.email = 'carla@test.local';
select pg_temp.accept('carla');
select tests.authenticate_as('admin');

select results_eq($$ select name from public.free_berths_for_season(pg_temp.season('Sommer 2028')) order by name $$,
  $$ values ('N-3'), ('N-5') $$,
  'summer 2028 before the renewal run: the berths of the contracts that will renew are not free; Carla''s (terms without renewal) and the empty one are');
select results_eq($$ select name from public.free_berths_for_season(pg_temp.season('Sommer 2027')) order by name $$,
  $$ values ('N-5') $$, 'the season of the contracts themselves is unchanged');
select throws_ok(format('select public.send_offer(%L, %L, %L)', (select id from public.long_term_applications where email = 'eva@test.local'),
                        pg_temp.place('N-1'), pg_temp.season('Sommer 2028')),
  '23P01', 'berth_renews', 'a berth whose contract renews into the season is not offered');

-- Ben gives notice, the harbour ends Dora's contract: both berths are free for 2028.
select tests.authenticate_as('ben');
select public.give_contract_notice(pg_temp.contract('ben'));
select tests.authenticate_as('admin');
select public.end_contract(pg_temp.contract('dora'), 'Liegeplatz wird anders vergeben');
select results_eq($$ select name from public.free_berths_for_season(pg_temp.season('Sommer 2028')) order by name $$,
  $$ values ('N-2'), ('N-3'), ('N-4'), ('N-5') $$,
  'the noticed and the ended contracts'' berths are free for 2028; Anna''s, still renewing, is not');
select is((select place_id from public.send_offer((select id from public.long_term_applications where email = 'eva@test.local'),
                                                  pg_temp.place('N-2'), pg_temp.season('Sommer 2028'))),
  pg_temp.place('N-2'), 'the noticed berth is offered to Eva for 2028');
select results_eq($$ select name from public.free_berths_for_season(pg_temp.season('Sommer 2028')) order by name $$,
  $$ values ('N-3'), ('N-4'), ('N-5') $$, 'and is no longer listed while the offer is open');

-- After the notice deadline the run renews Anna's contract; the renewal holds N-1.
select tests.clear_authentication();
select private.freeze_clock('2027-08-03 00:30+02');
select tests.authenticate_as('admin');
select results_eq($$ select contract_number, action from public.renewal_preview(pg_temp.season('Sommer 2027')) where first_name = 'Anna' $$,
  $$ values ('LV-2027-0001', 'renew') $$, 'the preview renews Anna''s contract (no offer took her berth)');
select is((select issued from public.confirm_renewal(pg_temp.season('Sommer 2027'), gen_random_uuid())), 1, 'the run renews it');
select results_eq($$ select name from public.free_berths_for_season(pg_temp.season('Sommer 2028')) order by name $$,
  $$ values ('N-3'), ('N-4'), ('N-5') $$, 'N-1 stays taken for 2028, now by the renewed contract''s holding');

select * from finish();
rollback;
