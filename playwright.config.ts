import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_APP_PORT, E2E_APP_URL } from './tests/e2e/ports';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser), against the built app and
 * the local stack on a fresh in-memory database (tests/e2e/server.ts).
 */
// One day base for the whole run (tests/e2e/booking-helpers.ts, berlinDay): the runner process
// sets it before it starts the workers, which inherit it. Computed in each worker instead, two
// workers started in different minutes (or one restarted after a failure) would shift their
// specs' days differently, and specs kept apart by their offsets could meet on the same days.
process.env.E2E_DAY_BASE ??= String(Math.floor(Date.now() / 60_000) % 240);

// The river is one for the whole stack: a spec that raises it (tests/e2e/gauge-helpers.ts) or
// sets the harbour's status closes the harbour for every booking in the forecast days and mails
// every guest staying then (ADR 0053). Such specs run after all others, one at a time (the
// `river` project); each sets the river back to normal when it ends.
const riverSpecs = readdirSync('tests/e2e')
  .filter((file) => file.endsWith('.spec.ts'))
  .filter((file) => /from '\.\/gauge-helpers(\.ts)?'|set_harbour_status_override/.test(readFileSync(`tests/e2e/${file}`, 'utf8')));

export default defineConfig({
  projects: [
    { name: 'app', testIgnore: riverSpecs },
    { name: 'river', testMatch: riverSpecs, dependencies: ['app'], workers: 1 },
  ],
  testDir: 'tests/e2e',
  outputDir: 'reports/playwright-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: E2E_APP_URL,
    ...devices['Pixel 7'],
    browserName: 'chromium',
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    // No trace by default: recording one for every test (to keep it only on a failure) cost 5 to
    // 10 % of the suite's time here (ADR 0006), and CI keeps no files. To debug a failure, run
    // `npx playwright test <spec> --trace retain-on-failure` and open the trace it keeps.
    trace: 'off',
  },
  webServer: {
    command: 'node --import tsx tests/e2e/server.ts',
    url: `${E2E_APP_URL}/start`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
  metadata: { appPort: E2E_APP_PORT },
});
