import { i18n } from '@lingui/core';
import { messages as germanShell } from '../../locales/de/messages.po';
import { keepValuesLiteral } from '@/lib/lingui-literal';

export const locales = ['de', 'en'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'de';

export const isLocale = (value: unknown): value is Locale => locales.includes(value as Locale);

const STORAGE_KEY = 'locale';
const COOKIE = 'locale';
const COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The locale prefix of a pathname (/de/..., /en/...), if any. */
export function localeFromPath(pathname: string): Locale | undefined {
  const first = pathname.split('/')[1];
  return isLocale(first) ? first : undefined;
}

/** The pathname without its locale prefix: /en/service -> /service, /de -> /. */
export function stripLocale(pathname: string): string {
  const locale = localeFromPath(pathname);
  if (!locale) return pathname || '/';
  const rest = pathname.slice(locale.length + 1);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Puts a locale prefix (or none) in front of an unprefixed internal path. */
export function withLocale(path: string, locale: Locale | undefined): string {
  if (!locale) return path;
  return path === '/' ? `/${locale}` : `/${locale}${path}`;
}

/** The visitor's stored choice: local storage first, then the cookie. */
export function storedLocale(): Locale | undefined {
  // Nothing is stored when the page is rendered at build time (src/prerender.tsx).
  if (typeof document === 'undefined') return undefined;
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    if (isLocale(value)) return value;
  } catch {
    // storage blocked: fall through to the cookie
  }
  const match = document.cookie.match(/(?:^|;\s*)locale=(de|en)\b/);
  return match ? (match[1] as Locale) : undefined;
}

/** Remembers the choice in local storage and in a locale cookie kept 365 days. */
export function persistLocale(locale: Locale) {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // storage blocked: the cookie still holds it
  }
  document.cookie = `${COOKIE}=${locale}; max-age=${COOKIE_MAX_AGE}; path=/; samesite=lax`;
}

/** The locale a pathname is shown in: its prefix, else the stored choice, else German. */
export function resolveLocale(pathname: string): Locale {
  return localeFromPath(pathname) ?? storedLocale() ?? defaultLocale;
}

/** The catalogues of lingui.config.ts: `messages` always, the others by path. */
export type Catalogue = 'messages' | 'booking' | 'guest' | 'account' | 'harbour' | 'admin';

/**
 * Which catalogues a page needs: /start gets only the shell's, /start/booking the shell's and
 * the booking flow's, no page the back office's.
 */
export function cataloguesFor(pathname: string): Catalogue[] {
  const path = stripLocale(pathname);
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (path === '/' || path === '/start') return ['messages'];
  if (path === '/start/booking' || path === '/start/booking/') return ['messages', 'booking'];
  if (under('/account/admin')) return ['messages', 'booking', 'guest', 'account', 'harbour', 'admin'];
  if (under('/account') || under('/auth')) return ['messages', 'booking', 'guest', 'account'];
  return ['messages', 'booking', 'guest'];
}

type CatalogueModule = { messages: Record<string, string> };
// Compiled from locales/<locale>/<catalogue>.po by the Lingui Vite plugin, one chunk each (but the
// German shell catalogue, imported above and never loaded again).
const modules = import.meta.glob<CatalogueModule>(['../../locales/*/*.po', '!../../locales/de/messages.po']);
// `t` and `i18n._` put interpolated values in as given (no escape decoding of user text).
keepValuesLiteral(i18n);
// German is the default: its shell catalogue (small) ships with the entry, one round trip less
// before the first paint.
i18n.load('de', germanShell);
const loaded = new Set<string>(['../../locales/de/messages.po']);

// Catalogues a component loaded beside its page's (the staff drawer's texts, on any page): loaded
// again in every locale activated later.
const alsoNeeded = new Set<Catalogue>();

/** Loads the catalogues a page needs (once each) and activates the locale. */
export async function activateLocale(locale: Locale, pathname = window.location.pathname) {
  const missing = [...new Set([...cataloguesFor(pathname), ...alsoNeeded])]
    .map((catalogue) => `../../locales/${locale}/${catalogue}.po`)
    .filter((path) => !loaded.has(path));
  const catalogues = await Promise.all(missing.map((path) => modules[path]!()));
  catalogues.forEach(({ messages }, index) => {
    i18n.load(locale, messages);
    loaded.add(missing[index]!);
  });
  if (i18n.locale !== locale) i18n.activate(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/** Loads one more catalogue in the active locale, and in every locale activated later. */
export function loadCatalogue(catalogue: Catalogue) {
  alsoNeeded.add(catalogue);
  return activateLocale(i18n.locale as Locale);
}

export { i18n };
