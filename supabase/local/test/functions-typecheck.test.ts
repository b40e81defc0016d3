/**
 * The edge functions are TypeScript for Deno: `deno check` type-checks each one (with its
 * deno.json and the npm packages' own types from node_modules, e.g. the stripe SDK's), offline
 * and with an empty Deno cache, as `--cached-only` guarantees. The Node tsconfigs leave
 * supabase/functions alone (Deno globals, `npm:` specifiers), so this is where a wrong field of
 * a Stripe object or a misspelt helper fails the suite instead of a request at run time.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { denoBinary } from '../src/functions/workers.ts';
import { closeNetworkForChildProcesses, downloadedNpmFiles } from './harness/offline.ts';

const functionsDir = resolve(import.meta.dirname, '../../functions');
const functions = readdirSync(functionsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_') && existsSync(join(functionsDir, d.name, 'index.ts')))
  .map((d) => d.name)
  .sort();

closeNetworkForChildProcesses();

/** deno check of one entrypoint; returns the exit code and what Deno printed. */
function denoCheck(entry: string, config: string | undefined, denoDir: string) {
  const args = ['check', '--cached-only', '--no-lock', '--quiet'];
  args.push(...(config ? [`--config=${config}`, '--node-modules-dir=manual'] : ['--no-config', '--node-modules-dir=none']), entry);
  const run = spawnSync(denoBinary(), args, {
    cwd: functionsDir,
    env: { ...process.env, DENO_DIR: denoDir, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}`.trim() };
}

describe('edge functions type-check under Deno (offline, empty cache)', () => {
  it('finds the functions', () => {
    expect(functions).toEqual(expect.arrayContaining(['create-checkout', 'refund-payment', 'send-mail', 'stripe-webhook']));
  });

  for (const name of functions) {
    it(`${name} passes deno check`, () => {
      const denoDir = mkdtempSync(join(tmpdir(), 'deno-check-'));
      try {
        const config = ['deno.json', 'deno.jsonc'].map((f) => join(functionsDir, name, f)).find((f) => existsSync(f));
        const result = denoCheck(join(functionsDir, name, 'index.ts'), config, denoDir);
        expect(result.output).toBe('');
        expect(result.status).toBe(0);
        expect(downloadedNpmFiles(denoDir)).toEqual([]);
      } finally {
        rmSync(denoDir, { recursive: true, force: true });
      }
    }, 150_000);
  }

  it('a type error fails the check (the check can fail)', () => {
    const denoDir = mkdtempSync(join(tmpdir(), 'deno-check-'));
    const dir = mkdtempSync(join(tmpdir(), 'deno-bad-'));
    try {
      const entry = join(dir, 'index.ts');
      // A Deno API called wrongly: Deno.serve takes a handler, not a number.
      writeFileSync(entry, 'Deno.serve(42);\n');
      const result = denoCheck(entry, undefined, denoDir);
      expect(result.status).not.toBe(0);
      expect(result.output).toMatch(/TS2769|TS2345|No overload matches/);
    } finally {
      rmSync(denoDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
