import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Prose, Section } from '@/components/page';
import { CancellationPolicyNote } from '@/features/booking/components/cancellation-policy-note';
import { dayBerthWindow, formatEuro, prices, streetParkingMaxHours, vatCents } from '@/lib/prices';

/** Every constant of spec section 9 as a price list; all prices net, VAT 19 % on top. */
export function PricesPage() {
  const { t, i18n } = useLingui();
  const eur = (cents: number) => formatEuro(cents, i18n.locale);
  // A worked example: a 9.4 m boat (10 running metres) for two nights.
  const exampleNet = 2 * 10 * prices.berthPerMetrePerNight + 2 * prices.additionalCostsPerNight;
  const exampleVat = vatCents(exampleNet);
  return (
    <Page title={t`Preise`} lead={t`Alle Preise sind Nettopreise; die gesetzliche Mehrwertsteuer von 19 % kommt hinzu.`}>
      <Section title={t`Liegeplätze`}>
        <FactList
          items={[
            { label: t`Übernachtung, pro laufendem Meter und Nacht`, value: eur(prices.berthPerMetrePerNight) },
            { label: t`Nebenkosten pro Nacht (Strom, Wasser, Dusche/WC, Müll)`, value: eur(prices.additionalCostsPerNight) },
            {
              label: t`Tagesliegeplatz ohne Übernachtung, pro Meter (${dayBerthWindow.from}–${dayBerthWindow.to} Uhr, höchstens ${dayBerthWindow.maxHours} Stunden)`,
              value: eur(prices.dayBerthPerMetre),
            },
          ]}
        />
        <Prose>
          <p>
            <Trans>Der laufende Meter ist die Bootslänge, aufgerundet auf den nächsten ganzen Meter. Messegäste (z. B. zur boot Düsseldorf) zahlen die Übernachtungspreise. Langzeitliegeplätze werden per Vertrag vereinbart.</Trans>
          </p>
          <p>
            <Trans>Beispiel: Ein 9,4 m langes Boot (10 laufende Meter) für zwei Nächte kostet {eur(exampleNet)} netto zzgl. {eur(exampleVat)} MwSt., zusammen {eur(exampleNet + exampleVat)}.</Trans>
          </p>
        </Prose>
        <CancellationPolicyNote />
      </Section>

      <Section title={t`Service im Hafen`}>
        <FactList
          items={[
            { label: t`Waschmaschine, pro Ladung`, value: eur(prices.washingMachinePerLoad) },
            { label: t`Bootskran, pro Tag`, value: t`ab ${eur(prices.boatLiftPerDayFrom)}` },
            { label: t`Eis, 2 kg`, value: eur(prices.ice2kg) },
            { label: t`Eis, 5 kg`, value: eur(prices.ice5kg) },
            { label: t`Pfand Kühlbox`, value: eur(prices.coolerDeposit) },
            { label: t`Pfand Schranken-Schlüssel (Parkplatz)`, value: eur(prices.parkingKeyDeposit) },
          ]}
        />
        <Prose>
          <p>
            <Trans>Pfand wird bei Rückgabe vollständig erstattet. Auf der Straße vor dem Hafen darf höchstens {streetParkingMaxHours} Stunden geparkt werden.</Trans>
          </p>
        </Prose>
      </Section>

      <p className="text-sm text-slate-700">
        <Trans>Alle Preise netto zzgl. 19 % MwSt.</Trans>{' '}
        <Link to="/{-$locale}/start/booking" className="text-primary-dark underline underline-offset-4">
          <Trans>Liegeplatz buchen</Trans>
        </Link>
      </p>
    </Page>
  );
}
