/**
 * The Playwright web server: builds the app for the test API port, starts the local stack on a
 * fresh in-memory database with the project's migrations and seed, and serves the build.
 * Everything listens on 127.0.0.1 on fixed ports that the dev stack (54321, 3000) does not use.
 */
import { resolve } from 'node:path';
import { buildIfNeeded } from '../../scripts/lib/build.ts';
import { serveStatic } from '../../scripts/lib/static-server.ts';
import { startStack } from '../../supabase/local/src/stack.ts';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { E2E_API_PORT, E2E_APP_PORT, E2E_CONTROL_URL, E2E_DIST, E2E_GAUGE_PORT, E2E_MAIL_PORT, E2E_PAYMENTS_PORT } from './ports.ts';
import { startControl } from './control.ts';
import { closeNetworkForChildProcesses } from '../../supabase/local/test/harness/offline.ts';

// The edge functions (send-mail: every booking confirmation and receipt the tests read) run as
// on a fresh machine without internet: an empty Deno cache of this in-memory stack's own, and
// no network for Deno but loopback.
closeNetworkForChildProcesses();

const root = resolve(import.meta.dirname, '../..');
const dist = resolve(root, E2E_DIST);

buildIfNeeded(root, { VITE_SUPABASE_URL: `http://127.0.0.1:${E2E_API_PORT}`, VITE_SUPABASE_PUBLISHABLE_KEY: DEMO_ANON_KEY }, dist);
const stack = await startStack({
  workdir: resolve(root, 'supabase'),
  inMemory: true,
  host: '127.0.0.1',
  port: E2E_API_PORT,
  mailPort: E2E_MAIL_PORT,
  smtpPort: 0,
  // The app reaches the payment sandbox through the session's url (a fixed port, shifted like the others).
  paymentsPort: E2E_PAYMENTS_PORT,
  // The Rhine for fetch-gauge (a fixed port, shifted like the others; tests set the river there).
  gaugePort: E2E_GAUGE_PORT,
  // Links in e-mails point at this app (the stack stores it and its own URL in Vault).
  siteUrl: `http://127.0.0.1:${E2E_APP_PORT}`,
  // Every test browser signs in from 127.0.0.1: per-IP and per-hour auth limits sized for one
  // harbour's guests would throttle the suite itself. The limits are tested in auth.test.ts.
  configure: (config) => {
    for (const key of Object.keys(config.auth.rateLimit)) config.auth.rateLimit[key] = 100_000;
    // The public forms are throttled per client address in the database (pgTAP 349). The tests
    // that submit a form through the API name an address of their own (formClient() in
    // booking-helpers.ts), which counts only from a trusted proxy: here the loopback.
    config.api.trustedProxies = ['127.0.0.1'];
  },
});
const app = await serveStatic(dist, { host: '127.0.0.1', port: E2E_APP_PORT });
const control = await startControl(stack, Number(new URL(E2E_CONTROL_URL).port));
console.log(`e2e: app ${app.url}, API ${stack.url} (startup ${Math.round(stack.startupMs)} ms)`);

const stop = async () => {
  await app.close();
  control.close();
  await stack.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
