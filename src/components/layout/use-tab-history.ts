import { useEffect, useSyncExternalStore } from 'react';
import { useRouterState } from '@tanstack/react-router';
import { stripLocale } from '@/lib/i18n';
import { loadTabState, recordVisit, saveTabState, type TabState } from '@/components/layout/tab-history';

let state: TabState | undefined;
const listeners = new Set<() => void>();

function current(): TabState {
  state ??= loadTabState();
  return state;
}

export function setTabState(next: TabState) {
  if (next === state) return;
  state = next;
  saveTabState(next);
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The tab histories, kept in step with the router's location (unprefixed paths). */
export function useTabHistory(): TabState {
  const href = useRouterState({ select: (s) => (s.status === 'idle' ? s.location.href : undefined) });
  useEffect(() => {
    if (!href) return;
    const url = new URL(href, 'http://x');
    setTabState(recordVisit(current(), stripLocale(url.pathname) + url.search));
  }, [href]);
  return useSyncExternalStore(subscribe, current, current);
}
