import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Prose, Section } from '@/components/page';
import { CancellationPolicyNote } from '@/features/booking';
import { formatEuro, streetParkingMaxHours } from '@/lib/prices';
import { useAppQuery } from '@/lib/query';
import { priceListQueryOptions, priceOf, vatInGross, type PriceListEntry } from '@/features/prices/api/price-list';
import { PriceValue, useEntryLabel } from '@/features/prices/components/list-prices';
import { LongTermPrices } from '@/features/prices/components/long-term-prices';

/**
 * /start/prices: the harbour's one price list (public.price_list: the berth tariffs and the
 * active extras), read from the database, every price the total a consumer pays including VAT
 * with its rate (PAngV § 3; docs/adr/0011-consumer-prices-with-vat.md). One <Section> per topic,
 * so other topics (e.g. the cancellation policy) slot in as sections of their own.
 */
export function PricesPage() {
  const { t } = useLingui();
  const list = useAppQuery(priceListQueryOptions);
  return (
    <Page title={t`Preise`} lead={t`Alle Preise sind Gesamtpreise in Euro einschließlich der gesetzlichen Mehrwertsteuer.`}>
      {list.isError ? (
        <p role="alert" className="text-slate-700">
          <Trans>Die Preisliste ist zurzeit nicht verfügbar. Bitte versuchen Sie es später noch einmal oder fragen Sie im Hafenbüro.</Trans>
        </p>
      ) : list.isPending ? (
        <p role="status" className="text-slate-600">
          <Trans>Preise werden geladen …</Trans>
        </p>
      ) : (
        <>
          <BerthSection list={list.data ?? []} />
          <ServiceSection list={list.data ?? []} />
        </>
      )}
      <LongTermPrices />
      <BookSection />
    </Page>
  );
}

function BerthSection({ list }: { list: PriceListEntry[] }) {
  const { t, i18n } = useLingui();
  const label = useEntryLabel();
  const eur = (cents: number) => formatEuro(cents, i18n.locale);
  const tariffs = list.filter((e) => e.kind === 'tariff');
  // A worked example from the list: a 9.4 m boat (10 running metres) for two nights.
  const berth = priceOf(list, 'berth_night_per_metre');
  const additional = priceOf(list, 'additional_costs_night');
  // The VAT taken out per rate, as on the invoice (private.invoice_vat_breakdown).
  const example =
    berth && additional
      ? {
          gross: 2 * 10 * berth.price_cents + 2 * additional.price_cents,
          vat:
            berth.vat_rate === additional.vat_rate
              ? vatInGross(2 * 10 * berth.price_cents + 2 * additional.price_cents, berth.vat_rate)
              : vatInGross(2 * 10 * berth.price_cents, berth.vat_rate) + vatInGross(2 * additional.price_cents, additional.vat_rate),
        }
      : null;
  return (
    <Section title={t`Liegeplätze`}>
      <FactList items={tariffs.map((e) => ({ label: label(e), value: <PriceValue entry={e} /> }))} />
      <Prose>
        <p>
          <Trans>
            Der laufende Meter ist die Bootslänge, aufgerundet auf den nächsten ganzen Meter. Messegäste (z. B. zur boot Düsseldorf) zahlen
            die Übernachtungspreise. Langzeitliegeplätze werden per Vertrag vereinbart.
          </Trans>
        </p>
        {example && (
          <p data-testid="price-example">
            <Trans>
              Beispiel: Ein 9,4 m langes Boot (10 laufende Meter) für zwei Nächte kostet {eur(example.gross)} (darin {eur(example.vat)}{' '}
              MwSt.).
            </Trans>
          </p>
        )}
      </Prose>
      <CancellationPolicyNote />
    </Section>
  );
}

function ServiceSection({ list }: { list: PriceListEntry[] }) {
  const { t } = useLingui();
  const label = useEntryLabel();
  const extras = list.filter((e) => e.kind === 'extra');
  return (
    <Section title={t`Service im Hafen`}>
      <FactList items={extras.map((e) => ({ label: label(e), value: <PriceValue entry={e} /> }))} />
      <Prose>
        <p>
          <Trans>
            Pfand wird bei Rückgabe vollständig erstattet. Auf der Straße vor dem Hafen darf höchstens {streetParkingMaxHours} Stunden
            geparkt werden.
          </Trans>
        </p>
      </Prose>
    </Section>
  );
}

function BookSection() {
  return (
    <p className="text-sm text-slate-700">
      <Trans>Alle Preise inkl. MwSt.</Trans>{' '}
      <Link to="/{-$locale}/start/booking" className="text-primary-dark underline underline-offset-4">
        <Trans>Liegeplatz buchen</Trans>
      </Link>
    </p>
  );
}
