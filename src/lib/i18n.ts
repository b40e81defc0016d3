import { i18n } from '@lingui/core';

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

const loaders: Record<Locale, () => Promise<{ messages: Record<string, string> }>> = {
  de: () => import('../../locales/de/messages.po'),
  en: () => import('../../locales/en/messages.po'),
};

/** Loads a catalogue (compiled from locales/<locale>/messages.po by the Lingui Vite plugin) and activates it. */
export async function activateLocale(locale: Locale) {
  if (i18n.locale !== locale) {
    const { messages } = await loaders[locale]();
    i18n.loadAndActivate({ locale, messages });
  }
  document.documentElement.lang = locale;
}

export { i18n };
