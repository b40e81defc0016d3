import { defineConfig } from '@lingui/cli';

/** German is the source and default locale; English is the fallback second language. */
export default defineConfig({
  sourceLocale: 'de',
  locales: ['de', 'en'],
  fallbackLocales: { default: 'de' },
  catalogs: [{ path: '<rootDir>/locales/{locale}/messages', include: ['src'] }],
  format: 'po',
});
