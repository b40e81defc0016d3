import pg from 'pg';
import { DatabaseTimeoutError, type Database, type QueryResult, type Queryable, type TransactionOptions } from './types.ts';

const asText = (value: string) => value;
// Same value shapes as the PGlite adapter: dates and timestamps as printed, int8 as string.
for (const oid of [1082, 1083, 1114, 1184, 1266, 1186, 1700, 20]) pg.types.setTypeParser(oid, asText);

export interface PostgresOptions {
  connectionString: string;
  max?: number;
  /** Fail a query whose connection hangs instead of waiting forever. */
  connectionTimeoutMillis?: number;
  /**
   * Default deadline of every statement's round trip in ms (getting a connection is bounded
   * by connectionTimeoutMillis); 0 = none. A round trip that outlives it destroys its connection (so a black-holed network
   * cannot hang a request until TCP gives up) and fails with DatabaseTimeoutError. Requests
   * pass a shorter one (REST: the role's statement_timeout plus a grace), migrations none.
   * Default 60 s.
   */
  roundTripTimeoutMs?: number;
}

/** Destroys a client's socket: its running query fails at once and the client is unusable. */
function destroy(client: pg.PoolClient) {
  const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  if (stream) stream.destroy();
  else client.end().catch(() => {});
}

/** A checked-out client and, once a round trip outlived its deadline, why it is dead. */
interface Checkout {
  client: pg.PoolClient;
  dead?: Error;
}

/**
 * `work` on the client, failing with DatabaseTimeoutError (and a destroyed client) after `ms`.
 * The expiry is decided in the check phase of the event loop, after the poll phase: after a
 * long synchronous stretch the timer runs before sockets are read, and an answer already
 * waiting in the socket must win over the timer.
 */
async function bounded<T>(c: Checkout, ms: number, work: () => Promise<T>): Promise<T> {
  if (c.dead) throw c.dead;
  if (!ms) return work();
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const running = work().finally(() => (settled = true));
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        c.dead = new DatabaseTimeoutError('query', ms);
        reject(c.dead);
        destroy(c.client);
      });
    }, ms);
  });
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
    running.catch(() => {});
  }
}

const shape = (r: pg.QueryResult): QueryResult<never> => ({
  rows: r.rows as never[],
  fields: r.fields.map((f: pg.FieldDef) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  rowCount: r.rowCount ?? r.rows.length,
});

function wrap(c: Checkout, timeoutMs: number): Queryable & { queryAll(sql: string): Promise<QueryResult<never>[]> } {
  const { client } = c;
  return {
    /** A multi-statement text (simple protocol): the result of each statement. */
    async queryAll(sql: string) {
      const result = await bounded(c, timeoutMs, () => client.query(sql));
      return (Array.isArray(result) ? result : [result]).map(shape);
    },
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await bounded(c, timeoutMs, () => client.query(sql, params as unknown[] | undefined));
      // A multi-statement text returns an array of results: report the last one.
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return {
        rows: last.rows as T[],
        fields: last.fields.map((f: pg.FieldDef) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        rowCount: last.rowCount ?? last.rows.length,
      };
    },
    async exec(sql: string) {
      await bounded(c, timeoutMs, () => client.query(sql));
    },
  };
}

export async function openPostgres(options: PostgresOptions): Promise<Database & { pool: pg.Pool }> {
  const acquireTimeout = options.connectionTimeoutMillis ?? 10_000;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: acquireTimeout,
    // Dead peers of idle connections are noticed by the kernel (a real network; a deadline
    // below covers the running request).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'supabase-local',
    // Hosted Supabase's search_path, also for connections opened before the bootstrap set it
    // on the database (a startup option, so no query races the first one on a new client).
    options: '-c search_path="$user",public,extensions',
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const defaultTimeout = options.roundTripTimeoutMs ?? 60_000;

  /**
   * A pooled client. Waiting for one (a free slot, or a new connection) is bounded by the
   * pool's connectionTimeoutMillis, PostgREST's db-pool-acquisition-timeout (10 s); its
   * timeout is a DatabaseTimeoutError like a statement's (504), a refused connection stays a
   * connection error (503).
   */
  const acquire = async (): Promise<pg.PoolClient> => {
    try {
      return await pool.connect();
    } catch (error) {
      const message = (error as Error)?.message ?? '';
      if (message === 'timeout exceeded when trying to connect' || message === 'Connection terminated due to connection timeout') {
        throw new DatabaseTimeoutError('connect', acquireTimeout);
      }
      throw error;
    }
  };

  /**
   * Runs `fn` on a checked-out client, in a transaction if `tx`. A checked-out client has no
   * listener of the pool: without ours, a connection lost mid-request (server restart,
   * pg_terminate_backend, network) is an uncaught 'error' event that ends the whole stack.
   * The running query fails with the error instead, and a broken or timed-out client is
   * dropped from the pool, never handed to the next request.
   */
  const withClient = async <T>(ms: number, tx: boolean, fn: (q: ReturnType<typeof wrap>) => Promise<T>, prelude?: string): Promise<T> => {
    const client = await acquire();
    let lost: Error | undefined;
    const onError = (error: Error) => (lost ??= error);
    client.on('error', onError);
    const checkout: Checkout = { client };
    const q = wrap(checkout, ms);
    try {
      if (!tx) return await fn(q);
      await q.query(prelude ? `begin; ${prelude}` : 'begin');
      const result = await fn(q);
      await q.query('commit');
      return result;
    } catch (error) {
      lost ??= checkout.dead;
      if (tx && !lost) await q.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.off('error', onError);
      // an error makes the pool discard the client (it re-adds its own 'error' listener first)
      client.release(lost ?? checkout.dead);
    }
  };

  const base: Queryable = {
    query: (sql, params) => withClient(defaultTimeout, false, (q) => q.query(sql, params)),
    exec: (sql) => withClient(defaultTimeout, false, (q) => q.exec(sql)),
  };
  await base.query('select 1');
  let listener: pg.Client | undefined;
  let closed = false;
  const channels = new Map<string, Set<(payload: string) => void>>();
  /**
   * One dedicated connection for LISTEN. If it drops (server restart, network), it is
   * reconnected with backoff and every channel listened to again, so events do not stop
   * silently; notifications sent while it was down are lost, as with any LISTEN.
   */
  let connecting: Promise<void> | undefined;
  const ensureListener = (): Promise<void> => {
    if (listener) return Promise.resolve();
    connecting ??= connectListener().finally(() => (connecting = undefined));
    return connecting;
  };
  const connectListener = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: options.connectionString, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    const lost = () => {
      if (listener !== client) return;
      listener = undefined;
      client.end().catch(() => {});
      if (!closed && channels.size > 0) reconnect(250);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (msg) => {
      for (const cb of channels.get(msg.channel) ?? []) cb(msg.payload ?? '');
    });
    await client.connect();
    listener = client;
    for (const channel of channels.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
  };
  const reconnect = (delay: number) => {
    setTimeout(() => {
      if (closed || listener) return;
      ensureListener().catch(() => reconnect(Math.min(delay * 2, 5_000)));
    }, delay).unref();
  };
  return {
    engine: 'postgres',
    pool,
    ...base,
    transaction<T>(fn: (tx: Queryable) => Promise<T>, txOptions?: TransactionOptions): Promise<T> {
      return withClient(txOptions?.timeoutMs ?? defaultTimeout, true, fn, txOptions?.prelude);
    },
    async readTransaction<T>(prelude: string, sql: string, txOptions?: TransactionOptions): Promise<QueryResult<T>> {
      // The settings and the statement in one message, one round trip. A multi-statement simple
      // query is one implicit transaction: the transaction-local settings hold for the statement
      // and end with it, and an error aborts and ends the whole (no rollback to send).
      // `explicit` (benchmark only): `begin; ...; commit` as in session 10.
      const explicit = txOptions?.explicit === true;
      return withClient(txOptions?.timeoutMs ?? defaultTimeout, false, async (q) => {
        if (!explicit) return (await q.queryAll(`${prelude}; ${sql}`))[1] as QueryResult<T>;
        try {
          return (await q.queryAll(`begin; ${prelude}; ${sql}; commit`))[2] as QueryResult<T>;
        } catch (error) {
          await q.query('rollback').catch(() => {});
          throw error;
        }
      });
    },
    async listen(channel, onPayload) {
      await ensureListener();
      let set = channels.get(channel);
      if (!set) {
        set = new Set();
        channels.set(channel, set);
        await listener!.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
        if (set.size === 0 && listener) {
          channels.delete(channel);
          await listener.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(() => {});
        }
      };
    },
    async close() {
      closed = true;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      await pool.end();
    },
  };
}
