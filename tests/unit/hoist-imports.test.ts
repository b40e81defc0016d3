import { describe, expect, it } from 'vitest';
import { importStatements, transitiveImports } from '../../scripts/lib/hoist-imports';

const graph = (edges: Record<string, string[]>) => (file: string) => edges[file] ?? [];

describe('transitiveImports (scripts/lib/hoist-imports.ts)', () => {
  it('names the chunks reached through the imports, beyond the direct ones, each once and depth first', () => {
    const importsOf = graph({
      'assets/page.js': ['assets/routes.js', 'assets/form.js'],
      'assets/form.js': ['assets/routes.js', 'assets/input.js', 'assets/zod.js'],
      'assets/input.js': ['assets/utils.js', 'assets/routes.js'],
      'assets/zod.js': [],
      'assets/routes.js': ['assets/runtime.js'],
    });
    expect(transitiveImports('assets/page.js', importsOf)).toEqual([
      'assets/runtime.js',
      'assets/input.js',
      'assets/utils.js',
      'assets/zod.js',
    ]);
    expect(transitiveImports('assets/zod.js', importsOf)).toEqual([]);
    expect(transitiveImports('assets/routes.js', importsOf)).toEqual([]);
  });

  it('ends on cycles and never names the chunk itself', () => {
    const importsOf = graph({ 'a.js': ['b.js'], 'b.js': ['c.js'], 'c.js': ['a.js', 'b.js', 'd.js'], 'd.js': ['c.js'] });
    expect(transitiveImports('a.js', importsOf)).toEqual(['c.js', 'd.js']);
    expect(transitiveImports('d.js', importsOf)).toEqual(['a.js', 'b.js']);
  });
});

describe('importStatements', () => {
  it('writes side-effect imports relative to the chunk, in the given order', () => {
    expect(importStatements('assets/page-1a2b3c4d.js', ['assets/input-00ff00ff.js', 'assets/zod-12345678.js'])).toBe(
      'import"./input-00ff00ff.js";import"./zod-12345678.js";',
    );
    expect(importStatements('assets/nested/page.js', ['assets/zod.js', 'other/x.js'])).toBe('import"../zod.js";import"../../other/x.js";');
    expect(importStatements('assets/page.js', [])).toBe('');
  });
});
