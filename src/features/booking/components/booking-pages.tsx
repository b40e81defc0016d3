import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Prose } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { harbour } from '@/lib/harbour';
import { formatEuro, prices } from '@/lib/prices';

/** The way into booking; the booking flow issue replaces the body with the steps. */
export function BookingPage() {
  const { t, i18n } = useLingui();
  return (
    <Page title={t`Liegeplatz buchen`} lead={t`In fünf Schritten zum Liegeplatz: Bootsdaten, Ihr Platz, Konto oder Gast, E-Mail bestätigen, Zusammenfassung.`}>
      <FactList
        items={[
          { label: t`Übernachtung, pro laufendem Meter und Nacht`, value: formatEuro(prices.berthPerMetrePerNight, i18n.locale) },
          { label: t`Nebenkosten pro Nacht`, value: formatEuro(prices.additionalCostsPerNight, i18n.locale) },
          { label: t`Tagesliegeplatz, pro Meter`, value: formatEuro(prices.dayBerthPerMetre, i18n.locale) },
        ]}
      />
      <Prose>
        <p><Trans>Die Online-Buchung wird gerade eingerichtet. Bis dahin reservieren wir gern per Telefon ({harbour.phone}) oder über das Kontaktformular – mit Bootslänge, Bootsbreite und Zeitraum.</Trans></p>
      </Prose>
      <div>
        <Link to="/{-$locale}/contact" className={buttonVariants()}><Trans>Anfrage senden</Trans></Link>
      </div>
    </Page>
  );
}

export function OrderPage({ id }: { id: string }) {
  const { t } = useLingui();
  return (
    <Page title={t`Ihre Buchung`} lead={t`Buchungsnummer ${id}`}>
      <Prose>
        <p><Trans>Melden Sie sich an, um Details und den Check-in Ihrer Buchung zu sehen.</Trans></p>
      </Prose>
      <div className="flex flex-wrap gap-2">
        <Link to="/{-$locale}/order/{-$id}/check-in" params={{ id }} className={buttonVariants()}><Trans>Einchecken</Trans></Link>
        <Link to="/{-$locale}/account/bookings" className={buttonVariants({ variant: 'outline' })}><Trans>Meine Buchungen</Trans></Link>
      </div>
    </Page>
  );
}

/** Check-in: with an id that order; without one, the visitor's orders arriving today. */
export function CheckInPage({ id }: { id?: string }) {
  const { t } = useLingui();
  return (
    <Page title={t`Check-in`} lead={id ? t`Buchung ${id}` : t`Ihre Buchungen mit Anreise heute`}>
      <Prose>
        <p><Trans>Einchecken ist am Anreisetag möglich. Melden Sie sich an oder bestätigen Sie Ihre E-Mail-Adresse, dann erscheint hier der Check-in.</Trans></p>
      </Prose>
      <div>
        <Link to="/{-$locale}/auth/login" search={{ from: undefined }} className={buttonVariants()}><Trans>Anmelden</Trans></Link>
      </div>
    </Page>
  );
}
