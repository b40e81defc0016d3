import { expect, test } from '../helpers/app-test';
import { visit } from './routes-helpers.ts';

/**
 * Every public route of spec section 2 (optional ids without and with a value) plus the legal
 * pages, each loaded unprefixed, under /de and under /en: the spec's heading in the right
 * language and no console error. axe-core on these pages in both languages is the visitor's walk
 * in a11y-routes.spec.ts (run here too until ADR 0006, "Redundant browser work": the same pages
 * checked twice).
 */
const routes: { path: string; h1: { de: string | RegExp; en: string | RegExp } }[] = [
  { path: '/', h1: { de: 'Willkommen im Hafen Düsseldorf', en: 'Welcome to Hafen Düsseldorf' } },
  { path: '/start', h1: { de: 'Willkommen im Hafen Düsseldorf', en: 'Welcome to Hafen Düsseldorf' } },
  { path: '/start/booking', h1: { de: 'Liegeplatz buchen', en: 'Book a berth' } },
  { path: '/start/booking/result', h1: { de: 'Liegeplatz buchen', en: 'Book a berth' } },
  { path: '/start/prices', h1: { de: 'Preise', en: 'Prices' } },
  { path: '/service', h1: { de: 'Service', en: 'Service' } },
  { path: '/service/care-diesel', h1: { de: 'Care Diesel', en: 'Care Diesel' } },
  { path: '/service/charter', h1: { de: 'Charter', en: 'Charter' } },
  { path: '/service/door-code', h1: { de: 'Türcode', en: 'Door code' } },
  { path: '/service/ice-machine', h1: { de: 'Eismaschine', en: 'Ice machine' } },
  { path: '/service/lift', h1: { de: 'Bootskran', en: 'Boat lift' } },
  { path: '/service/mechanists', h1: { de: 'Mechaniker', en: 'Mechanics' } },
  { path: '/service/order', h1: { de: 'Service anfragen', en: 'Request a service' } },
  { path: '/service/park', h1: { de: 'Parken', en: 'Parking' } },
  { path: '/service/skipper-training', h1: { de: 'Skipperschulung', en: 'Skipper training' } },
  { path: '/service/wifi', h1: { de: 'WLAN', en: 'Wifi' } },
  { path: '/contact', h1: { de: 'Kontakt', en: 'Contact' } },
  { path: '/drone-video', h1: { de: 'Drohnenvideo', en: 'Drone video' } },
  { path: '/vertrag', h1: { de: 'Liegeplatzvertrag', en: 'Berth contract' } },
  { path: '/order/4b0f7c1e-0000-4000-8000-000000000001', h1: { de: 'Ihre Buchung', en: 'Your booking' } },
  { path: '/order/check-in', h1: { de: 'Check-in', en: 'Check-in' } },
  { path: '/order/4b0f7c1e-0000-4000-8000-000000000001/check-in', h1: { de: 'Check-in', en: 'Check-in' } },
  { path: '/privacy', h1: { de: 'Datenschutz', en: 'Privacy' } },
  { path: '/terms', h1: { de: 'AGB', en: 'Terms' } },
  { path: '/impressum', h1: { de: 'Impressum', en: 'Legal notice' } },
  { path: '/auth/login', h1: { de: 'Anmelden', en: 'Log in' } },
  { path: '/auth/register', h1: { de: 'Registrieren', en: 'Register' } },
  { path: '/auth/password-forgotten', h1: { de: 'Passwort vergessen', en: 'Forgotten password' } },
  { path: '/auth/reset-password', h1: { de: 'Neues Passwort', en: 'New password' } },
];

const nav = { de: 'Kontakt', en: 'Contact' };

/**
 * The unprefixed URL is a full page load (a deep link or a reload: the static server's fallback,
 * the route's chunks, German by default). /de and /en are then reached through the app's router,
 * as the language switch does: each must show the spec's heading in its language. The route walks
 * (route-guards.spec.ts) open /de and /en of every route for every persona with the console
 * checked; loading them here again as full page loads (87 loads, each waiting for network idle)
 * cost two minutes of worker time and proved nothing more (ADR 0006, "Redundant browser work").
 */
for (const route of routes) {
  test(`${route.path} renders unprefixed, /de and /en in the right language, without console errors`, async ({ page, consoleErrors }) => {
    for (const prefix of ['', '/de', '/en'] as const) {
      const locale = prefix === '/en' ? 'en' : 'de';
      const url = prefix ? (route.path === '/' ? prefix : prefix + route.path) : route.path;
      await test.step(url, async () => {
        if (prefix === '') await page.goto(url);
        else await visit(page, url, false);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.h1[locale]);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(
          page
            .getByRole('navigation', { name: locale === 'en' ? 'Main navigation' : 'Hauptnavigation' })
            .getByRole('link', { name: nav[locale] }),
        ).toBeVisible();
        if (prefix === '') await page.waitForLoadState('networkidle');
      });
    }
    expect(consoleErrors).toEqual([]);
  });
}
