import { useLingui } from '@lingui/react/macro';
import { clsx } from 'clsx';
import type { TabState } from '@/components/layout/tab-history';
import { useTabLinks } from '@/components/layout/tab-links';

const variants = {
  bottom: {
    nav: 'fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] md:hidden print:hidden',
    list: 'mx-auto grid h-16 max-w-5xl grid-cols-4',
    link: 'flex h-full flex-col items-center justify-center gap-0.5 text-xs font-medium',
    active: 'text-primary-dark',
    idle: 'text-slate-600 hover:text-slate-900',
    icon: 'size-6',
  },
  top: {
    nav: 'hidden md:block',
    list: 'flex items-center gap-1',
    link: 'flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium',
    active: 'bg-primary-light text-primary-darker',
    idle: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
    icon: 'size-4',
  },
};

/**
 * The four destinations, each with its own history: on phones (below `md`) tabs fixed at the
 * bottom, from `md` a navigation in the top bar (and no bottom bar).
 */
function TabNav({ state, variant, className }: { state: TabState; variant: keyof typeof variants; className?: string }) {
  const { t } = useLingui();
  const links = useTabLinks(state);
  const v = variants[variant];
  return (
    <nav aria-label={t`Hauptnavigation`} data-testid={`${variant}-nav`} className={clsx(v.nav, className)}>
      <ul className={v.list}>
        {links.map(({ id, label, Icon, href, active, onClick }) => (
          <li key={id}>
            <a
              href={href}
              data-tab={id}
              aria-current={active ? 'page' : undefined}
              onClick={onClick}
              className={clsx(v.link, active ? v.active : v.idle)}
            >
              <Icon className={v.icon} aria-hidden strokeWidth={active ? 2.5 : 2} />
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function BottomNav({ state }: { state: TabState }) {
  return <TabNav state={state} variant="bottom" />;
}

export function TopNav({ state, className }: { state: TabState; className?: string }) {
  return <TabNav state={state} variant="top" className={className} />;
}
