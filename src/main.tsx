import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import { RouterProvider, createRouter, type AnyRoute } from '@tanstack/react-router';
import type { routeTree } from '@/routeTree.gen';
import { publicRouteTree } from '@/routeTree.public.gen';
import { attachLazyRoutes, isLazyPlaceholder, loadAllRoutes } from '@/router-lazy';
import { activateLocale, i18n, resolveLocale } from '@/lib/i18n';
import { loadQueryClient, QueryProvider, queryContext, setQueryData } from '@/lib/query';
import { hasStoredSession, identityQueryOptions, watchAuth } from '@/lib/auth';
import { reloadForChunkError, shareRouterReloadPolicy } from '@/lib/chunk-reload';
import { NotFoundPage } from '@/components/errors/not-found-page';
import '@/index.css';

// The QueryClient loads when a page needs it (src/lib/query.tsx): /start renders without it.
// The route tree has every route but the account, auth and order pages', which load on first use
// (src/router-lazy.ts); types and links are the whole generated tree's.
const router = createRouter({
  routeTree: publicRouteTree as unknown as typeof routeTree,
  context: { queryClient: queryContext },
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  defaultNotFoundComponent: NotFoundPage,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

attachLazyRoutes(router);

// A chunk that vanished after a deploy: reload to get the new build (at most once a minute).
shareRouterReloadPolicy();
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForChunkError()) event.preventDefault();
});

// Sessions change in other tabs and by token refresh: keep guards and the drawer in step.
watchAuth(() => void router.invalidate());

// Start-up runs in a few tasks, not one long one: the prerendered page is already on screen
// and stays responsive to scrolling meanwhile (and total blocking time stays low).
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
await yieldToBrowser();
// Without a stored session the visitor is anonymous: known now, so pages that wait for the
// identity (booking) render at once, like their prerendered HTML (scripts/lib/prerender.ts).
// With one the shell shows the identity loaded through the client.
// Every page but /start needs the client before it renders (the root route's beforeLoad): its
// download starts now, beside the catalogues.
const session = hasStoredSession();
if (!session) setQueryData(identityQueryOptions.queryKey, { status: 'anonymous' });
const leaf = router.matchRoutes(router.latestLocation).at(-1);
// The page's own chunks start now, beside the catalogues and the client: router.load() below
// would ask for them only once those have arrived. (A lazy component keeps the promise; a failed
// download is tried again by the load.)
const loadPage = () => {
  for (const { routeId } of router.matchRoutes(router.latestLocation))
    void (router.routesById[routeId as never] as AnyRoute | undefined)?.options.component?.preload?.();
};
loadPage();
const clientLoaded = session || !leaf?.staticData.withoutQueryClient ? loadQueryClient() : undefined;
// An account, auth or order page: the rest of the route tree loads beside the rest, and then the
// page's chunks (its route is known only then).
const allRoutesLoaded = isLazyPlaceholder(leaf?.routeId) ? loadAllRoutes().then(loadPage) : undefined;
// I18nProvider renders nothing until a locale is active: activate before rendering.
await activateLocale(resolveLocale(window.location.pathname));
// A failed download is the router's to report (beforeLoad loads it again).
await clientLoaded?.catch(() => undefined);
await allRoutesLoaded?.catch(() => undefined);
// The public pages arrive prerendered: load the page (route chunks, catalogues) before the first
// render, which then replaces that HTML in one commit with the same content.
await router.load().catch(console.error);
await yieldToBrowser();

// A prerendered page's markup is inert (no taps on buttons without their handlers) until the
// app's first render has replaced it, in one commit with the same content.
const container = document.getElementById('root')!;
function Interactive() {
  useLayoutEffect(() => container.removeAttribute('inert'), []);
  return null;
}
// As a transition React renders in slices (no long task blocking the main thread), and the
// prerendered markup stays until the commit.
startTransition(() =>
  createRoot(container).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <QueryProvider>
          <RouterProvider router={router} />
        </QueryProvider>
      </I18nProvider>
      <Interactive />
    </StrictMode>,
  ),
);

// The service worker (/sw.js, vite-plugin-pwa) caches the shell; register it once the page has loaded.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
