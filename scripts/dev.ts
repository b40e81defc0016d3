/** `npm run dev`: the local stack beside Vite's dev server (hot reload). */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { banner, explain, parseArgs, runStack } from '../supabase/local/src/cli.ts';

const root = resolve(import.meta.dirname, '..');
const { options } = parseArgs(['start', ...process.argv.slice(2)]);
try {
  const stack = await runStack({ ...options, siteUrl: options.siteUrl ?? 'http://localhost:5173' });
  console.log(banner(stack, 'http://localhost:5173'));
  const vite = spawn(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VITE_SUPABASE_URL: stack.url, VITE_SUPABASE_PUBLISHABLE_KEY: stack.keys.anonKey },
  });
  vite.on('exit', async (code) => {
    await stack.close();
    process.exit(code ?? 0);
  });
} catch (error) {
  console.error(explain(error));
  process.exit(1);
}
