import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { formatDay, nightsBetween } from '@/lib/dates';
import { formatSize } from '@/lib/numbers';
import { formatEuro } from '@/lib/prices';
import { quoteQueryOptions } from '@/features/booking/api/quote-booking';
import type { PlaceResult, Quote } from '@/features/booking/api/types';
import { parseDecimal, type BerthDataValues } from '@/features/booking/schemas/berth-values';
import { PlacePhoto } from '@/features/booking/components/place-photo';

const LARGE = '(min-width: 1024px)';
const subscribeLarge = (onChange: () => void) => {
  const query = window.matchMedia(LARGE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
/** From 1024 px the panel stands beside the step; below, the compact line (one of them in the page, never both). */
const useLarge = () =>
  useSyncExternalStore(
    subscribeLarge,
    () => window.matchMedia(LARGE).matches,
    () => false,
  );

/** The photo in the summary: 16:9 at the panel's width (18rem), twice that for dense screens. */
const SUMMARY_PHOTO = { width: 288, height: 162 } as const;

/**
 * What is being booked, from step 2 on (issue 40, items 13 and 15): berth (with its photo once
 * chosen), period, nights, boat and the price with its VAT, from the same quote_booking the
 * summary step confirms (the same query, so the same figures). At 1024 px and more a panel
 * beside the step that stays in view while the step scrolls; on smaller screens a compact line
 * above the step that opens to the same facts.
 */
export default function BookingSummary({
  berth,
  place,
  saleCode = '',
}: {
  berth: BerthDataValues;
  place?: PlaceResult;
  saleCode?: string;
}) {
  const { t, i18n } = useLingui();
  const quote = useQuery(quoteQueryOptions(berth, saleCode));
  const large = useLarge();
  const [open, setOpen] = useState(false);
  const eur = (cents: number) => formatEuro(Number(cents), i18n.locale);
  const period =
    berth.kind === 'day'
      ? t`${formatDay(berth.arrival, i18n.locale)}, ${berth.dayStart}–${berth.dayEnd} Uhr`
      : t`${formatDay(berth.arrival, i18n.locale)} bis ${formatDay(berth.departure, i18n.locale)}`;
  const nights = nightsBetween(berth.arrival, berth.departure);
  const length = <Plural value={nights} one="# Nacht" other="# Nächte" />;
  const boat = `${berth.boatName}${berth.boatTag ? ` (${berth.boatTag})` : ''}, ${formatSize(parseDecimal(berth.boatLength), parseDecimal(berth.boatWidth), i18n.locale)}`;
  const photoAlt = place
    ? place.pier
      ? t`Foto von Liegeplatz ${place.name} an Steg ${place.pier}`
      : t`Foto von Liegeplatz ${place.name}`
    : '';

  const facts = (
    <dl className="grid gap-2 text-sm">
      <Fact label={t`Liegeplatz`}>
        {place ? (
          <span data-testid="summary-berth">{place.name}</span>
        ) : (
          <span className="font-normal text-slate-600">
            <Trans>noch nicht gewählt</Trans>
          </span>
        )}
      </Fact>
      <Fact label={t`Zeitraum`}>{period}</Fact>
      <Fact label={berth.kind === 'day' ? t`Art` : t`Aufenthalt`}>{berth.kind === 'day' ? <Trans>Tagesliegeplatz</Trans> : length}</Fact>
      <Fact label={t`Boot`}>{boat}</Fact>
    </dl>
  );
  // The step reports a failing search or quote itself (its alert); the summary then shows no
  // price rather than the same message twice. No live region either: the step has its own.
  const price = quote.data ? (
    <PriceLines quote={quote.data} eur={eur} />
  ) : quote.isError ? null : (
    <p className="text-sm text-slate-700">
      <Trans>Preis wird berechnet …</Trans>
    </p>
  );

  if (!large) {
    return (
      // Phones and tablets: one line above the step (berth, length, total), the facts on demand.
      // Its facts are rendered only while open, so a closed line does not hide a second copy of them.
      <details
        className="group rounded-xl border border-slate-200 bg-white"
        data-testid="summary-compact"
        open={open}
        onToggle={(e) => setOpen(e.currentTarget.open)}
      >
        <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-3 py-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-700 [&::-webkit-details-marker]:hidden">
          <span className="min-w-0 text-sm">
            <span className="font-semibold">{place ? <Trans>Liegeplatz {place.name}</Trans> : <Trans>Ihre Buchung</Trans>}</span>
            {' · '}
            {berth.kind === 'day' ? <Trans>Tagesliegeplatz</Trans> : length}
          </span>
          <span className="shrink-0 text-right">
            {quote.data && (
              <span className="block font-bold" data-testid="summary-compact-gross">
                {eur(quote.data.gross_cents)}
              </span>
            )}
            <span className="text-xs text-primary-dark underline underline-offset-2 group-open:hidden">
              <Trans>Details</Trans>
            </span>
          </span>
        </summary>
        {open && (
          <div className="flex flex-col gap-3 border-t border-slate-200 p-3">
            {place?.image_path && (
              <PlacePhoto
                path={place.image_path}
                alt={photoAlt}
                size={SUMMARY_PHOTO}
                className="aspect-video w-full rounded-md object-cover"
              />
            )}
            {facts}
            {price}
          </div>
        )}
      </details>
    );
  }
  return (
    // From 1024 px: beside the step, in view while the page scrolls (below the sticky top bar).
    <aside
      aria-label={t`Ihre Buchung`}
      data-testid="booking-summary"
      className="sticky top-20 flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 className="text-lg font-semibold">
        <Trans>Ihre Buchung</Trans>
      </h2>
      {place?.image_path && (
        <PlacePhoto path={place.image_path} alt={photoAlt} size={SUMMARY_PHOTO} className="aspect-video w-full rounded-md object-cover" />
      )}
      {facts}
      {price}
    </aside>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-slate-700">{label}</dt>
      <dd className="min-w-0 text-right font-medium text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** The total with VAT first (what a consumer pays, PAngV § 3), then the VAT in it and the net (a sale code is in the total; step 5 names it). */
function PriceLines({ quote, eur }: { quote: Quote; eur: (cents: number) => string }) {
  const { t } = useLingui();
  const gross = Number(quote.gross_cents);
  const vat = Number(quote.vat_cents);
  return (
    <dl aria-label={t`Preis`} className="grid gap-1 border-t border-slate-200 pt-3 text-sm">
      <div className="flex items-baseline justify-between gap-3">
        <dt className="font-semibold text-slate-900">
          <Trans>Gesamtpreis</Trans>
        </dt>
        <dd className="text-lg font-bold" data-testid="summary-gross">
          {eur(gross)}
        </dd>
      </div>
      <div className="flex items-baseline justify-between gap-3 text-slate-700">
        <dt>
          <Trans>darin MwSt.</Trans>
        </dt>
        <dd>{eur(vat)}</dd>
      </div>
      <div className="flex items-baseline justify-between gap-3 text-slate-700">
        <dt>
          <Trans>Netto</Trans>
        </dt>
        <dd>{eur(gross - vat)}</dd>
      </div>
    </dl>
  );
}
