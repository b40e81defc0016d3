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
 * `TIMELINE_BASE=<git ref>` (e.g. main) also builds that commit's app (git archive of its sources,
 * this checkout's node_modules) and measures it interleaved with this one, run for run, in the same
 * browser against the same stack: rows "… (<ref>)" beside this build's, the ratio being the finding.
 * `TIMELINE_TRACE=1` records a Chromium performance trace over the cached month renders and
 * prints the renderer main thread's self time per event (script, style, layout, paint…);
 * `TIMELINE_SKIP_DATA=1` leaves out the data-over-HTTP figures (for profiling runs).
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { buildIfNeeded } from '../scripts/lib/build.ts';
import { serveStatic } from '../scripts/lib/static-server.ts';
import { startStack } from '../supabase/local/src/stack.ts';
import { DEMO_ANON_KEY } from '../supabase/local/src/keys.ts';
import { summarise, type BenchRow } from '../supabase/local/bench/types.ts';
import { DEMO_TOTP_SECRETS, signInWithPassword, unusedTotpCode } from '../supabase/local/test/harness/demo-staff.ts';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../src/lib/database.types.ts';

/** The page's block of berths (PLACE_BLOCK in src/features/harbour/calendar/api/calendar.ts). */
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
const calendarPlaces = (sb: Client) =>
  pages((lo, hi) => sb.from('places').select('id, name, pier').eq('archived', false).order('name').order('id').range(lo, hi));
const calendarEntries = (sb: Client, from: string, to: string, ids?: string[]) =>
  pages((lo, hi) =>
    sb
      .rpc('calendar_entries', ids ? { p_from: from, p_to: to, p_place_ids: ids } : { p_from: from, p_to: to })
      .order('id')
      .range(lo, hi),
  );

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

const timeTo = (page: Page, button: string, from: string) =>
  page.evaluate(`(${TIME_TO})(${JSON.stringify({ button, from })})`) as Promise<number>;
const scrollFrames = (page: Page, dx: number, dy: number, ms: number) =>
  page.evaluate(`(${SCROLL})(${JSON.stringify({ dx, dy, ms })})`) as Promise<{ deltas: number[]; rows: number; bars: number }>;

export async function run(): Promise<BenchRow[]> {
  const stack = await startStack({ workdir: resolve(root, 'supabase'), inMemory: true, port: 0, mailPort: 0, smtpPort: 0 });
  const rows: BenchRow[] = [];
  try {
    await stack.db.exec(largeHarbour());
    await stack.db.exec('analyze');
    const {
      rows: [count],
    } = await stack.db.query<{ berths: number }>('select count(*)::int as berths from public.places where not archived');
    // The month's data over HTTP as staff, before and after (interleaved): every berth's
    // occupations in max_rows pages (what the page loaded until session 11) against the block of
    // berths on screen (what it loads now).
    const sb = createClient<Database>(stack.url, DEMO_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const signedIn = await signInWithPassword(sb, { email: 'hafen@hafen.test', password: 'Hafen1234' });
    if (signedIn.error) throw new Error(signedIn.error.message);
    const berths = await calendarPlaces(sb);
    const block = berths.slice(0, PLACE_BLOCK).map((p) => p.id);
    const dataBefore: number[] = [];
    const dataAfter: number[] = [];
    const today0 = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    let entryCount = 0;
    // TIMELINE_SKIP_DATA=1 skips this part (profiling the render only).
    for (let i = 0; i < (process.env.TIMELINE_SKIP_DATA ? 0 : RUNS + 1); i++) {
      const monthFrom = addDays(today0, -65 - 30 * i);
      const monthTo = addDays(monthFrom, 29);
      let t0 = performance.now();
      const all = await Promise.all([calendarPlaces(sb), calendarEntries(sb, monthFrom, monthTo)]);
      const before = performance.now() - t0;
      t0 = performance.now();
      await calendarEntries(sb, monthFrom, monthTo, block);
      const after = performance.now() - t0;
      if (i > 0) {
        dataBefore.push(before);
        dataAfter.push(after);
      } // the first run warms caches
      entryCount = all[1].length;
    }
    await sb.auth.signOut();
    const dataNote = `${berths.length} berths, a month, staff over HTTP (PGlite), before and after interleaved`;
    if (dataBefore.length)
      rows.push(
        summarise(
          'month data before: every berth (berths + calendar_entries in max_rows pages)',
          'ms',
          dataBefore,
          `${dataNote}; ${entryCount} occupations, ${Math.ceil(entryCount / 1000)} pages`,
          'PGlite',
        ),
      );
    if (dataAfter.length)
      rows.push(
        summarise(
          `month data after: the block of ${PLACE_BLOCK} berths on screen (calendar_entries with p_place_ids)`,
          'ms',
          dataAfter,
          dataNote,
          'PGlite',
        ),
      );

    const env = { VITE_SUPABASE_URL: stack.url, VITE_SUPABASE_PUBLISHABLE_KEY: DEMO_ANON_KEY };
    buildIfNeeded(root, env, dist);
    const base = process.env.TIMELINE_BASE;
    const variants: { name: string; dist: string }[] = [{ name: '', dist }];
    if (base) variants.unshift({ name: ` (${base})`, dist: buildBase(base, env) });
    const apps = await Promise.all(variants.map((v) => serveStatic(v.dist, { port: 0 })));
    const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      // The 1,000 berths' stays fill the year before today (operations.bench.ts): the months measured are in it.
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
      const open: { page: Page; context: BrowserContext; from: string }[] = [];
      let session: Awaited<ReturnType<BrowserContext['storageState']>> | null = null;
      for (const app of apps) {
        const o = await openTimeline(browser, app.url, addDays(today, -35), session);
        session ??= await o.context.storageState();
        open.push(o);
      }
      // Month load: each "back" is a month not loaded yet. Month render: "next" to the month after
      // (in the cache), then back again. The variants take turns, run for run.
      const load = variants.map(() => [] as number[]);
      const render = variants.map(() => [] as number[]);
      for (let i = 0; i < RUNS; i++) {
        for (const [v, o] of open.entries()) {
          o.from = addDays(o.from, -30);
          load[v]!.push(await timeTo(o.page, 'Zurück', o.from));
        }
      }
      const trace = !!process.env.TIMELINE_TRACE;
      for (let i = 0; i < RUNS; i++) {
        for (const [v, o] of open.entries()) {
          if (trace && i === 0)
            await browser.startTracing(o.page, {
              categories: [
                'devtools.timeline',
                'disabled-by-default-devtools.timeline',
                'v8.execute',
                'blink.user_timing',
                'disabled-by-default-v8.cpu_profiler',
              ],
            });
          o.from = addDays(o.from, 30);
          render[v]!.push(await timeTo(o.page, 'Weiter', o.from));
          o.from = addDays(o.from, -30);
          await timeTo(o.page, 'Zurück', o.from);
          if (trace && i === 0) {
            const buffer = await browser.stopTracing();
            try {
              printTrace(variants[v]!.name || '(this build)', buffer);
            } catch (e) {
              console.log('trace summary failed:', e);
            }
          }
        }
      }
      const note = `${count!.berths} berths, a month (30 days) at 1280 × 800, production build, PGlite over HTTP${base ? `; ${base} and this build interleaved` : ''}`;
      for (const [v, variant] of variants.entries()) {
        rows.push(
          summarise(
            `month load (a month not cached)${variant.name}`,
            'ms',
            load[v]!,
            `${note}; berths + calendar_entries + grouping + first frame with rows and bars`,
            'Chromium',
          ),
        );
        rows.push(
          summarise(`month render (month in the cache)${variant.name}`, 'ms', render[v]!, `${note}; layout and render only`, 'Chromium'),
        );
      }

      for (const [label, dx, dy] of [
        ['down', 0, 120],
        ['diagonal', 40, 120],
      ] as const) {
        const p50 = variants.map(() => [] as number[]);
        const p95 = variants.map(() => [] as number[]);
        const seen = variants.map(() => ({ rows: 0, bars: 0, frames: 0 }));
        for (let i = 0; i < SCROLL_RUNS; i++) {
          for (const [v, o] of open.entries()) {
            await o.page.bringToFront();
            const r = await scrollFrames(o.page, dx, dy, 3000);
            p50[v]!.push(quantile(r.deltas, 0.5));
            p95[v]!.push(quantile(r.deltas, 0.95));
            seen[v] = { rows: Math.max(seen[v]!.rows, r.rows), bars: Math.max(seen[v]!.bars, r.bars), frames: r.deltas.length };
          }
        }
        for (const [v, variant] of variants.entries()) {
          const how = `scrolling ${label} ${dy} px${dx ? ` and ${dx} px across` : ''} a frame for 3 s (${seen[v]!.frames} frames a run); at most ${seen[v]!.rows} of ${count!.berths} rows and ${seen[v]!.bars} bars in the DOM${base ? `; ${base} and this build interleaved` : ''}`;
          rows.push(summarise(`scroll frame time p50 (${label})${variant.name}`, 'ms', p50[v]!, how, 'Chromium'));
          rows.push(summarise(`scroll frame time p95 (${label})${variant.name}`, 'ms', p95[v]!, how, 'Chromium'));
        }
      }
      for (const o of open) await o.context.close();
    } finally {
      await browser.close();
      for (const app of apps) await app.close();
    }
  } finally {
    await stack.close();
  }
  return rows;
}

/** Signs in as the demo admin (or reuses a signed-in session of another origin) and opens the month view at `from`. */
async function openTimeline(
  browser: Browser,
  url: string,
  from: string,
  session: Awaited<ReturnType<BrowserContext['storageState']>> | null,
) {
  // The session lives in localStorage under a key of the API's URL: the same for every build.
  const storageState = session ? { cookies: [], origins: session.origins.map((o) => ({ ...o, origin: url })) } : undefined;
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 }, storageState });
  const page = await context.newPage();
  if (!session) {
    const email = 'admin@hafen.test';
    await page.goto(`${url}/de/auth/login`);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill('Admin1234');
    await page.getByRole('form', { name: 'Anmelden' }).getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.waitForURL(/\/auth\/mfa/);
    await page.getByRole('textbox', { name: 'Code aus der App' }).fill(await unusedTotpCode(DEMO_TOTP_SECRETS[email]!));
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.waitForURL(/\/account/);
  }
  await page.goto(`${url}/de/account/admin/calendar?view=month&from=${from}`);
  await page.locator('[data-testid="timeline"] [data-place]').first().waitFor({ timeout: 120_000 });
  return { page, context, from };
}

/** The app of another commit (TIMELINE_BASE), built from its sources with this checkout's node_modules. */
function buildBase(ref: string, env: { VITE_SUPABASE_URL: string; VITE_SUPABASE_PUBLISHABLE_KEY: string }): string {
  const src = resolve(root, 'reports/bench-base-src');
  const commit = execSync(`git rev-parse ${ref}`, { cwd: root, encoding: 'utf8' }).trim();
  const marker = resolve(src, `.commit-${commit}`);
  if (!existsSync(marker)) {
    rmSync(src, { recursive: true, force: true });
    mkdirSync(src, { recursive: true });
    execSync(`git archive ${commit} | tar -x -C ${JSON.stringify(src)}`, { cwd: root });
    symlinkSync(resolve(root, 'node_modules'), resolve(src, 'node_modules'));
    execSync(`touch ${JSON.stringify(marker)}`);
  }
  const out = resolve(root, 'reports/bench-base-dist');
  buildIfNeeded(src, env, out);
  return out;
}

/** The renderer main thread's self time per trace event name over a trace (nested events subtract from their parent). */
function printTrace(name: string, buffer: Buffer) {
  const parsed = JSON.parse(buffer.toString('utf8')) as {
    traceEvents: { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string } }[];
  };
  const events = parsed.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return console.log('no renderer main thread in the trace');
  const xs = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const e of xs) {
    while (stack.length && stack.at(-1)!.end <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
    stack.push({ end: e.ts + e.dur!, name: e.name });
  }
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 18);
  console.log(`Trace ${name}: self ms on the renderer main thread over one cached render and back:`);
  for (const [n, us] of top) console.log(`  ${n.padEnd(32)} ${(us / 1000).toFixed(1)}`);
  // Raster and compositing run on other threads (software raster here: no GPU).
  const threads = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '?']));
  const busy = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined || !/Raster|Paint|Decode|Composite|Draw/i.test(e.name)) continue;
    const key = `${threads.get(`${e.pid}:${e.tid}`) ?? e.tid} ${e.name}`;
    busy.set(key, (busy.get(key) ?? 0) + e.dur);
  }
  for (const [n, us] of [...busy.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`  ${n.padEnd(48)} ${(us / 1000).toFixed(1)} (total, nested included)`);
  // The sampled JavaScript (v8.cpu_profiler): self time per script file (chunk) and per function.
  type Node = { id: number; callFrame: { functionName: string; url?: string }; parent?: number };
  const nodes = new Map<number, Node>();
  const perUrl = new Map<string, number>();
  const perFn = new Map<string, number>();
  for (const e of events as unknown as {
    name: string;
    args?: { data?: { cpuProfile?: { nodes?: Node[]; samples?: number[] }; timeDeltas?: number[] } };
  }[]) {
    if (e.name !== 'ProfileChunk') continue;
    const data = e.args?.data;
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    samples.forEach((id, i) => {
      const node = nodes.get(id);
      if (!node) return;
      const file = (node.callFrame.url ?? '').replace(/^.*\//, '') || `(${node.callFrame.functionName || 'native'})`;
      const us = Math.max(deltas[i + 1] ?? 0, 0);
      perUrl.set(file, (perUrl.get(file) ?? 0) + us);
      const fn = `${node.callFrame.functionName || '(anonymous)'} ${file}`;
      perFn.set(fn, (perFn.get(fn) ?? 0) + us);
    });
  }
  console.log('  JavaScript self time per file (sampled):');
  for (const [n, us] of [...perUrl.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10))
    console.log(`    ${n.padEnd(46)} ${(us / 1000).toFixed(1)}`);
  console.log('  JavaScript self time per function (sampled):');
  for (const [n, us] of [...perFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${n.padEnd(60)} ${(us / 1000).toFixed(1)}`);
}
