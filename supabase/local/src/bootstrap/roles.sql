-- Roles the Supabase platform creates before any user migration. Roles are cluster-wide on
-- Postgres, so this part is idempotent and runs for every database the stack serves.
do $$
declare
  r record;
begin
  for r in
    select * from (values
      ('postgres',                'login createrole createdb replication bypassrls'),
      ('anon',                    'nologin noinherit'),
      ('authenticated',           'nologin noinherit'),
      ('service_role',            'nologin noinherit bypassrls'),
      ('authenticator',           'login noinherit'),
      ('supabase_auth_admin',     'login noinherit createrole'),
      ('supabase_storage_admin',  'login noinherit createrole'),
      ('supabase_realtime_admin', 'nologin noinherit'),
      ('dashboard_user',          'nologin createrole createdb replication')
    ) as t(name, options)
  loop
    if not exists (select 1 from pg_roles where rolname = r.name) then
      execute format('create role %I %s', r.name, r.options);
    end if;
  end loop;
end
$$;

grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;
grant supabase_auth_admin, supabase_storage_admin, supabase_realtime_admin to postgres;
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';

-- As supabase/postgres's migrations leave them (compared in supabase/tests/platform-db.test.ts):
-- the API roles inherit (20230529180330), authenticator waits 8 s for a lock (20231130133139),
-- postgres holds pg_monitor, pg_read_all_data and pg_signal_backend (20230306081037,
-- 20240606060239), supabase_storage_admin may become authenticator (20231013070755).
do $$
begin
  if exists (select 1 from pg_roles where rolname in ('anon', 'authenticated', 'service_role') and not rolinherit) then
    alter role anon inherit;
    alter role authenticated inherit;
    alter role service_role inherit;
  end if;
end
$$;
-- set once: a repeated ALTER ROLE ... SET rewrites the row, which parallel bootstraps would race on
do $$
begin
  if not exists (
    select 1 from pg_db_role_setting
    where setrole = 'authenticator'::regrole and setdatabase = 0 and 'lock_timeout=8s' = any (setconfig)
  ) then
    alter role authenticator set lock_timeout = '8s';
  end if;
end
$$;
grant pg_monitor, pg_read_all_data, pg_signal_backend to postgres;
grant authenticator to supabase_storage_admin;

-- PostgREST's in-database configuration (`alter role authenticator set pgrst.db_schemas = ...`,
-- docs.postgrest.org "In-Database Configuration"): hosted Supabase lets `postgres` set these
-- through supautils (privileged_role_allowed_configs 'pgrst.*'). Plain Postgres needs SET on
-- each placeholder parameter, and from 16 on the ADMIN option on authenticator (without
-- membership) to alter it; CREATEROLE is enough on 15. The names: PostgREST's dbSettingsNames
-- (src/library/PostgREST/Config/Database.hs) plus the older ones still in its documentation.
do $$
declare
  setting text;
begin
  foreach setting in array array[
    'db_aggregates_enabled', 'client_error_verbosity', 'db_anon_role', 'db_pre_config', 'db_extra_search_path',
    'db_max_rows', 'db_plan_enabled', 'db_pre_request', 'db_prepared_statements', 'db_root_spec', 'db_schemas',
    'db_tx_end', 'db_hoisted_tx_settings', 'jwt_aud', 'jwt_role_claim_key', 'jwt_secret', 'jwt_secret_is_base64',
    'jwt_cache_max_lifetime', 'jwt_cache_max_entries', 'openapi_mode', 'openapi_security_active',
    'openapi_server_proxy_uri', 'server_cors_allowed_origins', 'server_trace_header', 'server_timing_enabled',
    'url_use_legacy_target_names', 'db_use_legacy_gucs', 'raw_media_types', 'db_channel', 'db_channel_enabled'
  ] loop
    -- GRANT ... ON PARAMETER exists from 15 on (older servers: superuser only, as before);
    -- granted once: a repeated grant rewrites the catalog row, which parallel bootstraps of
    -- one cluster would race on
    if current_setting('server_version_num')::int >= 150000
       and not has_parameter_privilege('postgres', 'pgrst.' || setting, 'SET') then
      execute format('grant set on parameter %I to postgres', 'pgrst.' || setting);
    end if;
  end loop;
  if current_setting('server_version_num')::int >= 160000 and not exists (
    select 1 from pg_auth_members m
    where m.roleid = 'authenticator'::regrole and m.member = 'postgres'::regrole and m.admin_option
  ) then
    execute 'grant authenticator to postgres with admin option, inherit false, set false';
  end if;
end
$$;
