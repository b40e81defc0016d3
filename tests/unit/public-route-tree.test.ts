import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicRouteTree } from '../../scripts/lib/public-route-tree.ts';

const root = resolve(import.meta.dirname, '../..');
const generated = readFileSync(resolve(root, 'src/routeTree.gen.ts'), 'utf8');
const routeFiles = (text: string) => [...text.matchAll(/^import \{ Route as \w+ \} from '\.\/routes\/([^']+)'/gm)].map((m) => m[1]!);

describe("the first download's route tree (src/routeTree.public.gen.ts)", () => {
  it('is current: `node scripts/gen-public-route-tree.ts` writes it from src/routeTree.gen.ts', () => {
    expect(readFileSync(resolve(root, 'src/routeTree.public.gen.ts'), 'utf8')).toBe(publicRouteTree(generated));
  });

  it('has every route but those of account/, auth/, news/ and order/, and a placeholder for each of those folders', () => {
    const all = routeFiles(generated);
    const kept = routeFiles(publicRouteTree(generated));
    const lazy = all.filter((file) => /^\{-\$locale\}\/(account|auth|news|order)\//.test(file));
    expect(lazy.length).toBeGreaterThan(50);
    expect(lazy.filter((file) => file.includes('/account/admin/')).length).toBeGreaterThan(40);
    expect(kept).toEqual(all.filter((file) => !lazy.includes(file)));
    expect(kept).toContain('{-$locale}/start/index');
    expect(publicRouteTree(generated)).toMatch(/^\s+lazyAccountRoutes,\n\s+lazyAuthRoutes,\n\s+lazyNewsRoutes,\n\s+lazyOrderRoutes,\n\}/m);
  });

  it('fails loudly when the generated tree changes shape', () => {
    expect(() =>
      publicRouteTree(generated.replace(/'\.\/routes\/\{-\$locale\}\/order\//g, "'./routes/{-$locale}/orders-elsewhere/")),
    ).toThrow(/one top route in each/);
  });
});
