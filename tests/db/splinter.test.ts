/**
 * Supabase's security and performance advisor (splinter: ../shared/tools/splinter.sql beside the
 * checkout, the compiled linter the dashboard runs; a tool to run, not project code) on the database
 * the migrations build, on PostgreSQL 15 over the local stack's platform bootstrap, with the
 * exposed schemas set as PostgREST sets them (without `pgrst.db_schemas` the lints about
 * exposed schemas return nothing). Any ERROR or WARN fails, unless it is on the allow-list
 * below with the reason it must stay (the same reason stands beside the object in
 * supabase/schemas and in docs/decisions.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openPostgres } from '../../supabase/local/src/db/postgres.ts';
import type { Database } from '../../supabase/local/src/db/types.ts';
import { bootstrapPlatform } from '../../supabase/local/src/bootstrap/index.ts';
import { migrate } from '../../supabase/local/src/migrate.ts';
import { splitStatements } from '../../supabase/local/src/sql-split.ts';
import { engines, freshPostgresDatabase, skipBecause } from '../../supabase/local/test/harness/engines.ts';

/** `<lint name> <schema>.<object>` -> why it stays. */
const ALLOWED: Record<string, string> = {
  // Inlined into its callers' queries, which needs a function without a SET clause; no API
  // role may execute it and its callers pin search_path (30_orders_booking.sql).
  'function_search_path_mutable private.bookable_places': 'inlined SQL helper: a SET search_path would stop inlining',
};

interface Lint {
  name: string;
  level: 'ERROR' | 'WARN' | 'INFO';
  detail: string;
  metadata: { schema?: string; name?: string } | null;
}

const postgres = engines().find((e) => e.name === 'postgres')!;
const splinterFile = resolve(import.meta.dirname, '../../../shared/tools/splinter.sql');
const unavailable = postgres.skip || (existsSync(splinterFile) ? '' : `${splinterFile} not found (shared/ beside the checkout, as CI has it)`);

describe.skipIf(unavailable !== '' && skipBecause('splinter on postgres', unavailable))('splinter (Supabase advisor) on postgres', () => {
  let db: Database;
  let lints: Lint[];

  beforeAll(async () => {
    db = await openPostgres({ connectionString: await freshPostgresDatabase('lint') });
    await bootstrapPlatform(db);
    await migrate(db, 'supabase', { seed: false });
    const script = readFileSync(splinterFile, 'utf8');
    lints = await db.transaction(async (tx) => {
      await tx.query(`set local pgrst.db_schemas = 'public,graphql_public'`);
      let rows: Lint[] = [];
      for (const statement of splitStatements(script)) rows = (await tx.query<Lint>(statement.text)).rows;
      return rows;
    });
  }, 180_000);
  afterAll(async () => {
    await db?.close();
  });

  it('ran every lint (the INFO-level ones find something too)', () => {
    expect(lints.some((l) => l.level === 'INFO')).toBe(true);
  });

  it('reports no ERROR and no WARN that is not on the allow-list', () => {
    const key = (l: Lint) => `${l.name} ${l.metadata?.schema}.${l.metadata?.name}`;
    const found = lints.filter((l) => l.level !== 'INFO');
    expect(found.filter((l) => !(key(l) in ALLOWED)).map((l) => `${l.level} ${key(l)}: ${l.detail}`)).toEqual([]);
    // An allow-list entry that no longer fires is removed, so the list stays true.
    expect(Object.keys(ALLOWED).filter((k) => !found.some((l) => key(l) === k))).toEqual([]);
  });
});
