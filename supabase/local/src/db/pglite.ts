import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, QueryResult, Queryable, TransactionOptions } from './types.ts';

/** The bootstrap superuser, as on hosted Supabase (`postgres` is an ordinary owner role there). */
export const SUPERUSER = 'supabase_admin';

/** Keep dates and big numbers as Postgres prints them, as the `pg` driver is set up to do. */
const asText = (value: string) => value;
const parsers = {
  [types.INT8]: asText,
  [types.NUMERIC]: asText,
  [types.DATE]: asText,
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.TIME]: asText,
  [types.TIMETZ]: asText,
  [types.INTERVAL]: asText,
};

export class DataDirError extends Error {}

export interface PgliteOptions {
  /** Directory of the cluster; absent = in memory. */
  dataDir?: string;
  /** A tarball from `dumpDataDir()` to start from (fast clone of a prepared database). */
  loadDataDir?: Blob;
  /** Extra extensions (e.g. pgtap for the test runner). */
  extensions?: Record<string, unknown>;
}

function wrap(pg: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await pg.query<T>(sql, params as unknown[] | undefined);
      return {
        rows: result.rows,
        fields: result.fields,
        // affectedRows counts only writes: a SELECT reports its rows.
        rowCount: result.rows.length > 0 ? result.rows.length : (result.affectedRows ?? 0),
      };
    },
    async exec(sql: string) {
      await pg.exec(sql);
    },
  };
}

export async function openPglite(options: PgliteOptions = {}): Promise<Database & { pglite: PGlite }> {
  const { dataDir } = options;
  if (dataDir && existsSync(dataDir) && readdirSync(dataDir).length > 0 && !options.loadDataDir) {
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      throw new DataDirError(
        `${dataDir} is not an empty directory and holds no Postgres data (PG_VERSION is missing). ` +
          `Move it away or run \`npm run db:reset\` to rebuild the local database.`,
      );
    }
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      dataDir,
      loadDataDir: options.loadDataDir,
      username: SUPERUSER,
      initDbStartParams: [`--username=${SUPERUSER}`],
      extensions: { btree_gist, pgcrypto, uuid_ossp, pg_trgm, citext, ...(options.extensions as object) },
      parsers,
    });
    // Hosted Supabase's search_path (also set on the database by the bootstrap).
    await pglite.exec(`set search_path to "$user", public, extensions`);
  } catch (error) {
    throw new DataDirError(
      `The local database${dataDir ? ` in ${dataDir}` : ''} could not be opened: ${(error as Error).message}. ` +
        `It may be corrupt: run \`npm run db:reset\` to rebuild it (this deletes the local data).`,
    );
  }
  const base = wrap(pglite);
  return {
    engine: 'pglite',
    pglite,
    ...base,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions) =>
      pglite.transaction(async (tx) => {
        if (options?.prelude) await tx.exec(options.prelude);
        return fn(wrap(tx));
      }),
    // The settings and the statement as one simple query (two protocol passes: the query and
    // its sync): Postgres runs a multi-statement simple query as one implicit transaction, so
    // the transaction-local settings hold for the statement and end with it, and an error rolls
    // the whole back. exec holds PGlite's transaction mutex, so nothing runs in between.
    // `explicit` (benchmark only): between PGlite's own BEGIN and COMMIT, as in session 10.
    readTransaction: async <T>(prelude: string, sql: string, options?: TransactionOptions) => {
      const results = options?.explicit
        ? await pglite.transaction((tx) => tx.exec(`${prelude}; ${sql}`))
        : await pglite.exec(`${prelude}; ${sql}`);
      const last = results[1];
      return {
        rows: last.rows as T[],
        fields: last.fields,
        rowCount: last.rows.length > 0 ? last.rows.length : (last.affectedRows ?? 0),
      };
    },
    async listen(channel, onPayload) {
      const unlisten = await pglite.listen(channel, onPayload);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}
