import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A closed network for the stack's child processes (the Deno edge functions), as on a machine
 * without internet or behind a proxy that refuses everything: every proxy variable points at a
 * port where nothing listens (connection refused at once), loopback is exempt so a function
 * still reaches the stack and the mail catcher. Node's own fetch ignores these variables (no
 * NODE_USE_ENV_PROXY), so only the children are cut off. Set before the stack starts.
 */
export function closeNetworkForChildProcesses() {
  const closed = 'http://127.0.0.1:9';
  Object.assign(process.env, {
    HTTPS_PROXY: closed,
    HTTP_PROXY: closed,
    https_proxy: closed,
    http_proxy: closed,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  });
  // A cache outside the checkout must not help: the stack ignores DENO_DIR (it gives Deno its
  // own), and this makes sure a run never depends on one.
  delete process.env.DENO_DIR;
}

/** Files Deno downloaded into its npm cache (`<DENO_DIR>/npm`): none, when packages come from node_modules. */
export function downloadedNpmFiles(denoDir: string): string[] {
  const npm = join(denoDir, 'npm');
  return existsSync(npm) ? readdirSync(npm, { recursive: true }).map(String) : [];
}
