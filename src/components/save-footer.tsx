import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/form-alert';

/** What a settings form's last save did: saved, or the refusal's message. */
export type SaveState = { ok: true } | { ok: false; message: string } | undefined;

/** The end of a settings form (or any small staff form): "Gespeichert." or the error (announced), then the submit button. */
export function SaveFooter({ state, submitting, children }: { state: SaveState; submitting: boolean; children: ReactNode }) {
  return (
    <>
      <div aria-live="polite">
        {state?.ok && (
          <p role="status" className="text-sm text-green-800">
            <Trans>Gespeichert.</Trans>
          </p>
        )}
        {state && !state.ok && <FormAlert className="text-sm">{state.message}</FormAlert>}
      </div>
      <div>
        <Button type="submit" disabled={submitting}>
          {children}
        </Button>
      </div>
    </>
  );
}
