import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startStack } from '../src/stack.ts';
import { summarise, type BenchRow } from './types.ts';

const fixture = resolve(import.meta.dirname, '../test/fixtures/functions');

/** An edge function's cold call (Deno process start + first answer) and warm call, in ms. */
export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hafen-bench-functions-'));
  const workdir = join(dir, 'supabase');
  cpSync(fixture, workdir, { recursive: true });
  const coldRuns = 8;
  // Each copy of the echo function is a separate function: its first call is a cold start.
  for (let i = 0; i < coldRuns; i++) cpSync(join(workdir, 'functions/echo'), join(workdir, `functions/echo${i}`), { recursive: true });
  const stack = await startStack({ workdir, inMemory: true, port: 0, mailPort: 0, smtpPort: 0 });
  try {
    const call = async (name: string) => {
      const t = performance.now();
      const res = await fetch(`${stack.url}/functions/v1/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.keys.anonKey}`, apikey: stack.keys.anonKey, 'content-type': 'application/json' },
        body: '{"hello":"bench"}',
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
      return performance.now() - t;
    };
    const cold: number[] = [];
    for (let i = 0; i < coldRuns; i++) cold.push(await call(`echo${i}`));
    const warm: number[] = [];
    for (let i = -5; i < 100; i++) {
      const ms = await call('echo');
      if (i >= 0) warm.push(ms);
    }
    return [
      summarise('edge function cold call', 'ms', cold, `Deno ${coldRuns} first calls (process start + import + answer)`),
      summarise('edge function warm call', 'ms', warm, 'same Deno process, keep-alive proxy'),
    ];
  } finally {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
