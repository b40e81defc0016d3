/**
 * One small database interface over PGlite and real Postgres, so every service of the stack
 * behaves the same on both. Values come back alike on both engines: booleans and 2/4-byte
 * numbers as JS values, int8 and numeric as strings, json/jsonb parsed, dates and timestamps
 * as the text Postgres prints.
 */
export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  /** Rows returned or affected by the (last) statement. */
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs a script of one or more statements (simple query protocol), no parameters. */
  exec(sql: string): Promise<void>;
}

export type Engine = 'pglite' | 'postgres';

export interface TransactionOptions {
  /**
   * Deadline of each database round trip of this transaction (every statement, begin and
   * commit), in milliseconds; 0 = none. Getting a connection has the pool's own bound. Default: the database's own
   * (PostgresOptions.roundTripTimeoutMs). PGlite runs in-process and ignores it.
   */
  timeoutMs?: number;
  /**
   * Statements (simple protocol, no parameters) run right after BEGIN in the same round trip:
   * on Postgres `begin; <prelude>` is one message, on PGlite one simple query instead of the
   * parse/describe/bind/execute passes of a parametrised one. A failing prelude rolls back.
   */
  prelude?: string;
  /**
   * readTransaction only, benchmark only (supabase/local/bench/rest.bench.ts): wrap the read in
   * BEGIN/COMMIT as in session 10 instead of the implicit transaction of one simple query.
   */
  explicit?: boolean;
}

export interface Database extends Queryable {
  readonly engine: Engine;
  /** Runs `fn` in a transaction; a throw rolls back. On PGlite calls are serialised. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `prelude` and then `sql` (plain text, no parameters; one statement each) in one
   * transaction and returns the result of `sql`: `prelude; sql` as one simple query, which
   * Postgres runs as one implicit transaction (one round trip on Postgres, one query and its
   * sync on PGlite). An error rolls back. For reads (REST GET/HEAD).
   */
  readTransaction<T>(prelude: string, sql: string, options?: TransactionOptions): Promise<QueryResult<T>>;
  /** LISTEN on a channel; returns the unlisten function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A Postgres error normalised across engines (fields of the ErrorResponse message). */
export interface PgErrorFields {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
  position?: string;
  where?: string;
  internalPosition?: string;
  internalQuery?: string;
}

export function pgErrorFields(error: unknown): PgErrorFields {
  const e = error as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    code: s(e?.code),
    message: s(e?.message) ?? String(error),
    detail: s(e?.detail),
    hint: s(e?.hint),
    position: s(e?.position),
    where: s(e?.where),
    internalPosition: s(e?.internalPosition),
    internalQuery: s(e?.internalQuery),
  };
}

/** Is this a Postgres error (it has a SQLSTATE) rather than a bug or a lost connection? */
export function isPgError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * A database round trip outlived its deadline: the server did not answer (a network that drops
 * packets without a reset, a server that hangs). The connection was destroyed, not returned to
 * the pool; whether a write committed is unknown. The gateway answers it 504.
 */
export class DatabaseTimeoutError extends Error {
  constructor(
    /** 'connect': no connection within the deadline; 'query': a statement got no answer. */
    readonly phase: 'connect' | 'query',
    readonly timeoutMs: number,
  ) {
    super(
      phase === 'connect'
        ? `No database connection within ${timeoutMs} ms`
        : `The database did not answer within ${timeoutMs} ms; the connection was dropped`,
    );
    this.name = 'DatabaseTimeoutError';
  }
}

/**
 * Is this the database connection failing (refused, cut, timed out while connecting) rather
 * than a statement's error? The stack answers it 503, as PostgREST does, not 500.
 */
export function isConnectionError(error: unknown): boolean {
  if (isPgError(error)) return false;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'].includes(e.code))
    return true;
  return (
    typeof e?.message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Connection terminated due to connection timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/.test(
      e.message,
    )
  );
}
