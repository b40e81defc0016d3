/**
 * The defects found in issue 23 ("Why"), each held by a test here (or by the unit, pgTAP test
 * named beside it in "Defects of issue 23" of the former docs/decisions.md, in git history).
 */
import { E2E_DIST } from './ports';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect as baseExpect, test } from '../helpers/app-test';
import { authStorageKey, personaSession } from '../helpers/personas';
import { berlinDay, chooseFirstBerth, confirmBooking, fillBerthData, proceedAsGuest, readCode, words } from './booking-helpers';

const expect = baseExpect.configure({ timeout: 15_000 });

const dist = resolve(import.meta.dirname, '../..', E2E_DIST);

test.describe("the app server (npm start's static server)", () => {
  test('answers 404 with the not-found page for an unknown path, 200 for every real route', async ({ page, request }) => {
    const routes = JSON.parse(readFileSync(resolve(dist, 'routes.json'), 'utf8')) as string[];
    expect(routes.length).toBeGreaterThan(50);
    const id = '4b0f7c1e-0000-4000-8000-000000000001';
    for (const route of routes) {
      for (const prefix of ['', '/de', '/en']) {
        const path = prefix + route.replace('/{-$locale}', '').replace(/\{-\$\w+\}|\$\w+/g, id) || '/';
        const res = await request.get(path, { maxRedirects: 0 });
        expect(res.status(), path).toBe(200);
      }
    }
    // Prerendered pages, optional ids left out, a trailing slash.
    for (const path of ['/start', '/en/service', '/de/start/booking', '/start/booking/result', '/de/account/']) {
      expect((await request.get(path)).status(), path).toBe(200);
    }
    for (const path of [
      '/no-such-page',
      '/de/no-such-page',
      '/fr/start',
      '/en/start/prices/extra',
      '/de/service/no-such-topic',
      '/order',
      '/start.html',
    ]) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
    // Assets: real files 200, missing ones a plain 404.
    expect((await request.get('/manifest.webmanifest')).status()).toBe(200);
    expect((await request.get('/assets/no-such-file.js')).status()).toBe(404);
    // The 404 answer is the app, which shows its not-found page.
    for (const [path, heading] of [
      ['/de/no-such-page', '404 Nicht gefunden'],
      ['/en/no-such-page', '404 Not Found'],
    ] as const) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    }
  });
});

test.describe('water level and weather offline', () => {
  for (const [locale, water, weather, pegel, dwd] of [
    [
      'de',
      /^Der Pegel kann zurzeit nicht aktualisiert werden\. Zuletzt bekannt: gemessen \d\d\.\d\d\.\d\d, \d\d:\d\d\. Aktuelle Werte: PEGELONLINE\.$/,
      /^Das Wetter kann zurzeit nicht aktualisiert werden\. Zuletzt bekannt: Stand \d\d\.\d\d\.\d\d, \d\d:\d\d\. Vorhersagen: Deutscher Wetterdienst\.$/,
      'PEGELONLINE',
      'Deutscher Wetterdienst',
    ],
    [
      'en',
      /^The water level cannot be updated at the moment\. Last known: measured \d\d\/\d\d\/\d{4}, \d\d:\d\d\. Current values: PEGELONLINE\.$/,
      /^The weather cannot be updated at the moment\. Last known: as of \d\d\/\d\d\/\d{4}, \d\d:\d\d\. Forecasts: German Weather Service \(DWD\)\.$/,
      'PEGELONLINE',
      'German Weather Service (DWD)',
    ],
  ] as const) {
    test(`they say when they were last known and link to the source (${locale})`, async ({ page }) => {
      await page.goto(`/${locale}/service`);
      await expect(page.getByTestId('water-level')).toContainText('312 cm');
      await expect(page.getByTestId('weather')).toContainText('11 °C');
      // The sources go away; the page is opened again.
      await page.unrouteAll();
      await page.route(/^https:\/\/(www\.pegelonline\.wsv\.de|api\.brightsky\.dev)\//, (route) => route.abort('internetdisconnected'));
      await page.reload();
      await expect(page.getByTestId('water-unavailable')).toHaveText(water, { timeout: 15_000 });
      await expect(page.getByTestId('water-unavailable').getByRole('link', { name: pegel })).toHaveAttribute(
        'href',
        /^https:\/\/www\.pegelonline\.wsv\.de\//,
      );
      await expect(page.getByTestId('water-level')).toContainText('312 cm');
      await expect(page.getByTestId('weather-unavailable')).toHaveText(weather, { timeout: 15_000 });
      await expect(page.getByTestId('weather-unavailable').getByRole('link', { name: dwd })).toHaveAttribute(
        'href',
        /^https:\/\/www\.dwd\.de\//,
      );
      await expect(page.getByTestId('weather')).toContainText('11 °C');
    });
  }
});

test.describe('a guest booking at 390 px: summary and confirmation page', () => {
  test.describe.configure({ timeout: 120_000 });
  for (const [locale, x] of [
    [
      'de',
      {
        code: 'Aktionscode (optional)',
        apply: 'Einlösen',
        invalid: 'Dieser Aktionscode ist nicht gültig.',
        office: /Hafenbüro/g,
        cancel: 'Buchung stornieren',
        dialog: 'Buchung stornieren?',
        size: 'Seeschwalbe, 8,4 × 2,9 m',
      },
    ],
    [
      'en',
      {
        code: 'Promo code (optional)',
        apply: 'Apply',
        invalid: 'This promo code is not valid.',
        office: /harbour office/g,
        cancel: 'Cancel booking',
        dialog: 'Cancel this booking?',
        size: 'Seeschwalbe, 8.4 × 2.9 m',
      },
    ],
  ] as const) {
    test(`sale code message goes with the cleared field, payment at the office said once, nothing wider than the screen (${locale})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const w = words(locale);
      // A long address without spaces, as a guest may have.
      const email = `ein.sehr.langer.gastname.mit.boot.${Date.now()}${Math.floor(Math.random() * 1e6)}@hafen-duesseldorf-beispiel.test`;
      await page.goto(`/${locale}/start/booking`);
      // Other nights per language: the two tests run at once and take the smallest berth.
      const day = locale === 'de' ? 50 : 53;
      await fillBerthData(page, locale, {
        arrival: berlinDay(day),
        departure: berlinDay(day + 1),
        length: locale === 'de' ? '8,4' : '8.4',
        width: locale === 'de' ? '2,9' : '2.9',
        boat: 'Seeschwalbe',
      });
      await chooseFirstBerth(page, locale);
      const since = await proceedAsGuest(page, locale, { email, first: 'Greta', last: 'Gast' });
      await page.getByLabel(w.code).fill(await readCode(email, since));
      await page.getByRole('button', { name: w.confirmCode, exact: true }).click();

      // Step 5: the boat size in the page's number format.
      await expect(page.getByText(x.size, { exact: true })).toBeVisible();
      // A wrong code: its message; the field cleared: the message goes, the price is the plain one.
      const gross = await page.getByTestId('price-gross').textContent();
      await page.getByLabel(x.code).fill('FALSCH');
      await page.getByRole('button', { name: x.apply }).click();
      await expect(page.getByText(x.invalid)).toBeVisible();
      await page.getByLabel(x.code).fill('');
      await expect(page.getByText(x.invalid)).toBeHidden();
      await expect(page.getByTestId('price-gross')).toHaveText(gross!);
      // How to pay is said once.
      expect((await page.locator('main').innerText()).match(x.office)).toHaveLength(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await confirmBooking(page, locale);
      await expect(page.getByTestId('price-gross')).toBeVisible();
      await expect(page.getByRole('region', { name: locale === 'de' ? 'Online bezahlen' : 'Pay online' })).toBeVisible();
      await expect(page.getByText(email).first()).toBeVisible();
      expect((await page.locator('main').innerText()).match(x.office)).toHaveLength(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByRole('button', { name: x.cancel }).click();
      const dialog = page.getByRole('alertdialog', { name: x.dialog });
      await expect(dialog).toBeVisible();
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `/tmp/wtui/result-dialog-${locale}.png` });
    });
  }
});

test.describe('door code and wifi for a signed-in customer without a stay', () => {
  // Lisa has bookings but no checked-in stay, and no test checks her in (the customer persona
  // is checked in by harbour-access.spec.ts on the same stack).
  for (const [path, heading, login, bookings] of [
    ['/de/service/door-code', 'Türcode', 'Anmelden', 'Meine Buchungen'],
    ['/en/service/wifi', 'Wifi', 'Log in', 'My bookings'],
  ] as const) {
    test(`${path}: no login offered, no refused request`, async ({ page, consoleErrors }) => {
      const session = await personaSession({ email: 'lisa.meyer@hafen.test', password: 'Kunde1234' });
      await page.goto('/start');
      await page.evaluate(([key, value]) => localStorage.setItem(key, value), [authStorageKey, JSON.stringify(session)] as const);
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
      });
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      const main = page.getByRole('main');
      await expect(main.getByRole('link', { name: bookings })).toBeVisible();
      await expect(main.getByRole('link', { name: login })).toHaveCount(0);
      expect(refused).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  }
});
