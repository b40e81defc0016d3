import { lazy, Suspense, useEffect, useState } from 'react';
import { useBlocker } from '@tanstack/react-router';
import { stripLocale } from '@/lib/i18n';
import { flowHasData, getFlow, resetFlow } from '@/features/booking/hooks/use-booking-flow';

const loadDialog = () => import('@/features/booking/components/leave-dialog');
const LeaveDialog = lazy(() => loadDialog().then((m) => ({ default: m.LeaveDialog })));

/**
 * Leaving the booking flow (a link, a tab, the back button past step 1, closing or reloading the
 * page) asks first: the process is aborted and the data is lost (spec section 8, "Change page").
 * Moving between steps and switching the language stay inside the flow.
 * The dialog (radix AlertDialog) is not part of the page's first download: it loads on the
 * first input (nothing can be lost before one) or, a flow restored from session storage, at once.
 */
export function LeaveGuard() {
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) => flowHasData(getFlow()) && stripLocale(next.pathname) !== stripLocale(current.pathname),
    enableBeforeUnload: () => flowHasData(getFlow()),
    withResolver: true,
  });
  const [wanted, setWanted] = useState(() => flowHasData(getFlow()));
  useEffect(() => {
    if (wanted) {
      void loadDialog().catch(() => undefined);
      return;
    }
    const want = () => setWanted(true);
    const events = ['pointerdown', 'keydown', 'input'] as const;
    for (const e of events) window.addEventListener(e, want, { once: true, capture: true, passive: true });
    return () => {
      for (const e of events) window.removeEventListener(e, want, { capture: true });
    };
  }, [wanted]);
  const blocked = blocker.status === 'blocked';
  if (!wanted && !blocked) return null;
  return (
    <Suspense fallback={null}>
      <LeaveDialog
        open={blocked}
        onStay={() => blocker.reset?.()}
        onLeave={() => {
          resetFlow();
          blocker.proceed?.();
        }}
      />
    </Suspense>
  );
}
