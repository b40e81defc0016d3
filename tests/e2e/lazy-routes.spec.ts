/**
 * The account, auth and order pages' routes (the back office's among them) are not in the first
 * download's route tree: a splat per area stands in for them and loads the whole tree on first
 * use (src/router-lazy.ts, docs/adr/0043-first-load-budgets.md).
 * Deep links, search params, both locales, guards, links inside the back office and back/forward
 * must work as with the whole tree.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const search = { de: 'Suche (Name, Boot, E-Mail oder Buchungsnummer)', en: 'Search (name, boat, e-mail or booking number)' };

/** The scripts the page fetches (paths), to tell whether the whole route tree was loaded. */
function scripts(page: Page) {
  const seen: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) seen.push(url.pathname);
  });
  return seen;
}

test.describe('admin', () => {
  test.use({ persona: 'admin' });

  test('deep links into the back office, with search params, in both locales', async ({ page, consoleErrors }) => {
    const seen = scripts(page);
    await page.goto('/account/admin/orders?q=lazy-de&status=confirmed');
    await expect(h1(page)).toHaveText('Bestellungen');
    await expect(page.getByLabel(search.de)).toHaveValue('lazy-de');
    await expect(page).toHaveURL(/\/account\/admin\/orders\?q=lazy-de&status=confirmed$/);
    expect(seen.some((file) => /\/more-routes-/.test(file))).toBe(true);

    await page.goto('/en/account/admin/orders?q=lazy-en');
    await expect(h1(page)).toHaveText('Orders');
    await expect(page.getByLabel(search.en)).toHaveValue('lazy-en');
    await expect(page).toHaveURL(/\/en\/account\/admin\/orders\?q=lazy-en$/);

    for (const [url, heading] of [
      ['/de/account/admin/users', 'Benutzer'],
      ['/en/account/admin/reports', 'Reports'],
      ['/en/account/admin/overview', 'Overview'],
      ['/account/admin/settings', 'Einstellungen'],
    ] as const) {
      await page.goto(url);
      await expect(h1(page)).toHaveText(heading);
      await expect(page).toHaveURL(new RegExp(`${url}$`));
    }
    expect(consoleErrors).toEqual([]);
    // An unknown back-office path: the 404 page, as with the whole tree (the server answers 404 too).
    await page.goto('/account/admin/gibt-es-nicht');
    await expect(h1(page)).toHaveText('404 Nicht gefunden');
  });

  test('public page -> back office -> a link inside it -> back and forward', async ({ page, consoleErrors }) => {
    await page.goto('/start');
    await expect(h1(page)).toHaveText('Willkommen im Hafen Düsseldorf');
    await page.getByRole('button', { name: 'Menü öffnen' }).click();
    await page.getByRole('navigation', { name: 'Hafenteam' }).getByRole('link', { name: 'Übersicht', exact: true }).click();
    await expect(page).toHaveURL(/\/account\/admin\/overview$/);
    await expect(h1(page)).toHaveText('Übersicht');

    // A link inside the back office (its drawer).
    await page.getByRole('button', { name: 'Menü öffnen' }).click();
    await page.getByRole('navigation', { name: 'Hafenteam' }).getByRole('link', { name: 'Bestellungen', exact: true }).click();
    await expect(page).toHaveURL(/\/account\/admin\/orders$/);
    await expect(h1(page)).toHaveText('Bestellungen');

    await page.goBack();
    await expect(page).toHaveURL(/\/account\/admin\/overview$/);
    await expect(h1(page)).toHaveText('Übersicht');
    await page.goBack();
    await expect(page).toHaveURL(/\/start$/);
    await expect(h1(page)).toHaveText('Willkommen im Hafen Düsseldorf');
    await page.goForward();
    await expect(h1(page)).toHaveText('Übersicht');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('harbour staff', () => {
  test.use({ persona: 'harbour' });

  test('deep links in both locales; the English drawer leads into the back office', async ({ page, consoleErrors }) => {
    await page.goto('/en/account/admin/calendar');
    await expect(h1(page)).toHaveText('Berth calendar');
    await page.goto('/de/account/admin/orders?q=lazy-hafen');
    await expect(h1(page)).toHaveText('Bestellungen');
    await expect(page.getByLabel(search.de)).toHaveValue('lazy-hafen');
    await page.goto('/en/service');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Harbour team' }).getByRole('link', { name: 'Orders', exact: true }).click();
    await expect(page).toHaveURL(/\/en\/account\/admin\/orders$/);
    await expect(h1(page)).toHaveText('Orders');
    await page.goBack();
    await expect(page).toHaveURL(/\/en\/service$/);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('before the whole tree is loaded', () => {
  test('/start does not load the lazy routes; a visitor is sent to log in from the back office as before', async ({
    page,
    consoleErrors,
  }) => {
    const seen = scripts(page);
    await page.goto('/start');
    await expect(h1(page)).toHaveText('Willkommen im Hafen Düsseldorf');
    await page.waitForLoadState('networkidle');
    expect(seen.filter((file) => /\/(more-routes|routeTree\.gen)-/.test(file))).toEqual([]);

    // From the public page into the account area: the guard sends the visitor to log in.
    await page.getByRole('link', { name: 'Profil' }).filter({ visible: true }).first().click();
    await expect(page).toHaveURL(/\/auth\/login\?from=%2Faccount$/);
    await expect(h1(page)).toHaveText('Anmelden');
    await page.goBack();
    await expect(h1(page)).toHaveText('Willkommen im Hafen Düsseldorf');

    await page.goto('/en/account/admin/orders?q=x');
    await expect(page).toHaveURL(/\/en\/auth\/login\?from=%2Fen%2Faccount%2Fadmin%2Forders%3Fq%3Dx$/);
    await expect(h1(page)).toHaveText('Log in');
    expect(consoleErrors).toEqual([]);
  });

  test('a link with the focus (a preload) loads the whole tree without an error, and the link then works', async ({
    page,
    consoleErrors,
  }) => {
    // The preload's placeholder match outlives the tree it came from: its lane looks the route
    // up again after the placeholder's beforeLoad has swapped the trees (src/router-lazy.ts).
    const seen = scripts(page);
    await page.goto('/en/start/booking');
    await expect(h1(page)).toHaveText('Book a berth');
    // The page is prerendered: its markup is inert, and its link has no handlers, until the app
    // has rendered it (main.tsx lifts `inert` then). A focus before that focuses nothing, and no
    // preload starts (under load the network was idle long before the app's first render).
    // By then main.tsx has loaded all it loads before rendering: not the whole tree.
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    expect(seen.filter((file) => /\/routeTree\.gen-/.test(file))).toEqual([]);
    const apply = page.getByRole('link', { name: 'Apply for a long-term berth' });
    await apply.focus();
    await expect(apply).toBeFocused();
    await expect.poll(() => seen.some((file) => /\/routeTree\.gen-/.test(file))).toBe(true);
    await apply.click();
    await expect(page).toHaveURL(/\/en\/auth\/login\?from=%2Fen%2Faccount%2Fapply-long-time-place$/);
    await expect(h1(page)).toHaveText('Log in');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('a customer', () => {
  test.use({ persona: 'customer' });

  test('reaches the account by a link and gets the 404 page in the back office, in both locales', async ({ page, consoleErrors }) => {
    await page.goto('/start');
    await page.getByRole('link', { name: 'Profil' }).filter({ visible: true }).first().click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(h1(page)).toHaveText('Mein Konto');
    expect(consoleErrors).toEqual([]);
    await page.goto('/en/account/admin/orders?q=x');
    await expect(h1(page)).toHaveText('404 Not Found');
    await page.goto('/account/admin/overview');
    await expect(h1(page)).toHaveText('404 Nicht gefunden');
  });
});
