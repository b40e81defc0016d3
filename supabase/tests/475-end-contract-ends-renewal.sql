-- Ending a running contract the renewal run already renewed (issue 42, ADR 0052 "End by the
-- harbour"): the renewed contract continues the same lease into the next season, so the
-- harbour's end ends it too, with the same reason: its holding of the next season is given up
-- (the berth is free for it), its instalment invoices are cancelled, the holder gets an e-mail
-- for each contract. The running contract keeps its holding to its season's end. Another
-- holder's renewal is untouched; ending the renewed contract alone leaves the running one.
begin;
select plan(9);
select private.freeze_clock('2027-01-15 10:00+01');

select tests.create_user('admin', array['admin']);
select tests.create_user('ben');
select tests.create_user('dora');

-- Terms that renew, Ben and Dora hold a berth each for summer 2027 (by transfer), a summer 2028.
select tests.authenticate_as('admin');
select public.publish_contract_terms(E'## 2. Laufzeit\nDer Vertrag verlängert sich um die nächste Saison.',
                                     E'## 2. Term\nThe contract renews for the next season.', true);
select tests.clear_authentication();
select tests.transfer_contracts('N', array['ben', 'dora']);
insert into public.seasons (name, name_en, kind, starts_on, ends_on) values ('Sommer 2028', 'Summer 2028', 'summer', '2028-04-01', '2028-10-31');
create function pg_temp.contract(p_ident text, p_year integer) returns uuid language sql as $$
  select c.id from public.contracts c join public.seasons s on s.id = c.season_id
   where c.email = p_ident || '@test.local' and s.name = 'Sommer ' || p_year
$$;

-- After the notice deadline the run renews both; in September the harbour ends Ben's running contract.
select private.freeze_clock('2027-08-03 00:30+02');
select tests.authenticate_as('admin');
select is((select issued from public.confirm_renewal((select id from public.seasons where name = 'Sommer 2027'), gen_random_uuid())), 2,
  'set-up: both contracts are renewed for summer 2028');
select tests.clear_authentication();
select private.freeze_clock('2027-09-01 10:00+02');
select tests.authenticate_as('admin');
select is((public.end_contract(pg_temp.contract('ben', 2027), 'Wiederholte Verstöße gegen die Hafenordnung')).status, 'ended',
  'the harbour ends Ben''s running contract');

select results_eq(
  $$ select s.name, c.status from public.contracts c join public.seasons s on s.id = c.season_id
      where c.email = 'ben@test.local' order by s.starts_on $$,
  $$ values ('Sommer 2027', 'ended'), ('Sommer 2028', 'ended') $$,
  'its renewal for summer 2028 is ended with it');
select results_eq(
  $$ select n.kind, n.reason from public.contract_notices n where n.contract_id = pg_temp.contract('ben', 2028) $$,
  $$ values ('ended', 'Wiederholte Verstöße gegen die Hafenordnung') $$, 'with the same reason');
select tests.clear_authentication();
select results_eq(
  $$ select s.name from public.long_term_holders h join public.seasons s on h.starts_on = s.starts_on
      where h.user_id = tests.get_user_id('ben') order by s.starts_on $$,
  $$ values ('Sommer 2027') $$, 'Ben keeps his berth to the end of 2027; the 2028 holding is given up');
select results_eq(
  $$ select f.instalment, st.state from public.long_term_fees f join public.long_term_fee_status st on st.id = f.id
      where f.contract_id = pg_temp.contract('ben', 2028) order by f.instalment $$,
  $$ values (1::smallint, 'cancelled'), (2::smallint, 'cancelled') $$, 'the renewal''s instalments are cancelled');
select is((select count(*)::int from public.outbox where kind = 'contract_ended' and recipient = 'ben@test.local'), 2,
  'Ben gets an e-mail for each contract that ends');
select results_eq(
  $$ select s.name, c.status from public.contracts c join public.seasons s on s.id = c.season_id
      where c.email = 'dora@test.local' order by s.starts_on $$,
  $$ values ('Sommer 2027', 'active'), ('Sommer 2028', 'active') $$, 'Dora''s contracts are untouched');

-- Ending only the renewal leaves the running contract as it is.
select tests.authenticate_as('admin');
select public.end_contract(pg_temp.contract('dora', 2028), 'Liegeplatz entfällt ab 2028');
select results_eq(
  $$ select s.name, c.status from public.contracts c join public.seasons s on s.id = c.season_id
      where c.email = 'dora@test.local' order by s.starts_on $$,
  $$ values ('Sommer 2027', 'active'), ('Sommer 2028', 'ended') $$, 'ending the renewal alone leaves the running contract active');

select * from finish();
rollback;
