/**
 * The Playwright `test` for the app: every page routes the public APIs to fixtures and records
 * console errors and uncaught exceptions, which `expectNoConsoleErrors` asserts are absent.
 */
import { test as base, expect } from '@playwright/test';
import { routeExternalApis } from './external-fixtures';
import { personaStorageState, type PersonaName } from './personas';

export const test = base.extend<{ consoleErrors: string[]; persona: PersonaName | undefined }>({
  /** test.use({ persona: 'admin' }): the context starts logged in as that seeded persona. */
  persona: [undefined, { option: true }],
  storageState: async ({ persona, storageState }, use) => {
    await use(persona ? await personaStorageState(persona) : storageState);
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`${msg.text()} @ ${msg.location().url}`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await routeExternalApis(page);
      await use(errors);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Whether a journey written for both languages runs in `locale`: each journey runs in one
 * language, `own`, the two alternating across a spec (ADR 0006, "One language per journey"). A call,
 * not a comparison, so TypeScript keeps the loop variable's type inside the test.
 */
export function journeyIn(locale: 'de' | 'en', own: 'de' | 'en'): boolean {
  return locale === own;
}
