import { Trans } from '@lingui/react/macro';
import { authErrorKind } from '@/features/identity/api/identity';
import { FormAlert } from '@/components/form-alert';

/** One neutral message per kind of auth failure (nothing reveals whether an address is registered). */
export function AuthError({ error }: { error: unknown }) {
  if (!error) return null;
  const kind = authErrorKind(error);
  return (
    <FormAlert className="text-sm">
      {kind === 'credentials' && <Trans>Anmeldung fehlgeschlagen. Bitte prüfen Sie E-Mail-Adresse und Passwort.</Trans>}
      {kind === 'code' && <Trans>Der Code ist falsch oder abgelaufen. Bitte prüfen Sie ihn oder fordern Sie einen neuen an.</Trans>}
      {kind === 'rate' && <Trans>Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es dann noch einmal.</Trans>}
      {kind === 'weak-password' && (
        <Trans>Das Passwort ist zu schwach: mindestens 6 Zeichen mit Klein- und Großbuchstaben und Ziffern.</Trans>
      )}
      {kind === 'second-factor' && <Trans>Bitte bestätigen Sie zuerst die Anmeldung mit dem Code aus Ihrer Authenticator-App.</Trans>}
      {kind === 'network' && <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>}
    </FormAlert>
  );
}
