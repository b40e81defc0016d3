import { Trans } from '@lingui/react/macro';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';

/** The leave guard's question (leave-guard.tsx), in a chunk of its own: loaded on the page's first input. */
export function LeaveDialog({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && onStay()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>
            <Trans>Buchung abbrechen?</Trans>
          </AlertDialogTitle>
          <AlertDialogDescription>
            <Trans>Wenn Sie diese Seite verlassen, wird der Buchungsvorgang abgebrochen und Ihre Eingaben gehen verloren.</Trans>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel onClick={onStay}>
            <Trans>Weiter buchen</Trans>
          </AlertDialogCancel>
          <AlertDialogAction onClick={onLeave}>
            <Trans>Seite verlassen</Trans>
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
