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
grant supabase_auth_admin, supabase_storage_admin to postgres;
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';
