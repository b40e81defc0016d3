import { devices, type Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { E2E_APP_URL } from './ports';

/**
 * The prerendered landing pages (scripts/lib/prerender.ts): their HTML already holds the page
 * in the language of the URL, and the app takes over without a jump or a change of text.
 */
const start = {
  de: {
    h1: 'Willkommen im Hafen Düsseldorf',
    lead: 'Liegeplätze am Rhein für eine Nacht, einen Tag oder die ganze Saison – mitten in Düsseldorf, wenige Minuten von der Altstadt.',
    nav: 'Hauptnavigation',
    service: 'Service',
  },
  en: {
    h1: 'Welcome to Hafen Düsseldorf',
    lead: 'Berths on the Rhine for a night, a day or the whole season – in the middle of Düsseldorf, a few minutes from the old town.',
    nav: 'Main navigation',
    service: 'Service',
  },
} as const;

/** The app has replaced the prerendered markup (main.tsx lifts `inert` after its first render). */
async function appMounted(page: Page) {
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(page.locator('#root header').first()).toBeVisible();
}

/** Position and size of the h1 and the lead paragraph. */
async function boxes(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element | null) => {
      const r = el!.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map(Math.round);
    };
    return { h1: box(document.querySelector('main h1')), lead: box(document.querySelector('main header p')) };
  });
}

for (const locale of ['de', 'en'] as const) {
  const text = start[locale];

  test(`/${locale}/start: the HTML holds heading and intro in ${locale}, the app takes over in place; switch and navigation work`, async ({
    page,
    browser,
    request,
    consoleErrors,
  }) => {
    // The document as served: lang, heading and intro are in the HTML itself.
    const response = await request.get(`/${locale}/start`);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toMatch(new RegExp(`<html lang="${locale}"`));
    expect(html).toContain(`>${text.h1}</h1>`);
    expect(html).toContain(`>${text.lead}</p>`);
    expect(html).toContain('<title>');

    // Without JavaScript: the page is there, in place.
    const noJs = await browser.newContext({ ...devices['Pixel 7'], javaScriptEnabled: false, baseURL: E2E_APP_URL });
    const staticPage = await noJs.newPage();
    await staticPage.goto(`/${locale}/start`);
    await expect(staticPage.locator('html')).toHaveAttribute('lang', locale);
    await expect(staticPage.locator('main h1')).toHaveText(text.h1);
    await expect(staticPage.locator('main header p')).toHaveText(text.lead);
    await expect(staticPage.locator('#root')).toHaveAttribute('inert');
    const before = await boxes(staticPage);
    await noJs.close();

    // With the app: same text at the same place once it has mounted.
    await page.goto(`/${locale}/start`);
    await appMounted(page);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.h1);
    await expect(page.locator('main header p')).toHaveText(text.lead);
    expect(await boxes(page)).toEqual(before);
    // One app, not the prerendered markup left beside it.
    await expect(page.locator('main')).toHaveCount(1);

    // The language switch works on the mounted page.
    const other = locale === 'de' ? 'en' : 'de';
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.getByRole('button', { name: other === 'en' ? 'English' : 'Deutsch' }).click();
    await expect(page).toHaveURL(new RegExp(`/${other}/start$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(start[other].h1);
    await expect(page.locator('html')).toHaveAttribute('lang', other);

    // And a navigation: the bottom bar's Service tab, inside the app (no page load).
    await page.getByRole('navigation', { name: start[other].nav }).getByRole('link', { name: start[other].service }).click();
    await expect(page).toHaveURL(new RegExp(`/${other}/service$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Service');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.waitForLoadState('networkidle');
    expect(consoleErrors).toEqual([]);
  });
}

test('every prerendered page is served for its path in its language; other paths get the empty shell', async ({ request }) => {
  const pages: [string, string, string][] = [
    ['/start', 'de', 'Willkommen im Hafen Düsseldorf'],
    ['/de/service', 'de', 'Service'],
    ['/en/service', 'en', 'Service'],
    ['/service', 'de', 'Service'],
    ['/de/start/booking', 'de', 'Liegeplatz buchen'],
    ['/en/start/booking', 'en', 'Book a berth'],
    ['/start/booking', 'de', 'Liegeplatz buchen'],
    ['/en/start/', 'en', 'Welcome to Hafen Düsseldorf'],
  ];
  for (const [path, lang, h1] of pages) {
    const html = await (await request.get(path)).text();
    expect(html, path).toMatch(new RegExp(`<html lang="${lang}"`));
    expect(html, path).toMatch(new RegExp(`<h1[^>]*>${h1}</h1>`));
  }
  // Data from the network is not baked in: the news are prerendered as loading.
  expect(await (await request.get('/de/start')).text()).toContain('News werden geladen');
  // The booking dates are the visitor's today, not the build's.
  const dateFields = (await (await request.get('/de/start/booking')).text()).match(/<input\b[^>]*\bdata-date-field=""[^>]*>/g) ?? [];
  expect(dateFields.length).toBeGreaterThan(0);
  for (const field of dateFields) expect(field).not.toMatch(/\s(?:value|data-value)="\d/);
  for (const path of ['/', '/service/lift', '/start/prices', '/start/booking/result', '/en/contact', '/account']) {
    const html = await (await request.get(path)).text();
    expect(html, path).toContain('<div id="root"></div>');
  }
  // The service worker answers navigations with the shell; it never caches a prerendered page.
  const sw = await (await request.get('/sw.js')).text();
  expect(sw).toContain('"index.html"');
  expect(sw).not.toMatch(/start\/index\.html|service\/index\.html/);
});

test('an unprefixed page prerendered in German is dropped before the first paint for a visitor who chose English', async ({
  page,
  context,
}) => {
  // Hold the app back, so what is seen is the HTML and its inline script alone.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto('/start');
  await expect(page.locator('main h1')).toHaveText(start.de.h1);
  await context.addCookies([{ name: 'locale', value: 'en', url: page.url() }]);
  await page.goto('/start');
  await expect(page.locator('#root')).toBeEmpty();
  // The prefixed page is in its own language whatever was chosen.
  await page.goto('/de/start');
  await expect(page.locator('main h1')).toHaveText(start.de.h1);
  // With the app: English at once.
  await page.unroute(/\/assets\/.*\.js$/);
  await page.goto('/start');
  await appMounted(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(start.en.h1);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('/start/booking: the prerendered first step is replaced by the same form with today as arrival', async ({ page }) => {
  await page.goto('/de/start/booking');
  await appMounted(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Liegeplatz buchen');
  await expect(page.locator('input[name=arrival]')).toHaveAttribute('data-value', /^\d{4}-\d{2}-\d{2}$/);
  await expect(page.locator('input[name=arrival]')).toHaveValue(/^\d{2}\.\d{2}\.\d{4}$/);
  // A step in the URL is not the prerendered first step: the HTML gives way to the app.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto('/de/start/booking?step=2');
  await expect(page.locator('#root')).toBeEmpty();
});
