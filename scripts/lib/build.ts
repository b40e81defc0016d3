import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'locales', 'public', 'index.html', 'vite.config.ts', 'lingui.config.ts', 'package-lock.json', 'scripts/lib'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/**
 * Builds the SPA (with its prerendered pages, scripts/lib/prerender.ts) into dist/ when it is missing, older than its sources, or was built for
 * another API URL or key (those are baked in at build time by Vite).
 */
export function buildIfNeeded(
  root: string,
  env: { VITE_SUPABASE_URL: string; VITE_SUPABASE_PUBLISHABLE_KEY: string },
  dist = join(root, 'dist'),
): 'built' | 'fresh' {
  const stampFile = join(dist, '.build-env.json');
  // Bump `builder` when the way the app is built changes, so old builds are not reused.
  const stamp = JSON.stringify({ ...env, builder: 3 });
  const built = existsSync(join(dist, 'index.html')) ? statSync(join(dist, 'index.html')).mtimeMs : 0;
  const sourcesChanged = Math.max(...SOURCES.map((s) => newest(join(root, s)))) > built;
  const envChanged = !existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp;
  if (built && !sourcesChanged && !envChanged) return 'fresh';
  console.log('Building the app (vite build)…');
  const result = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', dist, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
    // NODE_ENV=production even when called from a test runner (NODE_ENV=test gives a dev build).
    env: { ...process.env, ...env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('vite build failed');
  writeFileSync(stampFile, stamp);
  return 'built';
}
