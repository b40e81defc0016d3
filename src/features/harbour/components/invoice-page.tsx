import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { formatBerlinDateTime, formatDay, berlinDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { orderDetailQueryOptions, orderErrorMessage } from '../api/orders';

/**
 * Print rules for the invoice: only the sheet is printed (the app's bars, drawer and buttons are
 * hidden without touching the shell), on A4 with plain margins.
 */
const PRINT_CSS = `
@page { size: A4; margin: 18mm 16mm; }
@media print {
  body * { visibility: hidden !important; }
  #invoice-sheet, #invoice-sheet * { visibility: visible !important; }
  #invoice-sheet { position: absolute; inset: 0 auto auto 0; width: 100%; border: 0 !important; box-shadow: none !important; padding: 0 !important; }
}
`;

/** A German invoice (§ 14 UStG) of a paid order, in the page's language, ready to print. */
export function InvoicePage({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const detail = useQuery(orderDetailQueryOptions(id));
  if (detail.isPending) return <Page title={t`Rechnung`}><p role="status"><Trans>Lädt…</Trans></p></Page>;
  if (detail.isError) return <Page title={t`Rechnung`}><p role="alert" className="text-red-800">{orderErrorMessage(detail.error)}</p></Page>;
  const d = detail.data;
  if (!d?.invoice) {
    return (
      <Page title={t`Rechnung`}>
        <p role="alert"><Trans>Für diese Buchung gibt es keine Rechnung: sie entsteht, sobald die Buchung bezahlt ist.</Trans></p>
        <Link to="/{-$locale}/account/admin/orders/$id" params={{ id }} className="text-primary-dark underline"><Trans>Zur Buchung</Trans></Link>
      </Page>
    );
  }
  const o = d.order;
  const inv = d.invoice;
  const b = o.price_breakdown;
  const issuer = inv.issuer ?? {};
  const r = inv.recipient;
  const eur = (cents: number) => formatEuro(Number(cents), locale);
  const metres = Number(b.metres);
  const nights = Number(b.nights);
  const place = o.place_snapshot.name;
  const boat = o.boat.name;
  const lines =
    o.kind === 'day'
      ? [{ text: t`Tagesliegeplatz ${place}, Boot „${boat}“: ${metres} m × ${eur(b.berth_fee_per_metre_cents)}`, cents: b.berth_fee_cents }]
      : [
          { text: t`Liegegebühr Liegeplatz ${place}, Boot „${boat}“: ${nights} Nächte × ${metres} m × ${eur(b.berth_fee_per_metre_cents)}`, cents: b.berth_fee_cents },
          { text: t`Nebenkosten (Strom, Wasser, Dusche/WC, Müll): ${nights} × ${eur(b.additional_costs_per_night_cents)}`, cents: b.additional_costs_cents },
        ];
  const serviceFrom = formatDay(berlinDay(o.starts_at), locale);
  const serviceTo = formatDay(berlinDay(o.ends_at), locale);
  const service = o.kind === 'day' ? serviceFrom : `${serviceFrom} – ${serviceTo}`;
  const recipientName = [r.first_name, r.last_name].filter(Boolean).join(' ');
  const recipientCity = [r.postal_code, r.city].filter(Boolean).join(' ');
  const vatRate = Number(b.vat_rate_percent ?? 19);

  return (
    <Page title={t`Rechnung ${inv.invoice_number}`}>
      <style>{PRINT_CSS}</style>
      <div className="flex flex-wrap gap-3 print:hidden">
        <Button onClick={() => window.print()}><Trans>Drucken</Trans></Button>
        <Link to="/{-$locale}/account/admin/orders/$id" params={{ id }} className="self-center text-primary-dark underline underline-offset-4"><Trans>Zur Buchung</Trans></Link>
      </div>
      <div id="invoice-sheet" className="mx-auto flex w-full max-w-3xl flex-col gap-6 rounded-xl border border-slate-200 bg-white p-8 text-slate-900 shadow-sm" aria-label={t`Rechnung`}>
        <header className="flex flex-wrap justify-between gap-6">
          <address className="not-italic" aria-label={t`Rechnungssteller`}>
            <strong className="block text-lg">{issuer.name}</strong>
            <span className="block">{issuer.street}</span>
            <span className="block">{issuer.postal_code} {issuer.city}</span>
            {issuer.email && <span className="block">{issuer.email}</span>}
            <span className="block"><Trans>USt-IdNr.: <span data-testid="invoice-vat-id">{issuer.vat_id}</span></Trans></span>
          </address>
          <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm">
            <dt><Trans>Rechnungsnummer</Trans></dt><dd data-testid="invoice-number" className="font-semibold">{inv.invoice_number}</dd>
            <dt><Trans>Rechnungsdatum</Trans></dt><dd data-testid="invoice-date">{formatDay(berlinDay(inv.issued_at), locale)}</dd>
            <dt><Trans>Leistungszeitraum</Trans></dt><dd data-testid="invoice-service">{service}</dd>
            <dt><Trans>Buchungsnummer</Trans></dt><dd className="break-all">{o.id}</dd>
          </dl>
        </header>
        <address className="not-italic" aria-label={t`Rechnungsempfänger`}>
          {r.company && <span className="block">{r.company}</span>}
          <span className="block font-semibold">{recipientName}</span>
          {r.street && <span className="block">{r.street}</span>}
          {recipientCity && <span className="block">{recipientCity}</span>}
          {r.country && <span className="block">{r.country}</span>}
        </address>
        <h2 className="text-2xl font-bold"><Trans>Rechnung</Trans></h2>
        <p>
          <Trans>Liegeplatz im Hafen, Anreise {formatBerlinDateTime(o.starts_at, locale)}, Abreise {formatBerlinDateTime(o.ends_at, locale)}.</Trans>
        </p>
        <table className="w-full text-left">
          <thead>
            <tr className="border-b border-slate-400">
              <th scope="col" className="py-2"><Trans>Leistung</Trans></th>
              <th scope="col" className="py-2 text-right"><Trans>Betrag (netto)</Trans></th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.text} className="border-b border-slate-200">
                <td className="py-2 pr-4">{l.text}</td>
                <td className="py-2 text-right whitespace-nowrap">{eur(l.cents)}</td>
              </tr>
            ))}
            {b.sale_code && (
              <tr className="border-b border-slate-200">
                <td className="py-2 pr-4" colSpan={2}><Trans>Aktionscode {b.sale_code} angewendet</Trans></td>
              </tr>
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="pt-3 font-normal"><Trans>Summe netto</Trans></th>
              <td className="pt-3 text-right" data-testid="invoice-net">{eur(inv.net_cents)}</td>
            </tr>
            <tr>
              <th scope="row" className="font-normal"><Trans>zzgl. {vatRate} % USt.</Trans></th>
              <td className="text-right" data-testid="invoice-vat">{eur(inv.vat_cents)}</td>
            </tr>
            <tr className="border-t border-slate-400 text-lg">
              <th scope="row" className="pt-2"><Trans>Gesamtbetrag (brutto)</Trans></th>
              <td className="pt-2 text-right font-bold" data-testid="invoice-gross">{eur(inv.gross_cents)}</td>
            </tr>
          </tfoot>
        </table>
        <p>{o.payment_status === 'refunded' ? <Trans>Der Betrag wurde erstattet.</Trans>
          : o.payment_status === 'partially_refunded' ? <Trans>Der Betrag ist bezahlt; ein Teil wurde erstattet.</Trans>
          : <Trans>Der Betrag ist bezahlt. Vielen Dank für Ihren Besuch!</Trans>}</p>
      </div>
    </Page>
  );
}
