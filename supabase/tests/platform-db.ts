/**
 * A PostgreSQL 15 database built the way the Supabase platform builds a project's database, from
 * the SQL Supabase publishes (vendored byte for byte under tests/fixtures/platform-db, with
 * source, commit and licence in its README):
 *
 * 1. supabase/postgres's image: migrations/db/migrate.sh (creates `postgres`, runs the init
 *    scripts as `postgres`, then the migrations as `supabase_admin`), with the two files the
 *    Dockerfile adds to them (pgbouncer's auth schema, pg_stat_statements).
 * 2. GoTrue (supabase/auth): its migrations as `supabase_auth_admin`, the pop migrator's way:
 *    in version order, each in a transaction, its template's Namespace = auth, skipped when its
 *    version is in auth.schema_migrations.
 * 3. Storage (supabase/storage): migrations/tenant as `supabase_storage_admin`, the
 *    postgres-migrations way Storage drives it: in id order, each in a transaction unless it
 *    says `-- postgres-migrations disable-transaction`, recorded in storage.migrations, with the
 *    storage.* settings Storage sets (its defaults).
 *
 * Extensions Debian does not package are stubs of ours (tests/fixtures/platform-db/stubs),
 * installed into a private copy of the server's share directory: PostgreSQL finds its share and
 * library directories relative to its binary, so a copy of the binaries next to a share
 * directory that links Debian's files and adds the stubs is a server with those extensions.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';
import { startPostgresServer, type PostgresServer } from '../local/test/harness/postgres-server.ts';
import { splitStatements } from '../local/src/sql-split.ts';

const root = join(import.meta.dirname, '..', '..');
export const fixtures = join(root, 'tests', 'fixtures', 'platform-db');
const platform = join(fixtures, 'supabase-postgres');
const stubs = join(fixtures, 'stubs');

/** The extensions stubbed here (Debian lacks them); each has a control file in stubs/. */
export const STUBBED_EXTENSIONS = readdirSync(stubs)
  .filter((f) => f.endsWith('.control'))
  .map((f) => f.replace(/\.control$/, ''))
  .sort();

/**
 * A copy of Debian's server binaries whose share directory also holds the stubs. Debian's
 * build records bindir /usr/lib/postgresql/15/bin, sharedir /usr/share/postgresql/15 and
 * pkglibdir /usr/lib/postgresql/15/lib; PostgreSQL resolves the latter two relative to where
 * its binary is (src/port/path.c, make_relative_path), so the copy keeps that layout.
 */
function serverWithStubs(bin: string): { bin: string; remove(): void } {
  const version = bin.split('/').at(-2) ?? '15';
  const base = mkdtempSync(join(tmpdir(), 'hafen-platform-pg-'));
  chmodSync(base, 0o755);
  const newBin = join(base, 'lib', 'postgresql', version, 'bin');
  mkdirSync(newBin, { recursive: true });
  for (const tool of ['postgres', 'initdb', 'pg_ctl']) copyFileSync(join(bin, tool), join(newBin, tool));
  for (const tool of ['postgres', 'initdb', 'pg_ctl']) chmodSync(join(newBin, tool), 0o755);
  symlinkSync(join(bin, '..', 'lib'), join(base, 'lib', 'postgresql', version, 'lib'));
  const share = join('/usr/share/postgresql', version);
  const newShare = join(base, 'share', 'postgresql', version);
  mkdirSync(join(newShare, 'extension'), { recursive: true });
  for (const entry of readdirSync(share)) if (entry !== 'extension') symlinkSync(join(share, entry), join(newShare, entry));
  for (const entry of readdirSync(join(share, 'extension')))
    symlinkSync(join(share, 'extension', entry), join(newShare, 'extension', entry));
  for (const entry of readdirSync(stubs)) copyFileSync(join(stubs, entry), join(newShare, 'extension', entry));
  for (const dir of [
    base,
    join(base, 'lib'),
    join(base, 'lib', 'postgresql'),
    join(base, 'lib', 'postgresql', version),
    join(base, 'share'),
  ]) {
    chmodSync(dir, 0o755);
  }
  return { bin: newBin, remove: () => rmSync(base, { recursive: true, force: true }) };
}

async function connect(url: string, user: string, options?: string): Promise<pg.Client> {
  const u = new URL(url);
  u.username = user;
  const client = new pg.Client({ connectionString: u.toString(), options });
  await client.connect();
  return client;
}

/** As `psql -v ON_ERROR_STOP=1 -f`: statement by statement, each committed on its own. */
async function psqlFile(url: string, user: string, file: string): Promise<void> {
  const client = await connect(url, user);
  try {
    const sql = readFileSync(file, 'utf8');
    for (const statement of splitStatements(sql)) {
      try {
        await client.query(statement.text);
      } catch (error) {
        throw new Error(`${relative(fixtures, file)} as ${user}: ${(error as Error).message}\n> ${statement.text.trim().slice(0, 300)}`, {
          cause: error,
        });
      }
    }
  } finally {
    await client.end();
  }
}

const sqlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => join(dir, f));

/** supabase/postgres's migrate.sh (without dbmate), with the files the Dockerfile adds. */
async function runImageScripts(url: string): Promise<void> {
  const admin = await connect(url, 'supabase_admin');
  try {
    // migrate.sh: "postgres role is pre-created during AMI build"
    await admin.query(`do $$
begin
  if not exists (select from pg_roles where rolname = 'postgres') then
    create role postgres superuser login;
    alter database postgres owner to postgres;
  end if;
end $$`);
  } finally {
    await admin.end();
  }
  // Dockerfile-15: pgbouncer_auth_schema.sql is init-scripts/00-schema.sql,
  // stat_extension.sql is migrations/00-extension.sql (both sort first).
  const initScripts = [
    join(platform, 'ansible/files/pgbouncer_config/pgbouncer_auth_schema.sql'),
    ...sqlFiles(join(platform, 'migrations/db/init-scripts')),
  ];
  for (const file of initScripts) await psqlFile(url, 'postgres', file);
  const migrations = [join(platform, 'ansible/files/stat_extension.sql'), ...sqlFiles(join(platform, 'migrations/db/migrations'))];
  for (const file of migrations) await psqlFile(url, 'supabase_admin', file);
}

/** GoTrue's `migrate`: gobuffalo/pop's file migrator with Options.Namespace = "auth". */
async function runAuthMigrations(url: string): Promise<void> {
  const dir = join(fixtures, 'supabase-auth', 'migrations');
  const NAME = /^(\d+)_([^.]+)(\.[a-z0-9]+)?\.up\.sql$/;
  const files = readdirSync(dir)
    .map((f) => ({ f, m: NAME.exec(f) }))
    .filter((x) => x.m && (!x.m[3] || x.m[3] === '.postgres'))
    .sort((a, b) => (a.m![1] < b.m![1] ? -1 : a.m![1] > b.m![1] ? 1 : 0));
  const client = await connect(url, 'supabase_auth_admin');
  try {
    for (const { f, m } of files) {
      const version = m![1];
      const { rowCount } = await client.query('select 1 from schema_migrations where version = $1', [version]);
      if (rowCount) continue;
      const template = readFileSync(join(dir, f), 'utf8');
      const sql = template.replace(/\{\{\s*index \.Options "Namespace"\s*\}\}/g, 'auth');
      if (sql.includes('{{')) throw new Error(`${f}: a template expression this runner does not render`);
      try {
        await client.query('begin');
        if (sql.trim()) await client.query(sql);
        await client.query('insert into schema_migrations (version) values ($1)', [version]);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw new Error(`supabase/auth ${f}: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.end();
  }
}

/** Storage's tenant migrations, as src/internal/database/migrations/migrate.ts runs them. */
async function runStorageMigrations(url: string): Promise<void> {
  const dir = join(fixtures, 'supabase-storage', 'migrations', 'tenant');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => ({ f, id: Number.parseInt(f, 10), name: f.replace(/^\d+-/, '').replace(/\.sql$/, '') }))
    .sort((a, b) => a.id - b.id);
  // searchPath of src/internal/database/pool.ts; the connection's role is supabase_storage_admin
  const client = await connect(url, 'supabase_storage_admin', '-c search_path=storage,public,extensions');
  try {
    await client.query(`select
      set_config('storage.install_roles', 'false', false),
      set_config('storage.multitenant', 'false', false),
      set_config('storage.anon_role', 'anon', false),
      set_config('storage.authenticated_role', 'authenticated', false),
      set_config('storage.service_role', 'service_role', false),
      set_config('storage.super_user', 'postgres', false),
      set_config('storage.iceberg_default_shard', '', false),
      set_config('storage.iceberg_shards', '{}', false),
      set_config('storage.vector_bucket_provider', '', false)`);
    const applied = new Set((await client.query<{ id: number }>('select id from migrations')).rows.map((r) => r.id));
    // postgres-migrations' own first migration, 0_create-migrations-table (the init script created the table)
    const all = [
      { f: '0_create-migrations-table.sql', id: 0, name: 'create-migrations-table', sql: 'select 1' },
      ...files.map((x) => ({ ...x, sql: readFileSync(join(dir, x.f), 'utf8') })),
    ];
    for (const { f, id, name, sql: contents } of all) {
      if (applied.has(id)) continue;
      const sql = contents.includes('-- postgres-migrations ignore') ? 'SELECT 1;' : contents;
      const hash = createHash('sha1')
        .update(f + contents, 'utf8')
        .digest('hex');
      const inTransaction = !sql.includes('-- postgres-migrations disable-transaction');
      try {
        if (inTransaction) await client.query('begin');
        await client.query(sql);
        await client.query('insert into migrations (id, name, hash) values ($1, $2, $3)', [id, name, hash]);
        if (inTransaction) await client.query('commit');
      } catch (error) {
        if (inTransaction) await client.query('rollback').catch(() => {});
        throw new Error(`supabase/storage ${f}: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * What the Supabase CLI creates before `db push` writes a migration's version (schema
 * supabase_migrations), as `postgres`, and the stubbed pg_cron and pg_net, created as
 * supabase_admin: hosted Supabase lets `postgres` create them through supautils, which runs the
 * CREATE EXTENSION and its event triggers with superuser rights; plain PostgreSQL has no such
 * path, so here they exist before the project's migrations look for them.
 */
async function prepareForProject(url: string): Promise<void> {
  const admin = await connect(url, 'supabase_admin');
  try {
    await admin.query('create extension if not exists pg_cron with schema pg_catalog');
    await admin.query('create extension if not exists pg_net with schema extensions');
  } finally {
    await admin.end();
  }
  const client = await connect(url, 'postgres');
  try {
    await client.query(`create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
alter table supabase_migrations.schema_migrations add column if not exists statements text[];
alter table supabase_migrations.schema_migrations add column if not exists name text;
create table if not exists supabase_migrations.seed_files (path text not null primary key, hash text not null)`);
  } finally {
    await client.end();
  }
}

export interface PlatformDb {
  server: PostgresServer;
  /** The platform-shaped `postgres` database, as supabase_admin. */
  url: string;
  /** Milliseconds of each build step. */
  timings: Record<string, number>;
  stop(): void;
}

/** Starts a throw-away cluster with the stubs and builds the platform's database in it. */
export async function startPlatformDb(bin: string): Promise<PlatformDb> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const step = (name: string) => {
    timings[name] = Math.round(performance.now() - t);
    t = performance.now();
  };
  const install = serverWithStubs(bin);
  let server: PostgresServer;
  try {
    server = await startPostgresServer(install.bin);
  } catch (error) {
    install.remove();
    throw error;
  }
  const stop = () => {
    try {
      server.stop();
    } finally {
      install.remove();
    }
  };
  step('cluster');
  try {
    const url = server.url('postgres');
    await runImageScripts(url);
    step('supabase/postgres');
    await runAuthMigrations(url);
    step('supabase/auth');
    await runStorageMigrations(url);
    step('supabase/storage');
    await prepareForProject(url);
    step('cli');
    return { server, url, timings, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * The facts platform-db.test.ts compares between the platform-shaped database and the local
 * stack's bootstrap (before the project's migrations), one row each: kind, key, value. Effective
 * privileges (has_*_privilege) rather than ACL texts, so a grant through PUBLIC or ownership
 * counts the same as a direct one. Run with search_path = pg_catalog (type names qualified).
 */
export const CATALOG_FACTS = `
with api_roles(r) as (values ('anon'), ('authenticated'), ('service_role'), ('postgres')),
platform_roles(r) as (
  values ('anon'), ('authenticated'), ('service_role'), ('postgres'), ('authenticator'), ('supabase_admin'),
         ('supabase_auth_admin'), ('supabase_storage_admin'), ('supabase_realtime_admin'), ('dashboard_user')
),
schemas(s) as (values ('public'), ('extensions'), ('auth'), ('storage'), ('realtime'), ('cron'), ('net'), ('vault')),
rels as (
  select c.oid, c.relnamespace::regnamespace::text as nsp, c.relname, c.relkind, c.relowner, c.relrowsecurity
  from pg_class c
  where c.relnamespace::regnamespace::text in ('auth', 'storage', 'realtime', 'cron', 'net', 'vault') and c.relkind in ('r', 'v', 'p')
),
funcs as (
  select p.oid, p.pronamespace::regnamespace::text as nsp, p.proowner, p.prosecdef
  from pg_proc p where p.pronamespace::regnamespace::text in ('auth', 'storage', 'realtime', 'cron', 'net', 'vault')
)
select 'role' as kind, rolname as key, concat_ws(' ', case when rolsuper then 'superuser' end, case when rolinherit then 'inherit' end,
  case when rolcreaterole then 'createrole' end, case when rolcreatedb then 'createdb' end, case when rolcanlogin then 'login' end,
  case when rolreplication then 'replication' end, case when rolbypassrls then 'bypassrls' end) as value
from pg_roles where rolname in (select r from platform_roles)
union all
select 'member', m.rolname || ' in ' || r.rolname, case when a.admin_option then 'with admin option' else '' end
from pg_auth_members a join pg_roles r on r.oid = a.roleid join pg_roles m on m.oid = a.member
where m.rolname in (select r from platform_roles)
union all
select 'role setting', r.rolname || ' ' || split_part(c, '=', 1), substr(c, length(split_part(c, '=', 1)) + 2)
from pg_db_role_setting s join pg_roles r on r.oid = s.setrole, unnest(s.setconfig) c
where r.rolname in (select r from platform_roles)
  and (s.setdatabase = 0 or s.setdatabase = (select oid from pg_database where datname = current_database()))
union all
select 'schema privilege', s.s || ' ' || a.r,
  concat_ws(' ', case when has_schema_privilege(a.r, s.s, 'usage') then 'usage' end, case when has_schema_privilege(a.r, s.s, 'create') then 'create' end)
from schemas s cross join api_roles a where to_regnamespace(s.s) is not null
union all
select 'schema owner', nspname, pg_get_userbyid(nspowner) from pg_namespace where nspname in (select s from schemas)
union all
select 'table', r.nsp || '.' || r.relname, pg_get_userbyid(r.relowner) || case when r.relrowsecurity then ' rls' else '' end from rels r
union all
select 'table privilege', r.nsp || '.' || r.relname || ' ' || a.r,
  concat_ws(' ', case when has_table_privilege(a.r, r.oid, 'select') then 'select' end, case when has_table_privilege(a.r, r.oid, 'insert') then 'insert' end,
    case when has_table_privilege(a.r, r.oid, 'update') then 'update' end, case when has_table_privilege(a.r, r.oid, 'delete') then 'delete' end)
from rels r cross join api_roles a
union all
select 'column', r.nsp || '.' || r.relname || '.' || t.attname,
  format_type(t.atttypid, t.atttypmod) || case when t.attnotnull then ' not null' else '' end || case when t.attgenerated = 's' then ' generated' else '' end
from rels r join pg_attribute t on t.attrelid = r.oid and t.attnum > 0 and not t.attisdropped
union all
select 'policy', schemaname || '.' || tablename || ' ' || policyname, cmd || ' to ' || array_to_string(roles, ',')
from pg_policies where schemaname in ('auth', 'storage', 'realtime', 'cron', 'net', 'vault')
union all
select 'trigger', t.tgrelid::regclass::text || ' ' || t.tgname, t.tgfoid::regproc::text
from pg_trigger t join rels r on r.oid = t.tgrelid where not t.tgisinternal
union all
select 'function', f.oid::regprocedure::text, pg_get_userbyid(f.proowner) || case when f.prosecdef then ' security definer' else '' end from funcs f
union all
select 'function privilege', f.oid::regprocedure::text || ' ' || a.r, case when has_function_privilege(a.r, f.oid, 'execute') then 'execute' else '' end
from funcs f cross join api_roles a
union all
select 'default privilege', pg_get_userbyid(d.defaclrole) || ' in ' || coalesce(d.defaclnamespace::regnamespace::text, 'every schema') || ' on '
    || case d.defaclobjtype when 'r' then 'tables' when 'S' then 'sequences' when 'f' then 'functions' when 'T' then 'types' else 'schemas' end || ' to ' || g.grantee,
  g.privileges
from pg_default_acl d, lateral (
  select case when x.grantee = 0 then 'public' else pg_get_userbyid(x.grantee) end as grantee,
         string_agg(x.privilege_type, ' ' order by x.privilege_type) as privileges
  from aclexplode(d.defaclacl) x group by x.grantee
) g
where pg_get_userbyid(d.defaclrole) in ('postgres', 'supabase_admin') and g.grantee in (select r from api_roles)
  and g.grantee <> pg_get_userbyid(d.defaclrole) -- an owner's grant to itself changes nothing
union all
select 'extension', extname, extnamespace::regnamespace::text from pg_extension
union all
select 'publication', pubname, case when puballtables then 'all tables' else '' end from pg_publication
order by 1, 2
`;

/** The catalog facts of a database, as "kind | key | value" lines. */
export async function catalogFacts(url: string): Promise<string[]> {
  const client = await connect(url, 'supabase_admin', '-c search_path=pg_catalog');
  try {
    const { rows } = await client.query<{ kind: string; key: string; value: string }>(CATALOG_FACTS);
    return rows.map((r) => `${r.kind} | ${r.key} | ${r.value}`);
  } finally {
    await client.end();
  }
}
