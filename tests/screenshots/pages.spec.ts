/**
 * `npm run screenshots` (playwright.screenshots.config.ts, not part of `npm test`): the main pages
 * at 390 and 1280 px, in German and English, as full-page PNGs in reports/screenshots/ for a
 * person to look at: <page>-<locale>-<width>.png. Each page is shot once its data has arrived.
 * Full-page shots draw fixed bars (the bottom tabs) where the window ended, not at the end.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { berlinDay, chooseFirstBerth, fillBerthData } from '../e2e/booking-helpers.ts';
import { localeUrl, seededIds, settle, type Ids } from '../e2e/routes-helpers.ts';

const OUT = resolve(import.meta.dirname, '../../reports/screenshots');

type Shot = [name: string, path: string];

/** Pages per persona (route paths as in the route tree; $-parameters get seeded ids). */
const pages: Record<'visitor' | 'customer' | 'admin', Shot[]> = {
  visitor: [
    ['start', '/start'],
    ['prices', '/start/prices'],
    ['service', '/service'],
    ['service-door-code', '/service/door-code'],
    ['service-wifi', '/service/wifi'],
    ['contact', '/contact'],
    ['login', '/auth/login'],
    ['register', '/auth/register'],
  ],
  customer: [
    ['account', '/account'],
    ['account-bookings', '/account/bookings'],
    ['account-booking', '/account/bookings/$id'],
    ['account-profile', '/account/profile'],
    ['order', '/order/$id'],
    ['booking-confirmation', '/start/booking/result/{-$id}'],
  ],
  admin: [
    ['admin-overview', '/account/admin/overview'],
    ['admin-calendar', '/account/admin/calendar'],
    ['admin-orders', '/account/admin/orders'],
    ['admin-order', '/account/admin/orders/$id'],
    ['admin-new-booking', '/account/admin/orders/new'],
    ['admin-inbox', '/account/admin/inbox'],
    ['admin-map', '/account/admin/map'],
    ['admin-cash', '/account/admin/cash'],
    ['admin-hours', '/account/admin/hours'],
    ['admin-places', '/account/admin/places'],
    ['admin-place-calendar', '/account/admin/places/$id/calendar'],
    ['admin-users', '/account/admin/users'],
    ['admin-news', '/account/admin/news'],
    ['admin-sale-codes', '/account/admin/sale-codes'],
    ['admin-settings', '/account/admin/settings'],
    ['admin-reports', '/account/admin/reports'],
  ],
};

const widths = {
  390: { viewport: { width: 390, height: 844 } },
  1280: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
} as const;

async function shoot(page: Page, name: string, locale: string, width: number) {
  // Images and web fonts in, then a frame for the layout.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => r(null)))));
  await page.screenshot({ path: `${OUT}/${name}-${locale}-${width}.png`, fullPage: true });
}

/** A concrete URL; the confirmation page ({-$id}, optional) gets the customer's seeded order too. */
function url(locale: 'de' | 'en', path: string, ids: Ids) {
  return localeUrl(locale, path.replace('result/{-$id}', 'result/$id'), { ...ids, result: ids.order! });
}

test.describe.configure({ mode: 'parallel' });
mkdirSync(OUT, { recursive: true });

for (const width of [390, 1280] as const) {
  for (const locale of ['de', 'en'] as const) {
    test.describe(`${width} px, ${locale}`, () => {
      test.use(widths[width]);

      test.describe('visitor', () => {
        test('public pages and the booking steps', async ({ page }) => {
          test.setTimeout(180_000);
          const ids = await seededIds();
          for (const [name, path] of pages.visitor) {
            await page.goto(url(locale, path, ids));
            await settle(page);
            await shoot(page, name, locale, width);
          }
          // The booking: step 1 (the stay), step 2 (free berths), step 3 (who books).
          await page.goto(`/${locale}/start/booking`);
          await settle(page);
          await shoot(page, 'booking-1-stay', locale, width);
          await fillBerthData(page, locale, {
            arrival: berlinDay(20),
            departure: berlinDay(22),
            length: '9',
            width: '3',
            boat: 'Seeschwalbe',
          });
          await expect(
            page
              .getByRole('list', { name: locale === 'en' ? 'Free berths' : 'Freie Liegeplätze' })
              .getByRole('listitem')
              .first(),
          ).toBeVisible({ timeout: 15_000 });
          await shoot(page, 'booking-2-berths', locale, width);
          await chooseFirstBerth(page, locale);
          await expect(page.getByRole('form', { name: locale === 'en' ? 'Book as a guest' : 'Als Gast buchen' })).toBeVisible({
            timeout: 15_000,
          });
          await shoot(page, 'booking-3-guest', locale, width);
        });
      });

      for (const who of ['customer', 'admin'] as const) {
        test.describe(who, () => {
          test.use({ persona: who });
          test(who === 'customer' ? 'account pages' : 'back office', async ({ page }) => {
            test.setTimeout(240_000);
            const ids = await seededIds();
            for (const [name, path] of pages[who]) {
              await page.goto(url(locale, path, ids));
              await settle(page);
              await shoot(page, name, locale, width);
            }
          });
        });
      }
    });
  }
}
