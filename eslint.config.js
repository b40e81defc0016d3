import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { boundaries } from './eslint.boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.data/**',
      'reports/**',
      'node_modules/**',
      'src/routeTree.gen.ts',
      'src/lib/database.types.ts',
      'supabase/functions/**',
      '.scratch/**',
      'bench/**',
      // A deliberate import cycle, linted only by tests/unit/boundaries.test.ts.
      'tests/fixtures/lint-cycle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // No import cycles in the app, the local stack and the scripts (the edge functions run on Deno
    // and are checked by deno check).
    files: ['src/**/*.{ts,tsx}', 'supabase/local/**/*.ts', 'scripts/**/*.ts', 'tests/fixtures/lint-cycle/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // '@/…' looks like a scoped package; it is ours.
      'import-x/internal-regex': '^@/',
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['tsconfig.json', 'supabase/local/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  ...boundaries(),
  {
    files: ['supabase/local/**/*.ts', 'scripts/**/*.{ts,mjs}', 'tests/**/*.ts', '*.config.{ts,js}', 'eslint.boundaries.js'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
