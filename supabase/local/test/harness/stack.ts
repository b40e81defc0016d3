import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openPglite } from '../../src/db/pglite.ts';
import { bootstrapPlatform } from '../../src/bootstrap/index.ts';
import { listSeedFiles, migrate } from '../../src/migrate.ts';
import { startStack, type Stack, type StackOptions } from '../../src/stack.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { freshPostgresDatabase, postgresFromTemplate, type EngineName } from './engines.ts';

const root = resolve(import.meta.dirname, '../../../..');
const cacheDir = join(root, '.data', 'test-cache');

function hashFiles(paths: string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  for (const path of paths) {
    hash.update(path);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

function projectFiles(workdir: string): string[] {
  const migrations = join(workdir, 'migrations');
  const files = existsSync(migrations)
    ? readdirSync(migrations)
        .sort()
        .map((f) => join(migrations, f))
    : [];
  return [...files, join(workdir, 'config.toml'), ...listSeedFiles(workdir).map((f) => f.path)];
}

/** The files a prepared database is built from: the platform's bootstrap, and the project's migrations and seed. */
function preparedInputs(workdir?: string): string[] {
  const bootstrapDir = join(root, 'supabase/local/src/bootstrap');
  const inputs = readdirSync(bootstrapDir)
    .sort()
    .map((f) => join(bootstrapDir, f));
  if (workdir) inputs.push(...projectFiles(resolve(workdir)));
  return inputs;
}

/**
 * A PGlite data directory dump with the platform bootstrapped (and, with `workdir`, that
 * project's migrations and seed applied), built once and cached on disk by content hash, so a
 * test starts from it in about half a second instead of running initdb.
 */
export async function preparedPglite(workdir?: string, seed = true): Promise<Blob> {
  const key = `${workdir ? 'project' : 'platform'}-${seed ? 's' : 'n'}-${hashFiles(preparedInputs(workdir))}`;
  const file = join(cacheDir, `${key}.tgz`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const db = await openPglite();
  try {
    await bootstrapPlatform(db);
    if (workdir) await migrate(db, resolve(workdir), { seed });
    const dump = await db.pglite.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, file);
    return new Blob([bytes]);
  } finally {
    await db.close();
  }
}

/**
 * A database in the run's Postgres cluster with the platform bootstrapped and the project's
 * migrations (and seed) applied: a copy of a template built once per run and content.
 */
export async function preparedPostgres(workdir: string, seed = true, prefix = 't'): Promise<string> {
  const key = `${seed ? 's' : 'n'}_${hashFiles(preparedInputs(workdir))}`;
  return postgresFromTemplate(
    `template_project_${key}`,
    async (url) => {
      const db = await openPostgres({ connectionString: url, max: 2 });
      try {
        await bootstrapPlatform(db);
        await migrate(db, resolve(workdir), { seed });
      } finally {
        await db.close();
      }
    },
    prefix,
  );
}

export interface TestStackOptions extends Omit<StackOptions, 'databaseUrl' | 'loadDataDir'> {
  engine: EngineName;
  /**
   * Start from a prepared database (default true): the project's own migrations and seed already
   * applied when the stack serves this project (`supabase/`), else the platform only (the
   * migrations then run at start, as a test of another project needs). How a stack migrates a
   * fresh database is what bootstrap-migrations.test.ts, datadir.test.ts and the browser tests'
   * stack go through.
   */
  prepared?: boolean;
}

/** Whether `workdir` is this project's own Supabase folder (whose prepared databases are cached). */
const isProject = (workdir = 'supabase') => resolve(workdir) === join(root, 'supabase');

/** A stack on free ports over a fresh database of the given engine. */
export async function startTestStack(options: TestStackOptions): Promise<Stack> {
  const { engine, prepared = true, ...rest } = options;
  const common: StackOptions = { port: 0, mailPort: 0, smtpPort: 0, paymentsPort: 0, ...rest };
  const project = prepared && isProject(rest.workdir);
  if (engine === 'postgres') {
    // Its own data directory (storage files, Deno's cache), not the checkout's .data: every
    // test starts from empty caches, as on a fresh machine.
    const dataDir = rest.dataDir ?? mkdtempSync(join(tmpdir(), 'supabase-local-test-'));
    const databaseUrl =
      project && rest.dataDir === undefined
        ? await preparedPostgres(rest.workdir ?? 'supabase', rest.seed !== false)
        : await freshPostgresDatabase();
    const stack = await startStack({ ...common, dataDir, databaseUrl });
    if (rest.dataDir !== undefined) return stack;
    const close = stack.close;
    return Object.assign(stack, { close: () => close().finally(() => rmSync(dataDir, { recursive: true, force: true })) });
  }
  return startStack({
    ...common,
    inMemory: rest.dataDir === undefined,
    loadDataDir:
      prepared && rest.dataDir === undefined
        ? await (project ? preparedPglite(rest.workdir ?? 'supabase', rest.seed !== false) : preparedPglite())
        : undefined,
  });
}

/** A throwaway project folder with the given migrations (name -> SQL) and seed. */
export function fixtureProject(dir: string, files: { migrations?: Record<string, string>; seed?: string; config?: string }) {
  mkdirSync(join(dir, 'migrations'), { recursive: true });
  for (const [name, sql] of Object.entries(files.migrations ?? {})) writeFileSync(join(dir, 'migrations', name), sql);
  if (files.seed !== undefined) writeFileSync(join(dir, 'seed.sql'), files.seed);
  if (files.config !== undefined) writeFileSync(join(dir, 'config.toml'), files.config);
  return dir;
}

/**
 * Sets PostgREST's db-tx-end for the stack's REST service as a project would on hosted
 * Supabase (`alter role authenticator set pgrst.db_tx_end`, then `NOTIFY pgrst, 'reload
 * config'`), and waits for the reload; `null` returns to the default, `commit`. A suite that
 * writes with `Prefer: tx=rollback` needs `commit-allow-override`: by default PostgREST commits.
 */
export async function setTxEnd(stack: Stack, value: 'commit-allow-override' | 'rollback' | 'rollback-allow-override' | null) {
  const reloaded = new Promise<void>((resolve) => stack.context.events.once('schema-changed', () => resolve()));
  await stack.db.query(
    value === null ? 'alter role authenticator reset pgrst.db_tx_end' : `alter role authenticator set pgrst.db_tx_end = '${value}'`,
  );
  await stack.db.query(`notify pgrst, 'reload config'`);
  await reloaded;
}
