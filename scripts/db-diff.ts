/**
 * `npm run db:diff -- <name>`: what `supabase db diff -f <name>` does, without Docker. Builds two
 * databases on PostgreSQL (DATABASE_URL, a superuser connection to a server where it may create
 * databases; else a throwaway cluster from the Debian binaries), one from supabase/migrations
 * and one from supabase/schemas, each over the local stack's platform bootstrap, and writes the
 * migration that turns the first into the second to supabase/migrations/<timestamp>_<name>.sql.
 *
 * The SQL comes from pg-delta (@supabase/pg-delta, the diff engine of the Supabase CLI 2.x),
 * which covers tables, columns, constraints, indexes, views, functions, triggers, policies,
 * grants, comments and publications. Two things it is not given: the privileges a new object
 * gets from the platform's default privileges (it grants what the schema says but does not
 * revoke what the default privileges added, e.g. EXECUTE for anon on a new function in public),
 * which this script adds as REVOKE/GRANT statements, and data (rows the schema files insert),
 * which it never diffs. The result is then applied to the migrations' database and both
 * catalogs are compared as tests/db/schema-agreement.test.ts compares them: whatever is still
 * different is printed and the script exits 1, so the migration is completed by hand.
 * `--dry-run` prints the migration instead of writing it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import pg from 'pg';
import { openPostgres } from '../supabase/local/src/db/postgres.ts';
import type { Database, Queryable } from '../supabase/local/src/db/types.ts';
import { bootstrapPlatform } from '../supabase/local/src/bootstrap/index.ts';
import { applySchemaFiles, listMigrations, migrate } from '../supabase/local/src/migrate.ts';
import { startPostgresServer, type PostgresServer } from '../supabase/local/test/harness/postgres-server.ts';
import { catalogSnapshot, diffSnapshots } from './lib/schema-catalog.ts';

const root = resolve(import.meta.dirname, '..');
const workdir = join(root, 'supabase');
const pgdelta = join(root, 'node_modules/@supabase/pg-delta/dist/cli/main.js');

interface Grant {
  kind: string;
  ident: string;
  grantee: string;
  privilege: string;
}

/** Every privilege on functions, tables, views and sequences outside Postgres' own schemas. */
async function grants(db: Queryable): Promise<Grant[]> {
  const { rows } = await db.query<Grant>(`
    select o.kind, o.ident, coalesce(nullif(a.grantee::regrole::text, '-'), 'public') as grantee, a.privilege_type as privilege
      from (
        select 'function' as kind, p.oid::regprocedure::text as ident, p.proowner as owner,
               coalesce(p.proacl, acldefault('f', p.proowner)) as acl, p.pronamespace as ns
          from pg_proc p
        union all
        select case c.relkind when 'S' then 'sequence' else 'table' end, c.oid::regclass::text, c.relowner,
               coalesce(c.relacl, acldefault(case c.relkind when 'S' then 's' else 'r' end::"char", c.relowner)), c.relnamespace
          from pg_class c where c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
      ) o
      join pg_namespace n on n.oid = o.ns
      cross join lateral aclexplode(o.acl) a
     where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%' and a.grantee <> o.owner`);
  return rows;
}

/** REVOKE/GRANT statements that give `target` the privileges `desired` has on the objects both have. */
async function privilegeFixups(target: Database, desired: Database): Promise<string[]> {
  const qualified = (db: Database) =>
    db.transaction(async (tx) => {
      await tx.query(`set local search_path = ''`);
      return grants(tx);
    });
  const [have, want] = await Promise.all([qualified(target), qualified(desired)]);
  const key = (g: Grant) => `${g.kind} ${g.ident}`;
  const objects = new Set(have.map(key));
  const both = new Set(want.map(key).filter((k) => objects.has(k)));
  const line = (g: Grant) => `${key(g)}|${g.grantee}|${g.privilege}`;
  const haveLines = new Set(have.map(line));
  const wantLines = new Set(want.map(line));
  const out: string[] = [];
  const statement = (verb: 'grant' | 'revoke', list: Grant[]) => {
    const groups = new Map<string, string[]>();
    for (const g of list) {
      const k = `${key(g)}|${g.grantee}`;
      groups.set(k, [...(groups.get(k) ?? []), g.privilege.toLowerCase()]);
    }
    for (const [k, privileges] of [...groups].sort()) {
      const [object, grantee] = k.split('|');
      const role = grantee === 'public' ? 'public' : pg.escapeIdentifier(grantee).replace(/^"([a-z_][a-z0-9_]*)"$/, '$1');
      out.push(`${verb} ${privileges.sort().join(', ')} on ${object} ${verb === 'grant' ? 'to' : 'from'} ${role};`);
    }
  };
  statement(
    'revoke',
    have.filter((g) => both.has(key(g)) && !wantLines.has(line(g))),
  );
  statement(
    'grant',
    want.filter((g) => both.has(key(g)) && !haveLines.has(line(g))),
  );
  return out;
}

interface Policy {
  schemaname: string;
  tablename: string;
  policyname: string;
  permissive: string;
  roles: string[];
  cmd: string;
  qual: string | null;
  with_check: string | null;
}

/**
 * DROP/CREATE POLICY statements for the policies `target` lacks or has otherwise than `desired`
 * (pg-delta's supabase profile leaves the platform's schemas alone, so a policy on
 * storage.objects would be missed), and DROP for those only `target` has there.
 */
async function policyFixups(target: Database, desired: Database): Promise<string[]> {
  const read = async (db: Database) =>
    (
      await db.query<Policy>(
        `select schemaname, tablename, policyname, permissive, roles::text[] as roles, cmd, qual, with_check from pg_policies`,
      )
    ).rows;
  const [have, want] = await Promise.all([read(target), read(desired)]);
  const id = (p: Policy) =>
    `${pg.escapeIdentifier(p.policyname)} on ${pg.escapeIdentifier(p.schemaname)}.${pg.escapeIdentifier(p.tablename)}`;
  const same = (a: Policy, b: Policy) => JSON.stringify(a) === JSON.stringify(b);
  const out: string[] = [];
  for (const p of have) if (!want.some((w) => id(w) === id(p))) out.push(`drop policy ${id(p)};`);
  for (const p of want) {
    const old = have.find((h) => id(h) === id(p));
    if (old && same(old, p)) continue;
    if (old) out.push(`drop policy ${id(p)};`);
    const roles = p.roles.map((r) => (r === 'public' ? 'public' : pg.escapeIdentifier(r))).join(', ');
    out.push(
      `create policy ${id(p)} as ${p.permissive.toLowerCase()} for ${p.cmd.toLowerCase()} to ${roles}` +
        (p.qual ? ` using (${p.qual})` : '') +
        (p.with_check ? ` with check (${p.with_check})` : '') +
        ';',
    );
  }
  return out;
}

async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  } finally {
    await admin.end();
  }
}

/** pg-delta's migration from `source` to `desired` ('' when they agree). */
function pgDeltaMigration(sourceUrl: string, desiredUrl: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'db-diff-'));
  try {
    const plan = join(dir, 'plan.json');
    execFileSync(
      process.execPath,
      [pgdelta, 'plan', '--source', sourceUrl, '--desired', desiredUrl, '--profile', 'supabase', '--out', plan],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    // render exits non-zero when there is nothing to write; its JSON answer says either way.
    const render = spawnSync(process.execPath, [pgdelta, 'render', '--plan', plan, '--out', join(dir, 'migration.sql'), '--allow-drops'], {
      encoding: 'utf8',
    });
    if (!render.stdout.trim().startsWith('{')) throw new Error(`pg-delta render failed: ${render.stderr}`);
    const rendered = JSON.parse(render.stdout) as { changes: boolean; files: { path: string; transactional: boolean }[] };
    if (!rendered.changes) return '';
    if (rendered.files.some((f) => !f.transactional)) {
      console.warn('pg-delta split out statements that cannot run in a transaction (e.g. create index concurrently): check the migration.');
    }
    const sql = rendered.files.map((f) => readFileSync(f.path, 'utf8').trim()).join('\n\n');
    const drops = sql.split('\n').filter((l) => /^\s*(DROP|ALTER TABLE .* DROP) /i.test(l));
    if (drops.length > 0) console.warn(`The migration drops (check that no data is lost):\n${drops.join('\n')}`);
    return sql;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const apply = (db: Database, sql: string) =>
  db.transaction(
    async (tx) => {
      await tx.query(`select set_config('role', 'postgres', true)`);
      await tx.exec(sql);
    },
    { timeoutMs: 0 },
  );

export async function dbDiff(name: string, options: { dryRun?: boolean; databaseUrl?: string } = {}): Promise<number> {
  let server: PostgresServer | undefined;
  const adminUrl = options.databaseUrl ?? (server = await startPostgresServer()).url();
  const suffix = `${process.pid}_${Date.now()}`;
  const [fromMigrations, fromSchemas] = [`db_diff_migrations_${suffix}`, `db_diff_schemas_${suffix}`];
  const urls = [await freshDatabase(adminUrl, fromMigrations), await freshDatabase(adminUrl, fromSchemas)];
  const [current, desired] = await Promise.all(urls.map((connectionString) => openPostgres({ connectionString })));
  try {
    await bootstrapPlatform(current);
    await bootstrapPlatform(desired);
    await migrate(current, workdir, { seed: false });
    await applySchemaFiles(desired, workdir);

    let sql = pgDeltaMigration(urls[0], urls[1]);
    if (sql) await apply(current, sql);
    // What pg-delta leaves out, closed in this order (policies first: a new policy's grants
    // do not depend on them, and privileges are compared last, on the final objects).
    const policies = await policyFixups(current, desired);
    if (policies.length > 0) await apply(current, policies.join('\n'));
    const privileges = await privilegeFixups(current, desired);
    if (privileges.length > 0) await apply(current, privileges.join('\n'));
    const blocks: [string, string[]][] = [
      ["Policies pg-delta's profile leaves out (the platform's schemas, e.g. storage.objects).", policies],
      ["Privileges the platform's default privileges gave the new objects, set as the schema files say.", privileges],
    ];
    for (const [why, statements] of blocks) {
      if (statements.length > 0) sql = [sql, `-- ${why}\n${statements.join('\n')}`].filter(Boolean).join('\n\n');
    }
    const left = diffSnapshots(await catalogSnapshot(current), await catalogSnapshot(desired));
    if (!sql && left.length === 0) {
      console.log('No schema changes: supabase/schemas and supabase/migrations build the same database.');
      return 0;
    }
    // Versions are timestamps; a new one must sort after every migration there is.
    const last = listMigrations(workdir).at(-1)?.version ?? '0';
    const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const stamp = now > last ? now : String(BigInt(last) + 1n);
    const text = `-- Generated by \`npm run db:diff -- ${name}\` from supabase/schemas (pg-delta).\n\n${sql}\n`;
    if (options.dryRun) console.log(text);
    else {
      const file = join(workdir, 'migrations', `${stamp}_${name}.sql`);
      writeFileSync(file, text);
      console.log(`Wrote ${relative(process.cwd(), file)}`);
    }
    if (left.length > 0) {
      console.error(`\nThe migration does not yet build what supabase/schemas declares; add by hand:\n${left.join('\n')}`);
      return 1;
    }
    return 0;
  } finally {
    await current.close();
    await desired.close();
    if (server) server.stop();
    else {
      await dropDatabase(adminUrl, fromMigrations);
      await dropDatabase(adminUrl, fromSchemas);
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const name = args.find((a) => !a.startsWith('--'));
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error('usage: npm run db:diff -- <name> [--dry-run]   (name: lower case letters, digits, _)');
    process.exit(2);
  }
  process.exit(await dbDiff(name, { dryRun: args.includes('--dry-run'), databaseUrl: process.env.DATABASE_URL }));
}
