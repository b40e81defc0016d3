import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Prose, Section } from '@/components/page';
import { berlinToday, formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { useAppQuery } from '@/lib/query';
import {
  longTermPriceListQueryOptions,
  longTermPriceOn,
  longTermPricesAfter,
  type PublicLongTermPrice,
  type PublicSeason,
} from '@/features/prices/api/long-term';

const KINDS = ['summer', 'winter', 'year_round'] as const;

/**
 * The long-term prices on /start/prices (issue 42, docs/adr/0046-seasons-and-long-term-prices.md):
 * per season kind the price in force today (basis, gross per unit and season incl. VAT with its
 * rate, PAngV § 3; the electricity flat rate), the seasons not yet over with their dates and the
 * price each is charged (the one valid on its first day), and the changes announced with their
 * first day. Read with the publishable key like the rest of the page.
 */
export function LongTermPrices() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const list = useAppQuery(longTermPriceListQueryOptions);
  const today = berlinToday();
  const eur = (cents: number) => formatEuro(cents, locale);
  const kindName = (k: PublicSeason['kind']) => (k === 'summer' ? t`Sommersaison` : k === 'winter' ? t`Wintersaison` : t`Ganzjährig`);
  const unit = (p: PublicLongTermPrice) =>
    p.basis === 'square_metre' ? t`pro m² Bootsfläche (Länge × Breite) und Saison` : t`pro laufendem Meter Bootslänge und Saison`;
  const withVat = (cents: number, rate: number) => (
    <span className="flex flex-col items-end">
      <span className="whitespace-nowrap">{eur(cents)}</span>
      <span className="text-sm font-normal whitespace-nowrap text-slate-600">
        <Trans>inkl. {rate} % MwSt.</Trans>
      </span>
    </span>
  );
  const shortPrice = (p: PublicLongTermPrice) => {
    const price = eur(p.gross_cents);
    const electricity = eur(p.electricity_gross_cents);
    const perUnit = p.basis === 'square_metre' ? t`${price} pro m²` : t`${price} pro laufendem Meter`;
    return p.electricity_gross_cents > 0 ? t`${perUnit}, Strompauschale ${electricity}` : perUnit;
  };
  if (list.isError)
    return (
      <Section title={t`Langzeitliegeplätze`}>
        <p className="text-slate-600">
          <Trans>Die Langzeitpreise sind zurzeit nicht verfügbar.</Trans>
        </p>
      </Section>
    );
  if (list.isPending)
    return (
      <Section title={t`Langzeitliegeplätze`}>
        <p role="status" className="text-slate-600">
          <Trans>Preise werden geladen …</Trans>
        </p>
      </Section>
    );
  const { seasons, prices } = list.data ?? { seasons: [], prices: [] };
  const kinds = KINDS.filter((k) => prices.some((p) => p.season_kind === k));
  if (kinds.length === 0) return null;
  return (
    <Section title={t`Langzeitliegeplätze`} data-testid="long-term-prices">
      <Prose>
        <p>
          <Trans>
            Für eine ganze Saison, unabhängig davon, wie lange das Boot im Hafen liegt. Laufende Meter und Quadratmeter werden auf ganze
            Einheiten aufgerundet (10,20 × 3,40 m = 34,68 m² → 35 m²). Eine Saison kostet, was an ihrem ersten Tag gilt; Langzeitliegeplätze
            werden per Vertrag über die Warteliste vergeben.
          </Trans>
        </p>
      </Prose>
      {kinds.map((kind) => {
        const current = longTermPriceOn(prices, kind, today);
        const announced = longTermPricesAfter(prices, kind, today);
        const open = seasons.filter((s) => s.kind === kind && s.ends_on >= today);
        return (
          <section key={kind} className="flex flex-col gap-2" data-testid={`long-term-${kind}`} aria-labelledby={`long-term-${kind}`}>
            <h3 id={`long-term-${kind}`} className="text-lg font-semibold text-slate-900">
              {kindName(kind)}
            </h3>
            {current ? (
              <FactList
                items={[
                  { label: t`Liegeplatz ${unit(current)}`, value: withVat(current.gross_cents, current.vat_rate) },
                  ...(current.electricity_gross_cents > 0
                    ? [
                        {
                          label: t`Strompauschale je Saison`,
                          value: withVat(current.electricity_gross_cents, current.electricity_vat_rate),
                        },
                      ]
                    : []),
                ]}
              />
            ) : (
              <p className="text-slate-700">
                <Trans>Noch kein Preis in Kraft.</Trans>
              </p>
            )}
            {announced.length > 0 && (
              <ul className="flex flex-col gap-1 text-slate-700">
                {announced.map((p) => {
                  const from = formatDay(p.valid_from, locale);
                  const rates =
                    p.electricity_gross_cents > 0 && p.electricity_vat_rate !== p.vat_rate
                      ? t`inkl. ${p.vat_rate} % bzw. ${p.electricity_vat_rate} % MwSt.`
                      : t`inkl. ${p.vat_rate} % MwSt.`;
                  return (
                    <li key={p.id} data-testid="long-term-announced">
                      {t`Angekündigt für Saisons ab ${from}: ${shortPrice(p)} (${rates})`}
                    </li>
                  );
                })}
              </ul>
            )}
            {open.length > 0 && (
              <ul className="flex flex-col gap-1 text-slate-700" aria-label={t`Saisons: ${kindName(kind)}`}>
                {open.map((s) => {
                  const price = longTermPriceOn(prices, kind, s.starts_on);
                  const name = (locale === 'en' && s.name_en) || s.name;
                  const span = `${formatDay(s.starts_on, locale)} – ${formatDay(s.ends_on, locale)}`;
                  return (
                    <li key={s.id} data-testid="long-term-season">
                      <span className="font-medium text-slate-900">{name}</span>: {span}
                      {price && price.id !== current?.id && <> · {shortPrice(price)}</>}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </Section>
  );
}
