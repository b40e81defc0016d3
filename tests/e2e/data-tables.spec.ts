import { expect as baseExpect, test } from '../helpers/app-test';
import { personas } from '../helpers/personas.ts';
import { berlinDay, personaToken } from './booking-helpers.ts';
import { rpc } from './payment-helpers.ts';
import { createAccount } from './admin-content-helpers.ts';

/**
 * Issue 23, item 2: the back office's data tables keep sorting, filters, hidden columns and the
 * page in the URL, so a reload or a shared link shows the same table.
 */
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

const run = Date.now().toString(36);

/** Staff book `count` small boats "<prefix> 00" … on one night, each on the next free berth. */
async function bookMany(prefix: string, count: number, arrival: string, departure: string): Promise<string[]> {
  const token = await personaToken(personas.harbour.email, personas.harbour.password);
  const free = await rpc<{ place_id: string }[]>('search_available_places', { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 5, p_boat_width: 2 }, token);
  expect(free.status).toBe(200);
  expect(free.data.length).toBeGreaterThanOrEqual(count);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await rpc<{ id: string }>('staff_create_booking', {
      p_place_id: free.data[i]!.place_id, p_kind: 'overnight', p_arrival: arrival, p_departure: departure,
      p_boat: { name: `${prefix} ${String(i).padStart(2, '0')}`, length: 5, width: 2 }, p_person: { first_name: 'Tabelle', last_name: `Gast ${i}` },
    }, token);
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    ids.push(res.data.id);
  }
  const cancelled = await rpc('cancel_booking', { p_order_id: ids[5] }, token);
  expect(cancelled.status).toBe(200);
  return ids;
}

test.describe('data tables (state in the URL)', () => {
  test.describe('orders', () => {
    test.use({ persona: 'harbour' });
    const prefix = `Tab${run}`;
    let ids: string[] = [];
    test.beforeAll(async () => {
      test.setTimeout(120_000);
      // beforeAll runs in every worker that takes tests of this block: each books its own night
      // (the harbour has about 50 berths for such a boat).
      const night = 150 + 2 * test.info().workerIndex;
      ids = await bookMany(prefix, 27, berlinDay(night), berlinDay(night + 1));
    });

    for (const lang of ['de', 'en'] as const) {
      const l = lang === 'de'
        ? { boat: 'Boot', status: 'Status', columns: 'Spalten', next: 'Nächste Seite', prev: 'Vorherige Seite', page2: '27 Bestellungen · Seite 2 von 2', page1: '27 Bestellungen · Seite 1 von 2', one: '1 Bestellung · Seite 1 von 1' }
        : { boat: 'Boat', status: 'Status', columns: 'Columns', next: 'Next page', prev: 'Previous page', page2: '27 orders · page 2 of 2', page1: '27 orders · page 1 of 2', one: '1 order · page 1 of 1' };
      const rows = (page: import('@playwright/test').Page) => page.locator('tbody tr[data-order]');

      test(`${lang}: a sorted and filtered orders table survives a reload; paging changes URL and rows`, async ({ page, consoleErrors }) => {
        await page.goto(`/${lang}/account/admin/orders?q=${prefix}`);
        await expect(page.getByTestId('orders-total')).toHaveText(l.page1);
        const boatHeader = page.getByRole('columnheader', { name: l.boat });
        await expect(boatHeader).toHaveAttribute('aria-sort', 'none');
        // Sort by boat: ascending, then descending; each click writes the URL.
        await boatHeader.getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=boat_name\.asc/);
        await expect(boatHeader).toHaveAttribute('aria-sort', 'ascending');
        await expect(rows(page).first()).toHaveAttribute('data-order', ids[0]!);
        await boatHeader.getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=boat_name\.desc/);
        await expect(rows(page).first()).toHaveAttribute('data-order', ids[26]!);
        await expect(rows(page)).toHaveCount(25);

        // Paging: page 2 holds the two smallest names; the URL says so.
        await page.getByRole('button', { name: l.next }).click();
        await expect(page).toHaveURL(/[?&]page=2/);
        await expect(page.getByTestId('orders-total')).toHaveText(l.page2);
        await expect(rows(page)).toHaveCount(2);
        await expect(rows(page).first()).toHaveAttribute('data-order', ids[1]!);
        await expect(rows(page).last()).toHaveAttribute('data-order', ids[0]!);
        await page.reload();
        await expect(page.getByTestId('orders-total')).toHaveText(l.page2);
        await expect(rows(page).last()).toHaveAttribute('data-order', ids[0]!);
        await page.getByRole('button', { name: l.prev }).click();
        await expect(page).not.toHaveURL(/[?&]page=/);
        await expect(rows(page).first()).toHaveAttribute('data-order', ids[26]!);

        // A filter resets the page and keeps the sort; a reload shows the same table.
        await page.getByLabel(l.status).selectOption('cancelled');
        await expect(page).toHaveURL(/[?&]status=cancelled/);
        await expect(page).toHaveURL(/[?&]sort=boat_name\.desc/);
        await expect(page.getByTestId('orders-total')).toHaveText(l.one);
        await page.reload();
        await expect(page.getByLabel(l.status)).toHaveValue('cancelled');
        await expect(page.getByRole('columnheader', { name: l.boat })).toHaveAttribute('aria-sort', 'descending');
        await expect(rows(page)).toHaveCount(1);
        await expect(rows(page).first()).toHaveAttribute('data-order', ids[5]!);
        expect(consoleErrors).toEqual([]);
      });

      test(`${lang}: hidden columns are kept in the URL`, async ({ page, consoleErrors }) => {
        await page.goto(`/${lang}/account/admin/orders?q=${prefix}&sort=boat_name.asc`);
        await expect(page.getByRole('columnheader', { name: l.boat })).toBeVisible();
        await page.getByRole('button', { name: l.columns }).click();
        await page.getByRole('menuitemcheckbox', { name: l.boat }).click();
        await expect(page).toHaveURL(/[?&]hide=boat_name/);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('columnheader', { name: l.boat })).toHaveCount(0);
        await page.reload();
        await expect(page.getByRole('columnheader', { name: l.boat })).toHaveCount(0);
        await expect(rows(page).first()).toHaveAttribute('data-order', ids[0]!);
        await page.getByRole('button', { name: l.columns }).click();
        await expect(page.getByRole('menuitemcheckbox', { name: l.boat })).toHaveAttribute('aria-checked', 'false');
        await page.getByRole('menuitemcheckbox', { name: l.boat }).click();
        await expect(page).not.toHaveURL(/[?&]hide=/);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('columnheader', { name: l.boat })).toBeVisible();
        expect(consoleErrors).toEqual([]);
      });
    }

    test('malformed table params fall back to the defaults, never an error page', async ({ page, consoleErrors }) => {
      await page.goto(`/en/account/admin/orders?q=${prefix}&sort=password.asc&hide=guest,nope&page=zwei`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Orders');
      await expect(page.getByTestId('orders-total')).toHaveText('27 orders · page 1 of 2');
      await expect(page.locator('tbody tr[data-order]').first()).toHaveAttribute('data-order', ids[26]!);
      await expect(page.getByRole('columnheader', { name: 'Guest' })).toBeVisible();
      expect(consoleErrors).toEqual([]);
    });
  });

  test.describe('users and berths', () => {
    test.use({ persona: 'admin' });

    for (const lang of ['de', 'en'] as const) {
      test(`${lang}: the users table sorts and filters`, async ({ page, consoleErrors }) => {
        const tag = `tu${lang}${run}`;
        const a = await createAccount(`${tag}-a`, 'Anna', 'Zander');
        const b = await createAccount(`${tag}-b`, 'Bernd', 'Abel');
        const l = lang === 'de' ? { table: 'Benutzer', last: 'Nachname', email: 'E-Mail', state: 'Status', search: 'Suche nach E-Mail oder Name', go: 'Suchen', inactive: 'Deaktiviert', role: 'Rolle' }
          : { table: 'Users', last: 'Last name', email: 'E-mail', state: 'Status', search: 'Search by e-mail or name', go: 'Search', inactive: 'Deactivated', role: 'Role' };
        await page.goto(`/${lang}/account/admin/users`);
        await page.getByLabel(l.search).fill(tag);
        await page.getByRole('button', { name: l.go, exact: true }).click();
        const table = page.getByRole('table', { name: l.table });
        const body = table.locator('tbody tr');
        await expect(body).toHaveCount(2);
        // Default order: by last name (Abel before Zander).
        await expect(body.first()).toContainText(b.email);
        await table.getByRole('columnheader', { name: l.email }).getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=email\.asc/);
        await expect(body.first()).toContainText(a.email);
        await table.getByRole('columnheader', { name: l.last }).getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=last_name\.asc/);
        // The header shows the new order once the sorted rows are in (the URL changes first).
        await expect(table.getByRole('columnheader', { name: l.last })).toHaveAttribute('aria-sort', 'ascending');
        await table.getByRole('columnheader', { name: l.last }).getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=last_name\.desc/);
        await expect(body.first()).toContainText(a.email);
        await page.reload();
        await expect(table.getByRole('columnheader', { name: l.last })).toHaveAttribute('aria-sort', 'descending');
        await expect(body.first()).toContainText(a.email);
        // A facet: nobody of the two is deactivated; both are plain users.
        await page.getByLabel(l.state).selectOption('inactive');
        await expect(page).toHaveURL(/[?&]state=inactive/);
        await expect(body).toHaveCount(1);
        await expect(body.first()).not.toContainText(tag);
        await page.getByLabel(l.state).selectOption('active');
        await page.getByLabel(l.role).selectOption('user');
        await expect(page).toHaveURL(/[?&]role=user/);
        await expect(body).toHaveCount(2);
        await page.getByLabel(l.role).selectOption('admin');
        await expect(body).toHaveCount(1);
        expect(consoleErrors).toEqual([]);
      });

      test(`${lang}: the berths table sorts and filters`, async ({ page, consoleErrors }) => {
        const l = lang === 'de' ? { table: 'Stellplätze', name: 'Name', pier: 'Steg', search: 'Suche', size: 'Länge × Breite' }
          : { table: 'Berths', name: 'Name', pier: 'Pier', search: 'Search', size: 'Length × width' };
        await page.goto(`/${lang}/account/admin/places`);
        const table = page.getByRole('table', { name: l.table });
        const names = table.locator('tbody th[scope=row]');
        await expect(names.first()).toBeVisible();
        const all = await names.allTextContents();
        expect(all.length).toBeGreaterThan(5);
        await expect(table.getByRole('columnheader', { name: l.name })).toHaveAttribute('aria-sort', 'ascending');
        await table.getByRole('columnheader', { name: l.name }).getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=name\.desc/);
        const desc = await names.allTextContents();
        expect(desc[0]! >= desc[desc.length - 1]!).toBe(true);
        // Filter by pier: every row is on that pier; the URL keeps it over a reload.
        const pierSelect = page.getByLabel(l.pier, { exact: true });
        const pier = (await pierSelect.locator('option').nth(1).getAttribute('value'))!;
        await pierSelect.selectOption(pier);
        await expect(page).toHaveURL(new RegExp(`[?&]pier=${encodeURIComponent(pier)}`));
        await page.reload();
        await expect(pierSelect).toHaveValue(pier);
        await expect(table.getByRole('columnheader', { name: l.name })).toHaveAttribute('aria-sort', 'descending');
        const piers = await table.locator('tbody tr td:nth-of-type(1)').allTextContents();
        expect(piers.length).toBeGreaterThan(0);
        expect(new Set(piers)).toEqual(new Set([pier]));
        // Text filter: one berth by name.
        const first = (await names.first().textContent())!;
        await page.getByLabel(l.search, { exact: true }).fill(first);
        await expect(page).toHaveURL(/[?&]q=/);
        await expect(names.filter({ hasText: first }).first()).toBeVisible();
        await table.getByRole('columnheader', { name: l.size }).getByRole('button').click();
        await expect(page).toHaveURL(/[?&]sort=length\.asc/);
        expect(consoleErrors).toEqual([]);
      });
    }
  });

  test.describe('at 390 and 1280 px', () => {
    test.use({ persona: 'admin' });
    for (const lang of ['de', 'en'] as const) {
      for (const width of [390, 1280]) {
        test(`${lang} ${width} px: orders and users tables scroll inside their container, never the page (screenshots in reports/)`, async ({ page, consoleErrors }) => {
          await page.setViewportSize({ width, height: 900 });
          for (const list of ['orders', 'users'] as const) {
            await page.goto(`/${lang}/account/admin/${list}`);
            const container = page.locator('[data-slot="data-table"]');
            await expect(container.locator('tbody tr').first()).toBeVisible();
            const sizes = await page.evaluate(() => {
              const box = document.querySelector('[data-slot="data-table"]')!;
              return { page: document.documentElement.scrollWidth, box: box.getBoundingClientRect().width, inner: box.scrollWidth };
            });
            // The page never scrolls sideways; on a phone the table does, inside its box.
            expect(sizes.page).toBeLessThanOrEqual(width);
            if (width === 390) expect(sizes.inner).toBeGreaterThan(sizes.box);
            // At 1280 px the table uses the width it is given (more than a phone column).
            else expect(sizes.box).toBeGreaterThan(700);
            await page.screenshot({ path: `reports/screenshots/data-tables/${list}-${lang}-${width}.png`, fullPage: true });
          }
          expect(consoleErrors).toEqual([]);
        });
      }
    }
  });
});
