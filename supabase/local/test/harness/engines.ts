import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import pg from 'pg';
import { openPostgres } from '../../src/db/postgres.ts';
import { bootstrapPlatform } from '../../src/bootstrap/index.ts';
import { migrate } from '../../src/migrate.ts';

export type EngineName = 'pglite' | 'postgres';

/** CI sets this: a suite that would be skipped for a missing system package fails instead. */
export const requireAll = process.env.CI_REQUIRE_ALL === '1';

/**
 * Records a skipped suite loudly (scripts/test.mjs prints the list with how to install what is
 * missing), or throws when CI_REQUIRE_ALL=1 so CI always runs everything.
 */
export function skipBecause(suite: string, reason: string): true {
  if (requireAll) throw new Error(`${suite} cannot run: ${reason} (CI_REQUIRE_ALL=1 forbids skipping)`);
  mkdirSync('reports', { recursive: true });
  appendFileSync('reports/skipped.txt', `${suite}: ${reason}\n`);
  console.warn(`\n!!! SKIPPED ${suite}: ${reason}\n`);
  return true;
}

/** The engines a suite runs on, with a reason when Postgres is unavailable here. */
export function engines(): { name: EngineName; skip: string }[] {
  return [
    { name: 'pglite', skip: '' },
    { name: 'postgres', skip: inject('postgresSkipReason') },
  ];
}

/** A fresh, empty database in the run's Postgres cluster. */
export async function freshPostgresDatabase(prefix = 't'): Promise<string> {
  const port = inject('postgresPort');
  if (!port) throw new Error(inject('postgresSkipReason') || 'no Postgres');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `postgres://supabase_admin@127.0.0.1:${port}/postgres` });
  await admin.connect();
  try {
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  return `postgres://supabase_admin@127.0.0.1:${port}/${name}`;
}

/** A fresh database in the run's Postgres cluster, bootstrapped like the local stack and migrated (no seed). */
export async function migratedPostgresDatabase(prefix = 't'): Promise<string> {
  const url = await freshPostgresDatabase(prefix);
  const db = await openPostgres({ connectionString: url, max: 2 });
  try {
    await bootstrapPlatform(db);
    await migrate(db, 'supabase', { seed: false });
  } finally {
    await db.close();
  }
  return url;
}
