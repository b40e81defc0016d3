-- Seasons and the long-term price list (issue 42 deliverable 1,
-- docs/adr/0046-seasons-and-long-term-prices.md): two seasons of one kind never overlap and end
-- after they start; a season is priced by the price row valid on its first day, so a change
-- valid from later reaches the next season, not this one; the price of a season for a boat to the
-- cent on both bases (running metre, m²) with the VAT taken out per rate; the list is
-- append-only; admins write through the functions, staff read all, anon and guests read the
-- prices in force and announced.
begin;
select plan(67);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('customer');
select tests.create_user('guest', '{}', true, true);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

-- The price in force today, and one it replaced (history), as the demo data would hold them.
insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
values ('summer', 'running_metre', 8000, 19, 10000, 19, '2025-01-01'),
       ('summer', 'running_metre', 9000, 19, 11000, 19, '2026-01-01');

-- ---------------------------------------------------------------- seasons
select tests.authenticate_as('admin');
select isnt(public.add_season('Sommer 2027', 'summer', '2027-04-01', '2027-10-31'), null, 'an admin adds the summer season 2027 (1 April to 31 October)');
select isnt(public.add_season('Winter 2027/28', 'winter', '2027-11-01', '2028-03-31'), null, 'and the winter season 2027/28');
select isnt(public.add_season('Ganzjährig 2027', 'year_round', '2027-01-01', '2027-12-31'), null,
  'a year-round season may share days with a summer season: only one kind must not overlap');
select throws_ok($$ select public.add_season('Sommer lang', 'summer', '2027-10-01', '2027-12-31') $$, '23P01', 'season_overlap',
  'a second summer season sharing October with the first is refused');
select throws_ok($$ select public.add_season('Sommer früh', 'summer', '2027-01-01', '2027-04-01') $$, '23P01', 'season_overlap',
  'sharing only the first day is an overlap too (both days belong to a season)');
select throws_ok($$ select public.add_season('Rückwärts', 'winter', '2029-03-31', '2028-11-01') $$, '22023', 'season_dates_invalid',
  'a season that ends before it starts is refused');
select throws_ok($$ select public.add_season('Ein Tag', 'winter', '2029-03-31', '2029-03-31') $$, '22023', 'season_dates_invalid',
  'a season ends after the day it starts');
select throws_ok($$ select public.add_season('   ', 'winter', '2029-11-01', '2030-03-31') $$, '22023', 'season_name_invalid', 'a season has a name');
select throws_ok($$ select public.add_season('Herbst', 'autumn', '2029-09-01', '2029-10-31') $$, '22023', 'season_kind_invalid',
  'the kind is summer, winter or year-round');
select isnt(public.add_season('Sommer 2028', 'summer', '2028-04-01', '2028-10-31'), null, 'the next summer season, right after the winter');
select throws_ok($$ insert into public.seasons (name, kind, starts_on, ends_on) values ('Direkt', 'summer', '2030-04-01', '2030-10-31') $$,
  '42501', null, 'even an admin writes seasons through add_season only');
select tests.clear_authentication();
select throws_ok($$ insert into public.seasons (name, kind, starts_on, ends_on) values ('Direkt', 'summer', '2028-10-01', '2028-11-30') $$,
  '23P01', null, 'the exclusion constraint holds whoever writes');
select throws_ok($$ insert into public.seasons (name, kind, starts_on, ends_on) values ('Direkt', 'summer', '2031-10-01', '2031-09-30') $$,
  '23514', null, 'and so does the check that a season ends after it starts');

create function pg_temp.season(p_name text) returns uuid language sql security definer as $$
  select id from public.seasons where name = p_name
$$;

-- ---------------------------------------------------------------- prices
select tests.authenticate_as('admin');
select isnt(public.add_long_term_price('summer', 'running_metre', 9500, 19, 12000, 19, '2027-02-01'), null,
  'an admin sets the summer price from 1 February: 95 € per running metre, electricity 120 €, 19 % each');
select isnt(public.add_long_term_price('winter', 'square_metre', 1200, 0, 8000, 19, '2027-02-01'), null,
  'and the winter price: 12 € per m² (0 %, a long-term lease of the berth), electricity 80 € (19 %)');

select results_eq(
  $$ select (p ->> 'units')::int, (p ->> 'berth_gross_cents')::int, (p ->> 'electricity_gross_cents')::int, (p ->> 'gross_cents')::int,
            (p ->> 'vat_cents')::int, (p ->> 'net_cents')::int, p ->> 'basis'
     from public.long_term_price(pg_temp.season('Sommer 2027'), 9.4, 3.2) p $$,
  $$ values (10, 95000, 12000, 107000, 17084, 89916, 'running_metre') $$,
  'summer 2027 for a 9,40 m boat: 10 running metres x 95 € + 120 € = 1.070 €, VAT 19 % taken out (170,84 €)');
select results_eq(
  $$ select (p ->> 'units')::int, (p ->> 'berth_gross_cents')::int, (p ->> 'gross_cents')::int, (p ->> 'vat_cents')::int, (p ->> 'net_cents')::int, p -> 'vat_breakdown'
     from public.long_term_price(pg_temp.season('Winter 2027/28'), 10.2, 3.4) p $$,
  $$ values (35, 42000, 50000, 1277, 48723,
             '[{"vat_rate": 19, "net_cents": 6723, "vat_cents": 1277, "gross_cents": 8000}, {"vat_rate": 0, "net_cents": 42000, "vat_cents": 0, "gross_cents": 42000}]'::jsonb) $$,
  'winter for 10,20 x 3,40 m (34,68 m², rounded up to 35): 35 x 12 € + 80 € = 500 €, the VAT per rate');
select is((public.long_term_price(pg_temp.season('Winter 2027/28'), 10, 3) ->> 'units')::int, 30, 'a whole 30 m² stays 30');
select is((public.long_term_price(pg_temp.season('Sommer 2027'), 10, 3) ->> 'units')::int, 10, 'a whole 10 m stays 10 running metres');

-- A change valid from 1 June: after summer 2027 began, so summer 2027 keeps its price; summer 2028 pays the new one.
select isnt(public.add_long_term_price('summer', 'running_metre', 10000, 19, 12000, 19, '2027-06-01'), null,
  'an admin raises the summer price to 100 € per metre from 1 June 2027');
select is((public.long_term_price(pg_temp.season('Sommer 2027'), 9.4, 3.2) ->> 'gross_cents')::int, 107000,
  'summer 2027 (from 1 April) keeps the price valid on its first day');
select results_eq(
  $$ select (p ->> 'gross_cents')::int, (p ->> 'unit_gross_cents')::int, (p ->> 'valid_from')::date from public.long_term_price(pg_temp.season('Sommer 2028'), 9.4, 3.2) p $$,
  $$ values (112000, 10000, '2027-06-01'::date) $$, 'the next summer season is priced by the change: 10 x 100 € + 120 €');
select is((public.long_term_price(pg_temp.season('Sommer 2027'), 9.4, 3.2) ->> 'valid_from')::date, '2027-02-01'::date,
  'the breakdown names the price row it used');

select throws_ok($$ select public.add_long_term_price('summer', 'running_metre', 9500, 19, 0, 19, '2027-01-15') $$, '22023', 'long_term_price_valid_from_past',
  'a change from today would reprice a running season: refused');
select throws_ok($$ select public.add_long_term_price('summer', 'running_metre', -100, 19, 0, 19, '2028-01-01') $$, '22023', 'long_term_price_invalid',
  'a negative price is refused');
select throws_ok($$ select public.add_long_term_price('summer', 'running_metre', 0, 19, 0, 19, '2028-01-01') $$, '22023', 'long_term_price_invalid',
  'a price of 0 is refused');
select throws_ok($$ select public.add_long_term_price('summer', 'running_metre', 100, 19, -1, 19, '2028-01-01') $$, '22023', 'long_term_price_invalid',
  'a negative electricity flat rate is refused');
select throws_ok($$ select public.add_long_term_price('summer', 'running_metre', 100, 16, 0, 19, '2028-01-01') $$, '22023', 'vat_rate_invalid',
  'a VAT rate other than 19, 7 or 0 is refused');
select throws_ok($$ select public.add_long_term_price('summer', 'foot', 100, 19, 0, 19, '2028-01-01') $$, '22023', 'long_term_price_basis_invalid',
  'the basis is per m² or per running metre');
select throws_ok($$ select public.long_term_price(pg_temp.season('Ganzjährig 2027'), 9.4, 3.2) $$, 'P0001', 'long_term_price_missing',
  'a season without a price is an error, never a free season');
select throws_ok($$ select public.long_term_price(pg_temp.season('Sommer 2027'), 0, 3.2) $$, '22023', 'boat_size_invalid', 'a boat has a length');
select throws_ok($$ select public.long_term_price(gen_random_uuid(), 9.4, 3.2) $$, 'PT404', 'season_not_found', 'an unknown season');

-- ---------------------------------------------------------------- append-only
select tests.clear_authentication();
select throws_ok($$ update public.long_term_prices set gross_cents = 1 $$, '42501', 'long_term_prices_immutable', 'nobody changes a price row, not even the owner');
select throws_ok($$ delete from public.long_term_prices $$, '42501', 'long_term_prices_immutable', 'nor deletes one');
select throws_ok($$ truncate public.long_term_prices $$, '42501', 'long_term_prices_immutable', 'nor truncates the list');

-- ---------------------------------------------------------------- English names, edit, delete
select tests.authenticate_as('admin');
select isnt(public.add_season('Winter 2029/30', 'winter', '2029-11-01', '2030-03-31', 'Winter 2029/30 (EN)'), null, 'an admin adds a season with an English name');
select is((select name_en from public.seasons where name = 'Winter 2029/30'), 'Winter 2029/30 (EN)', 'it is stored beside the German one');
select is((select name_en from public.seasons where name = 'Winter 2027/28'), null, 'without one (add_season with four arguments) the German name is shown');
select lives_ok($$ select public.update_season(pg_temp.season('Winter 2029/30'), ' Winter 29/30 ', 'Winter 29/30', '2029-10-15', '2030-04-15') $$,
  'an admin edits the names and the dates of a season nothing refers to (the new dates may cover its old ones)');
select results_eq($$ select name, name_en, starts_on, ends_on, kind from public.seasons where id = pg_temp.season('Winter 29/30') $$,
  $$ values ('Winter 29/30'::text, 'Winter 29/30'::text, '2029-10-15'::date, '2030-04-15'::date, 'winter'::text) $$, 'the edit is stored, trimmed, the kind stays');
select throws_ok($$ select public.update_season(pg_temp.season('Winter 29/30'), 'Winter 29/30', null, '2028-03-01', '2029-03-01') $$, '23P01', 'season_overlap',
  'an edit that makes it share a day with another winter season is refused');
select throws_ok($$ select public.update_season(pg_temp.season('Winter 29/30'), 'Winter 29/30', null, '2030-04-15', '2029-10-15') $$, '22023', 'season_dates_invalid',
  'an edit that ends it before it starts is refused');
select throws_ok($$ select public.update_season(pg_temp.season('Winter 29/30'), '', null, '2029-10-15', '2030-04-15') $$, '22023', 'season_name_invalid',
  'an edit keeps a name');
select throws_ok($$ select public.update_season(gen_random_uuid(), 'X', null, '2029-10-15', '2030-04-15') $$, 'PT404', 'season_not_found', 'an unknown season is not edited');

-- What the lead's contracts will do: private.season_in_use answers true for a season a contract names.
select tests.clear_authentication();
create or replace function private.season_in_use(p_season_id uuid) returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.seasons s where s.id = p_season_id and s.name = 'Sommer 2028')
$$;
select tests.authenticate_as('admin');
select lives_ok($$ select public.update_season(pg_temp.season('Sommer 2028'), 'Sommer 2028', 'Summer 2028', '2028-04-01', '2028-10-31') $$,
  'a season in use still gets its names edited');
select is((select name_en from public.seasons where name = 'Sommer 2028'), 'Summer 2028', 'and its English name stored');
select throws_ok($$ select public.update_season(pg_temp.season('Sommer 2028'), 'Sommer 2028', 'Summer 2028', '2028-04-01', '2028-10-15') $$, '23503', 'season_in_use',
  'but its dates stay while a contract refers to it');
select throws_ok($$ select public.delete_season(pg_temp.season('Sommer 2028')) $$, '23503', 'season_in_use', 'and it is not deleted');

select lives_ok($$ select public.delete_season(pg_temp.season('Winter 29/30')) $$, 'an admin deletes a season nothing refers to');
select is((select count(*)::int from public.seasons where name = 'Winter 29/30'), 0, 'it is gone');
select throws_ok($$ select public.delete_season(pg_temp.season('Winter 29/30')) $$, 'PT404', 'season_not_found', 'deleting it again: an unknown season');

select tests.authenticate_as('harbour');
select throws_ok($$ select public.update_season(pg_temp.season('Sommer 2027'), 'X', null, '2027-04-01', '2027-10-31') $$, '42501', 'admin_only', 'staff do not edit seasons');
select throws_ok($$ select public.delete_season(pg_temp.season('Sommer 2027')) $$, '42501', 'admin_only', 'nor delete them');
select tests.authenticate_as('customer');
select throws_ok($$ update public.seasons set name = 'X' $$, '42501', null, 'nobody updates the table directly');
select tests.authenticate_as_anon();
select throws_ok($$ select public.delete_season(pg_temp.season('Sommer 2027')) $$, '42501', null, 'anon may not call delete_season at all');

-- ---------------------------------------------------------------- who reads, who writes
select tests.authenticate_as('harbour');
select is((select count(*)::int from public.long_term_prices), 5, 'staff read the whole list, history included');
select throws_ok($$ select public.add_season('Sommer 2030', 'summer', '2030-04-01', '2030-10-31') $$, '42501', 'admin_only', 'staff do not add seasons');
select throws_ok($$ select public.add_long_term_price('summer', 'running_metre', 100, 19, 0, 19, '2028-01-01') $$, '42501', 'admin_only', 'nor prices');
select throws_ok($$ insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, valid_from) values ('summer', 'running_metre', 1, 19, '2028-01-01') $$,
  '42501', null, 'nor write the table directly');

select tests.authenticate_as('customer');
select results_eq($$ select valid_from from public.long_term_prices order by season_kind, valid_from $$,
  $$ values ('2026-01-01'::date), ('2027-02-01'::date), ('2027-06-01'::date), ('2027-02-01'::date) $$,
  'a customer reads the prices in force and announced, not the replaced 2025 price');
select throws_ok($$ select public.add_season('Sommer 2030', 'summer', '2030-04-01', '2030-10-31') $$, '42501', 'admin_only', 'and adds no season');

select tests.authenticate_as('guest');
select is((select count(*)::int from public.long_term_prices), 4, 'a guest session reads the same four rows');
select throws_ok($$ select public.add_long_term_price('summer', 'running_metre', 100, 19, 0, 19, '2028-01-01') $$, '42501', 'admin_only', 'and adds no price');

select tests.authenticate_as_anon();
select is((select count(*)::int from public.seasons), 4, 'anon reads the seasons (the public page names them)');
select is((select count(*)::int from public.long_term_prices), 4, 'and the prices in force and announced');
select is((public.long_term_price(pg_temp.season('Sommer 2028'), 9.4, 3.2) ->> 'gross_cents')::int, 112000, 'and may ask the price of a season for a boat');
select throws_ok($$ select public.add_season('Sommer 2030', 'summer', '2030-04-01', '2030-10-31') $$, '42501', null, 'anon may not call add_season at all');

select * from finish();
rollback;
