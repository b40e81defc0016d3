import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Prose } from '@/components/page';
import { harbour } from '@/lib/harbour';

function Interim() {
  return (
    <Prose>
      <p><Trans>Diese Funktion wird gerade eingerichtet. Bis dahin hilft Ihnen das Hafenbüro weiter: {harbour.phone}, {harbour.email}.</Trans></p>
      <p><Link to="/{-$locale}/auth/login" search={{ from: undefined }}><Trans>Zur Anmeldung</Trans></Link></p>
    </Prose>
  );
}

export function RegisterPage() {
  const { t } = useLingui();
  return <Page title={t`Registrieren`} lead={t`Legen Sie ein Konto an, um Buchungen und Bootsdaten zu verwalten.`}><Interim /></Page>;
}

export function PasswordForgottenPage() {
  const { t } = useLingui();
  return <Page title={t`Passwort vergessen`} lead={t`Wir senden Ihnen einen Code, mit dem Sie ein neues Passwort setzen.`}><Interim /></Page>;
}

export function ResetPasswordPage() {
  const { t } = useLingui();
  return <Page title={t`Neues Passwort`} lead={t`Setzen Sie ein neues Passwort für Ihr Konto.`}><Interim /></Page>;
}
