/**
 * supabase/schemas (the desired state) and supabase/migrations (what deploys) build the same
 * database, on PostgreSQL 15: two fresh databases with the platform bootstrapped, one migrated,
 * one built from the schema files, and their catalogs compared object by object (tables,
 * columns with types, defaults and nullability, constraints, indexes, views, policies with
 * their expressions, functions with their bodies, settings and security, triggers, ACLs of
 * schemas, tables, columns and functions, publication tables, comments, owners, and the rows
 * the schema files declare). Editing one side only fails here: run `npm run db:diff -- <name>`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../supabase/local/src/db/postgres.ts';
import type { Database } from '../../supabase/local/src/db/types.ts';
import { bootstrapPlatform } from '../../supabase/local/src/bootstrap/index.ts';
import { applySchemaFiles, migrate } from '../../supabase/local/src/migrate.ts';
import { engines, freshPostgresDatabase, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { catalogSnapshot, diffSnapshots, type CatalogSnapshot } from '../../scripts/lib/schema-catalog.ts';

const postgres = engines().find((e) => e.name === 'postgres')!;

describe.skipIf(postgres.skip && skipBecause('schema agreement on postgres', postgres.skip))('schema agreement on postgres', () => {
  let fromMigrations: Database;
  let fromSchemas: Database;
  let migrated: CatalogSnapshot;

  beforeAll(async () => {
    [fromMigrations, fromSchemas] = await Promise.all(
      ['mig', 'schema'].map(async (prefix) => openPostgres({ connectionString: await freshPostgresDatabase(prefix) })),
    );
    await bootstrapPlatform(fromMigrations);
    await bootstrapPlatform(fromSchemas);
    await migrate(fromMigrations, 'supabase', { seed: false });
    await applySchemaFiles(fromSchemas, 'supabase');
    migrated = await catalogSnapshot(fromMigrations);
  }, 180_000);
  afterAll(async () => {
    await fromMigrations?.close();
    await fromSchemas?.close();
  });

  it('the migrations and the schema files build the same catalog', async () => {
    const differences = diffSnapshots(migrated, await catalogSnapshot(fromSchemas));
    expect(differences, 'supabase/schemas and supabase/migrations disagree: run `npm run db:diff -- <name>`').toEqual([]);
  });

  it('reads every kind of object it promises to compare', () => {
    for (const kind of [
      'relations',
      'columns',
      'constraints',
      'indexes',
      'policies',
      'functions',
      'triggers',
      'publications',
      'types',
      'views',
    ]) {
      expect(migrated[kind]?.length, kind).toBeGreaterThan(0);
    }
    expect(migrated.policies.some((l) => l.startsWith('storage.objects '))).toBe(true);
    expect(migrated.triggers.some((l) => l.includes(' ON auth.users '))).toBe(true);
    expect(migrated.publications.find((l) => l.startsWith('supabase_realtime '))).toContain('public.orders(');
  });

  // A one-sided edit of each kind (rolled back) must show up as a difference of that kind.
  const edits: [string, string, string][] = [
    [
      'a function body',
      `create or replace function private.is_anonymous() returns boolean language sql stable set search_path = '' as $$ select false $$`,
      'functions',
    ],
    ['a function setting', `alter function private.setting(text) security invoker`, 'functions'],
    ['a function grant', `grant execute on function private.setting(text) to anon`, 'functions'],
    ['a policy expression', `alter policy "news: admin deletes" on public.news using (true)`, 'policies'],
    ['a column default', `alter table public.news alter column location set default 'neuss'`, 'columns'],
    ['a column nullability', `alter table public.news alter column image_path set not null`, 'columns'],
    ['a column type', `alter table public.order_notes alter column body type varchar(4000)`, 'columns'],
    ['a constraint', `alter table public.news drop constraint news_dates_count`, 'constraints'],
    ['an index', `create index news_title_idx on public.news (title)`, 'indexes'],
    ['a trigger', `drop trigger news_touch on public.news`, 'triggers'],
    ['a table grant', `grant insert on public.invoices to authenticated`, 'relations'],
    ['row level security', `alter table public.news disable row level security`, 'relations'],
    ['a publication table', `alter publication supabase_realtime drop table public.orders`, 'publications'],
    ['a comment', `comment on table public.news is 'changed'`, 'relations'],
    ['a declared row', `update storage.buckets set file_size_limit = 1 where id = 'avatars'`, 'data storage.buckets'],
  ];
  for (const [what, sql, kind] of edits) {
    it(`notices ${what} changed on one side only`, async () => {
      const rolledBack = new Error('rolled back');
      let differences: string[] = [];
      await expect(
        fromSchemas.transaction(async (tx) => {
          await tx.query(`select set_config('role', 'postgres', true)`);
          await tx.query(sql);
          differences = diffSnapshots(migrated, await catalogSnapshot(tx));
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      expect(differences.length, what).toBeGreaterThan(0);
      expect(
        differences.some((d) => d.startsWith(`${kind} `)),
        differences.join('\n'),
      ).toBe(true);
    });
  }
});
