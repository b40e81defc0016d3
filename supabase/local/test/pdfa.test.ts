/**
 * The document PDFs are PDF/A-3b (supabase/functions/_shared/pdfa.ts; ZUGFeRD 2.x / Factur-X
 * require PDF/A-3 for the hybrid e-invoice): a business guest's ZUGFeRD invoice, a private
 * guest's invoice, a Kleinbetragsrechnung, a cancellation and a desk receipt, German and
 * English, pass the structural check of harness/pdfa-check.ts (embedded fonts only, sRGB output
 * intent, XMP with pdfaid 3/B and the Factur-X extension schema, Info = XMP, trailer ID,
 * associated file) and `qpdf --check`. The check itself is shown to catch the faults it looks for.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName, StandardFonts, rgb } from 'pdf-lib';
import { FACTURX_FILENAME } from '../../functions/_shared/einvoice.ts';
import { renderInvoicePdf, type PdfInvoiceDocument } from '../../functions/_shared/invoice-pdf.ts';
import { embedPdfAFonts, finishPdfA, pdfAAssets } from '../../functions/_shared/pdfa.ts';
import { checkPdfA } from './harness/pdfa-check.ts';
import { pdfText } from './harness/pdf-text.ts';
import { skipBecause } from './harness/engines.ts';

const issuer = {
  name: 'Hafen Düsseldorf',
  street: 'Speditionstraße 1',
  postal_code: '40221',
  city: 'Düsseldorf',
  vat_id: 'DE000000000',
  email: 'hafen@hafen-duesseldorf.de',
  country: 'DE',
  tax_number: '133/8150/8159',
};
const company = {
  first_name: 'Zoë',
  last_name: 'Dvořák',
  company: 'Kunde & Söhne Yachting GmbH',
  street: 'Rheinufer 1',
  postal_code: '40213',
  city: 'Düsseldorf',
  country: 'Deutschland',
  email: 'zoe@example.org',
};
const invoice: PdfInvoiceDocument = {
  id: '00000000-0000-4000-8000-0000000000a1',
  kind: 'invoice',
  reason: 'payment',
  invoice_number: 'RE-2027-00101',
  // Microseconds, as PostgREST returns a timestamptz: Info and XMP must still agree (whole seconds).
  issued_at: '2027-05-10T22:30:15.123456+00:00',
  booking_number: 'HD-2027-0042',
  service_from: '2027-05-20',
  service_to: '2027-05-22',
  issuer,
  recipient: company,
  small_amount: false,
  lines: [
    {
      position: 1,
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
      description: 'Eis 2 kg „gekühlt“ – 5 °C',
      description_en: 'Ice 2 kg “chilled” – 5 °C',
      quantity: 1,
      unit: 'piece',
      unit_price_cents: 280,
      vat_rate: 7,
      net_cents: 280,
    },
  ],
  vat_breakdown: [
    { vat_rate: 19, net_cents: 4000, vat_cents: 760, gross_cents: 4760 },
    { vat_rate: 7, net_cents: 280, vat_cents: 20, gross_cents: 300 },
  ],
  net_cents: 4280,
  vat_cents: 780,
  gross_cents: 5060,
};
const privateInvoice: PdfInvoiceDocument = { ...invoice, invoice_number: 'RE-2027-00102', recipient: { ...company, company: undefined } };
const small: PdfInvoiceDocument = { ...invoice, invoice_number: 'RE-2027-00103', recipient: null, small_amount: true };
const receipt: PdfInvoiceDocument = {
  ...small,
  kind: 'receipt',
  invoice_number: 'QU-2027-00001',
  booking_number: null,
  service_from: null,
  service_to: null,
  payment_method: 'cash',
};
const cancellation: PdfInvoiceDocument = {
  ...invoice,
  kind: 'cancellation',
  reason: 'cancelled',
  invoice_number: 'RE-2027-00104',
  refers_to_number: 'RE-2027-00101',
  lines: invoice.lines!.map((l) => ({ ...l, quantity: -l.quantity, net_cents: -l.net_cents })),
  vat_breakdown: invoice.vat_breakdown!.map((v) => ({
    vat_rate: v.vat_rate,
    net_cents: -v.net_cents,
    vat_cents: -v.vat_cents,
    gross_cents: -v.gross_cents,
  })),
  net_cents: -invoice.net_cents,
  vat_cents: -invoice.vat_cents,
  gross_cents: -invoice.gross_cents,
};

const qpdf = spawnSync('qpdf', ['--version'], { encoding: 'utf8' });
const qpdfMissing = qpdf.status === 0 ? '' : 'qpdf not installed (apt-get install -y qpdf)';

/** qpdf's structural check of a file: exit 0 and no warnings. */
function qpdfCheck(bytes: Uint8Array): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pdfa-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), bytes);
    const run = spawnSync('qpdf', ['--check', join(dir, 'doc.pdf')], { encoding: 'utf8', timeout: 60_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('PDF/A-3b document PDFs', () => {
  for (const locale of ['de', 'en'] as const) {
    it(`a business guest's ZUGFeRD invoice (${locale}): embedded fonts, sRGB intent, XMP with pdfaid 3/B and the Factur-X schema, trailer ID, factur-x.xml`, async () => {
      const bytes = await renderInvoicePdf(invoice, locale);
      const report = await checkPdfA(bytes);
      expect(report.errors).toEqual([]);
      // Two fonts, both embedded subsets of Liberation Sans, nothing else.
      expect(report.fonts.map((f) => f.baseFont.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['LiberationSans', 'LiberationSans-Bold']);
      for (const f of report.fonts) {
        expect(f.baseFont).toMatch(/^[A-Z]{6}\+/);
        expect(f.glyphs).toBeLessThan(120); // a subset, not the font's 2,600 glyphs
      }
      expect(new TextDecoder('latin1').decode(bytes)).not.toMatch(/\/(Helvetica|Times-Roman|Courier)\b/);
      expect(report.icc).toEqual({ deviceClass: 'mntr', colorSpace: 'RGB ', version: 2 });
      expect(report.trailerId).toHaveLength(2);
      expect(report.xmp).toContain('<pdfaid:part>3</pdfaid:part>');
      expect(report.xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
      expect(report.xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
      expect(report.xmp).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>');
      expect(report.associatedFiles).toEqual([
        { name: FACTURX_FILENAME, relationship: 'Alternative', subtype: 'text/xml', modDate: 'D:20270510223015Z' },
      ]);
      // € and umlauts are drawn with the embedded font and read back as written.
      const text = (await pdfText(bytes)).pages.flat();
      expect(text).toContain('Kunde & Söhne Yachting GmbH');
      expect(text).toContain('Zoë Dvořák');
      expect(text).toContain(locale === 'de' ? '50,60 €' : '€50.60');
    });
  }

  for (const [label, doc] of [
    ["a private guest's invoice", privateInvoice],
    ['a Kleinbetragsrechnung', small],
    ['a desk receipt', receipt],
    ['a cancellation invoice of a business guest', cancellation],
  ] as const) {
    it(`${label}: PDF/A-3b too${doc === cancellation ? ' (with factur-x.xml)' : ', without Factur-X'}`, async () => {
      for (const locale of ['de', 'en'] as const) {
        const report = await checkPdfA(await renderInvoicePdf(doc, locale));
        expect(report.errors).toEqual([]);
        expect(report.fonts).toHaveLength(2);
        expect(report.icc?.colorSpace).toBe('RGB ');
        if (doc === cancellation) expect(report.associatedFiles.map((f) => f.name)).toEqual([FACTURX_FILENAME]);
        else {
          expect(report.associatedFiles).toEqual([]);
          expect(report.xmp).not.toContain('fx:');
          expect(report.xmp).not.toContain('pdfaExtension');
        }
      }
    });
  }

  it('a long document (60 lines, several pages) stays PDF/A-3b', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({
      position: i + 1,
      description: `Stromzähler Steg ${i + 1} – Verbrauch in kWh (Ablesung ÄÖÜ)`,
      quantity: 1,
      unit: 'piece',
      unit_price_cents: 100 + i,
      vat_rate: 19,
      net_cents: 100 + i,
    }));
    const bytes = await renderInvoicePdf({ ...invoice, lines }, 'de');
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
    expect((await checkPdfA(bytes)).errors).toEqual([]);
  });

  it('the same document gives the same bytes (subset tags and trailer ID come from the document)', async () => {
    const a = await renderInvoicePdf(invoice, 'de');
    expect(Buffer.from(await renderInvoicePdf(invoice, 'de')).equals(Buffer.from(a))).toBe(true);
    const other = await checkPdfA(await renderInvoicePdf({ ...invoice, invoice_number: 'RE-2027-00199' }, 'de'));
    expect(other.trailerId).not.toEqual((await checkPdfA(a)).trailerId);
  });

  it('qpdf --check finds no error in any kind', async (ctx) => {
    if (qpdfMissing && skipBecause('PDF/A qpdf check', qpdfMissing)) return ctx.skip();
    for (const doc of [invoice, privateInvoice, small, receipt, cancellation]) {
      for (const locale of ['de', 'en'] as const) {
        const result = qpdfCheck(await renderInvoicePdf(doc, locale));
        expect(result.output).toContain('No syntax or stream encoding errors found');
        expect(result.output).not.toMatch(/WARNING|error:/i);
        expect(result.status).toBe(0);
      }
    }
  });

  it('the vendored assets are the ones described: Liberation Sans with €, umlauts and ł; an sRGB display profile', async () => {
    const assets = await pdfAAssets();
    for (const f of Object.values(assets.fonts)) {
      expect(f.postscriptName).toMatch(/^LiberationSans/);
      for (const ch of '€äöüÄÖÜßłŁřčšž„“–·') expect(f.characters.has(ch.codePointAt(0)!), ch).toBe(true);
    }
  });

  it('the check catches what it looks for: standard fonts, no output intent, no XMP, Info and XMP apart, an undescribed fx: property, no trailer ID', async () => {
    // A plain pdf-lib document with Helvetica: every rule broken.
    const plain = await PDFDocument.create();
    plain.addPage().drawText('Rechnung', { font: await plain.embedFont(StandardFonts.Helvetica), color: rgb(0, 0, 0) });
    const bad = await checkPdfA(await plain.save());
    expect(bad.errors.join('\n')).toMatch(/6\.2\.11\.4\.1: standard font Helvetica/);
    expect(bad.errors.join('\n')).toMatch(/6\.2\.3: no GTS_PDFA1 output intent/);
    expect(bad.errors.join('\n')).toMatch(/6\.6\.2\.1: no XMP metadata stream/);
    expect(bad.errors.join('\n')).toMatch(/6\.1\.3: trailer \/ID missing/);

    // A PDF/A document whose Info title was changed afterwards, with an fx: property the extension schema does not describe.
    const doc = await PDFDocument.create({ updateMetadata: false });
    const fonts = await embedPdfAFonts(doc, 'check');
    const page = doc.addPage();
    page.drawText('Grüße €', { font: fonts.regular });
    page.drawText('Rechnung', { font: fonts.bold, y: 100 });
    await finishPdfA(doc, {
      title: 'Rechnung',
      producer: 'pdf-lib',
      language: 'de-DE',
      date: new Date('2027-01-01T00:00:00Z'),
      idSeed: 'check',
      xmpDescriptions:
        '  <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"><fx:DocumentType>INVOICE</fx:DocumentType></rdf:Description>',
    });
    doc.setTitle('Anderer Titel');
    const apart = await checkPdfA(await doc.save());
    expect(apart.errors.join('\n')).toMatch(/6\.6\.2\.3\.1: Info \/Title "Anderer Titel" but XMP "Rechnung"/);
    expect(apart.errors.join('\n')).toMatch(/6\.6\.2\.3\.2: fx:DocumentType .* not described/);
    expect(apart.errors).toHaveLength(2); // fonts, output intent and trailer ID are right

    // A broken output intent profile and a filtered metadata stream.
    const ok = await PDFDocument.load(await renderInvoicePdf(privateInvoice, 'de'), { updateMetadata: false });
    const intent = ok.catalog.lookup(PDFName.of('OutputIntents')) as unknown as {
      lookup(i: number): { set(k: PDFName, v: unknown): void };
    };
    intent.lookup(0).set(PDFName.of('DestOutputProfile'), ok.context.register(ok.context.flateStream(new Uint8Array(200), { N: 3 })));
    const meta = ok.catalog.get(PDFName.of('Metadata'));
    ok.catalog.set(
      PDFName.of('Metadata'),
      ok.context.register(
        ok.context.flateStream(new TextEncoder().encode('<?xpacket begin="" id="x"?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>'), {
          Type: 'Metadata',
          Subtype: 'XML',
        }),
      ),
    );
    expect(meta).toBeDefined();
    const broken = await checkPdfA(await ok.save({ useObjectStreams: false }));
    expect(broken.errors.join('\n')).toMatch(/6\.2\.3: DestOutputProfile is not an ICC profile/);
    expect(broken.errors.join('\n')).toMatch(/6\.6\.2\.1: metadata stream is filtered/);
  });
});
