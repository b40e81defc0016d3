import { rmSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startStack, type Stack } from './stack.ts';
import { MigrationError } from './migrate.ts';
import { DataDirError } from './db/pglite.ts';
import { DataDirLockedError } from './db/lock.ts';
import { ConfigError } from './config.ts';

/**
 * `tsx supabase/local/src/cli.ts start|reset [--workdir supabase] [--data-dir .data] [--port N]`
 * DATABASE_URL selects a real Postgres instead of PGlite.
 */
export interface CliOptions {
  workdir: string;
  dataDir: string;
  port?: number;
  mailPort?: number;
  smtpPort?: number;
  /** The payment sandbox (Stripe test mode) port. */
  paymentsPort?: number;
  /** The gauge sandbox (PEGELONLINE's API) port. */
  gaugePort?: number;
  /** The app's address (auth's site_url, e-mail links); default config.toml's. */
  siteUrl?: string;
  databaseUrl?: string;
}

export function parseArgs(argv: string[]): { command: string; options: CliOptions } {
  const [command = 'start', ...rest] = argv;
  const value = (flag: string) => {
    const i = rest.indexOf(flag);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const workdir = resolve(value('--workdir') ?? process.env.SUPABASE_WORKDIR ?? 'supabase');
  const port = value('--port') ?? process.env.SUPABASE_API_PORT;
  const mailPort = value('--mail-port') ?? process.env.SUPABASE_MAIL_PORT;
  const smtpPort = value('--smtp-port') ?? process.env.SUPABASE_SMTP_PORT;
  const paymentsPort = value('--payments-port') ?? process.env.SUPABASE_PAYMENTS_PORT;
  const gaugePort = value('--gauge-port') ?? process.env.SUPABASE_GAUGE_PORT;
  const siteUrl = value('--site-url') ?? process.env.SUPABASE_SITE_URL;
  return {
    command,
    options: {
      workdir,
      dataDir: resolve(value('--data-dir') ?? process.env.SUPABASE_DATA_DIR ?? join(workdir, '..', '.data')),
      port: port ? Number(port) : undefined,
      mailPort: mailPort ? Number(mailPort) : undefined,
      smtpPort: smtpPort ? Number(smtpPort) : undefined,
      paymentsPort: paymentsPort ? Number(paymentsPort) : undefined,
      gaugePort: gaugePort ? Number(gaugePort) : undefined,
      siteUrl: siteUrl || undefined,
      databaseUrl: process.env.DATABASE_URL || undefined,
    },
  };
}

const log = {
  info: (m: string) => console.log(m),
  warn: (m: string) => console.warn(`warning: ${m}`),
  error: (m: string) => console.error(m),
};

export function banner(stack: Stack, appUrl?: string): string {
  const demo = [
    'admin@hafen.test / Admin1234 (admin; TOTP key IFSG22LOIR2WK43TMVWGI33SMYZDAMRW)',
    'hafen@hafen.test / Hafen1234 (harbour staff; TOTP key JBQWMZLOIR2WK43TMVWGI33SMYZDAMRW)',
    'kunde@hafen.test / Kunde1234 (customer)',
  ];
  const lines = [
    '',
    `Local Supabase stack ready in ${stack.startupMs} ms (${stack.db.engine}).`,
    appUrl ? `         App URL: ${appUrl}` : undefined,
    `         API URL: ${stack.url}`,
    stack.mailUrl ? ` Mail catcher UI: ${stack.mailUrl} (SMTP on 127.0.0.1:${stack.smtpPort})` : undefined,
    ` Payment sandbox: ${stack.paymentsUrl} (Stripe test mode; card 4242 4242 4242 4242 pays)`,
    `   Gauge sandbox: ${stack.gauge.url} (PEGELONLINE's API at ${stack.gauge.apiUrl}; set the river: PUT /__sandbox/gauge)`,
    `        anon key: ${stack.keys.anonKey}`,
    `service_role key: ${stack.keys.serviceRoleKey}   (never give this to a browser)`,
    `      JWT secret: ${stack.keys.jwtSecret}`,
    `     Demo logins: ${demo.join('\n                  ')}`,
    '',
  ];
  return lines.filter((l) => l !== undefined).join('\n');
}

export async function runStack(options: CliOptions): Promise<Stack> {
  const stack = await startStack({ ...options, log });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the local stack…`);
    await stack.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return stack;
}

export function reset(options: CliOptions) {
  if (options.databaseUrl) {
    throw new Error('db:reset rebuilds the embedded PGlite database; with DATABASE_URL, drop and recreate that database yourself.');
  }
  for (const part of ['pglite', 'storage', 'payments']) rmSync(join(options.dataDir, part), { recursive: true, force: true });
}

export function explain(error: unknown): string {
  if (error instanceof MigrationError) return `Migration failed, the database was left as it was.\n${error.message}`;
  if (error instanceof DataDirError || error instanceof DataDirLockedError || error instanceof ConfigError) return error.message;
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    return `A port is already in use (${(error as Error).message}). Is another stack running? Stop it or set --port.`;
  }
  return (error as Error).stack ?? String(error);
}

async function main() {
  const { command, options } = parseArgs(process.argv.slice(2));
  try {
    if (command === 'reset') {
      if (existsSync(join(options.dataDir, 'stack.lock'))) {
        // Refuses when a live stack holds the directory; takes over a stale lock.
        const { lockDataDir } = await import('./db/lock.ts');
        lockDataDir(options.dataDir).release();
      }
      reset(options);
      console.log(`Removed the local database in ${options.dataDir}; rebuilding…`);
      const stack = await startStack({ ...options, log, port: 0, mailPort: 0, smtpPort: 0, paymentsPort: 0, gaugePort: 0 });
      console.log(`Rebuilt: ${stack.migrations.applied.length} migrations applied${stack.migrations.seeded ? ', seed.sql applied' : ''}.`);
      await stack.close();
      return;
    }
    if (command === 'start') {
      const stack = await runStack(options);
      console.log(banner(stack));
      return;
    }
    console.error(`unknown command ${command}: use start or reset`);
    process.exit(2);
  } catch (error) {
    console.error(explain(error));
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
