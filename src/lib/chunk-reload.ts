const KEY = 'chunk-reload-at';
const MIN_INTERVAL = 60_000;

/** Does this error say that a code-split chunk could not be loaded (e.g. after a deploy)? */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * Reloads the page to fetch the current build, at most once a minute (so a chunk that is
 * really gone shows the error page instead of a reload loop). Returns whether it reloads.
 */
export function reloadForChunkError(now = Date.now()): boolean {
  let last = 0;
  try {
    last = Number(localStorage.getItem(KEY) ?? 0);
  } catch {
    // no storage: still allow one reload
  }
  if (now - last < MIN_INTERVAL) return false;
  try {
    localStorage.setItem(KEY, String(now));
  } catch {
    // ignore
  }
  window.location.reload();
  return true;
}

const ROUTER_PREFIX = 'tanstack_router_reload:';

function lastReload(): number {
  try {
    return Number(localStorage.getItem(KEY) ?? 0);
  } catch {
    return 0;
  }
}

/**
 * TanStack Router's lazy route components reload by themselves when their chunk is missing,
 * once per error message per session (a sessionStorage mark). Make them follow our policy
 * instead: the mark reads as present while a chunk reload happened less than a minute ago,
 * and setting it records the reload. So every path reloads at most once a minute.
 */
export function shareRouterReloadPolicy() {
  const { getItem, setItem } = Storage.prototype;
  Storage.prototype.getItem = function (this: Storage, key: string) {
    if (typeof key === 'string' && key.startsWith(ROUTER_PREFIX) && this === window.sessionStorage) {
      return Date.now() - lastReload() < MIN_INTERVAL ? '1' : null;
    }
    return getItem.call(this, key);
  };
  Storage.prototype.setItem = function (this: Storage, key: string, value: string) {
    if (typeof key === 'string' && key.startsWith(ROUTER_PREFIX) && this === window.sessionStorage) {
      setItem.call(window.localStorage, KEY, String(Date.now()));
      return;
    }
    setItem.call(this, key, value);
  };
}
