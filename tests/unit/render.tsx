/**
 * Renders a component the way the app does: I18nProvider with a real catalogue, a QueryClient
 * without retries, and a memory router whose only route shows the component.
 */
import type { ReactNode } from 'react';
import { cleanup, render } from '@testing-library/react';
import { afterEach } from 'vitest';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { activateLocale, i18n, type Locale } from '@/lib/i18n';

afterEach(cleanup);

export async function renderPage(ui: () => ReactNode, { locale = 'de', path = '/' }: { locale?: Locale; path?: string } = {}) {
  // Every catalogue, so a component renders its real texts whatever area it belongs to.
  await activateLocale(locale, '/account/admin');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rootRoute = createRootRoute({ component: ui, notFoundComponent: ui });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: [path] }) });
  await router.load();
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}
