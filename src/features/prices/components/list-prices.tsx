import { Trans, useLingui } from '@lingui/react/macro';
import { FactList } from '@/components/page';
import { dayBerthWindow, formatEuro } from '@/lib/prices';
import { useAppQuery } from '@/lib/query';
import { priceListQueryOptions, type PriceListEntry } from '@/features/prices/api/price-list';

/** "2,38 €" and, below it, "inkl. 19 % MwSt." (a deposit: "Pfand, ohne MwSt."). */
export function PriceValue({ entry }: { entry: PriceListEntry }) {
  const { t, i18n } = useLingui();
  const price = formatEuro(entry.price_cents, i18n.locale);
  return (
    <span className="flex flex-col items-end" data-testid={`price-${entry.code}`}>
      <span className="whitespace-nowrap">{entry.price_from ? t`ab ${price}` : price}</span>
      <span className="text-sm font-normal whitespace-nowrap text-slate-600">
        {entry.deposit ? <Trans>Pfand, ohne MwSt.</Trans> : <Trans>inkl. {entry.vat_rate} % MwSt.</Trans>}
      </span>
    </span>
  );
}

export function useEntryLabel() {
  const { t, i18n } = useLingui();
  const en = i18n.locale === 'en';
  return (e: PriceListEntry) => {
    const name = en ? e.name_en : e.name;
    switch (e.unit) {
      case 'metre_day':
        return t`${name} (${dayBerthWindow.from}–${dayBerthWindow.to} Uhr, höchstens ${dayBerthWindow.maxHours} Stunden)`;
      case 'load':
        return t`${name}, pro Ladung`;
      case 'day':
        return t`${name}, pro Tag`;
      default:
        return name;
    }
  };
}

/**
 * Entries of the price list by code, as on the prices page (gross with the VAT rate): for the
 * service pages (ice, boat lift, parking key), so they show the list's prices, never their own.
 */
export function ListPrices({ codes }: { codes: string[] }) {
  const label = useEntryLabel();
  const list = useAppQuery(priceListQueryOptions);
  if (list.isError)
    return (
      <p className="text-slate-600">
        <Trans>Die Preise sind zurzeit nicht verfügbar.</Trans>
      </p>
    );
  if (list.isPending)
    return (
      <p role="status" className="text-slate-600">
        <Trans>Preise werden geladen …</Trans>
      </p>
    );
  const entries = codes.flatMap((code) => list.data?.find((e) => e.code === code) ?? []);
  return <FactList items={entries.map((e) => ({ label: label(e), value: <PriceValue entry={e} /> }))} />;
}
