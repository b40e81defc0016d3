/**
 * Writes src/routeTree.public.gen.ts from src/routeTree.gen.ts (scripts/lib/public-route-tree.ts).
 *   node scripts/gen-public-route-tree.ts          write it
 *   node scripts/gen-public-route-tree.ts --check  exit 1 when it is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { publicRouteTree } from './lib/public-route-tree.ts';

const root = resolve(import.meta.dirname, '..');
const target = resolve(root, 'src/routeTree.public.gen.ts');
const next = publicRouteTree(readFileSync(resolve(root, 'src/routeTree.gen.ts'), 'utf8'));
let current = '';
try {
  current = readFileSync(target, 'utf8');
} catch {
  // not written yet
}
if (process.argv.includes('--check')) {
  if (current !== next) {
    console.error('src/routeTree.public.gen.ts is stale: run node scripts/gen-public-route-tree.ts');
    process.exit(1);
  }
} else if (current !== next) {
  writeFileSync(target, next);
  console.log('wrote src/routeTree.public.gen.ts');
}
