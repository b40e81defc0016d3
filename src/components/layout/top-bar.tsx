import { lazy, Suspense } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft } from 'lucide-react';
import { identityQueryOptions, isStaff } from '@/lib/auth';
import { useAppQuery } from '@/lib/query';
import { loadCatalogue } from '@/lib/i18n';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { PathLink } from '@/components/layout/path-link';
import { TopNav } from '@/components/layout/bottom-nav';
import type { TabState } from '@/components/layout/tab-history';

// Only staff see the drawer: its code (radix Dialog) and its texts (the `account` catalogue,
// lingui.config.ts) load only for them.
const StaffDrawer = lazy(() =>
  Promise.all([import('@/components/layout/staff-drawer'), loadCatalogue('account')]).then(([m]) => ({ default: m.StaffDrawer })),
);

/**
 * Sticky at the top: the menu (staff), the tab's back action, the name, from `md` the four
 * destinations, and the language switch (the back office has a top bar of its own).
 */
export function TopBar({ backPath, tabs }: { backPath?: string; tabs: TabState }) {
  const { t } = useLingui();
  const { data: identity } = useAppQuery(identityQueryOptions);
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur print:hidden">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 md:px-6">
        {identity?.status === 'loggedIn' && isStaff(identity) && (
          <Suspense fallback={<span className="size-10" />}>
            <StaffDrawer roles={identity.roles} />
          </Suspense>
        )}
        {backPath && (
          <PathLink path={backPath} replace aria-label={t`Zurück`} className="rounded-md p-2 text-slate-800 hover:bg-slate-100">
            <ChevronLeft className="size-6" aria-hidden />
          </PathLink>
        )}
        <Link to="/{-$locale}/start" className="flex min-w-0 items-center gap-2 rounded-md font-semibold text-slate-900">
          <img src="/logo.svg" alt="" width={32} height={32} className="size-8" />
          <span className="truncate">
            <Trans>Hafen Düsseldorf</Trans>
          </span>
        </Link>
        <TopNav state={tabs} className="ml-auto shrink-0" />
        <div className="ml-auto shrink-0 md:ml-2">
          <LanguageSwitch />
        </div>
      </div>
    </header>
  );
}
