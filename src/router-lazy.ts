import { createRoute, redirect, type AnyRouter } from '@tanstack/react-router';
import { Route as localeRoute } from '@/routes/{-$locale}/route';

/**
 * The account, auth, news and order pages' routes, the back office's ~45 among them, load on first
 * use (docs/adr/0043-first-load-budgets.md, "routes that load on first use"). The first
 * download's route tree (routeTree.public.gen.ts, generated from routeTree.gen.ts by
 * scripts/gen-public-route-tree.mjs) has every other route, and in their place one splat per
 * area: any /account/..., /auth/... or /order/... URL (both locales, any search) matches it.
 * Its beforeLoad loads the whole tree (routeTree.gen.ts: the same route objects, plus the
 * missing ones) into the router and navigates to the same URL again, which then matches the
 * real routes and runs their guards (a visitor on /account/admin/... is sent to log in, a
 * customer gets the back office's 404, as before). On a preload (a link hovered) it only loads.
 */
let router: AnyRouter | undefined;
let loading: Promise<void> | undefined;

/** The router whose route tree the lazy routes join (main.tsx). */
export function attachLazyRoutes(target: AnyRouter) {
  router = target;
}

/** Loads the whole route tree once and makes the router match with it. */
export function loadAllRoutes(): Promise<void> {
  loading ??= import('@/routeTree.gen').then(
    ({ routeTree }) => {
      const target = router!;
      // Importing routeTree.gen gave every parent route its whole list of children again (the
      // same route objects, so their options and any matches stay). Its root is the public
      // tree's object, so update() alone would not rebuild the matching: buildRouteTree does.
      target.update({ ...target.options, routeTree });
      target.setRoutes(target.buildRouteTree());
      // A lane still in flight (the preload whose placeholder's beforeLoad got here) looks its
      // matches' routes up again by id once its beforeLoads are done: the placeholders stay
      // known by id, never matched again (the router keeps its notFoundRoute the same way).
      for (const placeholder of placeholders) (target.routesById as Record<string, unknown>)[placeholder.id] ??= placeholder;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function placeholder(area: string) {
  return createRoute({
    getParentRoute: () => localeRoute,
    path: `${area}/$`,
    beforeLoad: async ({ location, preload }) => {
      await loadAllRoutes();
      // The same URL again, now matched by the area's own routes and guards.
      if (!preload) throw redirect({ href: location.href, replace: true });
    },
  });
}

/** The placeholders, by the folder of src/routes/{-$locale} whose routes they stand for. */
export const lazyAccountRoutes = placeholder('account');
export const lazyAuthRoutes = placeholder('auth');
export const lazyOrderRoutes = placeholder('order');
/** The news pages (/news, /news/{id}): mostly reached from /start's cards, so not in its first download. */
export const lazyNewsRoutes = placeholder('news');

const placeholders = [lazyAccountRoutes, lazyAuthRoutes, lazyNewsRoutes, lazyOrderRoutes];

/** Whether a route id is one of the placeholders (the whole tree is not loaded yet). */
export const isLazyPlaceholder = (routeId: string | undefined) => placeholders.some((placeholder) => placeholder.id === routeId);
