/**
 * Every chunk imports all the chunks it needs, not only the ones its own modules import
 * (docs/adr/0043-first-load-budgets.md, "no preload lists"). Lazy imports carry
 * no preload lists, so a browser finds a page's chunks by reading them: without this, a page
 * whose chunks import each other eight levels deep waited eight round trips on a cold cache;
 * with it, the page's chunk names all of them and they come in one. Rollup does this by itself
 * (`output.hoistTransitiveImports`); Rolldown does not implement it yet.
 *
 * The added imports come after the chunk's own ones and name only chunks that its imports
 * already import (directly or further down), so nothing is evaluated in another order: each of
 * them has run by the time the browser reaches it.
 */
import { dirname, posix } from 'node:path';
import type { Plugin } from 'vite';

/** The chunks a chunk reaches through static imports, beyond its direct ones (in a stable order). */
export function transitiveImports(fileName: string, importsOf: (fileName: string) => readonly string[]): string[] {
  const direct = new Set(importsOf(fileName));
  const seen = new Set<string>([fileName]);
  const extra: string[] = [];
  const visit = (file: string) => {
    for (const dep of importsOf(file)) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      if (!direct.has(dep)) extra.push(dep);
      visit(dep);
    }
  };
  visit(fileName);
  return extra;
}

/** `import"./a.js";import"./b.js";` for the chunks `extra`, relative to the chunk `fileName`. */
export function importStatements(fileName: string, extra: readonly string[]): string {
  return extra
    .map((dep) => {
      const path = posix.relative(dirname(fileName), dep);
      return `import${JSON.stringify(path.startsWith('.') ? path : `./${path}`)};`;
    })
    .join('');
}

export function hoistImports(): Plugin {
  return {
    name: 'hafen:hoist-imports',
    apply: 'build',
    // The browser's chunks only (the prerender's Node build imports packages, not chunks).
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    renderChunk(code, chunk, options, meta) {
      if (options.format !== 'es') return null;
      // Only other chunks: an import of something outside the bundle stays as it is.
      const extra = transitiveImports(chunk.fileName, (file) => (meta.chunks[file]?.imports ?? []).filter((dep) => dep in meta.chunks));
      if (!extra.length) return null;
      return { code: `${code}\n${importStatements(chunk.fileName, extra)}`, map: null };
    },
  };
}
