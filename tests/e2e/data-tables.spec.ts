import { expect as baseExpect, journeyIn, test } from '../helpers/app-test';
import { personas } from '../helpers/personas.ts';
import { berlinDay, personaToken } from './booking-helpers.ts';
import { rpc } from './payment-helpers.ts';
import { createAccount } from './admin-content-helpers.ts';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, formClient } from './booking-helpers.ts';

/** A long-term application through the public form's function, as an applicant sends it; its id. */
async function apply(first: string, last: string, email: string): Promise<string> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/apply_for_long_term_berth`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json', ...formClient() },
    body: JSON.stringify({
      p_email: email,
      p_first_name: first,
      p_last_name: last,
      p_boat: { name: 'Tabellenboot', length: 10, width: 3.2 },
      p_locale: 'de',
    }),
  });
  const body = await res.text();
  expect(res.status, body).toBe(200);
  return (JSON.parse(body) as { id: string }[])[0]!.id;
}

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
  const free = await rpc<{ place_id: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 5, p_boat_width: 2 },
    token,
  );
  expect(free.status).toBe(200);
  expect(free.data.length).toBeGreaterThanOrEqual(count);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await rpc<{ id: string }>(
      'staff_create_booking',
      {
        p_place_id: free.data[i]!.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: `${prefix} ${String(i).padStart(2, '0')}`, length: 5, width: 2 },
        p_person: { first_name: 'Tabelle', last_name: `Gast ${i}` },
      },
      token,
    );
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    ids.push(res.data.id);
  }
  const cancelled = await rpc('cancel_booking', { p_order_id: ids[5] }, token);
  expect(cancelled.status).toBe(200);
  return ids;
}

// Each journey runs in one language, the two alternating (`journeyIn`); the widths too (de at
// 390 px, en at 1280 px): the same table in the other language proved the same state handling with
// other words, which the translation check and the route walks cover (ADR 0006, "One language per
// journey").
test.describe('data tables (state in the URL)', () => {
  test.describe('orders', () => {
    // The table with its column headers is shown from `sm` (on a phone the orders are cards).
    test.use({ persona: 'harbour', viewport: { width: 1024, height: 900 } });
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
      const l =
        lang === 'de'
          ? {
              boat: 'Boot',
              status: 'Status',
              columns: 'Spalten',
              next: 'Nächste Seite',
              prev: 'Vorherige Seite',
              page2: '27 Bestellungen · Seite 2 von 2',
              page1: '27 Bestellungen · Seite 1 von 2',
              one: '1 Bestellung · Seite 1 von 1',
            }
          : {
              boat: 'Boat',
              status: 'Status',
              columns: 'Columns',
              next: 'Next page',
              prev: 'Previous page',
              page2: '27 orders · page 2 of 2',
              page1: '27 orders · page 1 of 2',
              one: '1 order · page 1 of 1',
            };
      const rows = (page: import('@playwright/test').Page) => page.locator('tbody tr[data-order]');

      if (journeyIn(lang, 'de'))
        test(`${lang}: a sorted and filtered orders table survives a reload; paging changes URL and rows`, async ({
          page,
          consoleErrors,
        }) => {
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

      if (journeyIn(lang, 'en'))
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
      if (journeyIn(lang, 'en'))
        test(`${lang}: the users table sorts and filters`, async ({ page, consoleErrors }) => {
          const tag = `tu${lang}${run}`;
          const a = await createAccount(`${tag}-a`, 'Anna', 'Zander');
          const b = await createAccount(`${tag}-b`, 'Bernd', 'Abel');
          const l =
            lang === 'de'
              ? {
                  table: 'Benutzer',
                  last: 'Nachname',
                  email: 'E-Mail',
                  state: 'Status',
                  search: 'Suche nach E-Mail oder Name',
                  go: 'Suchen',
                  inactive: 'Deaktiviert',
                  role: 'Rolle',
                }
              : {
                  table: 'Users',
                  last: 'Last name',
                  email: 'E-mail',
                  state: 'Status',
                  search: 'Search by e-mail or name',
                  go: 'Search',
                  inactive: 'Deactivated',
                  role: 'Role',
                };
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

      if (journeyIn(lang, 'de'))
        test(`${lang}: the berths table sorts and filters`, async ({ page, consoleErrors }) => {
          const l =
            lang === 'de'
              ? { table: 'Liegeplätze', name: 'Name', pier: 'Steg', search: 'Suche', size: 'Länge × Breite' }
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

  test.describe('long-term applications', () => {
    test.use({ persona: 'admin' });

    for (const lang of ['de', 'en'] as const) {
      if (journeyIn(lang, 'de'))
        test(`${lang}: a sorted and filtered applications table survives a reload; hidden columns too`, async ({ page, consoleErrors }) => {
          const tag = `ta${lang}${run}`;
          // Arrival order (the waiting list's): Mertens, Adler, Zorn, Berg; Zorn's is then declined.
          const names = ['Mertens', 'Adler', 'Zorn', 'Berg'];
          const ids: Record<string, string> = {};
          for (const last of names) ids[last] = await apply('Tabea', `${last} ${tag}`, `${last.toLowerCase()}.${tag}@example.com`);
          const admin = await personaToken(personas.admin.email, personas.admin.password);
          const declined = await rpc(
            'answer_long_term_application',
            { p_id: ids.Zorn, p_status: 'declined', p_answer: 'Leider kein Platz frei.' },
            admin,
          );
          expect(declined.status, JSON.stringify(declined.data)).toBe(200);

          const l =
            lang === 'de'
              ? {
                  table: 'Bewerbungen um einen Langzeitliegeplatz',
                  name: 'Name',
                  email: 'E-Mail',
                  status: 'Status',
                  columns: 'Spalten',
                  all: 'Seite 1 von 1 (4 Bewerbungen)',
                  open: 'Seite 1 von 1 (3 Bewerbungen)',
                  declined: 'Abgelehnt',
                  first: 'Platz',
                }
              : {
                  table: 'Applications for a long-term berth',
                  name: 'Name',
                  email: 'E-mail',
                  status: 'Status',
                  columns: 'Columns',
                  all: 'Page 1 of 1 (4 applications)',
                  open: 'Page 1 of 1 (3 applications)',
                  declined: 'Declined',
                  first: 'No.',
                };
          await page.goto(`/${lang}/account/admin/applications?q=${tag}`);
          const table = page.getByRole('table', { name: l.table });
          const rows = table.locator('tbody tr[data-application]');
          const order = async () => await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-application')));
          await expect(page.getByTestId('applications-total')).toHaveText(l.all);
          // Default: the waiting list's order (open ones by position, the declined one after them).
          await expect(rows).toHaveCount(4);
          expect(await order()).toEqual([ids.Mertens, ids.Adler, ids.Berg, ids.Zorn]);
          await expect(rows.nth(3)).toContainText(l.declined);

          // Sorted by name: ascending, then descending; each click writes the URL.
          const nameHeader = table.getByRole('columnheader', { name: l.name });
          await nameHeader.getByRole('button').click();
          await expect(page).toHaveURL(/[?&]sort=last_name\.asc/);
          await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
          await expect(rows.first()).toHaveAttribute('data-application', ids.Adler!);
          await nameHeader.getByRole('button').click();
          await expect(page).toHaveURL(/[?&]sort=last_name\.desc/);
          await expect(rows.first()).toHaveAttribute('data-application', ids.Zorn!);

          // Filtered to the open ones: the sort stays, the declined one is gone.
          await page.getByLabel(l.status, { exact: true }).selectOption('open');
          await expect(page).toHaveURL(/[?&]status=open/);
          await expect(page).toHaveURL(/[?&]sort=last_name\.desc/);
          await expect(page.getByTestId('applications-total')).toHaveText(l.open);
          await expect(rows.first()).toHaveAttribute('data-application', ids.Mertens!);
          expect(await order()).toEqual([ids.Mertens, ids.Berg, ids.Adler]);

          // A reload shows the same table: filter, sort and rows from the URL.
          await page.reload();
          await expect(page.getByLabel(l.status, { exact: true })).toHaveValue('open');
          await expect(table.getByRole('columnheader', { name: l.name })).toHaveAttribute('aria-sort', 'descending');
          await expect(page.getByTestId('applications-total')).toHaveText(l.open);
          await expect(rows.first()).toHaveAttribute('data-application', ids.Mertens!);
          expect(await order()).toEqual([ids.Mertens, ids.Berg, ids.Adler]);

          // A hidden column is kept in the URL over a reload.
          // The applications' own column menu: the first on the page (the insurance list below has one too).
          await page.getByRole('button', { name: l.columns }).first().click();
          await page.getByRole('menuitemcheckbox', { name: l.email }).click();
          await expect(page).toHaveURL(/[?&]hide=email/);
          await page.keyboard.press('Escape');
          await page.reload();
          await expect(table.getByRole('columnheader', { name: l.email })).toHaveCount(0);
          await expect(rows).toHaveCount(3);
          await expect(table.getByRole('columnheader', { name: l.name })).toHaveAttribute('aria-sort', 'descending');
          expect(consoleErrors).toEqual([]);
        });
    }

    test('harbour staff do not get the applications table (admins only)', async () => {
      const token = await personaToken(personas.harbour.email, personas.harbour.password);
      const res = await rpc('long_term_applications_queue', {}, token);
      expect(res.status).toBe(403);
    });

    test('malformed applications params fall back to the defaults', async ({ page, consoleErrors }) => {
      await page.goto('/en/account/admin/applications?sort=password.asc&hide=nope&status=maybe&page=-3');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Applications for a long-term berth');
      await expect(page.getByRole('columnheader', { name: 'Waiting list' })).toHaveAttribute('aria-sort', 'ascending');
      await expect(page.getByLabel('Status', { exact: true })).toHaveValue('');
      expect(consoleErrors).toEqual([]);
    });
  });

  test.describe('at 390 and 1280 px', () => {
    test.use({ persona: 'admin' });
    for (const lang of ['de', 'en'] as const) {
      for (const width of [390, 1280]) {
        if (journeyIn(lang, width === 390 ? 'de' : 'en'))
          test(`${lang} ${width} px: the users table scrolls inside its container, the orders are cards on a phone, never the page scrolls (screenshots in reports/)`, async ({
            page,
            consoleErrors,
          }) => {
            await page.setViewportSize({ width, height: 900 });
            for (const list of ['orders', 'users'] as const) {
              await page.goto(`/${lang}/account/admin/${list}`);
              if (list === 'orders' && width === 390) {
                // On a phone the orders are cards, not a table to scroll sideways (issue 40 item 14).
                await expect(page.locator('[data-order-card]').first()).toBeVisible();
                await expect(page.locator('[data-slot="data-table"]')).toBeHidden();
                expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
                const card = await page.locator('[data-order-card]').first().boundingBox();
                expect(card!.x).toBeGreaterThanOrEqual(0);
                expect(card!.x + card!.width).toBeLessThanOrEqual(width);
                await page.screenshot({ path: `reports/screenshots/data-tables/${list}-${lang}-${width}.png`, fullPage: true });
                continue;
              }
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
