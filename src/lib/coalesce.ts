/**
 * Coalesces a burst of calls (realtime events) into at most one call per `windowMs`: the first
 * call runs at once, later calls inside the window become one call at its end. A refetch that
 * every event restarts (react-query cancels a running fetch when a query is invalidated again)
 * never finishes while events keep arriving faster than it takes; one call per window lets it.
 */
export function coalesce(fn: () => void, windowMs: number): { (): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  const open = () => {
    timer = setTimeout(() => {
      timer = undefined;
      if (pending) {
        pending = false;
        fn();
        open();
      }
    }, windowMs);
  };
  const call = () => {
    if (timer !== undefined) {
      pending = true;
      return;
    }
    fn();
    open();
  };
  call.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = false;
  };
  return call;
}
