/**
 * The last answer an outside source (PEGELONLINE, Bright Sky) gave on this device, kept in
 * localStorage: when the source cannot be reached the page shows it with the time it was
 * known, instead of only "not available".
 */
export interface LastKnown<T> {
  /** When the app received it (ISO). */
  at: string;
  data: T;
}

const key = (name: string) => `last-known:${name}`;

/** Wraps a query function: every successful answer is remembered. */
export function remembering<T>(name: string, fetcher: () => Promise<T>): () => Promise<T> {
  return async () => {
    const data = await fetcher();
    try {
      localStorage.setItem(key(name), JSON.stringify({ at: new Date().toISOString(), data } satisfies LastKnown<T>));
    } catch {
      // Storage blocked or full: nothing to remember, the live value is shown.
    }
    return data;
  };
}

/** The remembered answer, or null (none yet, storage blocked, or unreadable). */
export function lastKnown<T>(name: string): LastKnown<T> | null {
  try {
    const raw = localStorage.getItem(key(name));
    if (!raw) return null;
    const value = JSON.parse(raw) as LastKnown<T>;
    return typeof value?.at === 'string' && value.data ? value : null;
  } catch {
    return null;
  }
}
