-- Grants and settings of the platform that the first bootstraps left out, found by comparing
-- them with the platform-shaped test database (supabase/tests/platform-db.test.ts). Idempotent:
-- run on a new database and on one bootstrapped by an older stack version.

-- GoTrue 20240612123726 (enable_rls_update_grants): row level security on its tables, with no
-- policy (GoTrue owns them, postgres bypasses RLS), and select for postgres with grant option.
do $$
declare
  t text;
begin
  foreach t in array array['schema_migrations', 'instances', 'users', 'audit_log_entries', 'refresh_tokens', 'mfa_factors',
    'sessions', 'mfa_challenges', 'mfa_amr_claims', 'identities', 'one_time_tokens'] loop
    if to_regclass('auth.' || t) is not null then
      execute format('alter table auth.%I enable row level security', t);
      execute format('grant select on auth.%I to postgres with grant option', t);
    end if;
  end loop;
end
$$;

-- supabase/postgres's storage init script, run as postgres: what postgres creates in schema
-- storage is granted to the API roles.
alter default privileges for role postgres in schema storage grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema storage grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema storage grant all on sequences to anon, authenticated, service_role;
