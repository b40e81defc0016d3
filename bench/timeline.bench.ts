/**
 * The staff booking timeline (issue 24) at 1,058 berths: the demo harbour plus the 1,000 berths
 * and a year of stays of supabase/local/bench/operations.bench.ts (as bench/calendar.bench.ts),
 * on the local stack (PGlite in memory), the production build in Debian's Chromium, signed in as
 * the demo admin (staff, with the second factor):
 * - month load: "back" in the month view until the new month's rows and bars are on screen
 *   (calendar_entries of the visible block of berths over HTTP, grouping, layout, first paint of
 *   the visible part; the berths list is cached);
 * - month render: "next" to the month already loaded (the cache answers: layout and render only);
 * - scroll frame times: requestAnimationFrame deltas while the month scrolls down (and across)
 *   by 120 px a frame for 3 s, p50 and p95 per run; with the rows and bars in the DOM meanwhile.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { buildIfNeeded } from '../scripts/lib/build.ts';
import { serveStatic } from '../scripts/lib/static-server.ts';
import { startStack } from '../supabase/local/src/stack.ts';
import { DEMO_ANON_KEY } from '../supabase/local/src/keys.ts';
import { summarise, type BenchRow } from '../supabase/local/bench/types.ts';
import { totpCode } from '../supabase/local/src/auth/totp.ts';
import { DEMO_TOTP_SECRETS, signInWithPassword } from '../supabase/local/test/harness/demo-staff.ts';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../src/lib/database.types.ts';

/** The page's block of berths (PLACE_BLOCK in src/features/harbour/api/calendar.ts). */
const PLACE_BLOCK = 50;
type Client = ReturnType<typeof createClient<Database>>;
/** Every row of a list in max_rows pages, as src/lib/fetch-all.ts does. */
async function pages<T>(page: (lo: number, hi: number) => PromiseLike<{ data: T[] | null; error: unknown }>): Promise<T[]> {
  const out: T[] = [];
  for (let lo = 0; ; lo += 1000) {
    const { data, error } = await page(lo, lo + 999);
    if (error) throw new Error(JSON.stringify(error));
    out.push(...(data ?? []));
    if ((data ?? []).length < 1000) return out;
  }
}
const calendarPlaces = (sb: Client) => pages((lo, hi) => sb.from('places').select('id, name, pier').eq('archived', false).order('name').order('id').range(lo, hi));
const calendarEntries = (sb: Client, from: string, to: string, ids?: string[]) =>
  pages((lo, hi) => sb.rpc('calendar_entries', ids ? { p_from: from, p_to: to, p_place_ids: ids } : { p_from: from, p_to: to }).order('id').range(lo, hi));

const root = resolve(import.meta.dirname, '..');
const dist = resolve(root, 'reports/bench-dist');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = 5;
const SCROLL_RUNS = 3;

/** A year of stays on 1,000 more berths (the data of supabase/local/bench/operations.bench.ts). */
function largeHarbour(): string {
  const src = readFileSync(resolve(root, 'supabase/local/bench/operations.bench.ts'), 'utf8');
  return src.split('await db.exec(`')[1]!.split('`);')[0]!;
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

// In-page code as strings: the bench's tsconfig has no DOM types (as tests/helpers/axe.ts).
/** Clicks a button and waits (by animation frames) until the timeline shows `from` with its rows and their bars: ms. */
const TIME_TO = `async ({ button, from }) => {
  const target = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === button || b.textContent === button);
  const t0 = performance.now();
  target.click();
  for (;;) {
    await new Promise((r) => requestAnimationFrame(r));
    const plan = document.querySelector('[data-testid="timeline"][data-from="' + from + '"]');
    // Rows on screen with their bars: the page loads a block of berths at a time and is aria-busy until the visible rows' block is in.
    if (plan && plan.querySelector('[data-place]') && plan.getAttribute('aria-busy') !== 'true') {
      await new Promise((r) => requestAnimationFrame(r)); // the frame that shows it
      return performance.now() - t0;
    }
    if (performance.now() - t0 > 60000) throw new Error('the month did not show');
  }
}`;

/** Scrolls the timeline by (dx, dy) px a frame for `ms`: the frame deltas and the most rows / bars in the DOM. */
const SCROLL = `async ({ dx, dy, ms }) => {
  const el = document.querySelector('[data-testid="timeline"]');
  el.scrollTo(0, 0);
  await new Promise((r) => requestAnimationFrame(r));
  const deltas = [];
  let rows = 0, bars = 0, last = performance.now();
  const start = last;
  while (performance.now() - start < ms) {
    el.scrollBy(dx, dy);
    const now = await new Promise((r) => requestAnimationFrame(r));
    deltas.push(now - last);
    last = now;
    rows = Math.max(rows, el.querySelectorAll('[data-place]').length);
    bars = Math.max(bars, el.querySelectorAll('[data-entry]').length);
  }
  return { deltas: deltas.slice(1), rows, bars };
}`;

const timeTo = (page: Page, button: string, from: string) => page.evaluate(`(${TIME_TO})(${JSON.stringify({ button, from })})`) as Promise<number>;
const scrollFrames = (page: Page, dx: number, dy: number, ms: number) =>
  page.evaluate(`(${SCROLL})(${JSON.stringify({ dx, dy, ms })})`) as Promise<{ deltas: number[]; rows: number; bars: number }>;

export async function run(): Promise<BenchRow[]> {
  const stack = await startStack({ workdir: resolve(root, 'supabase'), inMemory: true, port: 0, mailPort: 0, smtpPort: 0 });
  const rows: BenchRow[] = [];
  try {
    await stack.db.exec(largeHarbour());
    await stack.db.exec('analyze');
    const { rows: [count] } = await stack.db.query<{ berths: number }>('select count(*)::int as berths from public.places where not archived');
    // The month's data over HTTP as staff, before and after (interleaved): every berth's
    // occupations in max_rows pages (what the page loaded until session 11) against the block of
    // berths on screen (what it loads now).
    const sb = createClient<Database>(stack.url, DEMO_ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as never } });
    const signedIn = await signInWithPassword(sb, { email: 'hafen@hafen.test', password: 'Hafen1234' });
    if (signedIn.error) throw new Error(signedIn.error.message);
    const berths = await calendarPlaces(sb);
    const block = berths.slice(0, PLACE_BLOCK).map((p) => p.id);
    const dataBefore: number[] = [];
    const dataAfter: number[] = [];
    const today0 = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    let entryCount = 0;
    for (let i = 0; i < RUNS + 1; i++) {
      const monthFrom = addDays(today0, -65 - 30 * i);
      const monthTo = addDays(monthFrom, 29);
      let t0 = performance.now();
      const all = await Promise.all([calendarPlaces(sb), calendarEntries(sb, monthFrom, monthTo)]);
      const before = performance.now() - t0;
      t0 = performance.now();
      await calendarEntries(sb, monthFrom, monthTo, block);
      const after = performance.now() - t0;
      if (i > 0) { dataBefore.push(before); dataAfter.push(after); } // the first run warms caches
      entryCount = all[1].length;
    }
    await sb.auth.signOut();
    const dataNote = `${berths.length} berths, a month, staff over HTTP (PGlite), before and after interleaved`;
    rows.push(summarise('month data before: every berth (berths + calendar_entries in max_rows pages)', 'ms', dataBefore, `${dataNote}; ${entryCount} occupations, ${Math.ceil(entryCount / 1000)} pages`, 'PGlite'));
    rows.push(summarise(`month data after: the block of ${PLACE_BLOCK} berths on screen (calendar_entries with p_place_ids)`, 'ms', dataAfter, dataNote, 'PGlite'));

    buildIfNeeded(root, { VITE_SUPABASE_URL: stack.url, VITE_SUPABASE_PUBLISHABLE_KEY: DEMO_ANON_KEY }, dist);
    const app = await serveStatic(dist, { port: 0 });
    const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const email = 'admin@hafen.test';
      await page.goto(`${app.url}/de/auth/login`);
      await page.getByLabel('E-Mail').fill(email);
      await page.getByLabel('Passwort').fill('Admin1234');
      await page.getByRole('form', { name: 'Anmelden' }).getByRole('button', { name: 'Anmelden', exact: true }).click();
      await page.waitForURL(/\/auth\/mfa/);
      await page.getByRole('textbox', { name: 'Code aus der App' }).fill(totpCode(DEMO_TOTP_SECRETS[email]!));
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await page.waitForURL(/\/account/);

      // The 1,000 berths' stays fill the year before today (operations.bench.ts): the months measured are in it.
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
      let from = addDays(today, -35);
      await page.goto(`${app.url}/de/account/admin/calendar?view=month&from=${from}`);
      await page.locator('[data-testid="timeline"] [data-place]').first().waitFor({ timeout: 120_000 });

      // Month load: each "back" is a month not loaded yet.
      const load: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        from = addDays(from, -30);
        load.push(await timeTo(page, 'Zurück', from));
      }
      // Month render: "next" to the month after (in the cache), then back again.
      const render: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        from = addDays(from, 30);
        render.push(await timeTo(page, 'Weiter', from));
        from = addDays(from, -30);
        await timeTo(page, 'Zurück', from);
      }
      const note = `${count!.berths} berths, a month (30 days) at 1280 × 800, production build, PGlite over HTTP`;
      rows.push(summarise('month load (a month not cached)', 'ms', load, `${note}; berths + calendar_entries + grouping + first frame with rows and bars`, 'Chromium'));
      rows.push(summarise('month render (month in the cache)', 'ms', render, `${note}; layout and render only`, 'Chromium'));

      for (const [label, dx, dy] of [['down', 0, 120], ['diagonal', 40, 120]] as const) {
        const p50: number[] = [];
        const p95: number[] = [];
        let seen = { rows: 0, bars: 0, frames: 0 };
        for (let i = 0; i < SCROLL_RUNS; i++) {
          const r = await scrollFrames(page, dx, dy, 3000);
          p50.push(quantile(r.deltas, 0.5));
          p95.push(quantile(r.deltas, 0.95));
          seen = { rows: Math.max(seen.rows, r.rows), bars: Math.max(seen.bars, r.bars), frames: r.deltas.length };
        }
        const how = `scrolling ${label} ${dy} px${dx ? ` and ${dx} px across` : ''} a frame for 3 s (${seen.frames} frames a run); at most ${seen.rows} of ${count!.berths} rows and ${seen.bars} bars in the DOM`;
        rows.push(summarise(`scroll frame time p50 (${label})`, 'ms', p50, how, 'Chromium'));
        rows.push(summarise(`scroll frame time p95 (${label})`, 'ms', p95, how, 'Chromium'));
      }
      await context.close();
    } finally {
      await browser.close();
      await app.close();
    }
  } finally {
    await stack.close();
  }
  return rows;
}
