/**
 * The EN 16931 e-invoice of a stored invoice document (public.invoices): the UN/CEFACT Cross
 * Industry Invoice (CII D16B) XML of the Factur-X / ZUGFeRD 2.x profile EN 16931 (COMFORT), and
 * the hybrid PDF: the document's PDF (./invoice-pdf.ts) with that XML embedded as factur-x.xml
 * (AFRelationship Alternative) and the PDF/A-3 and Factur-X identification in its XMP metadata.
 *
 * Built only from the document as issued (seller = its `issuer`, buyer = its `recipient`, lines,
 * VAT per rate, totals), never from live order data. A document is an e-invoice when its buyer
 * names a company (a business guest); docs/adr/0033-invoices-and-gobd.md and 0005.
 *
 * One module for Deno (edge functions) and Node (tests): only pdf-lib and plain strings.
 */
import { PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import type { PdfInvoiceDocument, PdfLine, PdfParty } from './invoice-document.ts';

/** The embedded file's name in ZUGFeRD 2.x / Factur-X. */
export const FACTURX_FILENAME = 'factur-x.xml';
/** BT-24 of the profile EN 16931 (Factur-X / ZUGFeRD 2.x "COMFORT"). */
export const EN16931_GUIDELINE = 'urn:cen.eu:en16931:2017';

/** Whether a stored document is also issued as an e-invoice: its buyer is a company. */
export function isEInvoice(doc: Pick<PdfInvoiceDocument, 'recipient' | 'kind'>): boolean {
  return (
    ['invoice', 'cancellation', 'credit_note'].includes(doc.kind) &&
    typeof doc.recipient?.company === 'string' &&
    doc.recipient.company.trim() !== ''
  );
}

/**
 * BT-3, UNTDID 1001: an invoice is 380 (commercial invoice); a cancellation invoice or a credit
 * note that gives money back (negative in the database) is 381 (credit note), written with
 * positive amounts, the type carrying the sign; a cancellation of a credit note (positive: it
 * charges again) is 384 (corrected invoice).
 */
export function typeCode(doc: Pick<PdfInvoiceDocument, 'kind' | 'gross_cents'>): '380' | '381' | '384' {
  if (doc.kind === 'invoice') return '380';
  return doc.gross_cents <= 0 ? '381' : '384';
}

/** Cents as a decimal with two places ("-12.05"). */
export function amount(cents: number): string {
  const c = Math.round(cents);
  const abs = Math.abs(c);
  return `${c < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const esc = (s: string) =>
  s
    // Characters XML 1.0 does not allow (control characters other than tab, newline, return).
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** A tiny element builder: el('ram:ID', {schemeID: 'VA'}, 'DE123') or el('ram:X', children...). */
type Node = string | null | undefined | false;
function el(name: string, attrs: Record<string, string> | null, ...children: Node[]): string {
  const a = attrs
    ? Object.entries(attrs)
        .map(([k, v]) => ` ${k}="${esc(v)}"`)
        .join('')
    : '';
  const inner = children.filter((c): c is string => typeof c === 'string' && c !== '').join('');
  return `<${name}${a}>${inner}</${name}>`;
}
const text = (name: string, value: string | number | null | undefined, attrs: Record<string, string> | null = null): string =>
  value === null || value === undefined || String(value).trim() === ''
    ? ''
    : `<${name}${
        attrs
          ? Object.entries(attrs)
              .map(([k, v]) => ` ${k}="${esc(v)}"`)
              .join('')
          : ''
      }>${esc(String(value).trim())}</${name}>`;

/** YYYYMMDD of a Berlin day ("2026-07-01" or an instant). */
function day102(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value.replaceAll('-', '');
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(value),
  );
  return parts.replaceAll('-', '');
}
const date102 = (name: string, value: string) => el(name, null, el('udt:DateTimeString', { format: '102' }, day102(value)));

/** ISO 3166-1 alpha-2 of the free-text country of a person form (German, English or own name, or the code). */
const COUNTRIES: Record<string, string> = {
  deutschland: 'DE',
  germany: 'DE',
  nederland: 'NL',
  niederlande: 'NL',
  netherlands: 'NL',
  holland: 'NL',
  belgien: 'BE',
  belgium: 'BE',
  belgie: 'BE',
  belgië: 'BE',
  belgique: 'BE',
  luxemburg: 'LU',
  luxembourg: 'LU',
  frankreich: 'FR',
  france: 'FR',
  schweiz: 'CH',
  switzerland: 'CH',
  suisse: 'CH',
  österreich: 'AT',
  oesterreich: 'AT',
  austria: 'AT',
  dänemark: 'DK',
  daenemark: 'DK',
  denmark: 'DK',
  danmark: 'DK',
  polen: 'PL',
  poland: 'PL',
  polska: 'PL',
  tschechien: 'CZ',
  czechia: 'CZ',
  'czech republic': 'CZ',
  italien: 'IT',
  italy: 'IT',
  italia: 'IT',
  spanien: 'ES',
  spain: 'ES',
  españa: 'ES',
  'vereinigtes königreich': 'GB',
  'united kingdom': 'GB',
  uk: 'GB',
  england: 'GB',
  großbritannien: 'GB',
  schweden: 'SE',
  sweden: 'SE',
  sverige: 'SE',
  norwegen: 'NO',
  norway: 'NO',
  norge: 'NO',
  finnland: 'FI',
  finland: 'FI',
};

/** The country code of a party: a two-letter code as given, a known name, else Germany (the harbour's country). */
export function countryCode(country: string | null | undefined, fallback = 'DE'): string {
  const c = (country ?? '').trim();
  if (/^[A-Za-z]{2}$/.test(c)) return c.toUpperCase();
  return COUNTRIES[c.toLowerCase()] ?? fallback;
}

/** UN/ECE Recommendation 20 unit codes of the document's units. */
const UNITS: Record<string, string> = { night: 'DAY', day: 'DAY', piece: 'H87', load: 'C62' };

/** The seller as the document stores it, with the fields the settings add (country, tax number, IBAN, BIC, phone). */
export interface EInvoiceSeller extends PdfParty {
  tax_number?: string;
  iban?: string;
  bic?: string;
}

function address(p: PdfParty): string {
  return el(
    'ram:PostalTradeAddress',
    null,
    text('ram:PostcodeCode', p.postal_code),
    text('ram:LineOne', p.street),
    text('ram:CityName', p.city),
    text('ram:CountryID', countryCode(p.country)),
  );
}

const personName = (p: PdfParty) => [p.first_name, p.last_name].filter((s) => s && s.trim()).join(' ') || p.name || '';

/** A VAT category of a rate on this document (EN 16931 BT-118 / BT-151). */
interface Category {
  code: 'S' | 'E';
  rate: number;
  exemption?: string;
}

/**
 * The categories: a rate above 0 is standard rated (S). 0 % lines are deposits, which the
 * harbour does not treat as consideration (docs/adr/0037-extras-deposits-desk-sales.md): exempt (E) with the
 * reason stated (BR-E-10), also on a document of deposits only. "Not subject to VAT" (O) would
 * forbid the seller's VAT identifier (BR-O-02), and without it EN 16931 wants a seller
 * identifier or legal registration (BR-CO-26) that the settings do not hold
 * (docs/adr/0005-einvoice-schematron.md).
 */
function categoryOf(rate: number): Category {
  if (rate > 0) return { code: 'S', rate };
  return { code: 'E', rate: 0, exemption: 'Pfand: durchlaufender Posten, kein Entgelt (§ 10 Abs. 1 UStG)' };
}

function tradeTax(cat: Category, opts: { calculated?: number; basis?: number } = {}): string {
  return [
    opts.calculated !== undefined ? text('ram:CalculatedAmount', amount(opts.calculated)) : '',
    text('ram:TypeCode', 'VAT'),
    opts.basis !== undefined && cat.exemption ? text('ram:ExemptionReason', cat.exemption) : '',
    opts.basis !== undefined ? text('ram:BasisAmount', amount(opts.basis)) : '',
    text('ram:CategoryCode', cat.code),
    text('ram:RateApplicablePercent', cat.rate.toFixed(2)),
  ].join('');
}

/**
 * The CII XML (UTF-8, no BOM) of a stored document. Amounts are the stored integer cents with
 * two decimals; the VAT breakdown is the document's, rate by rate. Where the lines' net per rate
 * differs from the breakdown's (extras are priced gross, the VAT taken out per rate, so single
 * lines' nets can be a cent off the rate's), the difference is a document-level charge or
 * allowance "Rundungsdifferenz" of that rate, so BR-CO-10 (lines = line total) and BR-S-08
 * (basis per rate = lines + charges - allowances) hold and the totals are exactly the document's.
 */
export function buildCiiXml(doc: PdfInvoiceDocument): string {
  const seller = (doc.issuer ?? {}) as EInvoiceSeller;
  const buyer: PdfParty = doc.recipient ?? {};
  const code = typeCode(doc);
  const s = code === '381' ? -1 : 1;
  const lines: PdfLine[] = doc.lines ?? [];
  const breakdown = doc.vat_breakdown ?? [];

  const lineXml = lines.map((l, i) => {
    const net = s * l.net_cents;
    // BR-27: the item net price is never negative; a negative line has a negative quantity.
    const qty = Math.abs(Number(l.quantity) || 1) * (net < 0 ? -1 : 1);
    const cat = categoryOf(Number(l.vat_rate));
    return el(
      'ram:IncludedSupplyChainTradeLineItem',
      null,
      el('ram:AssociatedDocumentLineDocument', null, text('ram:LineID', l.position ?? i + 1)),
      el('ram:SpecifiedTradeProduct', null, text('ram:SellerAssignedID', l.code), text('ram:Name', l.description)),
      el(
        'ram:SpecifiedLineTradeAgreement',
        null,
        el('ram:NetPriceProductTradePrice', null, text('ram:ChargeAmount', amount(Math.abs(l.unit_price_cents)))),
      ),
      el('ram:SpecifiedLineTradeDelivery', null, text('ram:BilledQuantity', String(qty), { unitCode: UNITS[l.unit ?? ''] ?? 'C62' })),
      el(
        'ram:SpecifiedLineTradeSettlement',
        null,
        el('ram:ApplicableTradeTax', null, tradeTax(cat)),
        el('ram:SpecifiedTradeSettlementLineMonetarySummation', null, text('ram:LineTotalAmount', amount(net))),
      ),
    );
  });

  const lineTotal = lines.reduce((sum, l) => sum + s * l.net_cents, 0);
  // Rounding differences per rate, as charges (positive) or allowances (negative).
  const adjustments = breakdown
    .map((b) => {
      const linesNet = lines.filter((l) => Number(l.vat_rate) === Number(b.vat_rate)).reduce((sum, l) => sum + s * l.net_cents, 0);
      return { cat: categoryOf(Number(b.vat_rate)), diff: s * b.net_cents - linesNet };
    })
    .filter((a) => a.diff !== 0);
  const charges = adjustments.filter((a) => a.diff > 0).reduce((sum, a) => sum + a.diff, 0);
  const allowances = adjustments.filter((a) => a.diff < 0).reduce((sum, a) => sum - a.diff, 0);

  const net = s * doc.net_cents;
  const vat = s * doc.vat_cents;
  const gross = s * doc.gross_cents;
  const paid = doc.reason === 'payment' && doc.kind === 'invoice';

  const kindNote: Record<string, string> = {
    invoice: 'Rechnung',
    cancellation: `Stornorechnung: hebt den Beleg ${doc.refers_to_number ?? ''} vollständig auf.`,
    credit_note: `Rechnungskorrektur: mindert das Entgelt der Rechnung ${doc.refers_to_number ?? ''}.`,
  };
  const notes = [doc.kind !== 'invoice' ? kindNote[doc.kind] : '', doc.booking_number ? `Buchungsnummer ${doc.booking_number}` : ''].filter(
    Boolean,
  );

  const sellerTax = [
    seller.vat_id ? el('ram:SpecifiedTaxRegistration', null, text('ram:ID', seller.vat_id, { schemeID: 'VA' })) : '',
    seller.tax_number ? el('ram:SpecifiedTaxRegistration', null, text('ram:ID', seller.tax_number, { schemeID: 'FC' })) : '',
  ].join('');

  const buyerContact =
    personName(buyer) || buyer.email || buyer.phone
      ? el(
          'ram:DefinedTradeContact',
          null,
          text('ram:PersonName', personName(buyer)),
          buyer.phone ? el('ram:TelephoneUniversalCommunication', null, text('ram:CompleteNumber', buyer.phone)) : '',
          buyer.email ? el('ram:EmailURIUniversalCommunication', null, text('ram:URIID', buyer.email)) : '',
        )
      : '';
  const sellerContact =
    seller.phone || seller.email
      ? el(
          'ram:DefinedTradeContact',
          null,
          text('ram:PersonName', seller.name),
          seller.phone ? el('ram:TelephoneUniversalCommunication', null, text('ram:CompleteNumber', seller.phone)) : '',
          seller.email ? el('ram:EmailURIUniversalCommunication', null, text('ram:URIID', seller.email)) : '',
        )
      : '';

  const settlement = el(
    'ram:ApplicableHeaderTradeSettlement',
    null,
    text('ram:PaymentReference', doc.invoice_number),
    text('ram:InvoiceCurrencyCode', doc.currency ?? 'EUR'),
    seller.iban
      ? el(
          'ram:SpecifiedTradeSettlementPaymentMeans',
          null,
          text('ram:TypeCode', '58'),
          el(
            'ram:PayeePartyCreditorFinancialAccount',
            null,
            text('ram:IBANID', seller.iban.replace(/\s+/g, '')),
            text('ram:AccountName', seller.name),
          ),
          seller.bic ? el('ram:PayeeSpecifiedCreditorFinancialInstitution', null, text('ram:BICID', seller.bic)) : '',
        )
      : '',
    ...breakdown.map((b) =>
      el('ram:ApplicableTradeTax', null, tradeTax(categoryOf(Number(b.vat_rate)), { calculated: s * b.vat_cents, basis: s * b.net_cents })),
    ),
    doc.service_from && doc.service_to
      ? el('ram:BillingSpecifiedPeriod', null, date102('ram:StartDateTime', doc.service_from), date102('ram:EndDateTime', doc.service_to))
      : '',
    ...adjustments.map((a) =>
      el(
        'ram:SpecifiedTradeAllowanceCharge',
        null,
        el('ram:ChargeIndicator', null, text('udt:Indicator', a.diff > 0 ? 'true' : 'false')),
        text('ram:ActualAmount', amount(Math.abs(a.diff))),
        text('ram:Reason', 'Rundungsdifferenz (Bruttopreise, USt. je Steuersatz)'),
        el('ram:CategoryTradeTax', null, tradeTax(a.cat)),
      ),
    ),
    el(
      'ram:SpecifiedTradePaymentTerms',
      null,
      text(
        'ram:Description',
        paid
          ? 'Bezahlt. Vielen Dank.'
          : `Verrechnung über die Buchung ${doc.booking_number ?? doc.invoice_number}; maßgeblich ist deren Kontostand.`,
      ),
    ),
    el(
      'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
      null,
      text('ram:LineTotalAmount', amount(lineTotal)),
      text('ram:ChargeTotalAmount', amount(charges)),
      text('ram:AllowanceTotalAmount', amount(allowances)),
      text('ram:TaxBasisTotalAmount', amount(net)),
      text('ram:TaxTotalAmount', amount(vat), { currencyID: doc.currency ?? 'EUR' }),
      text('ram:GrandTotalAmount', amount(gross)),
      text('ram:TotalPrepaidAmount', amount(paid ? gross : 0)),
      text('ram:DuePayableAmount', amount(paid ? 0 : gross)),
    ),
    doc.refers_to_number ? el('ram:InvoiceReferencedDocument', null, text('ram:IssuerAssignedID', doc.refers_to_number)) : '',
  );

  const body = el(
    'rsm:CrossIndustryInvoice',
    {
      'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
      'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
      'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
      'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
    },
    el('rsm:ExchangedDocumentContext', null, el('ram:GuidelineSpecifiedDocumentContextParameter', null, text('ram:ID', EN16931_GUIDELINE))),
    el(
      'rsm:ExchangedDocument',
      null,
      text('ram:ID', doc.invoice_number),
      text('ram:TypeCode', code),
      date102('ram:IssueDateTime', doc.issued_at),
      ...notes.map((n) => el('ram:IncludedNote', null, text('ram:Content', n))),
    ),
    el(
      'rsm:SupplyChainTradeTransaction',
      null,
      ...lineXml,
      el(
        'ram:ApplicableHeaderTradeAgreement',
        null,
        text('ram:BuyerReference', doc.booking_number),
        el(
          'ram:SellerTradeParty',
          null,
          text('ram:Name', seller.name),
          sellerContact,
          address(seller),
          seller.email ? el('ram:URIUniversalCommunication', null, text('ram:URIID', seller.email, { schemeID: 'EM' })) : '',
          sellerTax,
        ),
        el(
          'ram:BuyerTradeParty',
          null,
          text('ram:Name', buyer.company?.trim() || personName(buyer)),
          buyerContact,
          address(buyer),
          buyer.email ? el('ram:URIUniversalCommunication', null, text('ram:URIID', buyer.email, { schemeID: 'EM' })) : '',
          buyer.vat_id ? el('ram:SpecifiedTaxRegistration', null, text('ram:ID', buyer.vat_id, { schemeID: 'VA' })) : '',
        ),
      ),
      el(
        'ram:ApplicableHeaderTradeDelivery',
        null,
        doc.service_to ? el('ram:ActualDeliverySupplyChainEvent', null, date102('ram:OccurrenceDateTime', doc.service_to)) : '',
      ),
      settlement,
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;
}

/**
 * The Factur-X part of the XMP packet (./pdfa.ts writes the rest: PDF/A-3B identification, Dublin
 * Core, dates): the fx: properties and, because PDF/A allows only predefined or described
 * schemas, the PDF/A extension schema description of the fx: namespace (Factur-X 1.0 / ZUGFeRD
 * 2.x specification, XMP extension schema).
 */
export function facturXXmp(): string {
  return `  <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
   <fx:DocumentType>INVOICE</fx:DocumentType>
   <fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName>
   <fx:Version>1.0</fx:Version>
   <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
   <pdfaExtension:schemas>
    <rdf:Bag>
     <rdf:li rdf:parseType="Resource">
      <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
      <pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
      <pdfaSchema:prefix>fx</pdfaSchema:prefix>
      <pdfaSchema:property>
       <rdf:Seq>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentFileName</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The name of the embedded XML document</pdfaProperty:description></rdf:li>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentType</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The type of the hybrid document in capital letters, e.g. INVOICE or ORDER</pdfaProperty:description></rdf:li>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>Version</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The actual version of the standard applying to the embedded XML document</pdfaProperty:description></rdf:li>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>ConformanceLevel</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The conformance level of the embedded XML document</pdfaProperty:description></rdf:li>
       </rdf:Seq>
      </pdfaSchema:property>
     </rdf:li>
    </rdf:Bag>
   </pdfaExtension:schemas>
  </rdf:Description>`;
}

/**
 * Makes `pdf` the hybrid e-invoice of `doc`: the CII XML as the associated file factur-x.xml
 * (embedded file stream /Subtype text/xml, file specification with /AFRelationship
 * /Alternative, listed in the catalog's /AF and /Names /EmbeddedFiles). The XMP metadata with the
 * PDF/A-3 and Factur-X identification is written by ./pdfa.ts `finishPdfA` with `facturXXmp()`.
 */
export function attachFacturX(pdf: PDFDocument, doc: PdfInvoiceDocument, xml = buildCiiXml(doc)): void {
  const context = pdf.context;
  const bytes = new TextEncoder().encode(xml);
  const issued = new Date(doc.issued_at);
  const pdfDate = PDFString.fromDate(Number.isNaN(issued.getTime()) ? new Date(0) : issued);
  // Deflated (PDF/A-3 allows any standard filter on an embedded file): an XML shrinks to a fifth.
  const file = context.flateStream(bytes, {
    Type: 'EmbeddedFile',
    Subtype: 'text/xml',
    Params: { Size: bytes.length, ModDate: pdfDate },
  });
  const fileRef = context.register(file);
  const spec = context.obj({
    Type: 'Filespec',
    F: PDFString.of(FACTURX_FILENAME),
    UF: PDFHexString.fromText(FACTURX_FILENAME),
    Desc: PDFString.of('Factur-X / ZUGFeRD invoice (EN 16931)'),
    AFRelationship: 'Alternative',
    EF: { F: fileRef, UF: fileRef },
  });
  const specRef = context.register(spec);
  const catalog = pdf.catalog;
  catalog.set(PDFName.of('AF'), context.obj([specRef]));
  catalog.set(PDFName.of('Names'), context.obj({ EmbeddedFiles: { Names: [PDFString.of(FACTURX_FILENAME), specRef] } }));
}
