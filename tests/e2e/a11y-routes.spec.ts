/**
 * axe-core on every route of the route tree, each under the persona that sees it (visitor,
 * customer, harbour staff, admin) and in one language. The route list is read from
 * src/routeTree.gen.ts, so routes added later are covered without touching this file; path
 * parameters get seeded ids. A persona checks the routes its walk measures (measuredBy in
 * routes-helpers.ts: its own pages and one login or 404 page), so every route is checked by at
 * least one persona; German and English alternate along the route tree (axe found the same
 * structure in both: the other language's texts are the translation check's; ADR 0006, "One
 * language per journey"). Each route it opens must give what the persona may see, in the right
 * `lang`. Opening every route in both languages for every persona, with what it gives, `lang` and
 * the console checked, is route-guards.spec.ts's walk. One context and one page per persona and
 * language, run in parallel.
 */
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { expected, localeUrl, measuredBy, outcomeOf, routePaths, routePersonas, seededIds, settle, visit } from './routes-helpers.ts';

const paths = routePaths();

test.describe.configure({ mode: 'parallel' });

/** The language axe checks a route in: German and English alternate along the route tree. */
const axeLocale = (path: string) => (paths.indexOf(path) % 2 === 0 ? 'de' : 'en');

test('the route list comes from the route tree and covers the back office', () => {
  expect(paths).toContain('/start/booking');
  expect(paths).toContain('/account/admin/reports');
  expect(paths.length).toBeGreaterThan(30);
  // Every route is checked by axe under some persona, in one of the two languages, and both languages get routes.
  expect(paths.filter((p) => !routePersonas.some((who) => measuredBy(who, p, paths)))).toEqual([]);
  expect(new Set(paths.map(axeLocale))).toEqual(new Set(['de', 'en']));
});

for (const who of routePersonas) {
  for (const locale of ['de', 'en'] as const) {
    test(`${who}, ${locale}: every route gives what the persona may see; no serious or critical axe violation on its routes in ${locale}`, async ({
      browser,
    }) => {
      test.setTimeout(150_000);
      const ids = await seededIds();
      const context = await browser.newContext(
        who === 'visitor' ? {} : { storageState: await (await import('../helpers/personas.ts')).personaStorageState(who) },
      );
      const page = await context.newPage();
      const found: string[] = [];
      const mine = paths.filter((path) => measuredBy(who, path, paths) && axeLocale(path) === locale);
      for (const [i, path] of mine.entries()) {
        const started = Date.now();
        const url = localeUrl(locale, path, ids);
        await visit(page, url, i === 0);
        await settle(page);
        const { outcome, h1 } = await outcomeOf(page, path);
        expect.soft(outcome, `${who} ${url} (h1 "${h1}")`).toBe(expected(who, path));
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        for (const v of await seriousViolations(page)) found.push(`${url}: ${v}`);
        if (process.env.A11Y_TIMING) console.log(`${who} ${url} ${Date.now() - started} ms`);
      }
      if (who === 'harbour' || who === 'admin') {
        // The staff drawer, open.
        await page.goto(`/${locale}/account/admin/overview`);
        await settle(page);
        await page.getByRole('button', { name: locale === 'en' ? 'Open menu' : 'Menü öffnen' }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        for (const v of await seriousViolations(page)) found.push(`drawer: ${v}`);
      }
      await context.close();
      for (const f of found) console.log(`a11y ${who}: ${f}`);
      expect(found).toEqual([]);
    });
  }
}
