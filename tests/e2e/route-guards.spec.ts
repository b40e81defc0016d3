/**
 * Guards against layout regressions (issue 23, item 5): every route of the route tree, for every
 * persona (visitor signed out, customer, harbour staff, admin), in German and English, at 320,
 * 390, 768 and 1280 px. It fails on
 *  (a) horizontal overflow: the document scrolls sideways (scrollWidth > the width); the message
 *      names the element (or text) that sticks out furthest;
 *  (b) content under a fixed bar: a fixed or sticky bar of the viewport (top bar, bottom tabs,
 *      sidebar) covers a piece of content (text, an image, a control) at the top of the page or
 *      after scrolling to the end, where no scrolling can bring it out;
 *  (c) any console error or uncaught page error while the route loads or is resized;
 *  (d) the page the persona gets (page, login or 404) is not the one it may see, or `lang` is not
 *      the URL's language.
 * Each route is loaded once per persona and language. The routes the persona's walk measures
 * (measuredBy in routes-helpers.ts: its own pages and one login or 404 page) are then resized
 * through the four widths (after each resize the layout settles: transitions end, the size stops
 * changing); on every other route the walk checks what the persona gets (page, login or 404)
 * and the console. Every route is measured by at least one persona.
 * The route walk is shared with a11y-routes.spec.ts (routes-helpers.ts).
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import {
  expected,
  localeUrl,
  measuredBy,
  outcomeOf,
  routePaths,
  routePersonas,
  seededIds,
  settle,
  visit,
  type Ids,
} from './routes-helpers.ts';

/** The widths, each with a usual screen height at that width (small phone, phone, tablet, laptop). */
const SIZES = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
] as const;

/** Routes per test: a persona × language walk is split in this many tests, run in parallel. */
const GROUPS = 3;

const paths = routePaths();

/** Waits until the layout has settled after a resize or scroll: finite animations done, sizes stable (bounded). */
async function settleLayout(page: Page) {
  await page.evaluate(async () => {
    // A frame, or 200 ms when Chromium produces none (a headless page whose compositor stalled
    // after a resize waited here until the test's timeout): a wait, never an assertion.
    const frame = () =>
      new Promise<void>((r) => {
        requestAnimationFrame(() => r());
        setTimeout(r, 200);
      });
    await frame();
    await frame();
    const running = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 1_000))]);
    const doc = document.documentElement;
    let last = '';
    for (let i = 0; i < 30; i++) {
      await frame();
      const main = document.querySelector('main')?.getBoundingClientRect();
      const size = `${doc.scrollWidth}x${doc.scrollHeight} ${main?.left},${main?.width},${main?.height}`;
      if (size === last) break;
      last = size;
    }
  });
}

/**
 * Measures the page at its current width, in the page: overflow and content under fixed bars,
 * at the top of the page and scrolled to the end. Returns the problems found (empty: sound).
 */
function measure(page: Page, width: number): Promise<string[]> {
  return page.evaluate(async (width) => {
    type Box = { left: number; top: number; right: number; bottom: number };
    const problems: string[] = [];
    const doc = document.documentElement;
    // A frame, or 200 ms when Chromium produces none (a headless page whose compositor stalled
    // after a resize waited here until the test's timeout): a wait, never an assertion.
    const frame = () =>
      new Promise<void>((r) => {
        requestAnimationFrame(() => r());
        setTimeout(r, 200);
      });
    const r1 = (n: number) => Math.round(n);
    const describe = (el: Element) => {
      const testId = el.getAttribute('data-testid') ?? el.getAttribute('data-slot');
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).filter(Boolean).slice(0, 4).join('.') : '';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${testId ? ` [${testId}]` : ''}${cls ? ` .${cls}` : ''}>${text ? ` "${text}"` : ''}`;
    };
    const intersect = (a: Box, b: Box): Box => ({
      left: Math.max(a.left, b.left),
      top: Math.max(a.top, b.top),
      right: Math.min(a.right, b.right),
      bottom: Math.min(a.bottom, b.bottom),
    });
    const REPLACED = new Set(['IMG', 'SVG', 'INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'VIDEO', 'CANVAS', 'IFRAME', 'svg']);

    type Piece = { el: Element; box: Box; what: string };
    type Bar = { el: Element; box: Box; edge: 'top' | 'bottom' | 'left' | 'right'; position: string };

    /**
     * One walk over the body: pieces of content (text runs, images, controls) with the part of
     * them their clipping ancestors leave visible, and the fixed or sticky bars of the viewport.
     */
    function scan() {
      const pieces: Piece[] = [];
      const bars: Bar[] = [];
      const vw = window.innerWidth;
      const vh = window.innerHeight;
      const all: Box = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
      const walk = (el: Element, clip: Box, inBar: boolean, scrolled: boolean) => {
        const cs = getComputedStyle(el);
        if (cs.display === 'none') return;
        const rect = el.getBoundingClientRect();
        const clips = cs.overflowX !== 'visible' || cs.overflowY !== 'visible';
        // What this element's own overflow leaves visible of its text and children (e.g. nothing
        // of an .sr-only text: 1 px with overflow hidden).
        const inner = clips ? intersect(clip, rect) : clip;
        let barHere = inBar;
        if (
          !inBar &&
          (cs.position === 'fixed' || (cs.position === 'sticky' && !scrolled)) &&
          cs.visibility !== 'hidden' &&
          rect.width > 0 &&
          rect.height > 0
        ) {
          const wide = rect.width >= 0.5 * vw && rect.height < 0.5 * vh;
          const tall = rect.height >= 0.5 * vh && rect.width < 0.5 * vw;
          const edge =
            wide && rect.top <= 1 && rect.bottom > 0
              ? 'top'
              : wide && rect.bottom >= vh - 1 && rect.top < vh
                ? 'bottom'
                : tall && rect.left <= 1 && rect.right > 0
                  ? 'left'
                  : tall && rect.right >= vw - 1 && rect.left < vw
                    ? 'right'
                    : null;
          if (edge) bars.push({ el, box: rect, edge, position: cs.position });
          // Anything fixed (a bar, an overlay) is not the page's content.
          barHere = true;
        }
        if (!barHere && cs.visibility !== 'hidden' && cs.opacity !== '0') {
          if (REPLACED.has(el.tagName) && rect.width > 0 && rect.height > 0)
            pieces.push({ el, box: intersect(rect, clip), what: describe(el) });
          else if (!(el instanceof SVGElement)) {
            for (const node of el.childNodes) {
              if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
              const range = document.createRange();
              range.selectNodeContents(node);
              const r = range.getBoundingClientRect();
              if (r.width > 0 && r.height > 0)
                pieces.push({
                  el,
                  box: intersect(r, inner),
                  what: `text "${node.textContent.replace(/\s+/g, ' ').trim().slice(0, 40)}" in ${describe(el).replace(/ ".*$/, '')}`,
                });
            }
          }
        }
        if (el instanceof SVGElement && el.tagName.toLowerCase() === 'svg') return;
        // Sticky inside a scroller sticks to that scroller, not to the viewport.
        const innerScrolled =
          scrolled || ['auto', 'scroll', 'hidden'].includes(cs.overflowX) || ['auto', 'scroll', 'hidden'].includes(cs.overflowY);
        for (const child of el.children) walk(child, inner, barHere, innerScrolled);
      };
      for (const child of document.body.children) walk(child, all, false, false);
      return { pieces: pieces.filter((p) => p.box.right - p.box.left >= 2 && p.box.bottom - p.box.top >= 2), bars };
    }

    /** Pieces a bar covers (more than 1 px each way); `edges` says which bars count at this scroll position. */
    function covered(where: string, edges: Bar['edge'][]) {
      const { pieces, bars } = scan();
      for (const bar of bars.filter((b) => edges.includes(b.edge))) {
        const hidden = pieces
          .filter((p) => !bar.el.contains(p.el))
          .filter((p) => {
            const i = intersect(p.box, bar.box);
            return i.right - i.left > 1 && i.bottom - i.top > 1;
          });
        if (hidden.length === 0) continue;
        const p = hidden[edges.includes('bottom') ? hidden.length - 1 : 0]!;
        problems.push(
          `${where}: ${hidden.length} piece(s) of content under the ${bar.position} ${bar.edge} bar ${describe(bar.el).replace(/ ".*$/, '')} (${r1(bar.box.top)}–${r1(bar.box.bottom)} × ${r1(bar.box.left)}–${r1(bar.box.right)}), e.g. ${p.what} at ${r1(p.box.top)}–${r1(p.box.bottom)} × ${r1(p.box.left)}–${r1(p.box.right)}`,
        );
      }
    }

    // (a) Horizontal overflow, and what sticks out furthest (the innermost of equals).
    if (doc.scrollWidth > width) {
      let worst: { what: string; right: number; width: number } | null = null;
      const look = (el: Element, clipped: boolean) => {
        const cs = getComputedStyle(el);
        if (cs.display === 'none') return;
        if (!clipped && cs.position !== 'fixed') {
          const rect = el.getBoundingClientRect();
          const right = rect.right + window.scrollX;
          if (rect.width > 0 && right > width + 0.5 && (!worst || right >= worst.right))
            worst = { what: describe(el), right, width: rect.width };
          for (const node of el.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const r = range.getBoundingClientRect();
            const tr = r.right + window.scrollX;
            if (r.width > 0 && tr > width + 0.5 && (!worst || tr >= worst.right))
              worst = {
                what: `text "${node.textContent.replace(/\s+/g, ' ').trim().slice(0, 40)}" in ${describe(el).replace(/ ".*$/, '')}`,
                right: tr,
                width: r.width,
              };
          }
        }
        // A fixed element's children move with it, not with the page: not the page's overflow.
        const clips = cs.overflowX !== 'visible' || cs.position === 'fixed';
        for (const child of el.children) look(child, clipped || clips);
      };
      for (const child of document.body.children) look(child, false);
      const w = worst as { what: string; right: number; width: number } | null;
      problems.push(
        `overflow: the page is ${doc.scrollWidth} px wide at ${width} px; furthest out: ${w ? `${w.what}, ${r1(w.width)} px wide, right edge at ${r1(w.right)} px` : 'no single element found'}`,
      );
    }

    // (b) Content under fixed bars: at the top nothing under a top or side bar; scrolled to the
    // end nothing under a bottom or side bar (no scrolling can bring it out).
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    await frame();
    await frame();
    covered('at the top', ['top', 'left', 'right']);
    // To the end, again if the page grew meanwhile (bounded).
    for (let i = 0; i < 10; i++) {
      window.scrollTo({ top: doc.scrollHeight, left: 0, behavior: 'instant' });
      await frame();
      await frame();
      if (window.scrollY + window.innerHeight >= doc.scrollHeight - 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    covered('scrolled to the end', ['bottom', 'left', 'right']);
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    return problems;
  }, width);
}

async function guardRoute(page: Page, url: string, first: boolean): Promise<string[]> {
  const problems: string[] = [];
  await page.setViewportSize(SIZES[0]);
  await visit(page, url, first);
  await settle(page);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await settleLayout(page);
    for (const p of await measure(page, size.width)) problems.push(`${url} at ${size.width} px: ${p}`);
  }
  return problems;
}

function groupsOf<T>(items: T[], n: number): T[][] {
  const size = Math.ceil(items.length / n);
  return Array.from({ length: n }, (_, i) => items.slice(i * size, (i + 1) * size)).filter((g) => g.length > 0);
}

test.describe.configure({ mode: 'parallel' });

test('the guard walks the whole route tree', () => {
  expect(paths).toContain('/start/booking');
  expect(paths).toContain('/account/admin/orders/$id');
  expect(groupsOf(paths, GROUPS).flat()).toEqual(paths);
  expect(paths.filter((p) => !routePersonas.some((who) => measuredBy(who, p, paths)))).toEqual([]);
});

/** The browser of the walk: the desktop kind (no touch emulation) at every width, as the same page is resized. */
const walkBrowser = { viewport: SIZES[0], isMobile: false, hasTouch: false };

test.describe('the guard itself', () => {
  test.use(walkBrowser);
  test('fails on overflow, on content under the bottom tabs or the top bar, and names the culprit', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/de/service');
    await settle(page);
    // The app has replaced the prerendered markup (which it does in one commit, dropping what is injected below before it).
    await page.waitForFunction(() => !document.getElementById('root')!.hasAttribute('inert'));
    await settleLayout(page);
    expect(await measure(page, 390)).toEqual([]);
    // A long unbroken word, the footer without its room above the bottom tabs, the h1 pulled up under the top bar.
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.dataset.testid = 'too-wide';
      p.style.whiteSpace = 'nowrap';
      p.textContent = 'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen';
      document.querySelector('main')!.append(p);
      (document.querySelector('footer')!.parentElement as HTMLElement).style.paddingBottom = '0';
      (document.querySelector('main h1') as HTMLElement).style.marginTop = '-40px';
    });
    await settleLayout(page);
    const problems = (await measure(page, 390)).join('\n');
    expect(problems).toMatch(
      /overflow: the page is \d+ px wide at 390 px; furthest out: text "Donaudampfschifffahrts.*" in <p \[too-wide\]>/,
    );
    expect(problems).toMatch(/at the top: .* under the sticky top bar <header/);
    expect(problems).toMatch(/scrolled to the end: .* under the fixed bottom bar <nav \[bottom-nav\]/);
  });
});

let ids: Ids | undefined;

for (const who of routePersonas) {
  test.describe(who, () => {
    // One browser for all widths: the desktop kind (no touch emulation), as the viewport is
    // resized on the same page; the widths below `md` get the phone layout from the CSS. (With
    // phone emulation Chromium widens the layout viewport to overflowing content.)
    test.use({ ...walkBrowser, persona: who === 'visitor' ? undefined : who });
    for (const locale of ['de', 'en'] as const) {
      groupsOf(paths, GROUPS).forEach((group, g) => {
        test(`${locale}, routes ${g + 1}/${GROUPS}: no overflow, nothing under a fixed bar, no console error at ${SIZES.map((s) => s.width).join('/')} px`, async ({
          page,
          consoleErrors,
        }) => {
          test.setTimeout(240_000);
          ids ??= await seededIds();
          const problems: string[] = [];
          for (const [i, path] of group.entries()) {
            const url = localeUrl(locale, path, ids);
            const before = consoleErrors.length;
            const started = Date.now();
            const first = i === 0 || process.env.GUARDS_RELOAD === '1';
            if (measuredBy(who, path, paths)) problems.push(...(await guardRoute(page, url, first)));
            else {
              await visit(page, url, first);
              await settle(page);
            }
            const { outcome, h1 } = await outcomeOf(page, path);
            expect.soft(outcome, `${who} ${url} (h1 "${h1}")`).toBe(expected(who, path));
            expect.soft(await page.locator('html').getAttribute('lang'), `${who} ${url}: lang`).toBe(locale);
            for (const e of consoleErrors.slice(before)) problems.push(`${url}: console error: ${e}`);
            if (process.env.GUARDS_TIMING) console.log(`${who} ${url} ${Date.now() - started} ms`);
          }
          expect(problems, problems.join('\n')).toEqual([]);
        });
      });
    }
  });
}
