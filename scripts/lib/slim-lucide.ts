/**
 * The build's lucide icons without lucide's runtime (docs/adr/0043-first-load-budgets.md, "/start first load: the
 * icons' runtime"): every icon module of lucide-react (`dist/esm/icons/*.mjs`, each one
 * `createLucideIcon(__iconData)`) gets src/lib/lucide-icon.ts for its `../createLucideIcon.mjs`,
 * and its data loses the `key`s (React needs keys only for children in an array; the slim factory
 * passes them as arguments). tests/unit/lucide-icon.test.ts renders every icon the app imports
 * with both factories and compares the markup; the budget test checks that the first download
 * holds none of lucide's runtime.
 */
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

const iconModule = /\/lucide-react\/dist\/esm\/icons\//;

/** An icon module's source without the `key` of each element (`{ d: "…", key: "…" }` -> `{ d: "…" }`). */
export const stripIconKeys = (code: string) => code.replace(/,\s*key: "[^"]*"/g, '');

export function slimLucide(): Plugin {
  let slimFactory = '';
  return {
    name: 'hafen:slim-lucide',
    apply: 'build',
    // Before Vite's resolver, which answers a package's relative imports itself.
    enforce: 'pre',
    configResolved(config) {
      slimFactory = resolve(config.root, 'src/lib/lucide-icon.ts');
    },
    resolveId: {
      filter: { id: /^\.\.\/createLucideIcon\.mjs$/ },
      handler: (_source, importer) => (importer && iconModule.test(importer) ? slimFactory : null),
    },
    transform: {
      filter: { id: iconModule },
      // The icon data's columns move a little in the source map: nothing there to step through.
      handler: (code) => ({ code: stripIconKeys(code), map: null }),
    },
  };
}
