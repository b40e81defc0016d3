import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, posix, relative } from 'node:path';
import { loadConfig } from './config.ts';
import type { Database, Queryable, TransactionOptions } from './db/types.ts';
import { pgErrorFields } from './db/types.ts';
import { lineAt, splitStatements } from './sql-split.ts';

/** Migrations and seed may run long statements: no client-side deadline (see db/postgres.ts). */
const NO_DEADLINE: TransactionOptions = { timeoutMs: 0 };

export interface MigrationFile {
  version: string;
  name: string;
  path: string;
}

/** A migration or seed that failed: where, and what Postgres said. Nothing of it was kept. */
export class MigrationError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly pgMessage: string,
    readonly code?: string,
  ) {
    super(`${file}:${line}: ${pgMessage}${code ? ` (SQLSTATE ${code})` : ''}`);
  }
}

/** supabase/migrations/<version>_<name>.sql, in version order, as the CLI finds them. */
export function listMigrations(workdir: string): MigrationFile[] {
  const dir = join(workdir, 'migrations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((file) => /^(\d+)_(.*)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: m[1], name: m[2], path: join(dir, m[0]) }))
    .sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
}

/**
 * Files of the project folder matched by config.toml patterns, relative to the folder as the CLI
 * reads them; a `*` in a file name matches like a shell glob, each pattern's matches run in name
 * order, and a file matched twice runs once.
 */
function projectFiles(workdir: string, patterns: string[]): { key: string; path: string }[] {
  const files: { key: string; path: string }[] = [];
  for (const pattern of patterns) {
    const full = join(workdir, pattern);
    const name = basename(full);
    if (!name.includes('*')) {
      if (existsSync(full)) files.push({ key: posix.normalize(pattern), path: full });
      continue;
    }
    const dir = dirname(full);
    if (!existsSync(dir)) continue;
    const re = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    for (const entry of readdirSync(dir)
      .filter((e) => re.test(e))
      .sort()) {
      files.push({ key: posix.normalize(posix.join(posix.dirname(pattern), entry)), path: join(dir, entry) });
    }
  }
  return files.filter((f, i) => files.findIndex((g) => g.path === f.path) === i);
}

/** The seed files of config.toml [db.seed] sql_paths (default ./seed.sql). */
export function listSeedFiles(workdir: string): { key: string; path: string }[] {
  const config = loadConfig(workdir);
  const seed = (config.raw.db as { seed?: { enabled?: boolean; sql_paths?: unknown } } | undefined)?.seed;
  if (seed?.enabled === false) return [];
  return projectFiles(workdir, Array.isArray(seed?.sql_paths) ? seed.sql_paths.map(String) : ['./seed.sql']);
}

/**
 * The declarative schema files of config.toml [db.migrations] schema_paths (default
 * ./schemas/*.sql), in the order the CLI applies them to build the desired state.
 */
export function listSchemaFiles(workdir: string): { key: string; path: string }[] {
  const config = loadConfig(workdir);
  const migrations = (config.raw.db as { migrations?: { schema_paths?: unknown } } | undefined)?.migrations;
  const paths = Array.isArray(migrations?.schema_paths) ? migrations.schema_paths.map(String) : [];
  return projectFiles(workdir, paths.length > 0 ? paths : ['./schemas/*.sql']);
}

/**
 * Builds the desired state from the schema files (no migrations, no seed), as the non-superuser
 * owner `postgres` in one transaction, as the CLI builds its shadow database for `db diff`.
 */
export async function applySchemaFiles(db: Database, workdir: string): Promise<string[]> {
  const display = (path: string) => relative(process.cwd(), path) || path;
  const files = listSchemaFiles(workdir);
  await db.transaction(async (tx) => {
    await tx.query(`select set_config('role', 'postgres', true)`);
    for (const file of files) await runScript(tx, file.path, display(file.path));
  }, NO_DEADLINE);
  return files.map((f) => f.key);
}

/** Runs a script statement by statement, so an error can name its line. */
async function runScript(tx: Queryable, path: string, displayPath: string) {
  const script = readFileSync(path, 'utf8');
  const statements = splitStatements(script);
  for (const statement of statements) {
    try {
      await tx.exec(statement.text);
    } catch (error) {
      const fields = pgErrorFields(error);
      const position = fields.position ? Number(fields.position) - 1 : 0;
      const { line } = lineAt(script, statement.offset + position);
      const detail = [fields.message, fields.detail && `DETAIL: ${fields.detail}`, fields.hint && `HINT: ${fields.hint}`]
        .filter(Boolean)
        .join('\n');
      throw new MigrationError(displayPath, line, detail, fields.code);
    }
  }
  return statements.map((s) => s.text);
}

export interface MigrateResult {
  applied: string[];
  seeded: boolean;
  /** The seed file changed since it was applied (run db:reset to apply it). */
  seedChanged: boolean;
}

/**
 * Applies pending migrations as the non-superuser owner `postgres`, all in one transaction:
 * a failure leaves the database exactly as it was. Then, on a database never seeded, runs
 * seed.sql the same way. Both are recorded where the Supabase CLI records them.
 */
export async function migrate(db: Database, workdir: string, options: { seed?: boolean } = {}): Promise<MigrateResult> {
  const display = (path: string) => relative(process.cwd(), path) || path;
  const files = listMigrations(workdir);
  const { rows } = await db.query<{ version: string }>(`select version from supabase_migrations.schema_migrations`);
  const done = new Set(rows.map((r) => r.version));
  const pending = files.filter((f) => !done.has(f.version));
  if (pending.length > 0) {
    await db.transaction(async (tx) => {
      await tx.query(`select set_config('role', 'postgres', true)`);
      for (const file of pending) {
        const statements = await runScript(tx, file.path, display(file.path));
        await tx.query(`insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)`, [
          file.version,
          file.name,
          statements,
        ]);
      }
      // PostgREST's convention: tell the API to reload its schema cache.
      await tx.query(`notify pgrst, 'reload schema'`);
    }, NO_DEADLINE);
  }

  const seedFiles = options.seed === false ? [] : listSeedFiles(workdir);
  let seeded = false;
  let seedChanged = false;
  if (seedFiles.length > 0) {
    const hashes = seedFiles.map((f) => ({ ...f, hash: createHash('sha256').update(readFileSync(f.path)).digest('hex') }));
    const seeds = await db.query<{ path: string; hash: string }>(`select path, hash from supabase_migrations.seed_files`);
    if (seeds.rows.length === 0) {
      await db.transaction(async (tx) => {
        await tx.query(`select set_config('role', 'postgres', true)`);
        for (const file of hashes) {
          await runScript(tx, file.path, display(file.path));
          await tx.query(`insert into supabase_migrations.seed_files (path, hash) values ($1, $2)`, [file.key, file.hash]);
        }
      }, NO_DEADLINE);
      seeded = true;
    } else {
      const recorded = new Map(seeds.rows.map((r) => [r.path, r.hash]));
      seedChanged = hashes.some((f) => recorded.get(f.key) !== f.hash) || recorded.size !== hashes.length;
    }
  }
  return { applied: pending.map((f) => `${f.version}_${f.name}`), seeded, seedChanged };
}
