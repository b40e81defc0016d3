/**
 * The invoice PDF renderer (supabase/functions/_shared/invoice-pdf.ts), the module the
 * invoice-pdf and send-mail edge functions share, run here under Node: every kind of stored
 * document (invoice, Kleinbetragsrechnung, cancellation invoice, credit note, desk receipt) in
 * German and English, read back with pdf-lib's parser (harness/pdf-text.ts): seller, buyer or the
 * § 33 UStDV note, number, date, service period, every line with quantity, unit price and VAT
 * rate, net / VAT per rate / gross, the original a correction refers to, "Seite n von N" on
 * every page of a long document, and the logo drawn from public/logo.svg.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  LOGO,
  documentTitle,
  pdfFileName,
  renderInvoicePdf,
  type PdfInvoiceDocument,
  type PdfLine,
} from '../../functions/_shared/invoice-pdf.ts';
import { pdfText } from './harness/pdf-text.ts';

const issuer = {
  name: 'Hafen Düsseldorf',
  street: 'Speditionstraße 1',
  postal_code: '40221',
  city: 'Düsseldorf',
  vat_id: 'DE000000000',
  email: 'hafen@hafen-duesseldorf.de',
};
const recipient = {
  first_name: 'Klaus',
  last_name: 'Kunde',
  company: 'Kunde Yachting GmbH',
  street: 'Rheinufer 1',
  postal_code: '40213',
  city: 'Düsseldorf',
  country: 'Deutschland',
  email: 'klaus@example.org',
};
const lines: PdfLine[] = [
  {
    position: 1,
    code: 'berth_fee',
    description: 'Liegegebühr Liegeplatz D1, Boot 10 m',
    description_en: 'Berth fee, berth D1, boat 10 m',
    quantity: 2,
    unit: 'night',
    unit_price_cents: 2000,
    vat_rate: 19,
    net_cents: 4000,
  },
  {
    position: 2,
    code: 'additional_costs',
    description: 'Nebenkosten (Strom, Wasser, Dusche/WC, Müll)',
    description_en: 'Additional costs (electricity, water, showers/toilets, waste)',
    quantity: 2,
    unit: 'night',
    unit_price_cents: 1000,
    vat_rate: 19,
    net_cents: 2000,
  },
  {
    position: 3,
    code: 'ice_2kg',
    description: 'Eis 2 kg',
    description_en: 'Ice 2 kg',
    quantity: 1,
    unit: 'piece',
    unit_price_cents: 280,
    vat_rate: 7,
    net_cents: 280,
  },
];
const invoice: PdfInvoiceDocument = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'invoice',
  invoice_number: 'RE-2027-00001',
  issued_at: '2027-05-10T10:00:00Z',
  booking_number: 'HD-2027-0042',
  service_from: '2027-05-20',
  service_to: '2027-05-22',
  issuer,
  recipient,
  small_amount: false,
  lines,
  vat_breakdown: [
    { vat_rate: 19, net_cents: 6000, vat_cents: 1140, gross_cents: 7140 },
    { vat_rate: 7, net_cents: 280, vat_cents: 20, gross_cents: 300 },
  ],
  net_cents: 6280,
  vat_cents: 1160,
  gross_cents: 7440,
};
const negate = (d: PdfInvoiceDocument): PdfInvoiceDocument => ({
  ...d,
  lines: d.lines!.map((l) => ({ ...l, quantity: -l.quantity, net_cents: -l.net_cents })),
  vat_breakdown: d.vat_breakdown!.map((v) => ({
    vat_rate: v.vat_rate,
    net_cents: -v.net_cents,
    vat_cents: -v.vat_cents,
    gross_cents: -v.gross_cents,
  })),
  net_cents: -d.net_cents,
  vat_cents: -d.vat_cents,
  gross_cents: -d.gross_cents,
});

async function render(doc: PdfInvoiceDocument, locale: 'de' | 'en' = 'de') {
  const bytes = await renderInvoicePdf(doc, locale);
  expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe('%PDF-1.7');
  const text = await pdfText(bytes);
  return { bytes, ...text, all: text.pages.flat() };
}

describe('invoice PDFs', () => {
  it('an invoice: logo, seller, buyer, number, date, service period, lines, VAT per rate, totals, page 1 of 1', async () => {
    const pdf = await render(invoice);
    expect(pdf.pageCount).toBe(1);
    expect(pdf.title).toBe('Rechnung RE-2027-00001');
    expect(pdf.language).toBe('de-DE');
    const t = pdf.all;
    // Seller (header, sender line, footer with VAT id and e-mail).
    expect(t).toContain('Hafen Düsseldorf');
    expect(t).toContain('Speditionstraße 1 · 40221 Düsseldorf');
    expect(t).toContain('USt-IdNr. DE000000000 · hafen@hafen-duesseldorf.de');
    // Buyer.
    expect(t).toEqual(expect.arrayContaining(['Kunde Yachting GmbH', 'Klaus Kunde', 'Rheinufer 1', '40213 Düsseldorf', 'Deutschland']));
    // Number, date (Düsseldorf), service period, booking number.
    expect(t).toEqual(
      expect.arrayContaining([
        'Nummer',
        'RE-2027-00001',
        'Datum',
        '10.05.2027',
        'Leistungszeitraum',
        '20.05.2027 – 22.05.2027',
        'Buchungsnummer',
        'HD-2027-0042',
      ]),
    );
    expect(t).toContain('Rechnung RE-2027-00001');
    // The table: header, and each line with quantity and unit, unit price, VAT rate, net.
    expect(t).toEqual(expect.arrayContaining(['Pos.', 'Leistung', 'Menge', 'Einzelpreis', 'USt.', 'Netto']));
    const row = (desc: string) => t.slice(t.indexOf(desc) - 1, t.indexOf(desc) + 5);
    expect(row('Liegegebühr Liegeplatz D1, Boot 10 m')).toEqual([
      '1',
      'Liegegebühr Liegeplatz D1, Boot 10 m',
      '2 Nächte',
      '20,00 €',
      '19 %',
      '40,00 €',
    ]);
    expect(row('Eis 2 kg')).toEqual(['3', 'Eis 2 kg', '1 Stück', '2,80 €', '7 %', '2,80 €']);
    // The long description wraps inside its column, nothing lost.
    expect(t.join(' ')).toContain('Nebenkosten (Strom, Wasser, Dusche/WC, Müll)');
    // Totals: net, VAT per rate (on which net), VAT, gross.
    expect(t).toEqual(
      expect.arrayContaining([
        'Summe netto',
        '62,80 €',
        'zzgl. 19 % USt. auf 60,00 €',
        '11,40 €',
        'zzgl. 7 % USt. auf 2,80 €',
        '0,20 €',
        'Summe USt.',
        '11,60 €',
        'Gesamtbetrag (brutto)',
        '74,40 €',
      ]),
    );
    expect(t).toContain('Der Betrag ist bezahlt. Vielen Dank für Ihren Besuch!');
    expect(t).toContain('Seite 1 von 1');
    expect(t.join(' ')).not.toMatch(/Kleinbetragsrechnung/);
  });

  it('in English for an English booking', async () => {
    const pdf = await render(invoice, 'en');
    expect(pdf.title).toBe('Invoice RE-2027-00001');
    expect(pdf.language).toBe('en-GB');
    expect(pdf.all).toEqual(
      expect.arrayContaining([
        'Invoice RE-2027-00001',
        'Number',
        'Date',
        '10/05/2027',
        'Service period',
        '20/05/2027 – 22/05/2027',
        'Berth fee, berth D1, boat 10 m',
        '2 nights',
        '€20.00',
        'Total net',
        '€62.80',
        'plus 19 % VAT on €60.00',
        'Total amount (gross)',
        '€74.40',
        'Page 1 of 1',
        'VAT ID DE000000000 · hafen@hafen-duesseldorf.de',
      ]),
    );
    expect(pdf.all.join(' ')).not.toMatch(/Liegegebühr|Seite|Rechnung/);
  });

  it('a Kleinbetragsrechnung without the buyer says so', async () => {
    const pdf = await render({ ...invoice, recipient: null, small_amount: true });
    expect(pdf.all.join(' ')).toContain('Kleinbetragsrechnung (§ 33 UStDV): ohne Angabe des Leistungsempfängers.');
    expect(pdf.all).not.toContain('Klaus Kunde');
    const en = await render({ ...invoice, recipient: null, small_amount: true }, 'en');
    expect(en.all.join(' ')).toContain('Small-amount invoice (§ 33 UStDV)');
  });

  it('a cancellation invoice: negative amounts and the original it cancels', async () => {
    const pdf = await render({
      ...negate(invoice),
      kind: 'cancellation',
      invoice_number: 'RE-2027-00002',
      refers_to_number: 'RE-2027-00001',
      reason: 'cancelled',
    });
    const t = pdf.all;
    expect(pdf.title).toBe('Stornorechnung RE-2027-00002');
    expect(t).toEqual(
      expect.arrayContaining([
        'Stornorechnung RE-2027-00002',
        'Zu Beleg',
        'RE-2027-00001',
        '-2 Nächte',
        '-40,00 €',
        '-62,80 €',
        '-11,60 €',
        '-74,40 €',
      ]),
    );
    expect(t.join(' ')).toContain('Diese Stornorechnung hebt den Beleg RE-2027-00001 vollständig auf');
    expect(t).toContain('Der Beleg RE-2027-00001 ist damit aufgehoben.');
    const en = await render(
      { ...negate(invoice), kind: 'cancellation', invoice_number: 'RE-2027-00002', refers_to_number: 'RE-2027-00001' },
      'en',
    );
    expect(en.all).toEqual(expect.arrayContaining(['Cancellation invoice RE-2027-00002', 'Refers to', 'RE-2027-00001', '-€74.40']));
  });

  it('a credit note: the amount credited and the invoice it corrects', async () => {
    const credit: PdfInvoiceDocument = {
      ...invoice,
      kind: 'credit_note',
      invoice_number: 'RE-2027-00003',
      refers_to_number: 'RE-2027-00001',
      reason: 'partial_refund',
      lines: [
        {
          position: 1,
          code: 'credit',
          description: 'Erstattung (Preisminderung) zu Rechnung RE-2027-00001',
          description_en: 'Refund (price reduction) for invoice RE-2027-00001',
          quantity: 1,
          unit: 'piece',
          unit_price_cents: -840,
          vat_rate: 19,
          net_cents: -840,
        },
      ],
      vat_breakdown: [{ vat_rate: 19, net_cents: -840, vat_cents: -160, gross_cents: -1000 }],
      net_cents: -840,
      vat_cents: -160,
      gross_cents: -1000,
    };
    const pdf = await render(credit);
    expect(pdf.all).toEqual(
      expect.arrayContaining([
        'Rechnungskorrektur RE-2027-00003',
        'Zu Beleg',
        'RE-2027-00001',
        '-8,40 €',
        '-1,60 €',
        '-10,00 €',
        'Der Betrag wird Ihnen erstattet.',
      ]),
    );
    expect(pdf.all.join(' ')).toContain('Erstattung (Preisminderung) zu Rechnung RE-2027-00001 1 Stück -8,40 € 19 % -8,40 €');
    expect(pdf.all.join(' ')).toContain('Diese Rechnungskorrektur mindert das Entgelt der Rechnung RE-2027-00001');
  });

  it('a desk receipt (any stored kind) renders from the same JSON', async () => {
    const receipt: PdfInvoiceDocument = {
      ...invoice,
      kind: 'receipt',
      invoice_number: 'QU-2027-00001',
      recipient: null,
      small_amount: true,
      service_from: '2027-05-10',
      service_to: '2027-05-10',
      booking_number: null,
      lines: [lines[2]],
      vat_breakdown: [invoice.vat_breakdown![1]],
      net_cents: 280,
      vat_cents: 20,
      gross_cents: 300,
    };
    const pdf = await render(receipt);
    expect(pdf.all).toEqual(
      expect.arrayContaining([
        'Quittung QU-2027-00001',
        'Leistungszeitraum',
        '10.05.2027',
        'Eis 2 kg',
        '3,00 €',
        'Betrag erhalten. Vielen Dank!',
        'Seite 1 von 1',
      ]),
    );
    expect(documentTitle('something_new', 'en')).toBe('Document');
  });

  it('a long document breaks over pages: the table header repeats, every page says "Seite n von N"', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...lines[i % 3],
      position: i + 1,
      description: `${lines[i % 3].description} (${i + 1})`,
    }));
    const pdf = await render({ ...invoice, lines: many });
    expect(pdf.pageCount).toBeGreaterThanOrEqual(3);
    pdf.pages.forEach((page, i) => {
      expect(page).toContain(`Seite ${i + 1} von ${pdf.pageCount}`);
      expect(page).toContain('Einzelpreis');
      // The seller's footer on every page.
      expect(page).toContain('USt-IdNr. DE000000000 · hafen@hafen-duesseldorf.de');
    });
    expect(pdf.pages[1]).toContain('Rechnung RE-2027-00001 (Fortsetzung)');
    // Every line once, in order, and the totals on the last page.
    const positions = pdf.all.filter((s) => /\(\d+\)$/.test(s)).map((s) => Number(/\((\d+)\)$/.exec(s)![1]));
    expect(positions).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(pdf.pages.at(-1)).toContain('Gesamtbetrag (brutto)');
    const en = await render({ ...invoice, lines: many }, 'en');
    expect(en.pages[0]).toContain(`Page 1 of ${en.pageCount}`);
  });

  it('the embedded font draws Central European names as written; a letter it lacks becomes ?, never an error', async () => {
    const pdf = await render({ ...invoice, recipient: { ...recipient, first_name: 'Łukasz', last_name: 'Dvořák', company: '船 Ltd' } });
    expect(pdf.all).toEqual(expect.arrayContaining(['Łukasz Dvořák', '? Ltd']));
  });

  it('the same document gives the same file; file names by kind and language', async () => {
    expect(Buffer.from(await renderInvoicePdf(invoice, 'de')).equals(Buffer.from(await renderInvoicePdf(invoice, 'de')))).toBe(true);
    expect(pdfFileName(invoice, 'de')).toBe('Rechnung-RE-2027-00001.pdf');
    expect(pdfFileName({ kind: 'cancellation', invoice_number: 'RE-2027-00002' }, 'en')).toBe('Cancellation-invoice-RE-2027-00002.pdf');
    expect(pdfFileName({ kind: 'credit_note', invoice_number: 'RE-2027-00003' }, 'de')).toBe('Rechnungskorrektur-RE-2027-00003.pdf');
  });

  it('draws the logo of public/logo.svg', () => {
    const svg = readFileSync(resolve(import.meta.dirname, '../../../public/logo.svg'), 'utf8');
    expect(svg).toContain(`fill="${LOGO.color}"`);
    expect(svg).toContain(`<path d="${LOGO.anchor}"`);
    expect(svg).toContain(`<circle cx="${LOGO.ring.cx}" cy="${LOGO.ring.cy}" r="${LOGO.ring.r}"`);
    expect(svg).toMatch(/<rect width="64" height="64" rx="14"/);
  });
});
