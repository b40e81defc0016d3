/**
 * Supabase's security and performance advisor (splinter: the compiled linter the dashboard runs,
 * vendored byte for byte as a test fixture in tests/db/fixtures/splinter with its source, commit
 * and licence; a tool to run, not project code) on the database
 * the migrations build, on PostgreSQL 15 over the local stack's platform bootstrap, with the
 * exposed schemas set as PostgREST sets them (without `pgrst.db_schemas` the lints about
 * exposed schemas return nothing). Any ERROR or WARN fails, unless it is on the allow-list
 * below with the reason it must stay (the same reason stands beside the object in
 * supabase/schemas and in docs/adr/0007-advisor-zero-warnings.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openPostgres } from '../../supabase/local/src/db/postgres.ts';
import type { Database } from '../../supabase/local/src/db/types.ts';
import { bootstrapPlatform } from '../../supabase/local/src/bootstrap/index.ts';
import { migrate } from '../../supabase/local/src/migrate.ts';
import { splitStatements } from '../../supabase/local/src/sql-split.ts';
import { engines, freshPostgresDatabase, skipBecause } from '../../supabase/local/test/harness/engines.ts';

/**
 * `<lint name> <schema>.<object>` -> why it stays. Empty: 0 ERROR and 0 WARN is the bar. An entry
 * must name a lint that still fires (checked below) and the reason beside the object in
 * supabase/schemas.
 */
const ALLOWED: Record<string, string> = {};

interface Lint {
  name: string;
  level: 'ERROR' | 'WARN' | 'INFO';
  detail: string;
  metadata: { schema?: string; name?: string } | null;
}

const postgres = engines().find((e) => e.name === 'postgres')!;
const splinterFile = resolve(import.meta.dirname, 'fixtures/splinter/splinter.sql');
/** The vendored file as published (tests/db/fixtures/splinter/README.md): an edit is seen. */
const SPLINTER_SHA256 = '618a189a2d25c81e1d77efb24acca72c9c832aeac9680ba06a1ba5ec666b2d3d';
const unavailable = postgres.skip;

it('splinter.sql is the published file, byte for byte', () => {
  expect(createHash('sha256').update(readFileSync(splinterFile)).digest('hex')).toBe(SPLINTER_SHA256);
});

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
