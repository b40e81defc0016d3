import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engines, skipBecause } from './harness/engines.ts';
import { fixtureProject, startTestStack } from './harness/stack.ts';
import { MigrationError } from '../src/migrate.ts';
import { withRequest } from '../src/db/request.ts';
import type { Stack } from '../src/stack.ts';

const dirs: string[] = [];
const stacks: Stack[] = [];
const tempProject = (files: Parameters<typeof fixtureProject>[1]) => {
  const dir = mkdtempSync(join(tmpdir(), 'hafen-fixture-'));
  dirs.push(dir);
  return fixtureProject(dir, files);
};

afterEach(async () => {
  for (const s of stacks.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`bootstrap and migrations on ${engine.name}`, engine.skip))(
    `bootstrap and migrations on ${engine.name}`,
    () => {
      const start = async (files: Parameters<typeof fixtureProject>[1]) => {
        const stack = await startTestStack({ engine: engine.name, workdir: tempProject(files) });
        stacks.push(stack);
        return stack;
      };

      it('creates the roles, schemas and tables the Supabase platform provides', async () => {
        const { db } = await start({});
        const roles = await db.query<{ rolname: string; rolsuper: boolean; rolbypassrls: boolean; rolcanlogin: boolean }>(
          `select rolname, rolsuper, rolbypassrls, rolcanlogin from pg_roles
            where rolname in ('postgres','anon','authenticated','service_role','authenticator','supabase_auth_admin','supabase_admin')
            order by rolname`,
        );
        expect(roles.rows).toEqual([
          { rolname: 'anon', rolsuper: false, rolbypassrls: false, rolcanlogin: false },
          { rolname: 'authenticated', rolsuper: false, rolbypassrls: false, rolcanlogin: false },
          { rolname: 'authenticator', rolsuper: false, rolbypassrls: false, rolcanlogin: true },
          { rolname: 'postgres', rolsuper: false, rolbypassrls: true, rolcanlogin: true },
          { rolname: 'service_role', rolsuper: false, rolbypassrls: true, rolcanlogin: false },
          { rolname: 'supabase_admin', rolsuper: true, rolbypassrls: true, rolcanlogin: true },
          { rolname: 'supabase_auth_admin', rolsuper: false, rolbypassrls: false, rolcanlogin: true },
        ]);
        const members = await db.query<{ role: string }>(
          `select r.rolname as role from pg_auth_members m join pg_roles r on r.oid = m.roleid
             join pg_roles u on u.oid = m.member where u.rolname = 'authenticator' order by 1`,
        );
        expect(members.rows.map((r) => r.role)).toEqual(['anon', 'authenticated', 'service_role']);
        const tables = await db.query<{ t: string }>(
          `select schemaname || '.' || tablename as t from pg_tables
            where schemaname in ('auth', 'storage', 'supabase_migrations') order by 1`,
        );
        expect(tables.rows.map((r) => r.t)).toEqual([
          'auth.audit_log_entries',
          'auth.identities',
          'auth.instances',
          'auth.mfa_amr_claims',
          'auth.mfa_challenges',
          'auth.mfa_factors',
          'auth.one_time_tokens',
          'auth.refresh_tokens',
          'auth.schema_migrations',
          'auth.sessions',
          'auth.users',
          'storage.buckets',
          'storage.objects',
          'supabase_migrations.schema_migrations',
          'supabase_migrations.seed_files',
        ]);
        const owner = await db.query<{ owner: string; rls: boolean }>(
          `select pg_get_userbyid(relowner) as owner, relrowsecurity as rls from pg_class where oid = 'storage.objects'::regclass`,
        );
        expect(owner.rows[0]).toEqual({ owner: 'supabase_storage_admin', rls: true });
        const pub = await db.query(`select pubname from pg_publication where pubname = 'supabase_realtime'`);
        expect(pub.rowCount).toBe(1);
        const ext = await db.query<{ extname: string; schema: string }>(
          `select extname, extnamespace::regnamespace::text as schema from pg_extension where extname in ('pgcrypto', 'uuid-ossp') order by 1`,
        );
        expect(ext.rows).toEqual([
          { extname: 'pgcrypto', schema: 'extensions' },
          { extname: 'uuid-ossp', schema: 'extensions' },
        ]);
      });

      it('auth.uid(), auth.role(), auth.email() and auth.jwt() read the request claims', async () => {
        const { db } = await start({});
        const claims = { sub: '6f1c2b4e-8a3d-4f7a-9c2e-1b5d7e9f0a12', role: 'authenticated', email: 'kunde@hafen.test', aal: 'aal1' };
        const row = await withRequest(db, { role: 'authenticated', claims }, async (tx) => {
          const { rows } = await tx.query<Record<string, unknown>>(
            `select auth.uid()::text as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> 'aal' as aal, current_user as "user"`,
          );
          return rows[0];
        });
        expect(row).toEqual({ uid: claims.sub, role: 'authenticated', email: 'kunde@hafen.test', aal: 'aal1', user: 'authenticated' });
        // Outside a request the settings are gone: nothing leaks into the next transaction.
        const after = await db.query<{ uid: string | null; user: string }>(`select auth.uid() as uid, current_user as "user"`);
        expect(after.rows[0]).toEqual({ uid: null, user: 'supabase_admin' });
      });

      it('runs migrations as the non-superuser owner postgres and records them as the CLI does', async () => {
        const { db, migrations } = await start({
          migrations: {
            '20260101000000_boats.sql': `
              create table public.boats (id bigint generated always as identity primary key, name text not null);
              alter table public.boats enable row level security;
              create policy "boats are public" on public.boats for select to anon using (true);
              create extension if not exists btree_gist with schema extensions;`,
            '20260102000000_trigger_on_auth.sql': `
              create function public.on_user() returns trigger language plpgsql security definer set search_path = '' as $$
              begin return new; end $$;
              create trigger on_auth_user_created after insert on auth.users for each row execute function public.on_user();
              insert into storage.buckets (id, name, public) values ('boats', 'boats', true);
              create policy "boat images" on storage.objects for select using (bucket_id = 'boats');
              alter publication supabase_realtime add table public.boats;`,
          },
        });
        expect(migrations.applied).toEqual(['20260101000000_boats', '20260102000000_trigger_on_auth']);
        const owner = await db.query<{ owner: string }>(
          `select pg_get_userbyid(relowner) as owner from pg_class where oid = 'public.boats'::regclass`,
        );
        expect(owner.rows[0].owner).toBe('postgres');
        const recorded = await db.query<{ version: string; name: string; n: number }>(
          `select version, name, cardinality(statements) as n from supabase_migrations.schema_migrations order by version`,
        );
        expect(recorded.rows).toEqual([
          { version: '20260101000000', name: 'boats', n: 4 },
          { version: '20260102000000', name: 'trigger_on_auth', n: 5 },
        ]);
        // Default privileges: tables made by postgres are granted to the API roles (RLS decides).
        const grants = await db.query<{ grantee: string }>(
          `select distinct grantee from information_schema.role_table_grants where table_name = 'boats' and privilege_type = 'SELECT' order by 1`,
        );
        expect(grants.rows.map((g) => g.grantee)).toEqual(expect.arrayContaining(['anon', 'authenticated', 'service_role']));
      });

      it('accepts what the Supabase CLI accepts: pgrst.* settings on authenticator and policies on realtime.messages', async () => {
        const user = '33333333-3333-3333-3333-333333333333';
        const { db, migrations } = await start({
          migrations: {
            '20260101000000_api_settings.sql': `
              alter role authenticator set pgrst.db_schemas = 'public, storage, graphql_public';
              alter role authenticator set pgrst.db_max_rows = '500';
              alter role authenticator set pgrst.openapi_mode = 'ignore-privileges';
              notify pgrst, 'reload config';`,
            '20260102000000_private_channels.sql': `
              create policy "own boat channel: read" on realtime.messages for select to authenticated
                using (realtime.topic() = 'boat:' || (select auth.uid())::text and extension in ('broadcast', 'presence'));
              create policy "own boat channel: write" on realtime.messages for insert to authenticated
                with check (realtime.topic() = 'boat:' || (select auth.uid())::text);`,
          },
        });
        try {
          expect(migrations.applied).toEqual(['20260101000000_api_settings', '20260102000000_private_channels']);
          const settings = await db.query<{ config: string[] }>(
            `select setconfig as config from pg_db_role_setting where setrole = 'authenticator'::regrole and setdatabase = 0`,
          );
          expect(settings.rows[0].config).toEqual(
            expect.arrayContaining(['pgrst.db_schemas=public, storage, graphql_public', 'pgrst.db_max_rows=500']),
          );
          const policies = await db.query<{ policyname: string }>(
            `select policyname from pg_policies where schemaname = 'realtime' and tablename = 'messages' order by 1`,
          );
          expect(policies.rows.map((p) => p.policyname)).toEqual(['own boat channel: read', 'own boat channel: write']);
          // the policies decide per topic, as Realtime asks them (topic in realtime.topic())
          const claims = { sub: user, role: 'authenticated' };
          const asUser = (topic: string, sql: string) =>
            withRequest(db, { role: 'authenticated', claims }, async (tx) => {
              await tx.query(`select set_config('realtime.topic', $1, true)`, [topic]);
              return tx.query<{ n: number }>(sql);
            });
          await asUser(
            `boat:${user}`,
            `insert into realtime.messages (topic, extension, event) values ('boat:${user}', 'broadcast', 'moved')`,
          );
          expect((await asUser(`boat:${user}`, `select count(*)::int as n from realtime.messages`)).rows[0].n).toBe(1);
          expect((await asUser('boat:someone-else', `select count(*)::int as n from realtime.messages`)).rows[0].n).toBe(0);
          const foreign = await asUser(
            'boat:someone-else',
            `insert into realtime.messages (topic, extension) values ('boat:x', 'broadcast')`,
          ).catch((e: { code?: string }) => e);
          expect((foreign as { code?: string }).code).toBe('42501');
          // what the grants allow stays narrow: no setting outside pgrst.*
          const other = await db
            .transaction(async (tx) => {
              await tx.query(`select set_config('role', 'postgres', true)`);
              await tx.query(`alter role authenticator set not_pgrst.anything = 'x'`);
            })
            .catch((e: { code?: string }) => e);
          expect((other as { code?: string }).code).toBe('42501');
        } finally {
          // roles are cluster-wide on Postgres: leave authenticator as other tests expect it
          await db.query(`alter role authenticator reset pgrst.db_schemas`);
          await db.query(`alter role authenticator reset pgrst.db_max_rows`);
          await db.query(`alter role authenticator reset pgrst.openapi_mode`);
        }
      });

      it('refuses a migration that only a superuser could run, naming file and line', async () => {
        const project = tempProject({
          migrations: {
            '20260101000000_ok.sql': 'create table public.kept (id int);\n',
            '20260102000000_escalate.sql': '-- tries to become superuser\n\nalter role postgres superuser;\n',
          },
        });
        const error = await startTestStack({ engine: engine.name, workdir: project }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(MigrationError);
        const m = error as MigrationError;
        expect(m.file).toMatch(/20260102000000_escalate\.sql$/);
        expect(m.line).toBe(3);
        expect(m.code).toBe('42501');
        expect(m.pgMessage).toMatch(/permission denied|must be superuser/i);
      });

      it('a broken migration leaves the database as it was', async () => {
        const project = tempProject({
          migrations: {
            '20260101000000_first.sql': 'create table public.first (id int);',
          },
        });
        const stack = await startTestStack({ engine: engine.name, workdir: project, seed: false });
        const { db } = stack;
        // Two new migrations, the second broken on its fourth line.
        fixtureProject(project, {
          migrations: {
            '20260102000000_second.sql': 'create table public.second (id int);\ninsert into public.first values (1);',
            '20260103000000_broken.sql': 'create table public.third (\n  id int,\n  name text\n  oops\n);',
          },
        });
        const { migrate } = await import('../src/migrate.ts');
        const error = (await migrate(db, project).catch((e: unknown) => e)) as MigrationError;
        expect(error).toBeInstanceOf(MigrationError);
        expect(error.file).toMatch(/20260103000000_broken\.sql$/);
        expect(error.line).toBe(4);
        expect(error.pgMessage).toMatch(/syntax error at or near "oops"/);
        const left = await db.query<{ second: string | null; third: string | null; rows: string; versions: string[] }>(
          `select to_regclass('public.second')::text as second, to_regclass('public.third')::text as third,
                  (select count(*) from public.first)::text as rows,
                  (select array_agg(version order by version) from supabase_migrations.schema_migrations) as versions`,
        );
        expect(left.rows[0]).toEqual({ second: null, third: null, rows: '0', versions: ['20260101000000'] });
        await stack.close();
      });

      it('runs seed.sql once, on the first boot only', async () => {
        const project = tempProject({
          migrations: { '20260101000000_t.sql': 'create table public.visits (at timestamptz default now());' },
          seed: 'insert into public.visits default values;',
        });
        const first = await startTestStack({ engine: engine.name, workdir: project });
        expect(first.migrations.seeded).toBe(true);
        const again = await (await import('../src/migrate.ts')).migrate(first.db, project);
        expect(again).toEqual({ applied: [], seeded: false, seedChanged: false });
        const count = await first.db.query<{ n: string }>('select count(*)::text as n from public.visits');
        expect(count.rows[0].n).toBe('1');
        fixtureProject(project, { seed: 'insert into public.visits default values; -- changed' });
        const changed = await (await import('../src/migrate.ts')).migrate(first.db, project);
        expect(changed.seedChanged).toBe(true);
        await first.close();
      });

      it('runs the seed files of [db.seed] sql_paths in order, globs included', async () => {
        const project = tempProject({
          migrations: { '20260101000000_t.sql': 'create table public.steps (n serial, what text);' },
          seed: "insert into public.steps (what) values ('seed.sql');",
          config: '[db.seed]\nenabled = true\nsql_paths = ["./seed.sql", "./seeds/*.sql"]\n',
        });
        mkdirSync(join(project, 'seeds'));
        writeFileSync(join(project, 'seeds', '20-second.sql'), "insert into public.steps (what) values ('20-second');");
        writeFileSync(join(project, 'seeds', '10-first.sql'), "insert into public.steps (what) values ('10-first');");
        const stack = await startTestStack({ engine: engine.name, workdir: project });
        stacks.push(stack);
        const { rows } = await stack.db.query<{ what: string }>('select what from public.steps order by n');
        expect(rows.map((r) => r.what)).toEqual(['seed.sql', '10-first', '20-second']);
        const recorded = await stack.db.query<{ path: string }>('select path from supabase_migrations.seed_files order by path');
        expect(recorded.rows.map((r) => r.path)).toEqual(['seed.sql', 'seeds/10-first.sql', 'seeds/20-second.sql']);
      });
    },
  );
}
