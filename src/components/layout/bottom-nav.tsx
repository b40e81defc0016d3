import { useLingui } from '@lingui/react/macro';
import { useRouter } from '@tanstack/react-router';
import { House, LifeBuoy, Mail, UserRound } from 'lucide-react';
import { withLocale } from '@/lib/i18n';
import { cn } from '@/lib/utils';
import { tabTarget, type TabId, type TabState } from './tab-history';
import { setTabState } from './use-tab-history';
import { useUrlLocale } from './path-link';

/** Four tabs, each with its own history: a tap on the active tab returns to its root. */
export function BottomNav({ state }: { state: TabState }) {
  const { t } = useLingui();
  const router = useRouter();
  const locale = useUrlLocale();
  const tabs: { id: TabId; label: string; Icon: typeof House }[] = [
    { id: 'start', label: t`Start`, Icon: House },
    { id: 'service', label: t`Service`, Icon: LifeBuoy },
    { id: 'contact', label: t`Kontakt`, Icon: Mail },
    { id: 'account', label: t`Profil`, Icon: UserRound },
  ];
  return (
    <nav aria-label={t`Hauptnavigation`} className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)]">
      <ul className="mx-auto grid h-16 max-w-5xl grid-cols-4">
        {tabs.map(({ id, label, Icon }) => {
          const active = state.active === id;
          const stack = state.stacks[id];
          const href = withLocale(active ? stack[0] : stack[stack.length - 1], locale);
          return (
            <li key={id}>
              <a
                href={href}
                data-tab={id}
                aria-current={active ? 'page' : undefined}
                onClick={(event) => {
                  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                  event.preventDefault();
                  const target = tabTarget(state, id);
                  setTabState(target.state);
                  void router.navigate({ href: withLocale(target.path, locale) });
                }}
                className={cn(
                  'flex h-full flex-col items-center justify-center gap-0.5 text-xs font-medium',
                  active ? 'text-primary-dark' : 'text-slate-600 hover:text-slate-900',
                )}
              >
                <Icon className="size-6" aria-hidden strokeWidth={active ? 2.5 : 2} />
                {label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
