import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig, resolveEnv, type StackConfig } from './config.ts';
import { openPglite } from './db/pglite.ts';
import { openPostgres } from './db/postgres.ts';
import { lockDataDir } from './db/lock.ts';
import { DatabaseTimeoutError, isConnectionError, type Database } from './db/types.ts';
import { bootstrapPlatform } from './bootstrap/index.ts';
import { migrate, type MigrateResult } from './migrate.ts';
import { demoKeys, type StackKeys } from './keys.ts';
import { createJwt } from './jwt.ts';
import { Mailer } from './mail/index.ts';
import { startCatcher, type CatcherServers } from './mail/catcher.ts';
import { startPaymentSandbox, WEBHOOK_PATH } from './payments/index.ts';
import { startGaugeSandbox, type GaugeSandbox } from './gauge/index.ts';
import type { Logger, Service, StackContext } from './context.ts';
import { HttpError, discardUnreadBody, gatewayBearer, sendJson } from './http.ts';
import { routes, type Route } from './services.ts';

export interface StackOptions {
  /** How long the server keeps an idle keep-alive socket (default 15 s; clients are told 5 s). */
  keepAliveMs?: number;
  /** Supabase project folder (default ./supabase), like the CLI's --workdir. */
  workdir?: string;
  /** Data directory for PGlite and storage (default .data beside the workdir). */
  dataDir?: string;
  /** A Postgres to use instead of PGlite (must connect as a superuser for the bootstrap). */
  databaseUrl?: string;
  /** Start PGlite from a prepared data directory dump (tests clone one prepared database). */
  loadDataDir?: Blob;
  /** Keep PGlite in memory only (tests). */
  inMemory?: boolean;
  host?: string;
  /** API port (default config.toml [api].port, 54321); 0 picks a free one. */
  port?: number;
  /** Mail catcher ports (default [inbucket] port 54324 and smtp_port 54325); 0 picks free ones. */
  mailPort?: number;
  smtpPort?: number;
  /**
   * The payment sandbox's port (Stripe's API and hosted checkout for this stack; default 54331,
   * or a free one when `port` is 0, as in tests); 0 picks a free one.
   */
  paymentsPort?: number;
  /**
   * The gauge sandbox's port (PEGELONLINE's REST API for this stack, ADR 0053; default 54332, or
   * a free one when `port` is 0, as in tests); 0 picks a free one.
   */
  gaugePort?: number;
  /**
   * Where the app is served (auth's site_url: links in e-mails, redirects; `SITE_URL` for
   * `env()` in [db.vault]). Default config.toml's `[auth] site_url`. `npm start` passes the
   * app's real port, so links follow it.
   */
  siteUrl?: string;
  /** Run seed.sql on a fresh database (default true). */
  seed?: boolean;
  keys?: StackKeys;
  log?: Logger;
  /**
   * Adjusts config.toml's settings for this stack only (e.g. a browser-test server raises the
   * per-IP auth rate limits, since every test browser comes from 127.0.0.1).
   */
  configure?: (config: StackConfig) => void;
}

export interface Stack {
  url: string;
  mailUrl: string;
  smtpPort: number;
  /** The payment sandbox, e.g. http://127.0.0.1:54331 (Stripe's API at /v1, checkout at /pay/<id>). */
  paymentsUrl: string;
  /** The gauge sandbox (PEGELONLINE's API at gauge.apiUrl; set the river with gauge.set). */
  gauge: GaugeSandbox;
  keys: StackKeys;
  config: StackConfig;
  db: Database;
  context: StackContext;
  migrations: MigrateResult;
  /** Milliseconds from call to listening. */
  startupMs: number;
  recoveredLockFrom?: number;
  close(): Promise<void>;
}

const silent: Logger = { info() {}, warn() {}, error() {} };
const DEFAULT_PAYMENTS_PORT = 54331;
const DEFAULT_GAUGE_PORT = 54332;

// Supabase's gateway allows these on every API (the CLI's Kong CORS plugin reflects the rest).
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-expose-headers':
    'content-range, content-profile, content-location, range-unit, preference-applied, x-supabase-api-version, content-length, etag, location',
  'access-control-max-age': '3600',
};

/**
 * The server's 'timeout' handler (only idle keep-alive sockets time out: server.timeout is 0).
 * Node would destroy the socket at once, in the timers phase of the event loop, which runs
 * before the poll phase reads sockets: a request the client sent on the socket while the loop
 * was busy (PGlite runs statements on this thread; a big body is built or parsed here) is
 * still unread in the kernel, and the client sees its request answered by a closed socket
 * ("other side closed", ECONNRESET: `fetch failed`). Closing in the check phase instead lets
 * the poll phase read such a request first; a socket that got one stays open.
 */
/**
 * Keep-alive: clients are told 5 s (`Keep-Alive: timeout=5`; undici then reuses a socket for
 * at most ~3-4 s), the server keeps an idle socket for 15 s. The margin is what keeps a client
 * from sending a request on a socket the server is closing, the other half of the race below:
 * with equal timeouts a loaded process (a client in the same process, as in the tests; the
 * timers of both sides fire late) lost a fuzz request now and then to "fetch failed".
 */
const KEEP_ALIVE_ADVERTISED_S = 5;
const KEEP_ALIVE_SERVER_MS = 15_000;

function closeIfStillIdle(socket: Socket) {
  const read = socket.bytesRead;
  setImmediate(() => {
    const busy = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    if (socket.bytesRead === read && !busy) socket.destroy();
  });
}

/** The app's address as auth's site URL; both loopback spellings of it may be redirected to. */
function useSiteUrl(config: StackConfig, siteUrl: string) {
  const site = new URL(siteUrl);
  config.auth.siteUrl = site.origin;
  const twin = new URL(site.origin);
  if (twin.hostname === 'localhost') twin.hostname = '127.0.0.1';
  else if (twin.hostname === '127.0.0.1') twin.hostname = 'localhost';
  for (const origin of [site.origin, twin.origin]) {
    if (!config.auth.additionalRedirectUrls.includes(origin)) config.auth.additionalRedirectUrls.push(origin);
  }
}

/**
 * `[db.vault]` as `supabase start` applies it: each secret created or updated in Vault (the
 * platform's stand-in where the extension is absent) at every start. `env(SUPABASE_URL)`,
 * `env(SUPABASE_ANON_KEY)` and `env(SITE_URL)` are this stack's own address, key and app
 * address, so the database calls the functions of this stack and links to this app, whatever
 * ports they run on: two checkouts never talk to each other.
 */
async function storeVaultSecrets(db: Database, config: StackConfig, own: Record<string, string>, log: Logger) {
  const entries = Object.entries(config.db.vault);
  if (entries.length === 0) return;
  if (!(await db.query<{ ok: boolean }>(`select to_regclass('vault.secrets') is not null as ok`)).rows[0]?.ok) {
    log.warn('config.toml [db.vault]: this database has no Vault; secrets not stored');
    return;
  }
  for (const [name, raw] of entries) {
    const value = resolveEnv(raw, own, `[db.vault] ${name}`);
    const existing = await db.query<{ id: string }>(`select id::text from vault.secrets where name = $1`, [name]);
    if (existing.rows[0]) await db.query(`select vault.update_secret($1::uuid, $2)`, [existing.rows[0].id, value]);
    else await db.query(`select vault.create_secret($1, $2, 'config.toml [db.vault]')`, [value, name]);
  }
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const started = performance.now();
  const workdir = resolve(options.workdir ?? 'supabase');
  const dataDir = resolve(options.dataDir ?? join(workdir, '..', '.data'));
  const config = loadConfig(workdir);
  if (options.siteUrl) useSiteUrl(config, options.siteUrl);
  options.configure?.(config);
  const log = options.log ?? silent;
  const keys = options.keys ?? demoKeys;
  const host = options.host ?? '127.0.0.1';

  const cleanup: (() => Promise<void> | void)[] = [];
  const runCleanup = async () => {
    for (const fn of cleanup.reverse()) await fn();
    cleanup.length = 0;
  };

  try {
    let db: Database;
    let recoveredLockFrom: number | undefined;
    if (options.databaseUrl) {
      db = await openPostgres({ connectionString: options.databaseUrl });
    } else {
      const pgliteDir = options.inMemory ? undefined : join(dataDir, 'pglite');
      if (pgliteDir) {
        const lock = lockDataDir(dataDir);
        recoveredLockFrom = lock.recoveredFrom;
        if (recoveredLockFrom) log.warn(`Recovered the data directory from a stack that did not shut down (pid ${recoveredLockFrom}).`);
        cleanup.push(() => lock.release());
      }
      db = await openPglite({ dataDir: pgliteDir, loadDataDir: options.loadDataDir });
    }
    cleanup.push(() => db.close());

    await bootstrapPlatform(db);
    const migrations = await migrate(db, workdir, { seed: options.seed });
    for (const name of migrations.applied) log.info(`Applied migration ${name}`);
    if (migrations.seeded) log.info('Seeded the database from seed.sql');
    if (migrations.seedChanged) log.warn('seed.sql changed since it was applied: run `npm run db:reset` to apply it.');

    const smtpSettings = (config.raw.auth as { email?: { smtp?: Record<string, unknown> } } | undefined)?.email?.smtp;
    const mailer = new Mailer(
      `${config.inbucket.senderName} <${config.inbucket.adminEmail}>`,
      smtpSettings && smtpSettings.enabled !== false && typeof smtpSettings.host === 'string'
        ? {
            host: smtpSettings.host,
            port: Number(smtpSettings.port ?? 587),
            user: smtpSettings.user as string | undefined,
            pass: smtpSettings.pass as string | undefined,
          }
        : undefined,
    );
    let catcher: CatcherServers | undefined;
    if (config.inbucket.enabled) {
      catcher = await startCatcher(mailer.store, {
        host,
        httpPort: options.mailPort ?? config.inbucket.port,
        smtpPort: options.smtpPort ?? config.inbucket.smtpPort,
      });
      cleanup.push(() => catcher!.close());
    }

    const inMemory = Boolean(options.inMemory) && !options.databaseUrl;
    // Checkout sessions outlive a restart where the database does (a JSON file in the data dir).
    const payments = await startPaymentSandbox({
      host,
      port: options.paymentsPort ?? (options.port === 0 ? 0 : DEFAULT_PAYMENTS_PORT),
      stateFile: inMemory ? undefined : join(dataDir, 'payments', 'state.json'),
      merchantName: config.inbucket.senderName,
      log,
    });
    cleanup.push(() => payments.close());
    // The Rhine for fetch-gauge and the app (PEGELONLINE's shape; the river lives in memory).
    const gauge = await startGaugeSandbox({
      host,
      port: options.gaugePort ?? (options.port === 0 ? 0 : DEFAULT_GAUGE_PORT),
      log,
    });
    cleanup.push(() => gauge.close());
    const denoDir = inMemory ? mkdtempSync(join(tmpdir(), 'supabase-local-deno-')) : join(dataDir, 'deno');
    mkdirSync(denoDir, { recursive: true });
    if (inMemory) cleanup.push(() => rmSync(denoDir, { recursive: true, force: true }));

    const events = new EventEmitter();
    const unlisten = await db.listen('pgrst', (payload) => {
      // 'reload config' too: the REST cache carries the authenticator's pgrst.* settings
      if (payload === 'reload schema' || payload === 'reload config' || payload === '') events.emit('schema-changed');
    });
    cleanup.push(() => unlisten());

    const context: StackContext = {
      config,
      workdir,
      dataDir,
      db,
      databaseUrl: options.databaseUrl,
      keys,
      jwt: createJwt(keys.jwtSecret),
      mailer,
      smtpPort: catcher?.smtpPort ?? 0,
      paymentsPort: payments.port,
      gaugeApiUrl: gauge.apiUrl,
      denoDir,
      inMemory,
      apiUrl: '',
      events,
      log,
    };

    const mounted: { route: Route; service: Service }[] = [];
    for (const route of routes) {
      const service = await route.factory(context);
      mounted.push({ route, service });
      if (service.close) cleanup.push(() => service.close!());
    }
    const validKeys = new Set([keys.anonKey, keys.serviceRoleKey]);

    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      // Every early answer (a missing key, a refused token, a limit) leaves the body unread.
      discardUnreadBody(req, res);
      for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
      res.setHeader('keep-alive', `timeout=${KEEP_ALIVE_ADVERTISED_S}`);
      const requested = req.headers['access-control-request-headers'];
      res.setHeader(
        'access-control-allow-headers',
        requested ??
          'authorization, x-client-info, apikey, content-type, x-supabase-api-version, prefer, range, accept-profile, content-profile, x-upsert',
      );
      if (req.method === 'OPTIONS') {
        res.writeHead(200).end();
        return;
      }
      if (url.pathname === '/health') {
        sendJson(res, 200, { status: 'ok', engine: db.engine });
        return;
      }
      const hit = mounted.find(({ route }) => url.pathname === route.prefix || url.pathname.startsWith(route.prefix + '/'));
      if (!hit) {
        sendJson(res, 404, { message: 'no Route matched with those values' });
        return;
      }
      const path = url.pathname.slice(hit.route.prefix.length) || '/';
      const apikey = (req.headers.apikey as string | undefined) ?? url.searchParams.get('apikey') ?? undefined;
      if (hit.route.keyAuth && !hit.route.openPaths?.test(path)) {
        if (!apikey) {
          sendJson(res, 401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' });
          return;
        }
        if (!validKeys.has(apikey)) {
          sendJson(res, 401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' });
          return;
        }
      }
      // The gateway hands the apikey on as the bearer token when the client sent none.
      if (!req.headers.authorization && apikey && validKeys.has(apikey)) {
        req.headers.authorization = `Bearer ${apikey}`;
        gatewayBearer.add(req);
      }
      try {
        await hit.service.handle(req, res, path);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (error instanceof HttpError) {
          sendJson(res, error.status, error.body, error.headers);
          return;
        }
        if (error instanceof DatabaseTimeoutError) {
          // The database did not answer within the request's deadline (a hung server or a
          // network that drops packets): PostgREST's 504 code for a connection it could not
          // get in time; the dead connection was dropped, so the next request gets a fresh one.
          log.warn(`${req.method} ${url.pathname}: ${error.message}`);
          sendJson(res, 504, {
            code: 'PGRST003',
            details: error.message,
            hint: null,
            message:
              error.phase === 'connect'
                ? 'Timed out acquiring connection from connection pool.'
                : 'Timed out waiting for the database to answer.',
          });
          return;
        }
        if (isConnectionError(error)) {
          // PostgREST's answer while its database connection is down; the pool reconnects.
          log.warn(`${req.method} ${url.pathname}: database connection lost: ${(error as Error).message}`);
          sendJson(
            res,
            503,
            { code: 'PGRST001', details: (error as Error).message, hint: null, message: 'Database client error. Retrying the connection.' },
            { 'retry-after': '1' },
          );
          return;
        }
        log.error(`${req.method} ${url.pathname}: ${(error as Error).stack ?? error}`);
        sendJson(res, 500, { message: 'Internal server error' });
      }
    };

    const server = createServer((req, res) => void handle(req, res));
    server.keepAliveTimeout = options.keepAliveMs ?? KEEP_ALIVE_SERVER_MS;
    server.on('timeout', closeIfStillIdle);
    server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const hit = mounted.find(({ route }) => url.pathname.startsWith(route.prefix + '/'));
      const apikey = url.searchParams.get('apikey') ?? (req.headers.apikey as string | undefined);
      if (!hit?.service.upgrade || (hit.route.keyAuth && (!apikey || !validKeys.has(apikey)))) {
        socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      hit.service.upgrade(req, socket, head);
    });
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? config.api.port, host, () => resolveListen());
    });
    cleanup.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const port = (server.address() as AddressInfo).port;
    const url = `http://${host}:${port}`;
    context.apiUrl = url;
    payments.setWebhookUrl(`${url}${WEBHOOK_PATH}`);
    await storeVaultSecrets(db, config, { SUPABASE_URL: url, SUPABASE_ANON_KEY: keys.anonKey, SITE_URL: config.auth.siteUrl }, log);

    let closing: Promise<void> | undefined;
    return {
      url,
      mailUrl: catcher?.httpUrl ?? '',
      smtpPort: catcher?.smtpPort ?? 0,
      paymentsUrl: payments.url,
      gauge,
      keys,
      config,
      db,
      context,
      migrations,
      recoveredLockFrom,
      startupMs: Math.round(performance.now() - started),
      close: () => (closing ??= runCleanup()),
    };
  } catch (error) {
    await runCleanup().catch(() => {});
    throw error;
  }
}
