import type { Database, Queryable, TransactionOptions } from './types.ts';

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
  // One round trip for all of it (each statement costs one on Postgres and a protocol pass on PGlite).
  const params: string[] = [context.role, JSON.stringify(context.claims), context.method ?? '', context.path ?? '', JSON.stringify(context.headers ?? {})];
  let sql = `select set_config('role', $1, true),
              set_config('request.jwt.claims', $2, true),
              set_config('request.method', $3, true),
              set_config('request.path', $4, true),
              set_config('request.headers', $5, true)`;
  if (context.statementTimeout) {
    params.push(context.statementTimeout);
    sql += `, set_config('statement_timeout', $${params.length}, true)`;
  }
  if (context.searchPath?.length) {
    params.push(context.searchPath.map((x) => `"${x.replace(/"/g, '""')}"`).join(', '));
    sql += `, set_config('search_path', $${params.length}, true)`;
  }
  if (context.timezone) {
    params.push(context.timezone);
    sql += `, set_config('timezone', $${params.length}, true)`;
  }
  if (context.readOnly) sql += `, set_config('transaction_read_only', 'on', true)`;
  return db.transaction(async (tx) => {
    await tx.query(sql, params);
    return fn(tx);
  }, options);
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
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('role', $1, true)`, [role]);
    return fn(tx);
  }, { timeoutMs: PLATFORM_TIMEOUT_MS });
}
