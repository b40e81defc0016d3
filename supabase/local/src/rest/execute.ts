/**
 * Executing: a planned statement runs in one transaction as the caller's role, with the request
 * settings PostgREST sets (request.jwt.claims, request.method, request.path, request.headers,
 * search_path, statement_timeout by role, read-only for GET/HEAD and stable functions, the
 * Prefer: timezone). A read without parameters travels with its transaction as one simple
 * query. Prefer: tx=rollback (where db-tx-end allows it) answers and rolls back. Errors from Postgres become PostgREST's
 * statuses and bodies (errors.ts). As PostgREST's MainTx and Query.hs.
 */
import type { Queryable } from '../db/types.ts';
import { isPgError } from '../db/types.ts';
import { UnknownRoleError, readAsRequest, withRequest } from '../db/request.ts';
import { HttpError, forwardedHeaders } from '../http.ts';
import { fromPgError, pgrstBody } from './errors.ts';
import type { Params } from './params.ts';
import type { Range, RestRequest } from './request.ts';
import { finishRead, type Outcome, type ReadRow } from './respond.ts';

/**
 * Runs `fn` in the request's transaction.
 * readOnly: GET/HEAD, and (PostgREST's txMode) POST to a stable or immutable function.
 * oneTrip: a read whose statement has no parameters, sent with its transaction as one simple
 * query (readAsRequest); `fn` is the way when it cannot go so.
 */
export async function run(
  r: RestRequest,
  fn: (tx: Queryable) => Promise<Outcome>,
  readOnly = r.method === 'GET' || r.method === 'HEAD',
  oneTrip?: { sql: string; finish: (rows: ReadRow[]) => Outcome },
): Promise<Outcome> {
  const { ctx, req, role, claims, method, url, cache, prefer } = r;
  const headers = forwardedHeaders(req, ctx.config.api.trustedProxies);
  try {
    const context = {
      role,
      claims,
      method,
      path: url.pathname.replace(/^\/rest\/v1/, '') || '/',
      headers,
      statementTimeout: cache.roleTimeouts.get(role),
      // PostgREST's search_path per request: the request's schema, then db-extra-search-path
      searchPath: [cache.schema, ...ctx.config.api.extraSearchPath.filter((x) => x !== cache.schema)],
      readOnly,
      timezone: prefer.timezone,
    };
    const timeoutMs = deadlineMs(cache.roleTimeouts.get(role));
    if (oneTrip) {
      const result = await readAsRequest<ReadRow>(ctx.db, context, oneTrip.sql, { timeoutMs });
      if (result) return oneTrip.finish(result.rows);
    }
    return await withRequest(
      ctx.db,
      context,
      async (tx) => {
        const result = await fn(tx);
        if (rollsBack(r)) {
          // deferred constraints are checked before the rollback, as PostgREST's optionalRollback
          await tx.query('set constraints all immediate');
          throw new Rollback(result);
        }
        return result;
      },
      { timeoutMs },
    );
  } catch (error) {
    if (error instanceof Rollback) return error.outcome;
    if (error instanceof HttpError) throw error;
    if (error instanceof UnknownRoleError) {
      throw new HttpError(401, pgrstBody('22023', error.message), { 'www-authenticate': 'Bearer' });
    }
    if (isPgError(error)) throw fromPgError(error, r.authed);
    throw error;
  }
}

/**
 * The planner's estimate as the total (count=planned; count=estimated when the capped count
 * passed `above`, max_rows: the larger of the two), as PostgREST's resultSetWTotal.
 */
export interface PlanRows {
  sql: string;
  values: unknown[];
  above?: number;
}

/** Runs a read statement (query.ts readSql) and answers from its row. */
export async function runRead(
  r: RestRequest,
  sql: string,
  p: Params,
  range: Range,
  extra: { isHead: boolean; planRows?: PlanRows },
): Promise<Outcome> {
  const finish = (rows: ReadRow[]) => finishRead(r, rows[0], range, extra);
  const { planRows } = extra;
  return run(
    r,
    async (tx) => {
      const rows = (await tx.query<ReadRow>(sql, p.inline ? [] : p.values)).rows;
      if (planRows) {
        const counted = rows[0].total === undefined ? undefined : Number(rows[0].total);
        if (counted === undefined || planRows.above === undefined || counted > planRows.above) {
          const plan = (await tx.query<Record<string, unknown>>(planRows.sql, planRows.values)).rows[0];
          const json = Object.values(plan)[0];
          const estimate = Number((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan['Plan Rows']);
          rows[0].total = String(counted === undefined ? estimate : Math.max(counted, estimate));
        }
      }
      return finish(rows);
    },
    undefined,
    p.inline ? { sql, finish } : undefined,
  );
}

/**
 * Whether the request's transaction ends in a rollback: `Prefer: tx=rollback`, or db-tx-end
 * `rollback*` without `tx=commit` (PostgREST's optionalRollback; `prefer.tx` is only set where
 * db-tx-end allows an override).
 */
export function rollsBack(r: RestRequest): boolean {
  return r.prefer.tx === 'rollback' || (r.cache.txEnd.rollbackAll && r.prefer.tx !== 'commit');
}

/** The outcome is answered, the transaction rolled back. */
class Rollback extends Error {
  constructor(readonly outcome: Outcome) {
    super('rollback');
  }
}

/**
 * What the server needs beyond a statement_timeout to cancel the statement and say so, and
 * what a loaded machine adds: the client-side deadline is the role's timeout plus this, so a
 * reachable server always reports its own 57014 first.
 */
export const DEADLINE_GRACE_MS = 5_000;

/**
 * The client-side deadline of each round trip of a request as `role`: its statement_timeout
 * (pg_db_role_setting: anon 3 s, authenticated 8 s, as on hosted Supabase) plus the grace.
 * A role without one (service_role) gets the database's default (db/postgres.ts, 60 s).
 */
export function deadlineMs(statementTimeout: string | undefined): number | undefined {
  const ms = intervalMs(statementTimeout);
  return ms ? ms + DEADLINE_GRACE_MS : undefined;
}

/** A duration setting as Postgres reads it ('3s', '8000', '1min'; no unit = ms). */
export function intervalMs(setting: string | undefined): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*$/.exec(setting ?? '');
  if (!m) return undefined;
  const factor = { us: 0.001, ms: 1, s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms']!;
  return Math.round(Number(m[1]) * factor);
}
