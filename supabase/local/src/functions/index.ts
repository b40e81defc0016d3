import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, request as httpRequest } from 'node:http';
import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import { jwtVerify } from 'jose';
import type { Service, StackContext } from '../context.ts';
import { clientIp, sendJson } from '../http.ts';
import { BootError, Worker, freePort, parseDotenv } from './workers.ts';
import { startScheduler } from './scheduler.ts';
import { stripeEnvironment } from '../payments/index.ts';
import { gaugeEnvironment } from '../gauge/index.ts';

/**
 * What the host environment hands on to a function process (never the stack's own secrets).
 * Not DENO_DIR or a registry: the stack gives Deno a cache of its own (see `denoDir`) and
 * functions download nothing, so no cache outside the checkout can hide a missing package.
 * Proxies and CA settings pass, for what a function itself calls (Stripe, an SMTP relay).
 */
const PASSED_ENV =
  /^(PATH|HOME|TMPDIR|TEMP|TMP|LANG|LC_ALL|TZ|DENO_CERT|DENO_TLS_CA_STORE|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy)$/;

const FUNCTION_NAME = /^[A-Za-z0-9_-]+$/;

function text(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(body);
}

/**
 * /functions/v1/<name>: each function in supabase/functions/<name>/index.ts runs in its own Deno
 * process (started on first call, kept warm, restarted after a crash), as `supabase functions
 * serve` runs them in the edge runtime. Also starts the pg_cron/pg_net stand-in.
 */
export function createFunctionsService(ctx: StackContext): Service {
  const functionsDir = join(ctx.workdir, 'functions');
  const workers = new Map<string, Worker>();
  const starting = new Map<string, Promise<Worker>>();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const secret = new TextEncoder().encode(ctx.keys.jwtSecret);
  let closed = false;
  const scheduler = startScheduler(ctx);
  ctx.scheduler = scheduler;

  // Like `supabase functions serve`, an edited function is served fresh: a change in its folder
  // retires its process (a change in _shared or .env retires them all); the next call starts anew.
  let watcher: FSWatcher | undefined;
  try {
    if (existsSync(functionsDir)) {
      watcher = watch(functionsDir, { recursive: true }, (_event, file) => {
        const top = String(file ?? '').split(/[\\/]/)[0];
        const stale = workers.has(top) ? [top] : top && FUNCTION_NAME.test(top) && top !== '_shared' ? [] : [...workers.keys()];
        for (const name of stale) {
          const w = workers.get(name);
          workers.delete(name);
          void w?.kill();
        }
      });
      watcher.on('error', () => {});
      watcher.unref();
    }
  } catch (error) {
    ctx.log.warn(`functions: not watching ${functionsDir} for changes (${(error as Error).message})`);
  }

  function entrypointOf(name: string): string | undefined {
    const configured = ctx.config.functions[name]?.entrypoint;
    const file = typeof configured === 'string' ? resolve(ctx.workdir, configured) : join(functionsDir, name, 'index.ts');
    if (existsSync(file)) return file;
    for (const alt of ['index.js', 'index.mjs', 'index.tsx']) {
      const f = join(functionsDir, name, alt);
      if (!configured && existsSync(f)) return f;
    }
    return undefined;
  }

  function environment(): Record<string, string> {
    const env: Record<string, string> = { NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
    for (const [k, v] of Object.entries(process.env)) if (PASSED_ENV.test(k) && v !== undefined) env[k] = v;
    env.DENO_DIR = ctx.denoDir;
    const dotenv = join(functionsDir, '.env');
    if (existsSync(dotenv)) {
      for (const [k, v] of Object.entries(parseDotenv(readFileSync(dotenv, 'utf8')))) {
        // The CLI refuses secrets named SUPABASE_*: those are the platform's.
        if (k.startsWith('SUPABASE_')) ctx.log.warn(`functions/.env: skipping ${k} (names starting with SUPABASE_ are reserved)`);
        else env[k] = v;
      }
    }
    Object.assign(env, {
      SUPABASE_URL: ctx.apiUrl,
      SUPABASE_ANON_KEY: ctx.keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: ctx.keys.serviceRoleKey,
      // The app's address (links, checkout return URLs), the one the stack serves it on.
      SITE_URL: ctx.config.auth.siteUrl,
      // The app's other origins ([auth] additional_redirect_urls): where checkout may return to.
      ADDITIONAL_REDIRECT_URLS: ctx.config.auth.additionalRedirectUrls.join(','),
    });
    // Stripe is the stack's payment sandbox, unless functions/.env names a real key.
    Object.assign(env, stripeEnvironment(env, ctx.paymentsPort));
    // PEGELONLINE is the stack's gauge sandbox, unless functions/.env names a service.
    Object.assign(env, gaugeEnvironment(env, ctx.gaugeApiUrl));
    if (ctx.databaseUrl) env.SUPABASE_DB_URL = ctx.databaseUrl;
    // Mail from functions goes to the stack's catcher, whatever .env says (docs/architecture.md).
    if (ctx.smtpPort) {
      env.SMTP_HOST = '127.0.0.1';
      env.SMTP_PORT = String(ctx.smtpPort);
      env.SMTP_SECURE = 'false';
    }
    return env;
  }

  async function worker(name: string, entrypoint: string): Promise<Worker> {
    // A process still booting is in `workers` already (so that an edit retires it); a parallel
    // first call waits below for it to serve, instead of connecting to a port not open yet.
    const warm = workers.get(name);
    if (warm && !warm.exited && !starting.has(name)) return warm;
    let pending = starting.get(name);
    if (!pending) {
      pending = (async () => {
        const w = new Worker(name, await freePort(), {
          entrypoint,
          cwd: resolve(entrypoint, '..'),
          env: environment(),
          log: ctx.log,
          bootTimeoutMs: 60_000,
        });
        w.onExit(() => {
          if (workers.get(name) === w) workers.delete(name);
        });
        workers.set(name, w);
        try {
          await w.ready;
        } catch (error) {
          if (workers.get(name) === w) workers.delete(name);
          await w.kill();
          throw error;
        }
        if (closed) await w.kill();
        return w;
      })().finally(() => starting.delete(name));
      starting.set(name, pending);
    }
    return pending;
  }

  async function checkJwt(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const header = req.headers.authorization;
    if (!header) {
      sendJson(res, 401, { msg: 'Error: Missing authorization header' });
      return false;
    }
    const [scheme, token] = header.split(' ');
    if (scheme !== 'Bearer') {
      sendJson(res, 401, { msg: "Error: Auth header is not 'Bearer {token}'" });
      return false;
    }
    try {
      await jwtVerify(token ?? '', secret);
      return true;
    } catch {
      sendJson(res, 401, { msg: 'Invalid JWT' });
      return false;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, path: string) {
    const [, name = '', ...rest] = path.split('/');
    const entrypoint = FUNCTION_NAME.test(name) && ctx.config.functions[name]?.enabled !== false ? entrypointOf(name) : undefined;
    if (!entrypoint) {
      text(res, 404, 'Function not found');
      return;
    }
    if (req.method !== 'OPTIONS' && ctx.config.functions[name]?.verify_jwt !== false && !(await checkJwt(req, res))) return;

    let w: Worker;
    try {
      w = await worker(name, entrypoint);
    } catch (error) {
      ctx.log.error(`function ${name}: ${(error as Error).message}`);
      if (error instanceof BootError) {
        sendJson(res, 503, { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' });
        return;
      }
      throw error;
    }

    const search = new URL(req.url ?? '/', 'http://localhost').search;
    // The client address as the gateway sets it (the trusted one, not what the client sent).
    const ip = clientIp(req, ctx.config.api.trustedProxies);
    const headers = { ...req.headers, host: `127.0.0.1:${w.port}`, 'x-forwarded-for': ip, 'x-real-ip': ip };
    await new Promise<void>((done) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        stopWatching();
        done();
      };
      let failing = false;
      const fail = async (error?: NodeJS.ErrnoException) => {
        if (finished || failing) return;
        failing = true;
        // The connection broke: give a dying process a moment to exit, so that it is retired
        // before this 500 reaches the caller and the caller's next call gets a fresh process.
        await Promise.race([w.gone, new Promise((r) => setTimeout(r, 500))]);
        if (!w.exited && error?.code === 'ECONNREFUSED') {
          if (workers.get(name) === w) workers.delete(name);
          void w.kill();
        }
        if (!res.headersSent) {
          sendJson(res, 500, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
        } else if (!res.writableEnded) res.destroy();
        finish();
      };
      const upstream = httpRequest(
        { host: '127.0.0.1', port: w.port, method: req.method, path: `/${[name, ...rest].join('/')}${search}`, headers, agent },
        (up) => {
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(up.headers)) {
            if (v !== undefined && !['connection', 'keep-alive', 'transfer-encoding'].includes(k)) out[k] = v;
          }
          // A function answers CORS itself on hosted Supabase: its response carries only the
          // headers it set, not the gateway's blanket CORS headers.
          for (const header of res.getHeaderNames()) if (header.startsWith('access-control-')) res.removeHeader(header);
          res.writeHead(up.statusCode ?? 500, out);
          up.pipe(res);
          up.on('end', finish);
          up.on('error', (e) => void fail(e));
          up.on('aborted', () => void fail());
        },
      );
      upstream.on('error', (e) => void fail(e));
      // A worker that dies mid-request answers 500 for this call; the next call starts a new one.
      const stopWatching = w.onExit(() => setTimeout(() => void fail(), 20));
      res.on('close', () => {
        if (!finished) upstream.destroy();
        finish();
      });
      // The function answered before reading the whole body (a refusal, say): the gateway drops
      // the rest (discardUnreadBody) and lets go of the worker's connection, which still waits
      // for it; the client's connection stays usable.
      res.once('finish', () => {
        if (!req.complete) upstream.destroy();
      });
      req.pipe(upstream);
    });
  }

  return {
    handle,
    async close() {
      closed = true;
      watcher?.close();
      await scheduler.stop();
      await Promise.allSettled([...starting.values()]);
      await Promise.all([...workers.values()].map((w) => w.kill()));
      workers.clear();
      agent.destroy();
    },
  };
}
