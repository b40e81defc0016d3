import { useSyncExternalStore } from 'react';

/**
 * The back-office shell (sidebar) is its own chunk: only staff load it, and the back office's
 * route loads it in beforeLoad, so its pages render with it at once (no fallback, no remount).
 */
type BackOfficeModule = typeof import('@/components/layout/back-office-shell');

let loaded: BackOfficeModule | undefined;
let loading: Promise<BackOfficeModule> | undefined;
const listeners = new Set<() => void>();

export function loadBackOfficeShell(): Promise<BackOfficeModule> {
  loading ??= import('@/components/layout/back-office-shell').then((m) => {
    loaded = m;
    for (const l of listeners) l();
    return m;
  });
  return loading;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The shell module once loaded (undefined before). */
export function useBackOfficeModule(): BackOfficeModule | undefined {
  return useSyncExternalStore(
    subscribe,
    () => loaded,
    () => loaded,
  );
}
