/**
 * Every route of the app, for the specs that walk them all (a11y-routes.spec.ts,
 * route-guards.spec.ts). The route list is read from src/routeTree.gen.ts, so routes added later
 * are covered without touching the specs; path parameters get seeded ids. A persona that may not
 * see a route gets the login page (visitor, /account) or the 404 page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas, type PersonaName } from '../helpers/personas.ts';
import { apiUrl, personaToken } from './booking-helpers.ts';

const root = resolve(import.meta.dirname, '../..');
const LOCALE = '/{-$locale}';

/** Who walks the routes: a visitor (signed out) and the three seeded personas. */
export const routePersonas = ['visitor', 'customer', 'harbour', 'admin'] as const;
export type RoutePersona = (typeof routePersonas)[number];

/** The navigable paths of the app (FileRoutesByTo), without the optional locale prefix. */
export function routePaths(): string[] {
  const tree = readFileSync(resolve(root, 'src/routeTree.gen.ts'), 'utf8');
  const block = /export interface FileRoutesByTo \{([\s\S]*?)\n\}/.exec(tree)?.[1] ?? '';
  // Layout routes without an index page (e.g. /auth) render no page of their own: left out.
  const paths = [...block.matchAll(/^\s*'([^']+)': typeof (\w+)/gm)]
    .filter((m) => m[1]!.startsWith(LOCALE) && !m[2]!.endsWith('RouteWithChildren'))
    .map((m) => m[1]!);
  return paths.map((p) => p.slice(LOCALE.length) || '/');
}

/** The route file(s) along a path, to tell admin-only routes (requireAdmin) apart. */
export function adminOnly(path: string): boolean {
  const segments = path.split('/').filter(Boolean);
  const base = resolve(root, 'src/routes/{-$locale}');
  for (let i = 1; i <= segments.length; i++) {
    const dir = resolve(base, ...segments.slice(0, i));
    const files = [`${dir}.tsx`, resolve(dir, 'route.tsx'), ...(i === segments.length ? [resolve(dir, 'index.tsx')] : [])];
    if (files.some((f) => existsSync(f) && /\brequireAdmin\b/.test(readFileSync(f, 'utf8')))) return true;
  }
  return false;
}

export type Ids = Record<string, string>;

/** Seeded ids for path parameters, by the segment before the parameter. */
export async function seededIds(): Promise<Ids> {
  const token = await personaToken(personas.admin.email, personas.admin.password);
  const first = async (table: string, query = '') => {
    const res = await fetch(`${apiUrl}/rest/v1/${table}?select=id${query}&limit=1`, {
      headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}` },
    });
    const rows = res.ok ? ((await res.json()) as { id: string }[]) : [];
    return rows[0]?.id ?? '00000000-0000-4000-8000-000000000000';
  };
  const customerId = 'a0000000-0000-4000-8000-000000000003';
  const [order, place, news, code, column] = await Promise.all([
    first('orders', `&user_id=eq.${customerId}&status=eq.confirmed&order=starts_at.desc`),
    first('places', '&archived=eq.false&order=name'),
    first('news', '&order=ends_at.desc'),
    first('sale_codes'),
    first('additional_places'),
  ]);
  // An invoice document of that order (issue 21); none yet: the not-found page is checked.
  const documents = await first('invoices', `&order_id=eq.${order}&order=number`);
  // A desk sale's receipt (issue 21 item 3); none seeded: the not-found page is checked.
  const receipt = await first('invoices', '&desk_sale_id=not.is.null&order=number');
  return {
    documents,
    'desk-sale': receipt,
    order,
    orders: order,
    bookings: order,
    places: place,
    place: place,
    'long-time-place': place,
    'apply-long-time-place': place,
    news,
    users: customerId,
    user: customerId,
    'sale-codes': code,
    codes: code,
    'additional-places': column,
    columns: column,
  };
}

/** A concrete path: optional parameters left out, required ones filled with a seeded id. */
export function concrete(path: string, ids: Ids): string {
  const segments = path.split('/').filter(Boolean);
  const out: string[] = [];
  segments.forEach((segment, i) => {
    if (/^\{-\$\w+\}$/.test(segment)) return;
    if (segment.startsWith('$')) {
      const id = ids[segments[i - 1] ?? ''];
      if (!id)
        throw new Error(
          `No seeded id for the parameter ${segment} of ${path}: add the segment "${segments[i - 1]}" to seededIds() in tests/e2e/routes-helpers.ts`,
        );
      out.push(id);
      return;
    }
    out.push(segment);
  });
  return `/${out.join('/')}`;
}

/** The URL of a route path in a locale, e.g. /en/order/<id>. */
export function localeUrl(locale: 'de' | 'en', path: string, ids: Ids): string {
  const c = concrete(path, ids);
  return `/${locale}${c === '/' ? '' : c}`;
}

export type Outcome = 'page' | 'login' | '404';

/** Whether a path is the prefix or below it. */
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** What a persona gets on a route: the page, the login page (visitor on /account) or the 404 page. */
export function expected(persona: PersonaName | 'visitor', path: string): Outcome {
  if (persona === 'visitor') return under(path, '/account') ? 'login' : 'page';
  if (under(path, '/account/admin')) {
    if (persona === 'customer') return '404';
    if (persona === 'harbour' && adminOnly(path)) return '404';
  }
  return 'page';
}

/**
 * The routes whose layout and accessibility a persona's walk measures: the pages that persona is
 * the one to see, plus one stand-in page of each kind it also gets. Every other route is still
 * opened and its outcome (page, login, 404) and console checked, but not measured again: the
 * login page a visitor gets on 42 account routes, the 404 page a customer gets on 35 back-office
 * routes, and the public pages under a signed-in header are the same pages each time (ADR 0006,
 * "Redundant browser work").
 * - visitor: the public pages, and the login page (the first /account route);
 * - customer: the account pages, a public page under the signed-in header (/start), and the 404
 *   page (the first back-office route);
 * - harbour staff: the back-office pages staff may open, their /account, and the 404 page of an
 *   admin-only route;
 * - admin: the admin-only back-office pages.
 */
export function measuredBy(persona: RoutePersona, path: string, paths: readonly string[]): boolean {
  const first = (pick: (p: string) => boolean) => paths.find(pick) === path;
  const backOffice = (p: string) => under(p, '/account/admin');
  switch (persona) {
    case 'visitor':
      return !under(path, '/account') || first((p) => under(p, '/account'));
    case 'customer':
      return (under(path, '/account') && !backOffice(path)) || path === '/start' || first(backOffice);
    case 'harbour':
      return (backOffice(path) && !adminOnly(path)) || path === '/account' || first((p) => backOffice(p) && adminOnly(p));
    case 'admin':
      return backOffice(path) && adminOnly(path);
  }
}

/** What the page shows now, from its h1 and URL. */
export async function outcomeOf(page: Page, path: string): Promise<{ outcome: Outcome; h1: string }> {
  const h1 = (await page.getByRole('heading', { level: 1 }).first().textContent())?.trim() ?? '';
  const outcome: Outcome = /^404/.test(h1) ? '404' : /\/auth\/login/.test(page.url()) && !path.startsWith('/auth') ? 'login' : 'page';
  return { outcome, h1 };
}

const loading = /^(Lädt…|Loading…)$/;

/**
 * Opens a URL: with a page load when `first`, otherwise through the app's own router (as a link
 * would), which keeps a walk over all routes fast; the redirect and 404 guards run the same way.
 */
export async function visit(page: Page, url: string, first: boolean) {
  if (first) {
    await page.goto(url);
    return;
  }
  await page.evaluate(async (href) => {
    const router = (window as unknown as { __TSR_ROUTER__: { navigate: (o: { href: string }) => Promise<void> } }).__TSR_ROUTER__;
    await router.navigate({ href });
  }, url);
}

/** Waits for the page's h1 and for data-driven pages to leave their loading state (bounded). */
export async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page
    .waitForFunction(
      (re) => ![...document.querySelectorAll('main p, [role=status]')].some((el) => new RegExp(re).test((el.textContent ?? '').trim())),
      loading.source,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}
