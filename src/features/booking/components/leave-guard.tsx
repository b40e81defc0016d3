import { useBlocker } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog';
import { stripLocale } from '@/lib/i18n';
import { flowHasData, getFlow, resetFlow } from '../hooks/use-booking-flow';

/**
 * Leaving the booking flow (a link, a tab, the back button past step 1, closing or reloading the
 * page) asks first: the process is aborted and the data is lost (spec section 8, "Change page").
 * Moving between steps and switching the language stay inside the flow.
 */
export function LeaveGuard() {
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) => flowHasData(getFlow()) && stripLocale(next.pathname) !== stripLocale(current.pathname),
    enableBeforeUnload: () => flowHasData(getFlow()),
    withResolver: true,
  });
  return (
    <AlertDialog open={blocker.status === 'blocked'} onOpenChange={(open) => !open && blocker.reset?.()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle><Trans>Buchung abbrechen?</Trans></AlertDialogTitle>
          <AlertDialogDescription>
            <Trans>Wenn Sie diese Seite verlassen, wird der Buchungsvorgang abgebrochen und Ihre Eingaben gehen verloren.</Trans>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel onClick={() => blocker.reset?.()}><Trans>Weiter buchen</Trans></AlertDialogCancel>
          <AlertDialogAction
            onClick={() => {
              resetFlow();
              blocker.proceed?.();
            }}
          >
            <Trans>Seite verlassen</Trans>
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
