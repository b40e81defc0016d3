const KEY = 'chunk-reload-at';
const MIN_INTERVAL = 60_000;

/** Does this error say that a code-split chunk could not be loaded (e.g. after a deploy)? */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError|Unable to preload CSS/i.test(message);
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
