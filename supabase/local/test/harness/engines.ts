import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import pg from 'pg';

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

/** The URL of a database in the run's Postgres cluster, as its superuser. */
function postgresUrl(database: string): string {
  const port = inject('postgresPort');
  if (!port) throw new Error(inject('postgresSkipReason') || 'no Postgres');
  return `postgres://supabase_admin@127.0.0.1:${port}/${database}`;
}

/** A fresh, empty database in the run's Postgres cluster. */
export async function freshPostgresDatabase(prefix = 't'): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  return postgresUrl(name);
}

/** Runs `sql`, again while Postgres still counts a just-closed session on the database (55006). */
async function whenUnused(admin: pg.Client, sql: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(sql);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * A fresh database in the run's Postgres cluster that already holds what `build` writes: a copy
 * of a template database named `template`, built once per run by whichever test file asks first
 * (the others wait on an advisory lock). CREATE DATABASE … TEMPLATE copies the files, in well
 * under a second; migrating the project takes about fifteen. The name must say what was built
 * (the content hash of the migrations and seed), so a copy is never of something else.
 */
export async function postgresFromTemplate(template: string, build: (url: string) => Promise<void>, prefix = 't'): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl('postgres') });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (!rowCount) {
      const building = `${template}_build`;
      await admin.query(`drop database if exists ${pg.escapeIdentifier(building)}`);
      await admin.query(`create database ${pg.escapeIdentifier(building)}`);
      await build(postgresUrl(building));
      await whenUnused(admin, `alter database ${pg.escapeIdentifier(building)} rename to ${pg.escapeIdentifier(template)}`);
    }
    await whenUnused(admin, `create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(template)}`);
  } finally {
    await admin.query('select pg_advisory_unlock_all()').catch(() => undefined);
    await admin.end();
  }
  return postgresUrl(name);
}
