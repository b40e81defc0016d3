import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { EventEmitter } from 'node:events';
import type { StackConfig } from './config.ts';
import type { Database, Queryable } from './db/types.ts';
import type { StackKeys } from './keys.ts';
import type { Jwt } from './jwt.ts';
import type { Mailer } from './mail/index.ts';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What every service of the stack is given. */
export interface StackContext {
  config: StackConfig;
  /** The Supabase project folder (config.toml, migrations, seed.sql, templates, functions). */
  workdir: string;
  /** Where PGlite data and storage files live (`.data` by default). */
  dataDir: string;
  db: Database;
  /** Connection string of the database when it is a real Postgres (for child processes). */
  databaseUrl?: string;
  keys: StackKeys;
  jwt: Jwt;
  mailer: Mailer;
  /** Port of the mail catcher's SMTP listener on 127.0.0.1 (0 when the catcher is off). */
  smtpPort?: number;
  /** Port of the payment sandbox on 127.0.0.1 (the edge functions' Stripe). */
  paymentsPort?: number;
  /** The gauge sandbox's PEGELONLINE API base (the edge functions' PEGELONLINE_URL). */
  gaugeApiUrl?: string;
  /**
   * Deno's cache for the edge functions (DENO_DIR): `<dataDir>/deno`, or a new empty temp dir
   * for an in-memory stack, so no cache outside the checkout can hide a missing package.
   */
  denoDir: string;
  /** True when the database lives only in memory (tests): storage files go to a temp dir then. */
  inMemory?: boolean;
  /** Public base URL of the API gateway, e.g. http://127.0.0.1:54321 (set once listening). */
  apiUrl: string;
  /** The pg_cron/pg_net stand-in (set by the functions service): tests run due jobs at a time. */
  scheduler?: Scheduler;
  /** Emits 'schema-changed' after migrations and on NOTIFY pgrst. */
  events: EventEmitter;
  log: Logger;
}

/**
 * A service mounted under a prefix (/auth/v1, /rest/v1, ...). `path` is the rest of the URL
 * path after the prefix, starting with '/'. Thrown HttpErrors become their status and body;
 * anything else becomes a 500 for that request only.
 */
export interface Service {
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close?(): Promise<void>;
}

export type ServiceFactory = (ctx: StackContext) => Service | Promise<Service>;

/** The pg_cron + pg_net worker (functions/scheduler.ts). */
export interface Scheduler {
  stop(): Promise<void>;
  /** Sends what is queued now (tests and benchmarks). */
  drain(): Promise<void>;
  /**
   * Runs now every active job whose cron schedule matches the minute of `at`, as the tick does at
   * that minute, and answers their names. `prepare` runs first in each job's transaction, before
   * the job's role is taken: tests freeze the database's clock there to run a job "at" a time
   * (the project's private.freeze_clock). 'N seconds' jobs have no minute and are left out.
   */
  runDue(at: Date, options?: { prepare?: (tx: Queryable) => Promise<void> }): Promise<string[]>;
}
