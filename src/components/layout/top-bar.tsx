import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft } from 'lucide-react';
import { identityQueryOptions, isStaff } from '@/lib/auth';
import { LanguageSwitch } from './language-switch';

import { PathLink } from './path-link';

// Only staff see the drawer: its code (radix Dialog) loads only for them.
const StaffDrawer = lazy(() => import('./staff-drawer').then((m) => ({ default: m.StaffDrawer })));

export function TopBar({ backPath }: { backPath?: string }) {
  const { t } = useLingui();
  const { data: identity } = useQuery(identityQueryOptions);
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-5xl items-center gap-2 px-3">
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
        <div className="ml-auto">
          <LanguageSwitch />
        </div>
      </div>
    </header>
  );
}
