import type { Database, QueryResult, Queryable, TransactionOptions } from './types.ts';

/** What PostgREST (and Storage) set for each request before running its statement. */
export interface RequestContext {
  role: string;
  claims: Record<string, unknown>;
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** The role's statement_timeout (PostgREST applies pg_db_role_setting itself). */
  statementTimeout?: string;
  /** GET/HEAD run in a read-only transaction, as PostgREST runs them. */
  readOnly?: boolean;
  /** PostgREST's `Prefer: timezone=...`: the transaction's TimeZone. */
  timezone?: string;
  /** PostgREST's per-request search_path: the request's schema and db-extra-search-path. */
  searchPath?: string[];
}

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export class UnknownRoleError extends Error {}

/**
 * Benchmark switch only (supabase/local/bench/rest.bench.ts measures before and after in one
 * run): `batched: false` sends the settings as before, as a parametrised statement of its own
 * after BEGIN (one more round trip on Postgres; on PGlite six protocol passes instead of two);
 * `explicitRead: true` wraps a REST read in BEGIN/COMMIT as in session 10 (readTransaction's
 * `explicit`).
 */
export const requestSetup = { batched: true, explicitRead: false };

/** A string as an SQL literal (escape string syntax: valid whatever standard_conforming_strings is). */
export function literal(value: string): string {
  return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * Runs `fn` in one transaction as the caller: `set local role`, `request.jwt.claims` and the
 * request settings, all transaction-local so nothing leaks into the next request.
 */
export async function withRequest<T>(
  db: Database,
  context: RequestContext,
  fn: (tx: Queryable) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  if (!API_ROLES.has(context.role)) {
    throw new UnknownRoleError(`role "${context.role}" does not exist`);
  }
  const settings = settingsOf(context);
  // A NUL cannot be a Postgres text (as a parameter it fails the same way): keep it a parameter.
  if (!requestSetup.batched || settings.some(([, v]) => v.includes('\0'))) {
    const sql = `select ${settings.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`;
    return db.transaction(async (tx) => {
      await tx.query(sql, settings.flat());
      return fn(tx);
    }, options);
  }
  return db.transaction(fn, { ...options, prelude: preludeOf(settings) });
}

/**
 * The request's settings, in the order PostgREST sets them. They go to the database as one
 * statement sent with BEGIN in the same round trip (Postgres) or as one simple query (PGlite):
 * the values as quoted literals (E'...', quotes and backslashes doubled, so the quoting holds
 * whatever standard_conforming_strings says).
 */
function settingsOf(context: RequestContext): [string, string][] {
  const settings: [string, string][] = [
    ['role', context.role],
    ['request.jwt.claims', JSON.stringify(context.claims)],
    ['request.method', context.method ?? ''],
    ['request.path', context.path ?? ''],
    ['request.headers', JSON.stringify(context.headers ?? {})],
  ];
  if (context.statementTimeout) settings.push(['statement_timeout', context.statementTimeout]);
  if (context.searchPath?.length) settings.push(['search_path', context.searchPath.map((x) => `"${x.replace(/"/g, '""')}"`).join(', ')]);
  if (context.timezone) settings.push(['timezone', context.timezone]);
  if (context.readOnly) settings.push(['transaction_read_only', 'on']);
  return settings;
}

const preludeOf = (settings: [string, string][]) =>
  `select ${settings.map(([k, v]) => `set_config(${literal(k)}, ${literal(v)}, true)`).join(', ')}`;

/**
 * A read as the caller in one trip: the settings and `sql` (no parameters: values inlined as
 * literals, rest/query.ts Params.inline) as one simple query, one implicit transaction; one
 * round trip on Postgres instead of four (begin, settings, statement, commit), two protocol
 * passes on PGlite instead of sixteen. Undefined when it cannot go that way (a NUL in a
 * setting, or the benchmark's old path): the caller then uses withRequest.
 */
export async function readAsRequest<T>(
  db: Database,
  context: RequestContext,
  sql: string,
  options?: TransactionOptions,
): Promise<QueryResult<T> | undefined> {
  if (!API_ROLES.has(context.role)) {
    throw new UnknownRoleError(`role "${context.role}" does not exist`);
  }
  const settings = settingsOf(context);
  if (!requestSetup.batched || settings.some(([, v]) => v.includes('\0'))) return undefined;
  return db.readTransaction<T>(preludeOf(settings), sql, requestSetup.explicitRead ? { ...options, explicit: true } : options);
}

/**
 * Deadline of each round trip of a platform role's transaction (GoTrue's and Storage's own
 * work: short statements; the custom access token hook has its own 2 s statement_timeout).
 */
export const PLATFORM_TIMEOUT_MS = 15_000;

/** Runs `fn` in a transaction as a platform role (e.g. supabase_auth_admin for GoTrue's work). */
export async function asPlatformRole<T>(
  db: Database,
  role: 'supabase_auth_admin' | 'supabase_storage_admin' | 'postgres',
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(
    async (tx) => {
      await tx.query(`select set_config('role', $1, true)`, [role]);
      return fn(tx);
    },
    { timeoutMs: PLATFORM_TIMEOUT_MS },
  );
}
