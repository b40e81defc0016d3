/**
 * The booking flow in Chromium against the local stack (PGlite, in memory): step-1 submit ->
 * results shown, and confirm -> result page, at the seed's size (58 berths) and at 1,000 berths.
 * The customer is logged in (steps 3 and 4 are skipped), each confirm books a new period.
 */
import { resolve } from 'node:path';
import { chromium, devices, type Page } from '@playwright/test';
import { buildIfNeeded } from '../../../scripts/lib/build.ts';
import { serveStatic } from '../../../scripts/lib/static-server.ts';
import { startStack } from '../src/stack.ts';
import { DEMO_ANON_KEY } from '../src/keys.ts';
import { summarise, type BenchRow } from './types.ts';

const root = resolve(import.meta.dirname, '../../..');
const API_PORT = 54821;
const APP_PORT = 3821;
const RUNS = 12;

function berlinDay(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

async function measure(page: Page, appUrl: string, dayOffset: number) {
  await page.goto(`${appUrl}/de/start/booking`);
  await page.getByLabel('Anreise', { exact: true }).fill(berlinDay(dayOffset));
  await page.getByLabel('Abreise', { exact: true }).fill(berlinDay(dayOffset + 1));
  await page.getByLabel('Bootslänge (m)').fill('9,4');
  await page.getByLabel('Bootsbreite (m)').fill('3,2');
  await page.getByLabel('Bootsname', { exact: true }).fill('Rheinperle');
  const results = page
    .getByRole('list', { name: 'Freie Liegeplätze' })
    .getByRole('button', { name: /wählen$/ })
    .first();
  let t = performance.now();
  await page.getByRole('button', { name: 'Freie Liegeplätze suchen' }).click();
  await results.waitFor();
  const search = performance.now() - t;
  await results.click();
  await page.getByTestId('price-gross').waitFor();
  await page.getByRole('checkbox', { name: /Ich akzeptiere die AGB/ }).click();
  t = performance.now();
  await page.getByRole('button', { name: 'Verbindlich buchen' }).click();
  await page.getByRole('heading', { level: 1, name: 'Vielen Dank für Ihre Buchung' }).waitFor();
  return { search, confirm: performance.now() - t };
}

export async function run(): Promise<BenchRow[]> {
  const dist = resolve(root, 'reports/bench-dist');
  buildIfNeeded(root, { VITE_SUPABASE_URL: `http://127.0.0.1:${API_PORT}`, VITE_SUPABASE_PUBLISHABLE_KEY: DEMO_ANON_KEY }, dist);
  const stack = await startStack({
    workdir: resolve(root, 'supabase'),
    inMemory: true,
    host: '127.0.0.1',
    port: API_PORT,
    mailPort: 0,
    smtpPort: 0,
    paymentsPort: 0,
  });
  const app = await serveStatic(dist, { host: '127.0.0.1', port: APP_PORT });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const rows: BenchRow[] = [];
  try {
    const context = await browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`${app.url}/de/auth/login`);
    await page.getByLabel('E-Mail').fill('kunde@hafen.test');
    await page.getByLabel('Passwort').fill('Kunde1234');
    await page.getByRole('form', { name: 'Anmelden' }).getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.waitForURL(/\/account/);
    let offset = 100;
    for (const size of ['seed', '1000'] as const) {
      if (size === '1000') {
        const {
          rows: [{ n }],
        } = await stack.db.query<{ n: string }>('select count(*)::text as n from public.places');
        await stack.db.exec(`
          insert into public.places (name, pier, description, description_en, width, length, one_day, features, position)
          select 'X' || g, 'X', 'Benchmark', 'Benchmark', 3.0 + (g % 30) * 0.1, 8.0 + (g % 60) * 0.3, g % 7 = 0,
                 array['electricity', 'water'], array[100 + g % 800, 100 + g % 400]::double precision[]
          from generate_series(1, ${1000 - Number(n)}) g`);
      }
      const search: number[] = [];
      const confirm: number[] = [];
      await measure(page, app.url, offset++); // warm-up
      for (let i = 0; i < RUNS; i++) {
        const m = await measure(page, app.url, offset++);
        search.push(m.search);
        confirm.push(m.confirm);
      }
      const note = `Chromium (Pixel 7), PGlite in memory, ${size === 'seed' ? 'seed (58 berths)' : '1,000 berths'}, logged-in customer`;
      rows.push(summarise(`booking: step-1 submit -> results shown (${size === 'seed' ? 'seed' : '1,000 berths'})`, 'ms', search, note));
      rows.push(summarise(`booking: confirm -> result page (${size === 'seed' ? 'seed' : '1,000 berths'})`, 'ms', confirm, note));
    }
  } finally {
    await browser.close();
    await app.close();
    await stack.close();
  }
  return rows;
}
