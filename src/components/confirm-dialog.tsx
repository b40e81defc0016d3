import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/form-alert';

/**
 * The one confirmation dialog (spec section 5): a title, the question, Abbrechen and the action.
 * The action does not close the dialog by itself: the caller closes it (`onOpenChange(false)`)
 * when the action has run, so a refusal can be shown inside (`error`). While `busy`, neither
 * button nor Escape closes it. `destructive` gives the action the destructive look; `children`
 * go between the question and the buttons (a checkbox, a quote, a form field). A question with
 * several answers (e.g. how a deposit goes back) passes its buttons as `actions` instead of
 * `confirmLabel` and `onConfirm`.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  actions,
  onCancel,
  destructive,
  busy,
  confirmDisabled,
  error,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** An element that opens the dialog (rendered as the radix trigger, so focus returns to it). */
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: ReactNode;
  /** Defaults to "Abbrechen". */
  cancelLabel?: ReactNode;
  onConfirm?: () => void;
  /** Several answers instead of the one action. */
  actions?: ReactNode;
  onCancel?: () => void;
  destructive?: boolean;
  busy?: boolean;
  confirmDisabled?: boolean;
  error?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          {description !== undefined && (
            <AlertDialogDescription asChild>
              <div>{description}</div>
            </AlertDialogDescription>
          )}
        </AlertDialogHeader>
        {children}
        {error && <FormAlert className="text-sm">{error}</FormAlert>}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy} onClick={onCancel}>
            {cancelLabel ?? <Trans>Abbrechen</Trans>}
          </AlertDialogCancel>
          {actions ?? (
            <Button type="button" variant={destructive ? 'destructive' : 'default'} disabled={busy || confirmDisabled} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
