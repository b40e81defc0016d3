import type { ReactNode } from 'react';
import { Outlet } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { TopBar } from './top-bar';
import { BottomNav } from './bottom-nav';
import { Footer } from './footer';
import { useTabHistory } from './use-tab-history';

/** Top bar, page, footer and the bottom navigation with its four tab histories. */
export function AppShell({ children }: { children?: ReactNode }) {
  const tabs = useTabHistory();
  const stack = tabs.stacks[tabs.active];
  const backPath = stack.length > 1 ? stack[stack.length - 2] : undefined;
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        <Trans>Zum Inhalt springen</Trans>
      </a>
      <TopBar backPath={backPath} />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-4 md:py-6">
        {children ?? <Outlet />}
      </main>
      <div className="pb-16">
        <Footer />
      </div>
      <BottomNav state={tabs} />
    </div>
  );
}
