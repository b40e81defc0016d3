import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../../..');

export interface ChildStack {
  process: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Runs a command of the project (e.g. the stack's CLI or scripts/start.ts) in its own process
 * and waits until its output matches `ready`.
 */
export async function spawnAndWait(
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
  timeoutMs = 180_000,
): Promise<ChildStack & { match: RegExpExecArray }> {
  // `node --import tsx` (not the tsx binary, which forks): the pid is the stack's own.
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const match = await new Promise<RegExpExecArray>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveReady(m);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was ready:\n${out}`));
    });
  });
  return { process: child, output: () => out, exited, match };
}

/** The stack's CLI on free ports for a project folder and data directory. */
export function spawnCliStack(workdir: string, dataDir: string) {
  return spawnAndWait(
    [
      'supabase/local/src/cli.ts',
      'start',
      '--workdir',
      workdir,
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--mail-port',
      '0',
      '--smtp-port',
      '0',
    ],
    /API URL: (http:\/\/\S+)/,
  );
}
