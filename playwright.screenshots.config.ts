import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run screenshots`: the main pages as PNGs in reports/screenshots/ (tests/screenshots),
 * with the same build, local stack and browser as the browser tests; not part of `npm test`.
 */
export default defineConfig({
  ...base,
  testDir: 'tests/screenshots',
  outputDir: 'reports/screenshots-results',
  timeout: 240_000,
});
