import type { MouseEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { useRouter } from '@tanstack/react-router';
import { House, LifeBuoy, Mail, UserRound } from 'lucide-react';
import { withLocale } from '@/lib/i18n';
import { tabTarget, type TabId, type TabState } from '@/components/layout/tab-history';
import { setTabState } from '@/components/layout/use-tab-history';
import { useUrlLocale } from '@/components/layout/path-link';

export interface TabLink {
  id: TabId;
  label: string;
  Icon: typeof House;
  href: string;
  active: boolean;
  onClick: (event: MouseEvent<HTMLAnchorElement>) => void;
}

/**
 * The four destinations with their own histories, for the bottom tabs (phones) and the top
 * navigation (from `md`): a click on the active one returns to its root, on another one goes
 * where that one last was.
 */
export function useTabLinks(state: TabState): TabLink[] {
  const { t } = useLingui();
  const router = useRouter();
  const locale = useUrlLocale();
  const tabs: { id: TabId; label: string; Icon: typeof House }[] = [
    { id: 'start', label: t`Start`, Icon: House },
    { id: 'service', label: t`Service`, Icon: LifeBuoy },
    { id: 'contact', label: t`Kontakt`, Icon: Mail },
    { id: 'account', label: t`Profil`, Icon: UserRound },
  ];
  return tabs.map(({ id, label, Icon }) => {
    const active = state.active === id;
    const stack = state.stacks[id];
    return {
      id,
      label,
      Icon,
      active,
      href: withLocale(active ? stack[0] : stack[stack.length - 1], locale),
      onClick: (event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        const target = tabTarget(state, id);
        setTabState(target.state);
        void router.navigate({ href: withLocale(target.path, locale) });
      },
    };
  });
}
