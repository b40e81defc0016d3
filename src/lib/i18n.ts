import { i18n } from '@lingui/core';

export const locales = ['de', 'en'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'de';

export const isLocale = (value: unknown): value is Locale => locales.includes(value as Locale);

/** Loads a catalogue (compiled from locales/<locale>/messages.po by the Lingui Vite plugin) and activates it. */
export async function activateLocale(locale: Locale) {
  const { messages } = await import(`../../locales/${locale}/messages.po`);
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

export { i18n };
