/**
 * App benchmarks: initial JavaScript per route (KB gzip, as the browser loads it) and
 * Lighthouse mobile (performance, LCP, CLS, accessibility) for /start, /service and
 * /start/booking, and the time to a page's heading on a cold cache over a slow mobile network
 * (coldLoads), against the production build served like `npm start` serves it, on the local
 * stack with the demo harbour. Debian's Chromium; nothing is downloaded.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildIfNeeded } from '../scripts/lib/build.ts';
import { serveStatic } from '../scripts/lib/static-server.ts';
import { startStack } from '../supabase/local/src/stack.ts';
import { DEMO_ANON_KEY } from '../supabase/local/src/keys.ts';
import { summarise, type BenchRow } from '../supabase/local/bench/types.ts';
import { DEMO_TOTP_SECRETS, unusedTotpCode } from '../supabase/local/test/harness/demo-staff.ts';

const root = resolve(import.meta.dirname, '..');
const dist = resolve(root, 'reports/bench-dist');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const flags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const ROUTES = ['/start', '/service', '/start/booking'];
const RUNS = 3;
/** Routes whose initial JS is measured, by who opens them. */
const JS_ROUTES: Record<'visitor' | 'customer' | 'admin', string[]> = {
  visitor: [
    '/start',
    '/start/prices',
    '/start/booking',
    '/service',
    '/service/lift',
    '/contact',
    '/impressum',
    '/auth/login',
    '/auth/register',
  ],
  customer: ['/account', '/account/bookings', '/account/profile'],
  admin: ['/account/admin/overview', '/account/admin/calendar'],
};

/** Slow 4G as Lighthouse's mobile preset assumes it: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

/** What coldLoads measures: a page opened by its address, or reached by a click from /start. */
export const COLD_LOADS: { name: string; path: string; via?: string }[] = [
  { name: '/contact opened', path: '/contact' },
  { name: '/service/lift opened', path: '/service/lift' },
  { name: '/auth/login opened', path: '/auth/login' },
  { name: '/start, then a click to /contact', path: '/start', via: '/contact' },
  { name: '/account/admin/calendar opened (admin)', path: '/account/admin/calendar' },
];

/** Signs a context in as the demo customer or admin (the admin with the seed's TOTP key). */
async function signIn(context: BrowserContext, appUrl: string, persona: 'customer' | 'admin') {
  const [email, password] = persona === 'customer' ? ['kunde@hafen.test', 'Kunde1234'] : ['admin@hafen.test', 'Admin1234'];
  const page = await context.newPage();
  await page.goto(`${appUrl}/de/auth/login`);
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Passwort').fill(password);
  await page.getByRole('form', { name: 'Anmelden' }).getByRole('button', { name: 'Anmelden', exact: true }).click();
  const secret = DEMO_TOTP_SECRETS[email];
  if (secret) {
    // Staff sign in with the second factor (the seed's published TOTP key).
    await page.waitForURL(/\/auth\/mfa/);
    await page.getByRole('textbox', { name: 'Code aus der App' }).fill(await unusedTotpCode(secret));
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  }
  await page.waitForURL(/\/account/);
  await page.close();
}

/**
 * Milliseconds from the start of a navigation to the page's heading in the app's markup (the
 * app has taken over: `#root` without `inert`), on a cold cache (HTTP cache off, no service
 * worker) over SLOW_4G: what a first visit waits for the chunks of a page loaded on first use.
 * With `via`, the page is reached by a click on a link from `path` (opened and settled first).
 */
export async function coldLoads(browser: Browser, appUrl: string, runs: number): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(COLD_LOADS.map(({ name }) => [name, []]));
  // The address changes before the next page renders: wait for a heading other than the last page's.
  const heading = (path: string, previous = '') =>
    `(() => { const root = document.getElementById('root'); const h1 = root && !root.inert && root.querySelector('h1'); return !!h1 && h1.textContent !== ${JSON.stringify(previous)} && location.pathname === ${JSON.stringify(path)}; })()`;
  for (let i = 0; i < runs; i++) {
    for (const { name, path, via } of COLD_LOADS) {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      if (name.endsWith('(admin)')) await signIn(context, appUrl, 'admin');
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
      await page.goto(`${appUrl}${path}`, { waitUntil: 'commit' });
      await page.waitForFunction(heading(path), undefined, { polling: 'raf', timeout: 60_000 });
      if (via) {
        const previous = (await page.locator('#root h1').textContent()) ?? '';
        const start = await page.evaluate(() => performance.now());
        await page.locator(`#root a[href="${via}"]`).first().click();
        await page.waitForFunction(heading(via, previous), undefined, { polling: 'raf', timeout: 60_000 });
        samples.get(name)!.push((await page.evaluate(() => performance.now())) - start);
      } else {
        samples.get(name)!.push(await page.evaluate(() => performance.now()));
      }
      await context.close();
    }
  }
  return samples;
}

export async function run(): Promise<BenchRow[]> {
  const stack = await startStack({ workdir: resolve(root, 'supabase'), inMemory: true, port: 0, mailPort: 0, smtpPort: 0 });
  buildIfNeeded(root, { VITE_SUPABASE_URL: stack.url, VITE_SUPABASE_PUBLISHABLE_KEY: DEMO_ANON_KEY }, dist);
  const app = await serveStatic(dist, { port: 0 });
  const rows: BenchRow[] = [];
  try {
    // Initial JS: every script the page loads until the network is idle, gzipped; the public
    // routes as a visitor, the account and harbour routes signed in (customer, admin).
    const browser = await chromium.launch({ executablePath: chromePath, args: flags.filter((f) => f !== '--headless=new') });
    try {
      for (const [persona, routes] of Object.entries(JS_ROUTES)) {
        const context = await browser.newContext({ serviceWorkers: 'block' });
        if (persona !== 'visitor') await signIn(context, app.url, persona as 'customer' | 'admin');
        for (const route of routes) {
          const samples: number[] = [];
          for (let i = 0; i < RUNS; i++) {
            const page = await context.newPage();
            const scripts = new Set<string>();
            page.on('response', (r) => {
              const url = new URL(r.url());
              if (url.origin === new URL(app.url).origin.replace('localhost', '127.0.0.1') || url.port === new URL(app.url).port) {
                if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
              }
            });
            await page.goto(`${app.url}${route}`, { waitUntil: 'networkidle' });
            let bytes = 0;
            for (const path of scripts) bytes += gzipSync(readFileSync(resolve(dist, `.${path}`)), { level: 9 }).length;
            samples.push(bytes / 1024);
            await page.close();
          }
          rows.push(
            summarise(
              `initial JS ${route}${persona === 'visitor' ? '' : ` (${persona})`}`,
              'KB gzip',
              samples,
              route === '/start'
                ? 'budget 110 = aim (tests/e2e/budget.spec.ts)'
                : route === '/start/booking' && persona === 'visitor'
                  ? 'budget 160 = aim (tests/e2e/budget.spec.ts)'
                  : 'no budget of its own; route code loads on top of the shell',
              'Chromium',
            ),
          );
        }
        await context.close();
      }
      for (const [name, ms] of await coldLoads(browser, app.url, RUNS)) {
        rows.push(
          summarise(`cold load ${name}`, 'ms', ms, 'to the heading; no cache, no service worker, 150 ms RTT, 1.6 Mbit/s', 'Chromium'),
        );
      }
    } finally {
      await browser.close();
    }

    // Lighthouse, mobile preset with its simulated throttling.
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: flags });
    try {
      for (const route of ROUTES) {
        const perf: number[] = [];
        const lcp: number[] = [];
        const cls: number[] = [];
        const a11y: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const result = await lighthouse(`${app.url}${route}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility'],
          });
          const lhr = result!.lhr;
          perf.push((lhr.categories.performance.score ?? 0) * 100);
          a11y.push((lhr.categories.accessibility.score ?? 0) * 100);
          lcp.push(Number(lhr.audits['largest-contentful-paint'].numericValue ?? NaN));
          cls.push(Number(lhr.audits['cumulative-layout-shift'].numericValue ?? NaN));
        }
        rows.push(summarise(`Lighthouse performance ${route}`, 'score', perf, 'mobile; aim 95+', 'Chromium'));
        rows.push(summarise(`Lighthouse LCP ${route}`, 'ms', lcp, 'aim < 2000', 'Chromium'));
        rows.push(summarise(`Lighthouse CLS ${route}`, 'score', cls, 'aim < 0.05', 'Chromium'));
        rows.push(summarise(`Lighthouse accessibility ${route}`, 'score', a11y, 'aim 100', 'Chromium'));
      }
    } finally {
      chrome.kill();
    }
  } finally {
    await app.close();
    await stack.close();
  }
  return rows;
}
