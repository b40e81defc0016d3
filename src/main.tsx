import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import { activateLocale, i18n, resolveLocale } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import { watchAuth } from './lib/auth';
import { reloadForChunkError, shareRouterReloadPolicy } from './lib/chunk-reload';
import { NotFoundPage } from './components/errors/not-found-page';
import './index.css';

const queryClient = createQueryClient();
const router = createRouter({
  routeTree,
  context: { queryClient },
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

// A chunk that vanished after a deploy: reload to get the new build (at most once a minute).
shareRouterReloadPolicy();
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForChunkError()) event.preventDefault();
});

// Sessions change in other tabs and by token refresh: keep guards and the drawer in step.
watchAuth(queryClient, () => void router.invalidate());

// I18nProvider renders nothing until a locale is active: activate before rendering.
await activateLocale(resolveLocale(window.location.pathname));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);

// The service worker (/sw.js, vite-plugin-pwa) caches the shell; register it once the page has loaded.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
