import { Trans, useLingui } from '@lingui/react/macro';
import { formatEuro } from '@/lib/prices';

/** The VAT contained in a gross total, per rate (private.invoice_vat_breakdown). */
export interface VatPart {
  vat_rate: number;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
}

/**
 * The price breakdown of quote_booking / orders.price_breakdown (all cents). The keys up to
 * gross_cents are net amounts as before issue 40; a breakdown priced from the gross price list
 * (prices_include_vat) carries the gross prices per item, their VAT rates and the VAT per rate
 * beside them (docs/adr/0011-consumer-prices-with-vat.md).
 */
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
  prices_include_vat?: boolean;
  berth_fee_per_metre_gross_cents?: number;
  berth_fee_gross_cents?: number;
  berth_vat_rate?: number;
  additional_costs_per_night_gross_cents?: number;
  additional_costs_gross_cents?: number;
  additional_costs_vat_rate?: number;
  vat_breakdown?: VatPart[];
}

type Row = { label: string; value: string; strong?: boolean; testId?: string };

/**
 * Metres, nights, berth fee, additional costs, sale code and the total price including VAT with
 * the VAT it contains (PAngV § 3: consumers see the total price). A breakdown booked before the
 * gross price list shows net, VAT and gross as it was booked.
 */
export function PriceBreakdown({ quote, label }: { quote: PriceBreakdownData; label?: string }) {
  const { t, i18n } = useLingui();
  const eur = (cents: number) => formatEuro(Number(cents), i18n.locale);
  const metres = Number(quote.metres);
  const nights = Number(quote.nights);
  const gross = quote.prices_include_vat === true;
  const perMetre = eur(gross ? (quote.berth_fee_per_metre_gross_cents ?? 0) : quote.berth_fee_per_metre_cents);
  const perNight = eur(gross ? (quote.additional_costs_per_night_gross_cents ?? 0) : quote.additional_costs_per_night_cents);
  const berthFee = gross ? (quote.berth_fee_gross_cents ?? 0) : quote.berth_fee_cents;
  const additional = gross ? (quote.additional_costs_gross_cents ?? 0) : quote.additional_costs_cents;
  const vatParts: VatPart[] =
    gross && quote.vat_breakdown?.length
      ? quote.vat_breakdown
      : [{ vat_rate: quote.vat_rate_percent, net_cents: quote.net_cents, vat_cents: quote.vat_cents, gross_cents: quote.gross_cents }];
  const rows: Row[] = [
    { label: t`Laufende Meter (Bootslänge aufgerundet)`, value: `${metres} m` },
    ...(quote.kind === 'day' ? [] : [{ label: t`Nächte`, value: String(nights) }]),
    {
      label: quote.kind === 'day' ? t`Liegegebühr (${metres} m × ${perMetre})` : t`Liegegebühr (${nights} × ${metres} m × ${perMetre})`,
      value: eur(berthFee),
    },
    ...(quote.kind === 'day'
      ? []
      : [{ label: t`Nebenkosten (${nights} × ${perNight}: Strom, Wasser, Dusche/WC, Müll)`, value: eur(additional) }]),
    ...(quote.sale_code ? [{ label: t`Aktionscode`, value: quote.sale_code }] : []),
    ...(gross
      ? [
          { label: t`Gesamtpreis`, value: eur(quote.gross_cents), strong: true, testId: 'price-gross' },
          ...vatParts.map((v) => ({
            label: t`darin enthalten: MwSt. ${v.vat_rate} %`,
            value: eur(v.vat_cents),
            testId: `price-vat-${v.vat_rate}`,
          })),
        ]
      : [
          { label: t`Netto`, value: eur(quote.net_cents) },
          { label: t`MwSt. ${quote.vat_rate_percent} %`, value: eur(quote.vat_cents) },
          { label: t`Gesamt (brutto)`, value: eur(quote.gross_cents), strong: true, testId: 'price-gross' },
        ]),
  ];
  const vatTotal = eur(vatParts.reduce((sum, v) => sum + Number(v.vat_cents), 0));
  return (
    <div className="rounded-xl border border-slate-200 bg-white">
      <dl aria-label={label ?? t`Preis`} className="divide-y divide-slate-200">
        {rows.map((r) => (
          <div key={r.label} className="flex items-baseline justify-between gap-4 px-4 py-2">
            <dt className={r.strong ? 'font-semibold text-slate-900' : 'text-slate-700'}>{r.label}</dt>
            <dd
              data-testid={r.testId}
              className={r.strong ? 'text-right text-lg font-bold whitespace-nowrap' : 'text-right whitespace-nowrap'}
            >
              {r.value}
            </dd>
          </div>
        ))}
      </dl>
      {/* Outside the <dl>: a list of terms holds only dt/dd groups (axe: definition-list). */}
      <p className="border-t border-slate-200 px-4 py-2 text-sm text-slate-600">
        {gross ? <Trans>Alle Preise in Euro inkl. {vatTotal} MwSt.</Trans> : <Trans>Alle Preise in Euro.</Trans>}
      </p>
    </div>
  );
}
