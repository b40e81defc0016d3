import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { formatEuro } from '@/lib/prices';
import { numberLocale } from '@/lib/numbers';
import { overviewFiguresQueryOptions } from '@/features/harbour/overview/api/overview-figures';
import { FormAlert } from '@/components/form-alert';

function Tile({ label, value, detail, id }: { label: string; value: ReactNode; detail?: ReactNode; id: string }) {
  return (
    <div data-figure={id} className="flex flex-col gap-0.5 rounded-lg border border-slate-200 bg-white p-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
      {detail && <dd className="text-sm text-slate-600">{detail}</dd>}
    </div>
  );
}

/**
 * The overview's figures at a glance (issue 40, items 14 and 15): today's arrivals still expected
 * (and already arrived), departures, berths occupied today, money to pay back, and this week's
 * bookings against last week's. The numbers come from the database (overview_figures).
 */
export function OverviewFigures() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const { data, error } = useQuery(overviewFiguresQueryOptions());
  const pct = (n: number) => new Intl.NumberFormat(numberLocale(locale), { style: 'percent', maximumFractionDigits: 0 }).format(n);
  const count = (n: number) => new Intl.NumberFormat(numberLocale(locale)).format(n);
  if (error)
    return (
      <FormAlert>
        <Trans>Die Kennzahlen konnten nicht geladen werden.</Trans>
      </FormAlert>
    );
  if (!data)
    return (
      <p className="text-sm text-slate-600">
        <Trans>Kennzahlen werden geladen …</Trans>
      </p>
    );
  const occupancy = data.berths_bookable > 0 ? data.berths_occupied / data.berths_bookable : 0;
  const trend = data.bookings_week - data.bookings_prior_week;
  const trendText =
    trend > 0
      ? t`${count(trend)} mehr als in den 7 Tagen davor (${count(data.bookings_prior_week)})`
      : trend < 0
        ? t`${count(-trend)} weniger als in den 7 Tagen davor (${count(data.bookings_prior_week)})`
        : t`so viele wie in den 7 Tagen davor`;
  return (
    <section aria-label={t`Auf einen Blick`}>
      <h2 className="sr-only">
        <Trans>Auf einen Blick</Trans>
      </h2>
      <dl className="grid grid-cols-2 gap-2 md:grid-cols-3 xl:grid-cols-5">
        <Tile
          id="arrivals"
          label={t`Anreisen heute`}
          value={count(data.arrivals_expected)}
          detail={<Trans>noch erwartet · {count(data.arrivals_arrived)} schon angekommen</Trans>}
        />
        <Tile id="departures" label={t`Abreisen heute`} value={count(data.departures)} />
        <Tile
          id="occupancy"
          label={t`Belegung heute`}
          value={pct(occupancy)}
          detail={t`${count(data.berths_occupied)} von ${count(data.berths_bookable)} Liegeplätzen`}
        />
        <Tile
          id="refunds"
          label={t`Geld zurückzuzahlen`}
          value={formatEuro(data.refund_cents, locale)}
          detail={<Plural value={data.refund_orders} one="# Bestellung" other="# Bestellungen" />}
        />
        <Tile
          id="bookings"
          label={t`Buchungen (7 Tage)`}
          value={count(data.bookings_week)}
          detail={
            <>
              {trendText}
              <span className="block">{t`Umsatz ${formatEuro(data.revenue_week_cents, locale)} (davor ${formatEuro(data.revenue_prior_week_cents, locale)})`}</span>
            </>
          }
        />
      </dl>
    </section>
  );
}
