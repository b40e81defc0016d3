import pg from 'pg';
import type { Database, QueryResult, Queryable } from './types.ts';

const asText = (value: string) => value;
// Same value shapes as the PGlite adapter: dates and timestamps as printed, int8 as string.
for (const oid of [1082, 1083, 1114, 1184, 1266, 1186, 1700, 20]) pg.types.setTypeParser(oid, asText);

export interface PostgresOptions {
  connectionString: string;
  max?: number;
  /** Fail a query whose connection hangs instead of waiting forever. */
  connectionTimeoutMillis?: number;
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      const result = await client.query(sql, params as unknown[] | undefined);
      // A multi-statement text returns an array of results: report the last one.
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return {
        rows: last.rows as T[],
        fields: last.fields.map((f: pg.FieldDef) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        rowCount: last.rowCount ?? last.rows.length,
      };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

export async function openPostgres(options: PostgresOptions): Promise<Database & { pool: pg.Pool }> {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
    application_name: 'supabase-local',
    // Hosted Supabase's search_path, also for connections opened before the bootstrap set it
    // on the database (a startup option, so no query races the first one on a new client).
    options: '-c search_path="$user",public,extensions',
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const base = wrap(pool);
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
    const client = new pg.Client({ connectionString: options.connectionString });
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
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool: without this one, a connection lost
      // mid-request (server restart, pg_terminate_backend, network) is an uncaught 'error'
      // event that ends the whole stack. The running query fails with the error instead, and
      // the broken client is dropped from the pool.
      let lost: Error | undefined;
      const onError = (error: Error) => (lost = error);
      client.on('error', onError);
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        if (!lost) await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.off('error', onError);
        client.release(lost);
      }
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
