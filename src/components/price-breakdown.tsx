import { Trans, useLingui } from '@lingui/react/macro';
import { formatEuro } from '@/lib/prices';

/** The price breakdown of quote_booking / orders.price_breakdown (all cents). */
export interface PriceBreakdownData {
  kind: 'day' | 'overnight' | 'fair';
  metres: number;
  nights: number;
  berth_fee_per_metre_cents: number;
  berth_fee_cents: number;
  additional_costs_per_night_cents: number;
  additional_costs_cents: number;
  sale_code: string | null;
  net_cents: number;
  vat_rate_percent: number;
  vat_cents: number;
  gross_cents: number;
}

/** Metres, nights, berth fee, additional costs, sale code, net, VAT 19 %, gross: as on a German invoice. */
export function PriceBreakdown({ quote, label }: { quote: PriceBreakdownData; label?: string }) {
  const { t, i18n } = useLingui();
  const eur = (cents: number) => formatEuro(Number(cents), i18n.locale);
  const metres = Number(quote.metres);
  const nights = Number(quote.nights);
  const perMetre = eur(quote.berth_fee_per_metre_cents);
  const perNight = eur(quote.additional_costs_per_night_cents);
  const rows: { label: string; value: string; strong?: boolean; testId?: string }[] = [
    { label: t`Laufende Meter (Bootslänge aufgerundet)`, value: `${metres} m` },
    ...(quote.kind === 'day' ? [] : [{ label: t`Nächte`, value: String(nights) }]),
    {
      label: quote.kind === 'day' ? t`Liegegebühr (${metres} m × ${perMetre})` : t`Liegegebühr (${nights} × ${metres} m × ${perMetre})`,
      value: eur(quote.berth_fee_cents),
    },
    ...(quote.kind === 'day'
      ? []
      : [{ label: t`Nebenkosten (${nights} × ${perNight}: Strom, Wasser, Dusche/WC, Müll)`, value: eur(quote.additional_costs_cents) }]),
    ...(quote.sale_code ? [{ label: t`Aktionscode`, value: quote.sale_code }] : []),
    { label: t`Netto`, value: eur(quote.net_cents) },
    { label: t`MwSt. ${quote.vat_rate_percent} %`, value: eur(quote.vat_cents) },
    { label: t`Gesamt (brutto)`, value: eur(quote.gross_cents), strong: true, testId: 'price-gross' },
  ];
  return (
    <div className="rounded-xl border border-slate-200 bg-white">
      <dl aria-label={label ?? t`Preis`} className="divide-y divide-slate-200">
        {rows.map((r) => (
          <div key={r.label} className="flex items-baseline justify-between gap-4 px-4 py-2">
            <dt className={r.strong ? 'font-semibold text-slate-900' : 'text-slate-700'}>{r.label}</dt>
            <dd data-testid={r.testId} className={r.strong ? 'text-right text-lg font-bold whitespace-nowrap' : 'text-right whitespace-nowrap'}>{r.value}</dd>
          </div>
        ))}
      </dl>
      {/* Outside the <dl>: a list of terms holds only dt/dd groups (axe: definition-list). */}
      <p className="border-t border-slate-200 px-4 py-2 text-sm text-slate-600"><Trans>Alle Preise in Euro.</Trans></p>
    </div>
  );
}
