-- Runs first (file order); its definitions are committed (only the check rolls back): pgTAP and the persona helpers every other test
-- file uses. Modelled on basejump's supabase_test_helpers: users are created as GoTrue would,
-- and a persona is "logged in" the way PostgREST does it (role + request.jwt.claims).
begin;
create extension if not exists pgtap with schema extensions;

create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role, supabase_auth_admin;

-- A permanent (or anonymous) auth user; the trigger gives permanent ones a profile and roles.
create or replace function tests.create_user(
  p_identifier text,
  p_roles text[] default '{}',
  p_active boolean default true,
  p_anonymous boolean default false
)
returns uuid
language plpgsql
as $$
declare
  v_id uuid := gen_random_uuid();
  v_email text := case when p_anonymous then null else p_identifier || '@test.local' end;
begin
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                          confirmation_token, recovery_token, email_change_token_new, email_change,
                          raw_app_meta_data, raw_user_meta_data, is_anonymous, created_at, updated_at)
  values ('00000000-0000-0000-0000-000000000000', v_id, 'authenticated', 'authenticated', v_email, '',
          case when p_anonymous then null else now() end, '', '', '', '',
          case when p_anonymous then '{}'::jsonb else '{"provider":"email","providers":["email"]}'::jsonb end,
          jsonb_build_object('test_identifier', p_identifier, 'first_name', initcap(p_identifier)),
          p_anonymous, now(), now());
  if not p_anonymous then
    update public.user_roles set admin = 'admin' = any (p_roles), harbor = 'harbor' = any (p_roles)
     where user_id = v_id;
    update public.profiles set active = p_active where id = v_id;
  end if;
  return v_id;
end
$$;

create or replace function tests.get_user_id(p_identifier text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select id from auth.users where raw_user_meta_data ->> 'test_identifier' = p_identifier
$$;

-- The claims PostgREST would set for that user's JWT.
create or replace function tests.user_claims(p_identifier text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'sub', u.id, 'role', 'authenticated', 'aud', 'authenticated', 'email', u.email,
    'is_anonymous', u.is_anonymous,
    -- A forged claim: policies must ignore it.
    'app_metadata', jsonb_build_object('roles', jsonb_build_object('admin', true, 'harbor', true)))
  from auth.users u where u.raw_user_meta_data ->> 'test_identifier' = p_identifier
$$;

-- Acts as that user from now on in this transaction (as PostgREST would for its JWT).
create or replace function tests.authenticate_as(p_identifier text)
returns void
language plpgsql
as $$
declare
  v_claims jsonb := tests.user_claims(p_identifier);
begin
  if v_claims is null then
    raise exception 'test user % not found', p_identifier;
  end if;
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', v_claims::text, true);
end
$$;

-- No session: the anon key only.
create or replace function tests.authenticate_as_anon()
returns void
language plpgsql
as $$
begin
  perform set_config('role', 'anon', true);
  perform set_config('request.jwt.claims', '{"role":"anon"}', true);
end
$$;

-- Back to the test runner's own role (a superuser or the project owner).
create or replace function tests.clear_authentication()
returns void
language plpgsql
as $$
begin
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end
$$;

-- The fixture every booking test uses: a small harbour (ids by name).
create or replace function tests.place_id(p_name text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select id from public.places where name = p_name
$$;

-- A price breakdown as [metres, nights, berth fee, additional costs, net, VAT, gross] (cents).
create or replace function tests.price(p_quote jsonb)
returns int[]
language sql
immutable
as $$
  select array[(p_quote ->> 'metres')::int, (p_quote ->> 'nights')::int, (p_quote ->> 'berth_fee_cents')::int,
               (p_quote ->> 'additional_costs_cents')::int, (p_quote ->> 'net_cents')::int,
               (p_quote ->> 'vat_cents')::int, (p_quote ->> 'gross_cents')::int]
$$;

-- A Stripe event as the webhook passes it on (the stripe package's Event around a Checkout
-- Session, PaymentIntent or Refund), and its recording as stripe-webhook does it (service role).
create or replace function tests.stripe_event(p_id text, p_type text, p_object jsonb)
returns jsonb
language sql
immutable
as $$
  select jsonb_build_object('id', p_id, 'object', 'event', 'api_version', '2026-10-28.endive', 'created', 1810000000,
                            'livemode', false, 'pending_webhooks', 1, 'request', jsonb_build_object('id', null, 'idempotency_key', null),
                            'type', p_type, 'data', jsonb_build_object('object', p_object))
$$;

create or replace function tests.record_stripe_event(p_event jsonb)
returns jsonb
language plpgsql
as $$
declare
  v jsonb;
begin
  set local role service_role;
  v := public.record_stripe_event(p_event);
  reset role;
  return v;
end
$$;

-- Long-term holders paying by transfer (the fee tests 473, 474): for each persona (already
-- created, as is 'admin') a berth '<prefix>-n' (12 m), an offer for summer 2027 (created with its
-- price, 95 €/m + 120 € electricity, if missing) and the offer accepted in two instalments by bank
-- transfer, so an 8 m boat owes 440,00 € twice. Leaves no one authenticated.
create or replace function tests.transfer_contracts(p_prefix text, p_holders text[])
returns void
language plpgsql
as $$
declare
  v_season uuid;
  v_i integer;
  v_offer uuid;
begin
  select id into v_season from public.seasons where name = 'Sommer 2027';
  if v_season is null then
    insert into public.seasons (name, name_en, kind, starts_on, ends_on)
    values ('Sommer 2027', 'Summer 2027', 'summer', '2027-04-01', '2027-10-31') returning id into v_season;
    insert into public.long_term_prices (season_kind, basis, gross_cents, vat_rate, electricity_gross_cents, electricity_vat_rate, valid_from)
    values ('summer', 'running_metre', 9500, 19, 12000, 19, '2026-01-01');
  end if;
  for v_i in 1 .. cardinality(p_holders) loop
    insert into public.places (name, width, length) values (p_prefix || '-' || v_i, 4.5, 12.0);
    insert into public.long_term_applications (user_id, email, first_name, last_name, locale, boat)
    values (tests.get_user_id(p_holders[v_i]), p_holders[v_i] || '@test.local', initcap(p_holders[v_i]), 'Test', 'de',
            jsonb_build_object('name', 'Boot ' || v_i, 'length', 8.0, 'width', 3.0));
  end loop;
  for v_i in 1 .. cardinality(p_holders) loop
    perform tests.authenticate_as('admin');
    perform public.send_offer(a.id, tests.place_id(p_prefix || '-' || v_i), v_season)
       from public.long_term_applications a where a.email = p_holders[v_i] || '@test.local';
    perform tests.authenticate_as(p_holders[v_i]);
    select o.id into v_offer from public.berth_offers o where o.email = p_holders[v_i] || '@test.local';
    perform public.accept_offer(v_offer, 2, 'bank_transfer', (select contract_sha256 from public.offer_contract(v_offer, 2, 'bank_transfer')));
  end loop;
  perform tests.clear_authentication();
end
$$;

-- A persona's contract and its instalments (by the contract's e-mail).
create or replace function tests.contract(p_ident text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select c.id from public.contracts c where c.email = p_ident || '@test.local'
$$;

create or replace function tests.fee(p_ident text, p_instalment integer)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select f.id from public.long_term_fees f where f.contract_id = tests.contract(p_ident) and f.instalment = p_instalment
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role, supabase_auth_admin;
commit;

begin;
select plan(1);
select has_function('tests', 'authenticate_as', array['text'], 'the persona helpers are installed');
select * from finish();
rollback;
