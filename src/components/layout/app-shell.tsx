import type { ReactNode } from 'react';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { identityQueryOptions, isStaff } from '@/lib/auth';
import { useAppQuery } from '@/lib/query';
import { TopBar } from '@/components/layout/top-bar';
import { BottomNav } from '@/components/layout/bottom-nav';
import { Footer } from '@/components/layout/footer';
import { useTabHistory } from '@/components/layout/use-tab-history';
import { useBackOfficeModule } from '@/components/layout/back-office';

/**
 * Top bar, page, footer and the four destinations with their histories: bottom tabs on phones,
 * a top navigation from `md`. The back office (staff on /account/admin/...) renders in its own
 * shell (src/components/layout/back-office-shell.tsx, a chunk only staff load).
 */
export function AppShell({ children }: { children?: ReactNode }) {
  const tabs = useTabHistory();
  const stack = tabs.stacks[tabs.active];
  const backPath = stack.length > 1 ? stack[stack.length - 2] : undefined;
  const { data: identity } = useAppQuery(identityQueryOptions);
  const inBackOffice = useRouterState({
    select: (s) => s.matches.some((m) => m.routeId === '/{-$locale}/account/admin' && m.status === 'success'),
  });
  const backOfficeModule = useBackOfficeModule();
  const staffRoles = identity?.status === 'loggedIn' && isStaff(identity) ? identity.roles : undefined;
  const BackOffice = inBackOffice && staffRoles ? backOfficeModule : undefined;
  // The back office (staff on /account/admin/...) has a shell of its own: its sidebar, its top
  // bar (public site, language, sign-out) and full-width pages; no guest navigation or footer.
  if (BackOffice && staffRoles) return <BackOffice.BackOfficeShell roles={staffRoles}>{children ?? <Outlet />}</BackOffice.BackOfficeShell>;
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        <Trans>Zum Inhalt springen</Trans>
      </a>
      <TopBar backPath={backPath} tabs={tabs} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-4 md:px-6 md:py-6">
        {children ?? <Outlet />}
      </main>
      {/* Below `md` the bottom tabs are fixed over the page's end: the footer keeps clear of them. */}
      <div className="pb-[calc(4rem+env(safe-area-inset-bottom))] md:pb-0">
        <Footer />
      </div>
      <BottomNav state={tabs} />
    </div>
  );
}
