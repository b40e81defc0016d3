import { useLingui } from '@lingui/react/macro';
import { cn } from '@/lib/utils';
import type { TabState } from './tab-history';
import { useTabLinks } from './tab-links';

/** Phones (below `md`): four tabs fixed at the bottom, each with its own history. */
export function BottomNav({ state }: { state: TabState }) {
  const { t } = useLingui();
  const links = useTabLinks(state);
  return (
    <nav aria-label={t`Hauptnavigation`} data-testid="bottom-nav" className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] md:hidden print:hidden">
      <ul className="mx-auto grid h-16 max-w-5xl grid-cols-4">
        {links.map(({ id, label, Icon, href, active, onClick }) => (
          <li key={id}>
            <a
              href={href}
              data-tab={id}
              aria-current={active ? 'page' : undefined}
              onClick={onClick}
              className={cn(
                'flex h-full flex-col items-center justify-center gap-0.5 text-xs font-medium',
                active ? 'text-primary-dark' : 'text-slate-600 hover:text-slate-900',
              )}
            >
              <Icon className="size-6" aria-hidden strokeWidth={active ? 2.5 : 2} />
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** From `md`: the same four destinations in the top bar (no bottom bar). */
export function TopNav({ state, className }: { state: TabState; className?: string }) {
  const { t } = useLingui();
  const links = useTabLinks(state);
  return (
    <nav aria-label={t`Hauptnavigation`} data-testid="top-nav" className={cn('hidden md:block', className)}>
      <ul className="flex items-center gap-1">
        {links.map(({ id, label, Icon, href, active, onClick }) => (
          <li key={id}>
            <a
              href={href}
              data-tab={id}
              aria-current={active ? 'page' : undefined}
              onClick={onClick}
              className={cn(
                'flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium',
                active ? 'bg-primary-light text-primary-darker' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
              )}
            >
              <Icon className="size-4" aria-hidden strokeWidth={active ? 2.5 : 2} />
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
