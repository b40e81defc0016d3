/**
 * The app's QueryClient, loaded when a page first needs it (docs/adr/0043-first-load-budgets.md, "/start first
 * load to 110 KB"). react-query's core is ~11 KB gzip: the start page and the shell of an
 * anonymous visitor do without it, every other page has it before it renders.
 * - `loadQueryClient()` imports it (src/lib/query-runtime.ts) once;
 * - `queryContext` is the router context's `queryClient`: loaders call `ensureQueryData` and
 *   `prefetchQuery` as on a QueryClient, and the client is loaded first;
 * - `QueryProvider` provides it to react-query's hooks as soon as it is there (the root route's
 *   `beforeLoad` loads it for every page but those with `staticData.withoutQueryClient`);
 * - `useAppQuery` is `useQuery` for the shell and the start page: a plain fetch with a small
 *   cache while the client is not loaded, then a QueryObserver on the client (what `useQuery`
 *   does); what was fetched before goes into the client's cache when it loads, so mutations'
 *   invalidations and later pages see it.
 */
import { useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientContext, type QueryClient, type QueryKey, type QueryObserver } from '@tanstack/react-query';

type Runtime = typeof import('@/lib/query-runtime');

let runtime: Runtime | undefined;
let loading: Promise<Runtime> | undefined;
const runtimeListeners = new Set<() => void>();

/** The QueryClient, imported on first call. */
export function loadQueryClient(): Promise<QueryClient> {
  loading ??= import('@/lib/query-runtime').then(
    (loaded) => {
      runtime = loaded;
      // What the start page and the shell fetched (or were told) before: into the client's cache.
      for (const entry of cache.values()) {
        if (entry.result.status === 'success')
          loaded.queryClient.setQueryData(entry.key, entry.result.data, { updatedAt: entry.updatedAt });
      }
      for (const listener of runtimeListeners) listener();
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading.then((loaded) => loaded.queryClient);
}

/** The client if it is loaded. */
export const peekQueryClient = (): QueryClient | undefined => runtime?.queryClient;

const subscribeRuntime = (listener: () => void) => {
  runtimeListeners.add(listener);
  return () => void runtimeListeners.delete(listener);
};
const getRuntime = () => runtime;

/** The router context's `queryClient`: what loaders and guards call, each loading the client first. */
export type QueryContext = Pick<QueryClient, 'ensureQueryData' | 'prefetchQuery'>;

export const queryContext: QueryContext = {
  ensureQueryData: ((options: never) =>
    loadQueryClient().then((client) => client.ensureQueryData(options))) as QueryClient['ensureQueryData'],
  prefetchQuery: ((options: never) => loadQueryClient().then((client) => client.prefetchQuery(options))) as QueryClient['prefetchQuery'],
};

/** Provides the client to react-query's hooks once loaded (the same element before and after: nothing remounts). */
export function QueryProvider({ children }: { children: ReactNode }) {
  const loaded = useSyncExternalStore(subscribeRuntime, getRuntime, getRuntime);
  return <QueryClientContext.Provider value={loaded?.queryClient}>{children}</QueryClientContext.Provider>;
}

export interface AppQueryOptions<T> {
  queryKey: QueryKey;
  queryFn?: (context: never) => T | Promise<T>;
  staleTime?: unknown;
  retry?: unknown;
  /**
   * As useQuery's: false keeps the query from fetching (it stays pending). Before the client is
   * loaded only `false` counts (the callback form is not used by these call sites).
   */
  enabled?: unknown;
}

export interface AppQueryResult<T> {
  status: 'pending' | 'error' | 'success';
  data: T | undefined;
  error: Error | null;
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
}

interface Entry {
  key: QueryKey;
  result: AppQueryResult<unknown>;
  updatedAt: number;
  fetching?: Promise<void>;
  listeners: Set<() => void>;
}

/** Queries of the shell and the start page while the client is not loaded, by key. */
const cache = new Map<string, Entry>();

function result<T>(status: AppQueryResult<T>['status'], data: T | undefined, error: Error | null): AppQueryResult<T> {
  return { status, data, error, isPending: status === 'pending', isError: status === 'error', isSuccess: status === 'success' };
}

function entryFor(key: QueryKey): Entry {
  const hash = JSON.stringify(key);
  let entry = cache.get(hash);
  if (!entry) cache.set(hash, (entry = { key, result: result('pending', undefined, null), updatedAt: 0, listeners: new Set() }));
  return entry;
}

function update(entry: Entry, next: AppQueryResult<unknown>, updatedAt = entry.updatedAt) {
  entry.result = next;
  entry.updatedAt = updatedAt;
  for (const listener of entry.listeners) listener();
}

/** Sets a query's data, as QueryClient.setQueryData (e.g. the identity of a visitor without a session). */
export function setQueryData<T>(key: QueryKey, data: T) {
  if (runtime) runtime.queryClient.setQueryData(key, data);
  else update(entryFor(key), result('success', data, null), Date.now());
}

// The app's defaults (src/lib/query-client.ts): fresh for a minute, one retry after a second.
const staleMs = (staleTime: unknown) => (typeof staleTime === 'number' ? staleTime : staleTime === 'static' ? Infinity : 60_000);
const retries = (retry: unknown) => (retry === false ? 0 : typeof retry === 'number' ? retry : 1);

function fetchEntry<T>(entry: Entry, options: AppQueryOptions<T>) {
  const queryFn = options.queryFn as ((context: object) => T | Promise<T>) | undefined;
  if (!queryFn || entry.fetching) return;
  const controller = new AbortController();
  entry.fetching = (async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        const data = await queryFn({ queryKey: entry.key, signal: controller.signal, meta: undefined });
        const updatedAt = Date.now();
        update(entry, result('success', data, null), updatedAt);
        runtime?.queryClient.setQueryData(entry.key, data, { updatedAt });
        return;
      } catch (error) {
        if (attempt >= retries(options.retry)) {
          update(entry, result('error', entry.result.data, error instanceof Error ? error : new Error(String(error))));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** attempt, 30_000)));
      }
    }
  })().finally(() => {
    entry.fetching = undefined;
  });
}

/**
 * `useQuery` for components on pages without the client (the shell, the start page, booking
 * step 1): the same
 * result fields, from the small cache above until the client is loaded, then from a
 * QueryObserver on it as `useQuery` would (invalidations refetch it, it sees setQueryData).
 */
export function useAppQuery<T>(options: AppQueryOptions<T>): AppQueryResult<T> {
  const loaded = useSyncExternalStore(subscribeRuntime, getRuntime, getRuntime);
  const [holder] = useState<{ observer?: QueryObserver<T, Error> }>(() => ({}));
  const defaulted = loaded ? loaded.queryClient.defaultQueryOptions(options as never) : undefined;
  if (loaded && defaulted) {
    defaulted._optimisticResults = 'optimistic';
    holder.observer ??= new loaded.QueryObserver<T, Error>(loaded.queryClient, defaulted as never);
  }
  const observer = loaded ? holder.observer : undefined;
  const entry = observer ? undefined : entryFor(options.queryKey);
  const enabled = options.enabled !== false;
  const subscribe = useCallback(
    (listener: () => void) => {
      if (observer && loaded) return observer.subscribe(loaded.notifyManager.batchCalls(listener));
      entry!.listeners.add(listener);
      const stale = entry!.result.status !== 'success' || Date.now() - entry!.updatedAt > staleMs(options.staleTime);
      if (stale && enabled) fetchEntry(entry!, options);
      return () => void entry!.listeners.delete(listener);
    },
    // The options of a call site are a module constant but for its key and `enabled`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [observer, entry, enabled],
  );
  const snapshot = () => (observer ? observer.getCurrentResult() : entry!.result);
  useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    if (observer && defaulted) observer.setOptions(defaulted as never);
  });
  return (observer ? observer.getOptimisticResult(defaulted as never) : entry!.result) as AppQueryResult<T>;
}
