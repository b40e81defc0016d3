/**
 * The defects found in issue 23 ("Why"), each held by a test here (or by the unit, pgTAP test
 * named beside it in docs/decisions.md, "Defects of issue 23").
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '../helpers/app-test';

const dist = resolve(import.meta.dirname, '../../reports/e2e-dist');

test.describe("the app server (npm start's static server)", () => {
  test('answers 404 with the not-found page for an unknown path, 200 for every real route', async ({ page, request }) => {
    const routes = JSON.parse(readFileSync(resolve(dist, 'routes.json'), 'utf8')) as string[];
    expect(routes.length).toBeGreaterThan(50);
    const id = '4b0f7c1e-0000-4000-8000-000000000001';
    for (const route of routes) {
      for (const prefix of ['', '/de', '/en']) {
        const path = (prefix + route.replace('/{-$locale}', '').replace(/\{-\$\w+\}|\$\w+/g, id)) || '/';
        const res = await request.get(path, { maxRedirects: 0 });
        expect(res.status(), path).toBe(200);
      }
    }
    // Prerendered pages, optional ids left out, a trailing slash.
    for (const path of ['/start', '/en/service', '/de/start/booking', '/start/booking/result', '/de/account/']) {
      expect((await request.get(path)).status(), path).toBe(200);
    }
    for (const path of ['/no-such-page', '/de/no-such-page', '/fr/start', '/en/start/prices/extra', '/de/service/no-such-topic', '/order', '/start.html']) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
    // Assets: real files 200, missing ones a plain 404.
    expect((await request.get('/manifest.webmanifest')).status()).toBe(200);
    expect((await request.get('/assets/no-such-file.js')).status()).toBe(404);
    // The 404 answer is the app, which shows its not-found page.
    for (const [path, heading] of [['/de/no-such-page', '404 Nicht gefunden'], ['/en/no-such-page', '404 Not Found']] as const) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    }
  });
});
