/**
 * `npm start`: builds the app if needed, starts the local Supabase stack (embedded PGlite in
 * .data/, or DATABASE_URL) and serves the built app at http://localhost:3000.
 */
import { resolve } from 'node:path';
import { buildIfNeeded } from './lib/build.ts';
import { serveStatic } from './lib/static-server.ts';
import { banner, explain, parseArgs, runStack } from '../supabase/local/src/cli.ts';
import { DEMO_ANON_KEY } from '../supabase/local/src/keys.ts';

const root = resolve(import.meta.dirname, '..');
const { options } = parseArgs(['start', ...process.argv.slice(2)]);
const apiPort = options.port ?? 54321;
const appPort = Number(process.env.PORT ?? 3000);
// Where the built app goes (default dist/); tests build into their own folder.
const dist = resolve(root, process.env.APP_DIST_DIR ?? 'dist');

try {
  buildIfNeeded(
    root,
    {
      VITE_SUPABASE_URL: process.env.VITE_SUPABASE_URL ?? `http://127.0.0.1:${apiPort}`,
      VITE_SUPABASE_PUBLISHABLE_KEY: process.env.VITE_SUPABASE_PUBLISHABLE_KEY ?? DEMO_ANON_KEY,
    },
    dist,
  );
  // Links in e-mails and auth redirects go to the app on the port it really has.
  const stack = await runStack({ ...options, siteUrl: options.siteUrl ?? `http://localhost:${appPort}` });
  const app = await serveStatic(dist, { port: appPort });
  process.on('exit', () => app.server.close());
  console.log(banner(stack, app.url));
} catch (error) {
  console.error(explain(error));
  process.exit(1);
}
