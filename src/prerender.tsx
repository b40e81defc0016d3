/**
 * Build-time rendering of the public landing pages (scripts/lib/prerender.ts builds this file
 * for Node and calls `render` once per page and language). The HTML is the app's own first
 * render: data from the network (news, water levels, weather) shows its loading state, the
 * visitor is anonymous, and nothing here runs in a browser.
 */
import { renderToString } from 'react-dom/server';
import { I18nProvider } from '@lingui/react';
import { RouterProvider, createMemoryHistory, createRouter } from '@tanstack/react-router';
import { routeTree } from '@/routeTree.gen';
import { activateLocale, i18n, resolveLocale, stripLocale } from '@/lib/i18n';
import { peekQueryClient, QueryProvider, queryContext, setQueryData } from '@/lib/query';
import { identityQueryOptions } from '@/lib/auth';
import { documentTitle } from '@/lib/page-title';
import { initialTabState, recordVisit } from '@/components/layout/tab-history';
import { setTabState } from '@/components/layout/use-tab-history';
import { NotFoundPage } from '@/components/errors/not-found-page';

export { authStorageKey } from '@/lib/env';

export interface Rendered {
  /** The markup of #root. */
  html: string;
  lang: string;
  title: string;
}

/** Renders `path` (e.g. /en/service) as a visitor without a session sees it first. */
export async function render(path: string): Promise<Rendered> {
  const locale = resolveLocale(path);
  // No stored session: the app knows this before its first render (main.tsx does the same).
  setQueryData(identityQueryOptions.queryKey, { status: 'anonymous' });
  const router = createRouter({
    routeTree,
    context: { queryClient: queryContext },
    history: createMemoryHistory({ initialEntries: [path] }),
    isServer: true,
    defaultNotFoundComponent: NotFoundPage,
  });
  // The bottom navigation marks the tab of the page (the app records the visit on mount).
  setTabState(recordVisit(initialTabState(), stripLocale(path)));
  await activateLocale(locale, path);
  await router.load();
  const failed = router.state.matches.find((match) => match.status !== 'success');
  if (failed) throw new Error(`prerender ${path}: ${failed.routeId} is ${failed.status} (${String(failed.error)})`);
  const html = renderToString(
    <I18nProvider i18n={i18n}>
      <QueryProvider>
        <RouterProvider router={router} />
      </QueryProvider>
    </I18nProvider>,
  );
  const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
  // The next page starts from an empty cache, as a first visit does.
  peekQueryClient()?.clear();
  return {
    // The router's server-only scripts (scroll restoration, hydration data) are not wanted:
    // the app renders afresh over this markup.
    html: html
      .replace(/<script\b[\s\S]*?<\/script>/g, '')
      // The booking form's dates default to today: not the build's day, left empty until the app runs.
      .replace(/<input\b[^>]*\bdata-date-field=""[^>]*>/g, (input) => input.replace(/\s(?:value|data-value|min)="[^"]*"/g, '')),
    lang: locale,
    title: heading ? documentTitle(heading) : '',
  };
}
