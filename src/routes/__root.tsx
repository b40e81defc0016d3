import { createRootRouteWithContext } from '@tanstack/react-router';
import { loadQueryClient, type QueryContext } from '@/lib/query';
import { activateLocale, resolveLocale } from '@/lib/i18n';
import { AppShell } from '@/components/layout/app-shell';
import { NotFoundPage } from '@/components/errors/not-found-page';
import { ErrorPage } from '@/components/errors/error-page';

export interface RouterContext {
  queryClient: QueryContext;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The page and the shell render without react-query (src/lib/query.tsx): its client is not loaded for it. */
    withoutQueryClient?: boolean;
  }
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // Every page, global 404s included, is shown in the locale of its URL prefix or the stored choice.
  // Every page but those marked `withoutQueryClient` (/start, booking step 1) has the QueryClient before it
  // renders: their components use react-query's hooks.
  beforeLoad: async ({ location, matches }) => {
    const client = matches.at(-1)?.staticData.withoutQueryClient ? undefined : loadQueryClient();
    await Promise.all([activateLocale(resolveLocale(location.pathname), location.pathname), client]);
  },
  component: AppShell,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});
