import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { plural } from '@lingui/core/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { berlinDay, formatDay } from '@/lib/dates';
import { saveBlob } from '@/lib/download';
import { formatEuro } from '@/lib/prices';

import {
  fetchInvoicePdf,
  fetchInvoiceXml,
  invoiceDocumentQueryOptions,
  type InvoiceDocument,
  type InvoiceDocumentSummary,
  type InvoiceKind,
  type InvoiceLine,
} from '@/features/orders/api/invoices';
import { errorMessage } from '@/lib/errors/guest-messages';
import { FormAlert } from '@/components/form-alert';

/**
 * Print rules: only the sheet is printed (the app's bars, drawer and buttons are hidden without
 * touching the shell), on A4 with plain margins, black on white, no page-breaking inside a line.
 */
const PRINT_CSS = `
@page { size: A4; margin: 18mm 16mm 20mm; }
@media print {
  html, body { background: #fff !important; }
  body * { visibility: hidden !important; }
  #invoice-sheet, #invoice-sheet * { visibility: visible !important; color: #000 !important; }
  #invoice-sheet { position: absolute; inset: 0 auto auto 0; width: 100%; max-width: none; border: 0 !important; border-radius: 0 !important; box-shadow: none !important; padding: 0 !important; font-size: 10.5pt; }
  #invoice-sheet tr, #invoice-sheet address { break-inside: avoid; }
}
`;

/** The document's title by kind: Rechnung, Stornorechnung, Rechnungskorrektur. */
export function useInvoiceKindLabel() {
  const { t } = useLingui();
  return (kind: InvoiceKind) =>
    kind === 'cancellation' ? t`Stornorechnung` : kind === 'credit_note' ? t`Rechnungskorrektur` : t`Rechnung`;
}

function useUnitLabel() {
  const { t } = useLingui();
  return (unit: string, quantity: number) => {
    const n = Math.abs(quantity);
    switch (unit) {
      case 'night':
        return plural(n, { one: 'Nacht', other: 'Nächte' });
      case 'day':
        return plural(n, { one: 'Tag', other: 'Tage' });
      case 'piece':
        return t`Stück`;
      case 'load':
        return plural(n, { one: 'Waschgang', other: 'Waschgänge' });
      default:
        return unit;
    }
  };
}

const partyName = (p: { first_name?: string; last_name?: string; name?: string }) =>
  p.name ?? [p.first_name, p.last_name].filter(Boolean).join(' ');

/** A stored invoice document, as issued: nothing on it comes from the order as it is now. */
export function InvoiceSheet({ doc }: { doc: InvoiceDocument }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const kindLabel = useInvoiceKindLabel();
  const unitLabel = useUnitLabel();
  const eur = (cents: number) => formatEuro(Number(cents), locale);
  const issuer = doc.issuer ?? {};
  const r = doc.recipient;
  const num = (n: number) => Number(n).toLocaleString(locale === 'en' ? 'en-GB' : 'de-DE');
  const rate = (n: number) => `${num(n)} %`;
  const from = doc.service_from ? formatDay(doc.service_from, locale) : '';
  const to = doc.service_to ? formatDay(doc.service_to, locale) : '';
  const service = from === to || !to ? from : `${from} – ${to}`;
  const description = (l: InvoiceLine) => (locale === 'en' && l.description_en ? l.description_en : l.description);
  const refersTo = doc.refers_to_number ?? '';
  return (
    <div
      id="invoice-sheet"
      data-kind={doc.kind}
      className="mx-auto flex w-full max-w-3xl flex-col gap-6 rounded-xl border border-slate-200 bg-white p-4 text-slate-900 shadow-sm sm:p-8"
      aria-label={kindLabel(doc.kind)}
    >
      <header className="flex flex-wrap justify-between gap-6">
        <address className="not-italic" aria-label={t`Rechnungssteller`}>
          <strong className="block text-lg">{issuer.name}</strong>
          <span className="block">{issuer.street}</span>
          <span className="block">
            {issuer.postal_code} {issuer.city}
          </span>
          {issuer.email && <span className="block">{issuer.email}</span>}
          {issuer.phone && (
            <span className="block">
              <Trans>
                Telefon: <span data-testid="invoice-phone">{issuer.phone}</span>
              </Trans>
            </span>
          )}
          {issuer.vat_id && (
            <span className="block">
              <Trans>
                USt-IdNr.: <span data-testid="invoice-vat-id">{issuer.vat_id}</span>
              </Trans>
            </span>
          )}
          {issuer.tax_number && (
            <span className="block">
              <Trans>
                Steuernummer: <span data-testid="invoice-tax-number">{issuer.tax_number}</span>
              </Trans>
            </span>
          )}
          {issuer.iban && (
            <span className="block">
              <Trans>
                IBAN: <span data-testid="invoice-iban">{issuer.iban}</span>
              </Trans>
              {issuer.bic && (
                <>
                  {' '}
                  ·{' '}
                  <Trans>
                    BIC: <span data-testid="invoice-bic">{issuer.bic}</span>
                  </Trans>
                </>
              )}
            </span>
          )}
        </address>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt>
            <Trans>Nummer</Trans>
          </dt>
          <dd data-testid="invoice-number" className="font-semibold">
            {doc.invoice_number}
          </dd>
          <dt>
            <Trans>Datum</Trans>
          </dt>
          <dd data-testid="invoice-date">{formatDay(berlinDay(doc.issued_at), locale)}</dd>
          {service && (
            <>
              <dt>
                <Trans>Leistungszeitraum</Trans>
              </dt>
              <dd data-testid="invoice-service">{service}</dd>
            </>
          )}
          {refersTo && (
            <>
              <dt>
                <Trans>Zu Rechnung</Trans>
              </dt>
              <dd data-testid="invoice-refers-to" className="font-semibold">
                {refersTo}
              </dd>
            </>
          )}
          {(doc.booking_number ?? doc.order_id) && (
            <>
              <dt>
                <Trans>Buchungsnummer</Trans>
              </dt>
              <dd className="font-mono">{doc.booking_number ?? doc.order_id}</dd>
            </>
          )}
        </dl>
      </header>
      {r ? (
        <address className="not-italic" aria-label={t`Rechnungsempfänger`} data-testid="invoice-recipient">
          {r.company && <span className="block">{r.company}</span>}
          <span className="block font-semibold">{partyName(r)}</span>
          {r.street && <span className="block">{r.street}</span>}
          {(r.postal_code || r.city) && <span className="block">{[r.postal_code, r.city].filter(Boolean).join(' ')}</span>}
          {r.country && <span className="block">{r.country}</span>}
        </address>
      ) : (
        <p className="text-sm text-slate-700" data-testid="invoice-small-amount">
          <Trans>Kleinbetragsrechnung (§ 33 UStDV): ohne Angabe des Leistungsempfängers.</Trans>
        </p>
      )}
      <div className="flex flex-col gap-2">
        <h2 className="text-2xl font-bold" data-testid="invoice-title">
          {kindLabel(doc.kind)}
        </h2>
        {doc.kind === 'cancellation' && (
          <p>
            <Trans>
              Diese Stornorechnung hebt den Beleg <span className="whitespace-nowrap">{refersTo}</span> vollständig auf; alle Beträge sind
              mit umgekehrtem Vorzeichen aufgeführt.
            </Trans>
          </p>
        )}
        {doc.kind === 'credit_note' && (
          <p>
            <Trans>
              Diese Rechnungskorrektur mindert das Entgelt der Rechnung <span className="whitespace-nowrap">{refersTo}</span> um den unten
              genannten Betrag.
            </Trans>
          </p>
        )}
        {doc.small_amount && r && (
          <p className="text-sm text-slate-700">
            <Trans>Kleinbetragsrechnung (§ 33 UStDV).</Trans>
          </p>
        )}
      </div>
      <div>
        {/* On a phone the unit price and the rate columns give way (the rate is in the totals); print shows all. */}
        <table className="w-full text-left text-sm sm:text-base">
          <thead>
            <tr className="border-b border-slate-400">
              <th scope="col" className="py-2 pr-2">
                <Trans>Pos.</Trans>
              </th>
              <th scope="col" className="py-2 pr-2">
                <Trans>Leistung</Trans>
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                <Trans>Menge</Trans>
              </th>
              <th scope="col" className="hidden py-2 pr-2 text-right sm:table-cell print:table-cell">
                <Trans>Einzelpreis</Trans>
              </th>
              <th scope="col" className="hidden py-2 pr-2 text-right sm:table-cell print:table-cell">
                <Trans>USt.</Trans>
              </th>
              <th scope="col" className="py-2 text-right">
                <Trans>Netto</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {doc.lines.map((l) => (
              <tr key={l.position} className="border-b border-slate-200 align-top" data-testid="invoice-line">
                <td className="py-2 pr-2">{l.position}</td>
                <td className="py-2 pr-2">{description(l)}</td>
                <td className="py-2 pr-2 text-right whitespace-nowrap">
                  {num(l.quantity)} {unitLabel(l.unit, l.quantity)}
                </td>
                <td className="hidden py-2 pr-2 text-right whitespace-nowrap sm:table-cell print:table-cell">{eur(l.unit_price_cents)}</td>
                <td className="hidden py-2 pr-2 text-right whitespace-nowrap sm:table-cell print:table-cell">{rate(l.vat_rate)}</td>
                <td className="py-2 text-right whitespace-nowrap">{eur(l.net_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="ml-auto grid w-full max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1">
        <dt>
          <Trans>Summe netto</Trans>
        </dt>
        <dd className="text-right" data-testid="invoice-net">
          {eur(doc.net_cents)}
        </dd>
        {doc.vat_breakdown.map((v) => (
          <VatRows key={v.vat_rate} label={t`zzgl. ${rate(v.vat_rate)} USt. auf ${eur(v.net_cents)}`} value={eur(v.vat_cents)} />
        ))}
        <dt>
          <Trans>Summe USt.</Trans>
        </dt>
        <dd className="text-right" data-testid="invoice-vat">
          {eur(doc.vat_cents)}
        </dd>
        <div className="col-span-2 mt-1 grid grid-cols-[1fr_auto] gap-x-6 border-t border-slate-400 pt-2">
          <dt className="text-lg font-semibold">
            <Trans>Gesamtbetrag (brutto)</Trans>
          </dt>
          <dd className="text-right text-lg font-bold" data-testid="invoice-gross">
            {eur(doc.gross_cents)}
          </dd>
        </div>
      </dl>
      <p className="text-sm">
        {doc.kind === 'invoice' ? (
          <Trans>Der Betrag ist bezahlt. Vielen Dank für Ihren Besuch!</Trans>
        ) : doc.kind === 'credit_note' ? (
          <Trans>Der Betrag wird Ihnen erstattet.</Trans>
        ) : (
          <Trans>
            Der Beleg <span className="whitespace-nowrap">{refersTo}</span> ist damit aufgehoben.
          </Trans>
        )}
      </p>
    </div>
  );
}

function VatRows({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="text-right text-sm text-slate-700">{value}</dd>
    </>
  );
}

/** A document's page: its title, print button, a way back, then the stored sheet. */
export function InvoiceDocumentPage({ id, orderId, back }: { id: string; orderId: string; back: ReactNode }) {
  const { t } = useLingui();
  const kindLabel = useInvoiceKindLabel();
  const doc = useQuery(invoiceDocumentQueryOptions(id));
  if (doc.isPending)
    return (
      <Page title={t`Beleg`}>
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      </Page>
    );
  if (doc.isError)
    return (
      <Page title={t`Beleg`}>
        <FormAlert>{errorMessage(doc.error)}</FormAlert>
      </Page>
    );
  if (!doc.data || doc.data.order_id !== orderId) {
    return (
      <Page title={t`Beleg nicht gefunden`}>
        <p role="alert">
          <Trans>Diesen Beleg gibt es nicht, oder er gehört zu einer Buchung, die Sie nicht sehen dürfen.</Trans>
        </p>
        {back}
      </Page>
    );
  }
  return <InvoiceDocumentView doc={doc.data} back={back} title={`${kindLabel(doc.data.kind)} ${doc.data.invoice_number}`} />;
}

/** The sheet with the page around it (print button, way back). */
export function InvoiceDocumentView({ doc, back, title }: { doc: InvoiceDocument; back: ReactNode; title: string }) {
  return (
    <Page title={title}>
      <style>{PRINT_CSS}</style>
      <div className="flex flex-wrap gap-3 print:hidden">
        <Button onClick={() => window.print()}>
          <Trans>Drucken</Trans>
        </Button>
        <DownloadButton doc={doc} format="pdf" />
        {isEInvoiceDocument(doc) && <DownloadButton doc={doc} format="xml" />}
        {back}
      </div>
      {isEInvoiceDocument(doc) && (
        <p className="text-sm text-slate-700 print:hidden" data-testid="einvoice-note">
          <Trans>
            E-Rechnung nach EN 16931: das PDF enthält die Rechnungsdaten als ZUGFeRD-/Factur-X-XML; das XML gibt es auch einzeln.
          </Trans>
        </p>
      )}
      <InvoiceSheet doc={doc} />
    </Page>
  );
}

/** Whether a document is also an e-invoice (its buyer names a company; supabase/functions/_shared/einvoice.ts). */
export const isEInvoiceDocument = (doc: Pick<InvoiceDocument, 'recipient'>) => Boolean(doc.recipient?.company?.trim());

/**
 * Downloads the document's PDF (rendered by the invoice-pdf edge function from the stored
 * document, in the order's language) as "<number>.pdf" (the number names every kind of
 * document); a business guest's PDF is the ZUGFeRD / Factur-X e-invoice with the XML inside.
 * `xml` downloads that e-invoice's CII XML alone as "<number>.xml".
 */
function DownloadButton({ doc, format }: { doc: InvoiceDocument; format: 'pdf' | 'xml' }) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const blob = format === 'pdf' ? await fetchInvoicePdf(doc.id) : await fetchInvoiceXml(doc.id);
      saveBlob(blob, `${doc.invoice_number}.${format}`);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="outline" onClick={() => void download()} disabled={busy} aria-busy={busy}>
        {format === 'pdf' ? (
          busy ? (
            <Trans>PDF wird erstellt…</Trans>
          ) : (
            <Trans>PDF herunterladen</Trans>
          )
        ) : busy ? (
          <Trans>XML wird erstellt…</Trans>
        ) : (
          <Trans>E-Rechnung als XML (CII)</Trans>
        )}
      </Button>
      {failed && (
        <FormAlert className="basis-full">
          {format === 'pdf'
            ? t`Das PDF konnte gerade nicht erstellt werden. Bitte versuchen Sie es gleich noch einmal; drucken geht auch ohne.`
            : t`Die E-Rechnung konnte gerade nicht erstellt werden. Bitte versuchen Sie es gleich noch einmal.`}
        </FormAlert>
      )}
    </>
  );
}

/** An order's documents: kind, number, date, amount; each opens its rendering (link from the caller). */
export function OrderDocumentsList({
  documents,
  link,
}: {
  documents: InvoiceDocumentSummary[];
  link: (doc: InvoiceDocumentSummary, label: string) => ReactNode;
}) {
  const { t, i18n } = useLingui();
  const kindLabel = useInvoiceKindLabel();
  if (documents.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        <Trans>Noch keine Belege: die Rechnung entsteht, sobald die Buchung bezahlt ist.</Trans>
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" aria-label={t`Belege`}>
      {documents.map((d) => (
        <li
          key={d.id}
          className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3"
          data-testid="document-row"
          data-kind={d.kind}
        >
          <span className="flex flex-col">
            {link(d, `${kindLabel(d.kind)} ${d.invoice_number}`)}
            <span className="text-sm text-slate-700">
              {formatDay(berlinDay(d.issued_at), i18n.locale)}
              {d.refers_to_number ? ` · ${t`zu ${d.refers_to_number}`}` : ''}
            </span>
          </span>
          <span className="font-semibold tabular-nums">{formatEuro(d.gross_cents, i18n.locale)}</span>
        </li>
      ))}
    </ul>
  );
}
