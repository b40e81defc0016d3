import { Trans } from '@lingui/react/macro';
import { ConfirmDialog } from '@/components/confirm-dialog';

/** The leave guard's question (leave-guard.tsx), in a chunk of its own: loaded on the page's first input. */
export function LeaveDialog({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onStay()}
      title={<Trans>Buchung abbrechen?</Trans>}
      description={<Trans>Wenn Sie diese Seite verlassen, wird der Buchungsvorgang abgebrochen und Ihre Eingaben gehen verloren.</Trans>}
      cancelLabel={<Trans>Weiter buchen</Trans>}
      confirmLabel={<Trans>Seite verlassen</Trans>}
      onConfirm={onLeave}
    />
  );
}
