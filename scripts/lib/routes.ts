/**
 * The app's real page paths, for the static server (scripts/lib/static-server.ts): it answers
 * 404 (with the app shell, which shows the not-found page) for a path no route matches.
 *
 * The patterns are the router's navigable paths (`to` in src/routeTree.gen.ts), written into
 * the build as routes.json by the prerender plugin (scripts/lib/prerender.ts).
 */

/** The navigable route paths of a generated route tree: '/{-$locale}/order/$id', ... */
export function routePatterns(routeTreeSource: string): string[] {
  const block = /^\s*to:\s*\n((?:\s*\|\s*'[^']*'\s*\n)+)/m.exec(routeTreeSource);
  if (!block) throw new Error('routes: no `to:` union in the route tree');
  return [...block[1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
}

/** The locales of the optional prefix; any other first segment is not a locale (404). */
const LOCALES = ['de', 'en'];

function matchSegments(pattern: string[], path: string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern;
  const optional = /^\{-\$(\w+)\}$/.exec(head);
  if (optional) {
    // An optional segment: absent, or one segment (the locale prefix only de or en).
    if (matchSegments(rest, path)) return true;
    if (path.length === 0) return false;
    if (optional[1] === 'locale' && !LOCALES.includes(path[0])) return false;
    return matchSegments(rest, path.slice(1));
  }
  if (path.length === 0) return false;
  if (head === '$') return true;
  if (head.startsWith('$')) return path[0] !== '' && matchSegments(rest, path.slice(1));
  return head === path[0] && matchSegments(rest, path.slice(1));
}

/** Whether a URL path (decoded, trailing slash allowed) is one of the app's pages. */
export function isRoutePath(pathname: string, patterns: readonly string[]): boolean {
  const path = pathname.split('/').filter((s, i, all) => s !== '' || (i > 0 && i < all.length - 1));
  return patterns.some((pattern) => matchSegments(pattern.split('/').filter(Boolean), path));
}
