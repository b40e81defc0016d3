/**
 * The e-invoice of a business guest's document (supabase/functions/_shared/einvoice.ts): the CII
 * XML validates against the XSD of the Factur-X / ZUGFeRD profile EN 16931 (vendored in
 * tests/schemas/, xmllint-wasm, offline), passes the official EN 16931 Schematron rules for CII
 * (CEN/TC 434, vendored in tests/schemas/en16931-cii-schematron/, run by SaxonJS, offline: no
 * fatal assertion fails) and keeps EN 16931's calculation rules (BR-CO-10..16,
 * BR-S-08, BR-CO-17, the 0 % categories) with the stored amounts; the type codes of an invoice,
 * a cancellation invoice, a credit note and the cancellation of a credit note; and the PDF carries
 * factur-x.xml as an associated file (AFRelationship Alternative) with the PDF/A-3 and Factur-X
 * identification in its XMP. The same checks run on documents issued by the database in
 * tests/db/einvoice.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { amount, buildCiiXml, countryCode, isEInvoice, typeCode } from '../../functions/_shared/einvoice.ts';
import { renderInvoicePdf, type PdfInvoiceDocument, type PdfLine } from '../../functions/_shared/invoice-pdf.ts';
import { all, businessRuleErrors, cents, facturX, one, parseXml, xsdErrors } from './harness/einvoice-check.ts';
import { compiledSchematron, schematronErrors, schematronFindings } from './harness/einvoice-schematron.ts';

/** The vendored files (tests/schemas/en16931-cii-schematron/README.md) and their blobs in the repository. */
const VENDORED: Record<string, string> = {
  'xslt/EN16931-CII-validation.xslt': '0eeb5cdae53f44d51e1e62b9892486e11f7a12ba',
  'schematron/EN16931-CII-validation.sch': 'd0e26e90f2ef54952d20cf4aa1066d7ba00ae02f',
  'schematron/abstract/EN16931-CII-model.sch': '764c0a279522afc44f0d958f5a97dd4175f507fb',
  'schematron/abstract/EN16931-CII-syntax.sch': '275d1f9c3c2e4bad4a408038fda7201c4d942abf',
  'schematron/CII/EN16931-CII-model.sch': '0ae0b2fe9c33b256892667f26bf010f8b2d6b53a',
  'schematron/CII/EN16931-CII-syntax.sch': 'e83d650a28f64887c685a84f6a135bc807363ee4',
  'schematron/codelist/EN16931-CII-codes.sch': '69c14ea84c99c5111dfb3dd5e7650786c433b948',
  'LICENSE.txt': '6881212dba6e221b1b061d2e55da5ca4f40e4e19',
};

const issuer = {
  name: 'Hafen Düsseldorf',
  street: 'Speditionstraße 25',
  postal_code: '40221',
  city: 'Düsseldorf',
  vat_id: 'DE000000000',
  email: 'hafen@hafen-duesseldorf.example',
  country: 'DE',
  tax_number: '133/8150/8159',
  iban: 'DE02120300000000202051',
  bic: 'BYLADEM1001',
  phone: '+49 211 0000000',
};
const recipient = {
  first_name: 'Klaus',
  last_name: 'Kunde',
  company: 'Kunde & Söhne Yachting GmbH',
  street: 'Rheinufer 1',
  postal_code: '40213',
  city: 'Düsseldorf',
  country: 'Deutschland',
  email: 'klaus@example.org',
};
const lines: (PdfLine & { unit_gross_cents?: number })[] = [
  {
    position: 1,
    code: 'berth_fee',
    description: 'Liegegebühr Liegeplatz D1, Boot 10 m',
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
    quantity: 1,
    unit: 'piece',
    unit_price_cents: 280,
    unit_gross_cents: 300,
    vat_rate: 7,
    net_cents: 280,
  },
  {
    position: 4,
    code: 'cooler_deposit',
    description: 'Kühlbox-Pfand (Pfand, nicht steuerbar)',
    quantity: 1,
    unit: 'piece',
    unit_price_cents: 2000,
    unit_gross_cents: 2000,
    vat_rate: 0,
    net_cents: 2000,
  },
];
const invoice: PdfInvoiceDocument = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'invoice',
  reason: 'payment',
  invoice_number: 'RE-2027-00001',
  issued_at: '2027-05-10T22:30:00Z',
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
    { vat_rate: 0, net_cents: 2000, vat_cents: 0, gross_cents: 2000 },
  ],
  net_cents: 8280,
  vat_cents: 1160,
  gross_cents: 9440,
};
const negate = (d: PdfInvoiceDocument, kind: string, refers: string): PdfInvoiceDocument => ({
  ...d,
  kind,
  reason: kind === 'cancellation' ? 'cancelled' : 'partial_refund',
  refers_to_number: refers,
  invoice_number: 'RE-2027-00002',
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

async function valid(doc: PdfInvoiceDocument) {
  const xml = buildCiiXml(doc);
  expect(await xsdErrors(xml)).toEqual([]);
  expect(await schematronErrors(xml)).toEqual([]);
  expect(businessRuleErrors(xml)).toEqual([]);
  return parseXml(xml);
}

describe('EN 16931 CII XML', () => {
  // Compiles the vendored Schematron XSLT to SEF unless node_modules/.cache holds it (~15-30 s once).
  beforeAll(() => compiledSchematron(), 120_000);

  it('an invoice with 19 %, 7 % and a deposit: valid against the Factur-X EN 16931 XSD, sums and VAT per rate as stored', async () => {
    const x = await valid(invoice);
    expect(one(x, 'ram:GuidelineSpecifiedDocumentContextParameter/ram:ID')?.text).toBe('urn:cen.eu:en16931:2017');
    expect(one(x, 'rsm:ExchangedDocument/ram:ID')?.text).toBe('RE-2027-00001');
    expect(one(x, 'rsm:ExchangedDocument/ram:TypeCode')?.text).toBe('380');
    // The Berlin day of issue (22:30 UTC is the next day in Berlin in May).
    expect(one(x, 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString')?.text).toBe('20270511');
    expect(one(x, 'ram:SellerTradeParty/ram:Name')?.text).toBe('Hafen Düsseldorf');
    expect(all(x, 'ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID').map((n) => [n.attrs.schemeID, n.text])).toEqual([
      ['VA', 'DE000000000'],
      ['FC', '133/8150/8159'],
    ]);
    expect(one(x, 'ram:SellerTradeParty/ram:PostalTradeAddress/ram:CountryID')?.text).toBe('DE');
    expect(one(x, 'ram:BuyerTradeParty/ram:Name')?.text).toBe('Kunde & Söhne Yachting GmbH');
    expect(one(x, 'ram:BuyerTradeParty/ram:DefinedTradeContact/ram:PersonName')?.text).toBe('Klaus Kunde');
    expect(one(x, 'ram:BuyerTradeParty/ram:PostalTradeAddress/ram:CountryID')?.text).toBe('DE');
    expect(one(x, 'ram:BuyerReference')?.text).toBe('HD-2027-0042');
    expect(one(x, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID')?.text).toBe('DE02120300000000202051');
    expect(one(x, 'ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString')?.text).toBe('20270520');
    const taxes = all(x, 'ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax').map((t) => [
      one(t, 'ram:CategoryCode')?.text,
      one(t, 'ram:RateApplicablePercent')?.text,
      cents(one(t, 'ram:BasisAmount')),
      cents(one(t, 'ram:CalculatedAmount')),
      one(t, 'ram:ExemptionReason')?.text,
    ]);
    expect(taxes).toEqual([
      ['S', '19.00', 6000, 1140, undefined],
      ['S', '7.00', 280, 20, undefined],
      ['E', '0.00', 2000, 0, 'Pfand: durchlaufender Posten, kein Entgelt (§ 10 Abs. 1 UStG)'],
    ]);
    const sum = one(x, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation')!;
    expect(sum.children.map((c) => [c.name.replace('ram:', ''), c.text])).toEqual([
      ['LineTotalAmount', '82.80'],
      ['ChargeTotalAmount', '0.00'],
      ['AllowanceTotalAmount', '0.00'],
      ['TaxBasisTotalAmount', '82.80'],
      ['TaxTotalAmount', '11.60'],
      ['GrandTotalAmount', '94.40'],
      ['TotalPrepaidAmount', '94.40'],
      ['DuePayableAmount', '0.00'],
    ]);
    expect(
      all(x, 'ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeDelivery/ram:BilledQuantity').map((q) => [
        q.text,
        q.attrs.unitCode,
      ]),
    ).toEqual([
      ['2', 'DAY'],
      ['2', 'DAY'],
      ['1', 'H87'],
      ['1', 'H87'],
    ]);
  });

  it("gross-priced lines whose nets do not add up to the rate's net: the cent is a rounding charge of that rate", async () => {
    // Two loads at EUR 10.50 gross, 19 %: each line's net 8.82 (VAT 1.68 taken out), the rate's
    // 21.00 gross holds VAT 3.35, net 17.65: one cent more than the lines.
    const doc: PdfInvoiceDocument = {
      ...invoice,
      service_from: null,
      service_to: null,
      lines: [1, 2].map((p) => ({
        position: p,
        code: 'washing',
        description: 'Waschmaschine',
        quantity: 1,
        unit: 'load',
        unit_price_cents: 882,
        unit_gross_cents: 1050,
        vat_rate: 19,
        net_cents: 882,
      })),
      vat_breakdown: [{ vat_rate: 19, net_cents: 1765, vat_cents: 335, gross_cents: 2100 }],
      net_cents: 1765,
      vat_cents: 335,
      gross_cents: 2100,
    };
    const x = await valid(doc);
    const charge = one(x, 'ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeAllowanceCharge')!;
    expect(one(charge, 'ram:ChargeIndicator/udt:Indicator')?.text).toBe('true');
    expect(one(charge, 'ram:ActualAmount')?.text).toBe('0.01');
    expect(cents(one(x, 'ram:TaxBasisTotalAmount'))).toBe(1765);
    expect(cents(one(x, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:LineTotalAmount'))).toBe(1764);
  });

  it('a cancellation invoice and a credit note are credit notes (381) with positive amounts, referring to the invoice', async () => {
    for (const kind of ['cancellation', 'credit_note']) {
      const doc = negate(invoice, kind, 'RE-2027-00001');
      expect(typeCode(doc)).toBe('381');
      const x = await valid(doc);
      expect(one(x, 'rsm:ExchangedDocument/ram:TypeCode')?.text).toBe('381');
      expect(one(x, 'ram:InvoiceReferencedDocument/ram:IssuerAssignedID')?.text).toBe('RE-2027-00001');
      expect(cents(one(x, 'ram:GrandTotalAmount'))).toBe(9440);
      expect(cents(one(x, 'ram:DuePayableAmount'))).toBe(9440);
      expect(all(x, 'ram:BilledQuantity').map((q) => q.text)).toEqual(['2', '2', '1', '1']);
      expect(all(x, 'rsm:ExchangedDocument/ram:IncludedNote/ram:Content')[0]?.text).toMatch(
        kind === 'cancellation' ? /^Stornorechnung/ : /^Rechnungskorrektur/,
      );
    }
    // Cancelling a credit note charges again: a corrected invoice (384), positive as stored.
    const reversal = { ...invoice, kind: 'cancellation', reason: 'refund_reversed', refers_to_number: 'RE-2027-00002' };
    expect(typeCode(reversal)).toBe('384');
    expect(one(await valid(reversal), 'rsm:ExchangedDocument/ram:TypeCode')?.text).toBe('384');
  });

  it("a document of deposits only is exempt (E, 0 %) like a deposit beside taxed lines, and keeps the seller's VAT id (BR-O-02 would forbid it under O)", async () => {
    const doc: PdfInvoiceDocument = {
      ...invoice,
      lines: [lines[3]!],
      vat_breakdown: [{ vat_rate: 0, net_cents: 2000, vat_cents: 0, gross_cents: 2000 }],
      net_cents: 2000,
      vat_cents: 0,
      gross_cents: 2000,
    };
    const x = await valid(doc);
    const tax = one(x, 'ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax')!;
    expect(one(tax, 'ram:CategoryCode')?.text).toBe('E');
    expect(one(tax, 'ram:RateApplicablePercent')?.text).toBe('0.00');
    expect(one(tax, 'ram:ExemptionReason')?.text).toBe('Pfand: durchlaufender Posten, kein Entgelt (§ 10 Abs. 1 UStG)');
    expect(
      all(x, 'ram:IncludedSupplyChainTradeLineItem/ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode').map(
        (c) => c.text,
      ),
    ).toEqual(['E']);
    expect(all(x, 'ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID').map((n) => n.attrs.schemeID)).toEqual(['VA', 'FC']);
  });

  it('the checks can fail: a wrong element order fails the XSD, a changed sum fails BR-CO-10 and BR-S-08', async () => {
    const xml = buildCiiXml(invoice);
    const swapped = xml.replace(/(<ram:ID>RE-2027-00001<\/ram:ID>)(<ram:TypeCode>380<\/ram:TypeCode>)/, '$2$1');
    expect(swapped).not.toBe(xml);
    expect((await xsdErrors(swapped)).join('\n')).toMatch(/TypeCode/);
    const tampered = xml.replace('<ram:LineTotalAmount>40.00</ram:LineTotalAmount>', '<ram:LineTotalAmount>40.01</ram:LineTotalAmount>');
    expect(tampered).not.toBe(xml);
    const errors = businessRuleErrors(tampered);
    expect(errors.some((e) => e.startsWith('BR-CO-10'))).toBe(true);
    expect(errors.some((e) => e.startsWith('BR-S-08'))).toBe(true);
  });

  it('the official EN 16931 rules can fail: line totals that do not add up fire BR-CO-10 and BR-S-08, a credit note without a buyer name BR-07', async () => {
    const xml = buildCiiXml(invoice);
    const ids = async (broken: string) => (await schematronFindings(broken)).filter((f) => f.flag === 'fatal').map((f) => f.id);
    const tampered = xml.replace('<ram:LineTotalAmount>40.00</ram:LineTotalAmount>', '<ram:LineTotalAmount>40.01</ram:LineTotalAmount>');
    expect(tampered).not.toBe(xml);
    expect((await ids(tampered)).sort()).toEqual(['BR-CO-10', 'BR-S-08']);
    const errors = await schematronErrors(tampered);
    expect(errors.find((e) => e.startsWith('BR-CO-10:'))).toMatch(
      /^BR-CO-10: \[BR-CO-10\]-Sum of Invoice line net amount \(BT-106\) = Σ Invoice line net amount \(BT-131\)\. \(at \/CrossIndustryInvoice\[1\]\/SupplyChainTradeTransaction\[1\]\/ApplicableHeaderTradeSettlement\[1\]\/SpecifiedTradeSettlementHeaderMonetarySummation\[1\]\)$/,
    );
    const credit = buildCiiXml(negate(invoice, 'credit_note', 'RE-2027-00001'));
    const nameless = credit.replace('<ram:Name>Kunde &amp; Söhne Yachting GmbH</ram:Name>', '');
    expect(nameless).not.toBe(credit);
    expect(await ids(nameless)).toEqual(['BR-07']);
  });

  it("the vendored rules are CEN's release 1.3.16 unchanged (git blob hashes of ConnectingEurope/eInvoicing-EN16931 at b6c9e06)", () => {
    const dir = resolve(import.meta.dirname, '../../../tests/schemas/en16931-cii-schematron');
    const blob = (file: string) => {
      const bytes = readFileSync(join(dir, file));
      return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    };
    expect(Object.fromEntries(Object.keys(VENDORED).map((f) => [f, blob(f)]))).toEqual(VENDORED);
  });

  it('escapes text, formats cents, maps countries and tells business guests apart', () => {
    expect(buildCiiXml(invoice)).toContain('Kunde &amp; Söhne Yachting GmbH');
    expect([amount(0), amount(5), amount(-1205), amount(123456)]).toEqual(['0.00', '0.05', '-12.05', '1234.56']);
    expect([countryCode('Nederland'), countryCode('nl'), countryCode(''), countryCode('Österreich')]).toEqual(['NL', 'NL', 'DE', 'AT']);
    expect(isEInvoice(invoice)).toBe(true);
    expect(isEInvoice({ ...invoice, recipient: { ...recipient, company: '  ' } })).toBe(false);
    expect(isEInvoice({ ...invoice, recipient: null })).toBe(false);
    expect(isEInvoice({ ...invoice, kind: 'receipt' })).toBe(false);
  });
});

describe('ZUGFeRD / Factur-X PDF', () => {
  it("a business guest's invoice PDF carries factur-x.xml (Alternative) and the PDF/A-3 and Factur-X XMP identification", async () => {
    const bytes = await renderInvoicePdf(invoice, 'de');
    const { files, embeddedNames, xmp } = await facturX(bytes);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ name: 'factur-x.xml', relationship: '/Alternative', subtype: '/text#2Fxml' });
    expect(files[0]!.xml).toBe(buildCiiXml(invoice));
    expect(embeddedNames).toEqual(['factur-x.xml']);
    expect(xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(xmp).toContain('<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>');
    // Deterministic, as every document PDF.
    expect(Buffer.from(await renderInvoicePdf(invoice, 'de')).equals(Buffer.from(bytes))).toBe(true);
  });

  it("a private guest's invoice stays a plain PDF (PDF/A-3b without Factur-X)", async () => {
    const plain = await facturX(await renderInvoicePdf({ ...invoice, recipient: { ...recipient, company: undefined } }, 'de'));
    expect(plain).toMatchObject({ files: [], embeddedNames: [] });
    expect(plain.xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(plain.xmp).not.toContain('fx:');
  });
});
