import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { Logger } from '../context.ts';

/** The Deno binary of the `deno` npm package (falls back to `deno` on PATH). */
export function denoBinary(): string {
  try {
    const pkg = createRequire(import.meta.url).resolve('deno/package.json');
    const bin = join(dirname(pkg), process.platform === 'win32' ? 'deno.exe' : 'deno');
    if (existsSync(bin)) return bin;
  } catch {
    // not installed: try PATH
  }
  return 'deno';
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class BootError extends Error {}

/** One warm Deno process serving one edge function on a loopback port. */
export class Worker {
  readonly ready: Promise<void>;
  /** Settles when the process has exited. */
  readonly gone: Promise<void>;
  exited = false;
  private proc?: ChildProcess;
  private readonly exitListeners = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly port: number,
    options: { entrypoint: string; cwd: string; env: Record<string, string>; log: Logger; bootTimeoutMs: number },
  ) {
    this.gone = new Promise<void>((resolve) => this.exitListeners.add(resolve));
    const marker = `__supabase_local_ready_${randomBytes(6).toString('hex')}__`;
    // The edge runtime's sandbox, roughly: network, env, reading files, writing /tmp only; no
    // subprocesses or FFI. `--cached-only`: nothing is ever downloaded at run time (a missing
    // package fails at once with Deno's message instead of waiting on a network that may be
    // closed). npm packages come from the node_modules that `npm ci` installed
    // (`--node-modules-dir=manual`, Deno's "bring your own node_modules"): the function's own
    // deno.json maps `nodemailer` to `npm:nodemailer@<version>`, which Deno then resolves from
    // node_modules, checking the version; hosted Supabase bundles the same deno.json at deploy.
    const args = [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      `--allow-write=${tmpdir()}`,
      '--allow-sys',
      '--no-prompt',
      '--cached-only',
      '--no-lock',
    ];
    const denoJson = ['deno.json', 'deno.jsonc'].map((f) => join(options.cwd, f)).find((f) => existsSync(f));
    if (denoJson) args.push(`--config=${denoJson}`, '--node-modules-dir=manual');
    else if (existsSync(join(options.cwd, 'package.json'))) args.push('--node-modules-dir=manual');
    else args.push('--no-config', '--node-modules-dir=none');
    args.push(fileURLToPath(new URL('./worker-main.js', import.meta.url)));
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new BootError(`function ${name} did not start serving within ${options.bootTimeoutMs} ms`));
        this.kill();
      }, options.bootTimeoutMs);
      const proc = spawn(denoBinary(), args, {
        cwd: options.cwd,
        env: {
          ...options.env,
          SUPABASE_INTERNAL_LOCAL_PORT: String(port),
          SUPABASE_INTERNAL_LOCAL_ENTRY: pathToFileURL(options.entrypoint).href,
          SUPABASE_INTERNAL_LOCAL_READY: marker,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.proc = proc;
      let buffered = '';
      proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (line.trim() === marker) {
            clearTimeout(timer);
            resolve();
          } else if (line) options.log.info(`[function ${name}] ${line}`);
        }
      });
      proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line) options.log.warn(`[function ${name}] ${line}`);
      });
      proc.on('error', (error) => {
        clearTimeout(timer);
        this.exited = true;
        reject(new BootError(`could not start Deno for function ${name}: ${error.message}`));
        for (const fn of this.exitListeners) fn();
      });
      proc.on('exit', (code, signal) => {
        clearTimeout(timer);
        this.exited = true;
        reject(new BootError(`function ${name} exited before serving (code ${code ?? signal})`));
        for (const fn of this.exitListeners) fn();
      });
    });
    this.ready.catch(() => {});
  }

  onExit(fn: () => void): () => void {
    this.exitListeners.add(fn);
    return () => this.exitListeners.delete(fn);
  }

  kill(): Promise<void> {
    const proc = this.proc;
    if (!proc || this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => proc.kill('SIGKILL'), 2000);
      proc.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      proc.kill('SIGTERM');
    });
  }
}

/** A dotenv file as the Supabase CLI reads supabase/functions/.env (KEY=VALUE, quotes, comments). */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2];
    if (/^"/.test(value)) {
      const end = value.lastIndexOf('"');
      value = value
        .slice(1, end > 0 ? end : undefined)
        .replace(/\\n/g, '\n')
        .replace(/\\"/g, '"');
    } else if (/^'/.test(value)) {
      const end = value.lastIndexOf("'");
      value = value.slice(1, end > 0 ? end : undefined);
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[m[1]] = value;
  }
  return out;
}
