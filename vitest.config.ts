import { defineConfig } from 'vitest/config';
import LongestFirst from './supabase/local/test/harness/longest-first.ts';

/**
 * Test projects. Each test file runs in its own worker (two at a time on this 2-core machine);
 * Postgres suites share one cluster started by the global setup, each file with its own
 * databases; PGlite suites start from a prepared, cached data directory.
 */
export default defineConfig({
  test: {
    globalSetup: ['supabase/local/test/harness/global-setup.ts'],
    // Two test files at a time on this 2-core machine (the default would run them one by one).
    maxWorkers: 2,
    // The longest files first, whatever their project (harness/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: { name: 'stack', environment: 'node', include: ['supabase/local/test/**/*.test.ts'] },
      },
      {
        extends: true,
        // '@' as in the app, so a suite can run the app's query functions against the stack.
        resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
        test: {
          name: 'database',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts', 'tests/db/**/*.test.ts', 'tests/security/**/*.test.ts', 'tests/resilience/**/*.test.ts'],
        },
      },
      {
        extends: true,
        plugins: [
          (await import('@rolldown/plugin-babel')).default({
            include: /\/src\/.*\.[jt]sx?(?:$|\?)/,
            plugins: ['@lingui/babel-plugin-lingui-macro'],
          }),
          (await import('@lingui/vite-plugin')).lingui(),
        ],
        resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
        test: { name: 'app', environment: 'happy-dom', include: ['tests/unit/**/*.test.{ts,tsx}'] },
      },
    ],
  },
});
