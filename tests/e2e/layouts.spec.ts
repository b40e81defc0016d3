/**
 * Layouts per width (issue 23, item 1): bottom tabs on phones, a top navigation from `md`
 * (800 px) with the same per-tab histories, and the back office's persistent sidebar from `lg`
 * (1280 px) with full-width pages. No horizontal overflow and nothing under a fixed bar.
 * E2E_SCREENSHOTS=1 keeps screenshots in reports/layouts for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, journeyIn, test } from '../helpers/app-test';

const SHOTS = process.env.E2E_SCREENSHOTS ? 'reports/layouts' : null;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
const nav = (locale: 'de' | 'en') => (locale === 'en' ? 'Main navigation' : 'Hauptnavigation');
const phone = { viewport: { width: 390, height: 844 } };
const desktop = { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false };

/**
 * Waits until the page's data has arrived (no "loading" text left in main; bounded). German
 * says "wird geladen" or, for a plural, "werden geladen" ("News werden geladen …" on /de/start):
 * a prerendered page shows its heading before the news arrive, and news arriving while the
 * layout is measured move the footer down between the scroll and the measurement.
 */
async function settle(page: Page) {
  await expect(h1(page)).toBeVisible();
  await page
    .waitForFunction(
      () =>
        ![...document.querySelectorAll('main p, main [role=status]')].some((el) =>
          /(wird|werden) geladen|loading/i.test(el.textContent ?? ''),
        ),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}

/**
 * No horizontal overflow; the top of the page is below the sticky top bar; scrolled to the end,
 * the footer's last line is above the bottom tabs (when they are shown). Measured again until
 * sound or 10 s: a list that arrives after `settle` without a loading text (the orders desk's
 * rows) grows the page between the scroll to its end and the measurement of the footer.
 */
async function expectLayoutSound(page: Page, where: string) {
  const measure = () =>
    page.evaluate(async () => {
      const problems: string[] = [];
      const doc = document.documentElement;
      if (doc.scrollWidth > window.innerWidth) problems.push(`overflow: scrollWidth ${doc.scrollWidth} > ${window.innerWidth}`);
      window.scrollTo(0, 0);
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const header = document.querySelector('header')!.getBoundingClientRect();
      const first = document.querySelector('main h1')!.getBoundingClientRect();
      if (first.top < header.bottom) problems.push(`h1 at ${first.top} under the top bar ending at ${header.bottom}`);
      window.scrollTo(0, doc.scrollHeight);
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const bottomNav = document.querySelector('[data-testid=bottom-nav]');
      const visible = bottomNav && getComputedStyle(bottomNav).display !== 'none';
      // The back office has no footer (its own shell): nothing to check at the end there.
      const last = [...document.querySelectorAll('footer p, footer a')].at(-1)?.getBoundingClientRect();
      if (!last) {
        if (!document.querySelector('[data-testid=back-office-bar]')) problems.push('no footer');
      } else if (visible) {
        const top = bottomNav.getBoundingClientRect().top;
        if (last.bottom > top) problems.push(`footer ends at ${last.bottom}, under the bottom tabs from ${top}`);
      } else if (last.bottom > window.innerHeight) problems.push(`footer ends at ${last.bottom} below the window ${window.innerHeight}`);
      window.scrollTo(0, 0);
      return problems;
    });
  await expect.poll(measure, { message: where, timeout: 10_000 }).toEqual([]);
}

for (const locale of ['de', 'en'] as const) {
  test.describe(`public site, ${locale}`, () => {
    test.describe('390 px', () => {
      test.use(phone);
      if (journeyIn(locale, 'de'))
        test('bottom tabs, no top navigation', async ({ page, consoleErrors }) => {
          await page.goto(`/${locale}/start`);
          await expect(page.getByTestId('bottom-nav')).toBeVisible();
          await expect(page.getByTestId('top-nav')).toBeHidden();
          await expect(page.getByRole('navigation', { name: nav(locale) })).toHaveCount(1);
          await expect(page.getByTestId('bottom-nav').getByRole('link', { name: 'Start' })).toHaveAttribute('aria-current', 'page');
          await shot(page, `start-${locale}-390`);
          expect(consoleErrors).toEqual([]);
        });
    });

    test.describe('1280 px', () => {
      test.use(desktop);
      if (journeyIn(locale, 'en'))
        test('top navigation with the tab histories, no bottom tabs', async ({ page, consoleErrors }) => {
          await page.goto(`/${locale}/start`);
          const top = page.getByTestId('top-nav');
          await expect(top).toBeVisible();
          await expect(page.getByTestId('bottom-nav')).toBeHidden();
          await expect(page.getByRole('navigation', { name: nav(locale) })).toHaveCount(1);
          await shot(page, `start-${locale}-1280`);

          // Start -> prices; Service -> a topic; Start again is where Start was, and back.
          // Each step waits for the new page's heading: the URL changes before the page is in,
          // and the tab history records a page once it is shown.
          const startH1 = (await h1(page).textContent())!;
          await page.locator('main a[href$="/start/prices"]').first().click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/start/prices$`));
          await expect(h1(page)).not.toHaveText(startH1);
          const pricesH1 = (await h1(page).textContent())!;
          await top.locator('[data-tab=service]').click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/service$`));
          await expect(top.locator('[data-tab=service]')).toHaveAttribute('aria-current', 'page');
          await expect(h1(page)).not.toHaveText(pricesH1);
          const serviceH1 = (await h1(page).textContent())!;
          await page.locator('main a[href$="/service/lift"]').first().click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/service/lift$`));
          await expect(h1(page)).not.toHaveText(serviceH1);
          await top.locator('[data-tab=start]').click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/start/prices$`));
          await expect(top.locator('[data-tab=start]')).toHaveAttribute('aria-current', 'page');
          await top.locator('[data-tab=service]').click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/service/lift$`));
          // A click on the active destination returns to its root.
          await top.locator('[data-tab=service]').click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/service$`));
          // Keyboard: the destinations are links in the tab order.
          await top.locator('[data-tab=contact]').focus();
          await page.keyboard.press('Enter');
          await expect(page).toHaveURL(new RegExp(`/${locale}/contact$`));
          expect(consoleErrors).toEqual([]);
        });
    });
  });
}

test.describe('no overflow, nothing under a fixed bar', () => {
  for (const width of [390, 768, 1280]) {
    test.describe(`${width} px`, () => {
      test.use(width === 1280 ? desktop : { viewport: { width, height: 844 } });
      test('public pages', async ({ page, consoleErrors }) => {
        for (const path of ['/de/start', '/en/start', '/de/service', '/en/contact', '/de/start/prices', '/en/auth/login']) {
          await page.goto(path);
          await settle(page);
          await expectLayoutSound(page, `${path} at ${width}`);
        }
        expect(consoleErrors).toEqual([]);
      });
    });
  }
});

test.describe('back office', () => {
  test.describe('admin', () => {
    test.use({ persona: 'admin' });
    for (const width of [390, 768, 1280]) {
      test.describe(`${width} px`, () => {
        test.use(width === 1280 ? desktop : { viewport: { width, height: 844 } });
        test('staff pages', async ({ page, consoleErrors }) => {
          test.setTimeout(90_000); // five back-office pages, each loaded and measured
          for (const path of [
            '/de/account/admin/orders',
            '/en/account/admin/calendar',
            '/de/account/admin/overview',
            '/en/account/admin/settings',
            '/de/account/admin/users',
          ]) {
            await page.goto(path);
            await settle(page);
            await expectLayoutSound(page, `${path} at ${width}`);
          }
          expect(consoleErrors).toEqual([]);
        });
      });
    }
  });

  test.describe('harbour staff at 1280 px', () => {
    test.use({ persona: 'harbour', ...desktop });
    for (const locale of ['de', 'en'] as const) {
      if (journeyIn(locale, 'de'))
        test(`sidebar and full-width pages, ${locale}`, async ({ page, consoleErrors }) => {
          test.setTimeout(60_000);
          const orders = locale === 'en' ? 'Orders' : 'Bestellungen';
          await page.goto(`/${locale}/account/admin/orders`);
          await settle(page);
          const sidebar = page.locator('[data-slot=sidebar-container]');
          await expect(sidebar).toBeVisible();
          const team = sidebar.getByRole('navigation', { name: locale === 'en' ? 'Harbour team' : 'Hafenteam' });
          await expect(team.getByRole('link', { name: orders, exact: true })).toHaveAttribute('aria-current', 'page');
          await expect(sidebar.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
          // No menu button: the sidebar is always there.
          await expect(page.getByRole('button', { name: locale === 'en' ? 'Open menu' : 'Menü öffnen' })).toBeHidden();
          // The page uses the width beside the sidebar.
          const viewport = page.viewportSize()!;
          const used = await page.locator('main').evaluate((main) => {
            const box = main.getBoundingClientRect();
            const style = getComputedStyle(main);
            return box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          });
          expect(used).toBeGreaterThan(0.8 * viewport.width);
          const heading = await h1(page).boundingBox();
          const side = await sidebar.boundingBox();
          expect(heading!.x).toBeGreaterThanOrEqual(side!.x + side!.width);
          // The orders table fits its card beside the sidebar with its default columns (it may
          // scroll inside the card only when a person shows more columns or at smaller widths).
          await expect(page.locator('[data-order]').first()).toBeVisible();
          const fit = await page.locator('[data-slot=data-table]').evaluate((card) => ({
            scroll: card.scrollWidth,
            client: card.clientWidth,
            cols: [...card.querySelectorAll('thead th')]
              .map((th) => `${th.textContent}:${Math.round(th.getBoundingClientRect().width)}`)
              .join(' '),
          }));
          expect(fit.scroll, `orders table ${fit.scroll} px in a ${fit.client} px card: ${fit.cols}`).toBeLessThanOrEqual(fit.client);
          await shot(page, `orders-${locale}-1280`);

          // The sidebar navigates; the current entry follows.
          await team.getByRole('link', { name: locale === 'en' ? 'Calendar' : 'Kalender', exact: true }).click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/account/admin/calendar$`));
          await settle(page);
          await expect(team.getByRole('link', { name: locale === 'en' ? 'Calendar' : 'Kalender', exact: true })).toHaveAttribute(
            'aria-current',
            'page',
          );
          // The week calendar uses the width too.
          const calendar = await page.getByTestId('timeline').boundingBox();
          expect(calendar!.width).toBeGreaterThan(0.8 * viewport.width);
          await shot(page, `calendar-${locale}-1280`);

          // The back office's own shell: no guest navigation; its bar leads to the public site,
          // which has no sidebar (the staff menu there is the drawer).
          await expect(page.getByTestId('top-nav')).toHaveCount(0);
          await expect(page.getByTestId('bottom-nav')).toHaveCount(0);
          await page
            .getByTestId('back-office-bar')
            .getByRole('link', { name: locale === 'en' ? 'To the website' : 'Zur Website' })
            .click();
          await expect(page).toHaveURL(new RegExp(`/${locale}/start$`));
          await expect(sidebar).toHaveCount(0);
          await expect(page.getByRole('button', { name: locale === 'en' ? 'Open menu' : 'Menü öffnen' })).toBeVisible();
          expect(consoleErrors).toEqual([]);
        });
    }
  });

  test.describe('harbour staff at 390 px', () => {
    test.use({ persona: 'harbour', ...phone });
    test('the sidebar is a sheet behind the menu button, no bottom tabs', async ({ page, consoleErrors }) => {
      await page.goto('/de/account/admin/orders');
      await settle(page);
      await expect(page.locator('[data-slot=sidebar-container]')).toBeHidden();
      // No guest bottom tabs in the back office (issue 40 item 5).
      await expect(page.getByTestId('bottom-nav')).toHaveCount(0);
      await page.getByRole('button', { name: 'Menü öffnen' }).click();
      const sheet = page.getByRole('dialog', { name: 'Hafenverwaltung' });
      await expect(sheet).toBeVisible();
      await shot(page, 'orders-menu-de-390');
      await sheet.getByRole('navigation', { name: 'Hafenteam' }).getByRole('link', { name: 'Kassenbuch' }).click();
      await expect(page).toHaveURL(/\/de\/account\/admin\/cash$/);
      await expect(sheet).toBeHidden();
      await expect(h1(page)).toHaveText('Kassenbuch');
      await shot(page, 'cash-de-390');
      expect(consoleErrors).toEqual([]);
    });
  });
});
