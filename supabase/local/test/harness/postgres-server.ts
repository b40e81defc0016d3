import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import pg from 'pg';

/** Where Debian (or PG_BIN) keeps the Postgres server binaries, preferring 15. */
export function findPostgresBin(): string | undefined {
  const candidates = [process.env.PG_BIN];
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => (a === '15' ? -1 : b === '15' ? 1 : Number(b) - Number(a)));
    for (const v of versions) candidates.push(join('/usr/lib/postgresql', v, 'bin'));
  }
  return candidates.find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/** Is the pgTAP extension installed for that server? */
export function hasPgtap(bin: string): boolean {
  const share = execFileSync(join(bin, 'pg_config'), ['--sharedir'], { encoding: 'utf8' }).trim();
  return existsSync(join(share, 'extension', 'pgtap.control'));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresServer {
  port: number;
  bin: string;
  /** A connection string for `database` as the bootstrap superuser supabase_admin. */
  url(database?: string): string;
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** runuser (util-linux) lives in an sbin folder, which a minimal PATH may leave out. */
const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p)) ?? 'runuser';

/** Postgres refuses to run as root: run its tools as the postgres user when we are root. */
function run(bin: string, tool: string, args: string[]) {
  const cmd = asRoot ? runuser : join(bin, tool);
  const full = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
  const result = spawnSync(cmd, full, { encoding: 'utf8' });
  if (result.error) throw new Error(`${tool} failed: could not run ${cmd}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
}

/**
 * Starts a throwaway PostgreSQL cluster from Debian's binaries in a temporary directory,
 * listening on 127.0.0.1 only, with supabase_admin as its bootstrap superuser (as hosted).
 */
export async function startPostgresServer(bin = findPostgresBin()): Promise<PostgresServer> {
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'hafen-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run(bin, 'initdb', ['-D', data, '-U', 'supabase_admin', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  run(bin, 'pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-t',
    '60',
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c timezone=UTC`,
  ]);
  const url = (database = 'postgres') => `postgres://supabase_admin@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    port,
    bin,
    url,
    async createDatabase(name: string) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`create database ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
