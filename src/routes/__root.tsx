import { createRootRouteWithContext } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { activateLocale, resolveLocale } from '@/lib/i18n';
import { AppShell } from '@/components/layout/app-shell';
import { NotFoundPage } from '@/components/errors/not-found-page';
import { ErrorPage } from '@/components/errors/error-page';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // Every page, global 404s included, is shown in the locale of its URL prefix or the stored choice.
  beforeLoad: ({ location }) => activateLocale(resolveLocale(location.pathname), location.pathname),
  component: AppShell,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});
