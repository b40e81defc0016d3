/**
 * The PDF of a stored invoice document (public.invoices, supabase/schemas/35b_invoice_documents.sql):
 * invoices, cancellation invoices, credit notes, and any later kind stored the same way (desk
 * receipts). It renders the document's JSON as issued, never live order data: seller (issuer),
 * buyer (recipient, or the note of a Kleinbetragsrechnung), number, date, service period, lines
 * with quantity, unit price and VAT rate, net / VAT per rate / gross, the document a correction
 * refers to, and "Seite 1 von 2" on every page, in German or English.
 *
 * One module for Deno (the invoice-pdf, send-mail and invoice-archive edge functions) and Node
 * (the tests): pdf-lib and @pdf-lib/fontkit (pure JavaScript) and Intl; no Deno or Node globals.
 * Every PDF is PDF/A-3b (./pdfa.ts: the embedded Liberation Sans subset, sRGB output intent, XMP).
 * docs/adr/0033-invoices-and-gobd.md ("Rendering only the stored row", "PDF/A-3b").
 */
import { LineCapStyle, PDFDocument, PDFFont, PDFPage, rgb } from 'pdf-lib';
import { attachFacturX, facturXXmp, isEInvoice } from './einvoice.ts';
import { embedPdfAFonts, finishPdfA, type PdfAFonts } from './pdfa.ts';
import type { PdfInvoiceDocument, PdfLine, PdfLocale, PdfParty } from './invoice-document.ts';

export type { PdfInvoiceDocument, PdfLine, PdfLocale, PdfParty } from './invoice-document.ts';

/** The harbour's logo (public/logo.svg, viewBox 0 0 64 64): a white anchor on a rounded blue square. */
export const LOGO = {
  color: '#0584bc',
  square: 'M14 0H50A14 14 0 0 1 64 14V50A14 14 0 0 1 50 64H14A14 14 0 0 1 0 50V14A14 14 0 0 1 14 0Z',
  anchor: 'M32 12v30M22 20h20M32 42c-8 0-14-4-16-10l-4 2c3 8 11 13 20 13s17-5 20-13l-4-2c-2 6-8 10-16 10z',
  ring: { cx: 32, cy: 12, r: 4 },
};

const TEXT: Record<PdfLocale, Record<string, string>> = {
  de: {
    invoice: 'Rechnung',
    cancellation: 'Stornorechnung',
    credit_note: 'Rechnungskorrektur',
    receipt: 'Quittung',
    document: 'Beleg',
    number: 'Nummer',
    date: 'Datum',
    service: 'Leistungszeitraum',
    refersTo: 'Zu Beleg',
    booking: 'Buchungsnummer',
    vatId: 'USt-IdNr.',
    pos: 'Pos.',
    item: 'Leistung',
    qty: 'Menge',
    unitPrice: 'Einzelpreis',
    vat: 'USt.',
    net: 'Netto',
    sumNet: 'Summe netto',
    vatOn: 'zzgl. {rate} USt. auf {net}',
    sumVat: 'Summe USt.',
    gross: 'Gesamtbetrag (brutto)',
    small: 'Kleinbetragsrechnung (§ 33 UStDV): ohne Angabe des Leistungsempfängers.',
    smallShort: 'Kleinbetragsrechnung (§ 33 UStDV).',
    cancellationIntro:
      'Diese Stornorechnung hebt den Beleg {ref} vollständig auf; alle Beträge sind mit umgekehrtem Vorzeichen aufgeführt.',
    creditIntro: 'Diese Rechnungskorrektur mindert das Entgelt der Rechnung {ref} um den unten genannten Betrag.',
    paid: 'Der Betrag ist bezahlt. Vielen Dank für Ihren Besuch!',
    refunded: 'Der Betrag wird Ihnen erstattet.',
    cancelled: 'Der Beleg {ref} ist damit aufgehoben.',
    receiptPaid: 'Betrag erhalten. Vielen Dank!',
    page: 'Seite {n} von {total}',
    continued: 'Fortsetzung',
    night: 'Nacht',
    nights: 'Nächte',
    day: 'Tag',
    days: 'Tage',
    piece: 'Stück',
    pieces: 'Stück',
    load: 'Ladung',
    loads: 'Ladungen',
  },
  en: {
    invoice: 'Invoice',
    cancellation: 'Cancellation invoice',
    credit_note: 'Credit note',
    receipt: 'Receipt',
    document: 'Document',
    number: 'Number',
    date: 'Date',
    service: 'Service period',
    refersTo: 'Refers to',
    booking: 'Booking number',
    vatId: 'VAT ID',
    pos: 'No.',
    item: 'Description',
    qty: 'Quantity',
    unitPrice: 'Unit price',
    vat: 'VAT',
    net: 'Net',
    sumNet: 'Total net',
    vatOn: 'plus {rate} VAT on {net}',
    sumVat: 'Total VAT',
    gross: 'Total amount (gross)',
    small: 'Small-amount invoice (§ 33 UStDV): issued without the recipient’s details.',
    smallShort: 'Small-amount invoice (§ 33 UStDV).',
    cancellationIntro: 'This cancellation invoice fully cancels document {ref}; all amounts are shown with the opposite sign.',
    creditIntro: 'This credit note reduces the amount of invoice {ref} by the amount below.',
    paid: 'The amount has been paid. Thank you for your visit!',
    refunded: 'The amount will be refunded to you.',
    cancelled: 'Document {ref} is hereby cancelled.',
    receiptPaid: 'Amount received. Thank you!',
    page: 'Page {n} of {total}',
    continued: 'continued',
    night: 'night',
    nights: 'nights',
    day: 'day',
    days: 'days',
    piece: 'piece',
    pieces: 'pieces',
    load: 'load',
    loads: 'loads',
  },
};

/** The document's title by kind (Rechnung, Stornorechnung, Rechnungskorrektur, Quittung). */
export function documentTitle(kind: string, locale: PdfLocale): string {
  const t = TEXT[locale];
  return t[kind] ?? t.document;
}

/** The file name of a document's PDF: "Rechnung-RE-2026-00001.pdf", "Credit-note-RE-2026-00003.pdf". */
export function pdfFileName(doc: Pick<PdfInvoiceDocument, 'kind' | 'invoice_number'>, locale: PdfLocale): string {
  const title = documentTitle(doc.kind, locale).replace(/\s+/g, '-');
  const number = String(doc.invoice_number ?? '').replace(/[^A-Za-z0-9._-]/g, '');
  return `${title}-${number}.pdf`.replace(/[^A-Za-z0-9._-]/g, (c) => ({ ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' })[c] ?? '_');
}

const fill = (s: string, values: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

// A4 in points, margins, colours.
export const PAGE_W = 595.28;
export const PAGE_H = 841.89;
export const LEFT = 56.7; // 20 mm
export const RIGHT = PAGE_W - 45.4; // 16 mm
export const FOOTER_TOP = 70;
const BLUE = rgb(5 / 255, 132 / 255, 188 / 255);
export const INK = rgb(0.1, 0.12, 0.16);
export const GREY = rgb(0.38, 0.42, 0.48);
export const RULE = rgb(0.75, 0.78, 0.82);
const SHADE = rgb(0.93, 0.95, 0.97);

/** Characters the font lacks, written as close as they can be (used only when the font has no glyph). */
const REPLACE: Record<string, string> = {
  '\u202f': '\u00a0',
  '\u2009': ' ',
  '\u2212': '-',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ø: 'ø',
  ı: 'i',
  ś: 's',
  ń: 'n',
};

type Fonts = PdfAFonts;

/**
 * Text the font can draw: known substitutes, accents dropped where the letter is missing, '?' for
 * the rest (PDF/A forbids showing .notdef). The character set is computed once per font file
 * (the archive renders thousands of documents).
 */
export function drawable(fonts: Fonts, font: PDFFont, text: string): string {
  const supported = fonts.characters(font);
  let out = '';
  for (const ch of String(text ?? '').replace(/[\r\n\t]+/g, ' ')) {
    const cp = ch.codePointAt(0)!;
    if (supported.has(cp)) out += ch;
    else if (REPLACE[ch] !== undefined && [...REPLACE[ch]].every((c) => supported.has(c.codePointAt(0)!))) out += REPLACE[ch];
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base && [...base].every((c) => supported.has(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out;
}

/** Words wrapped to a width (a word longer than the width is cut). */
function wrap(fonts: Fonts, font: PDFFont, size: number, text: string, width: number): string[] {
  const words = drawable(fonts, font, text).split(/ +/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (font.widthOfTextAtSize(word, size) > width) {
      let cut = word.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(word.slice(0, cut), size) > width) cut--;
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
    }
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

// Intl formatters are costly to build: one set per language, reused.
const formatterCache = new Map<PdfLocale, ReturnType<typeof buildFormatters>>();

function formatters(locale: PdfLocale) {
  let f = formatterCache.get(locale);
  if (!f) formatterCache.set(locale, (f = buildFormatters(locale)));
  return f;
}

function buildFormatters(locale: PdfLocale) {
  const tag = locale === 'en' ? 'en-GB' : 'de-DE';
  const money = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' });
  const number = new Intl.NumberFormat(tag, { maximumFractionDigits: 3 });
  const dayFormat = new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
  const instantDay = new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Berlin' });
  return {
    eur: (cents: number) => money.format(Number(cents) / 100),
    num: (n: number) => number.format(Number(n)),
    rate: (n: number) => `${number.format(Number(n))} %`,
    // A calendar day (YYYY-MM-DD) as printed: 01.07.2026 / 01/07/2026.
    day: (d: string) => dayFormat.format(new Date(`${d.slice(0, 10)}T00:00:00Z`)),
    // The day of an instant in Düsseldorf.
    issued: (at: string) => instantDay.format(new Date(at)),
  };
}

function partyName(p: PdfParty): string {
  return p.name ?? [p.first_name, p.last_name].filter(Boolean).join(' ');
}

function unitLabel(t: Record<string, string>, unit: string | null | undefined, quantity: number): string {
  if (!unit) return '';
  const one = Math.abs(Number(quantity)) === 1;
  const key = one ? unit : `${unit}s`;
  return t[key] ?? t[unit] ?? unit;
}

/** Draws the logo (public/logo.svg) as vectors, `size` points square, top-left at (x, top). */
export function drawLogo(page: PDFPage, x: number, top: number, size: number) {
  const scale = size / 64;
  // drawSvgPath places the path's origin at (x, y) with y growing downwards, as in SVG.
  page.drawSvgPath(LOGO.square, { x, y: top, scale, color: BLUE });
  page.drawSvgPath(LOGO.anchor, { x, y: top, scale, borderColor: rgb(1, 1, 1), borderWidth: 4 * scale, borderLineCap: LineCapStyle.Round });
  page.drawCircle({
    x: x + LOGO.ring.cx * scale,
    y: top - LOGO.ring.cy * scale,
    size: LOGO.ring.r * scale,
    borderColor: rgb(1, 1, 1),
    borderWidth: 3 * scale,
  });
}

/**
 * Renders a stored document to PDF bytes. Deterministic for a document and locale (the PDF's
 * dates are the document's issue date), so the same document always gives the same file.
 */
export async function renderInvoicePdf(doc: PdfInvoiceDocument, locale: PdfLocale = 'de'): Promise<Uint8Array> {
  const t = TEXT[locale] ?? TEXT.de;
  const f = formatters(locale);
  // updateMetadata false: pdf-lib adds no Info entries of its own (PDF/A wants each one in the XMP too).
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const seed = `${doc.id ?? ''}|${doc.invoice_number}|${doc.issued_at}|${locale}`;
  const fonts: Fonts = await embedPdfAFonts(pdf, seed);
  const issuer = doc.issuer ?? {};
  const title = documentTitle(doc.kind, locale);
  const issuedAt = new Date(doc.issued_at);

  let page = pdf.addPage([PAGE_W, PAGE_H]);
  let y = PAGE_H - 50;

  const text = (
    s: string,
    x: number,
    yy: number,
    opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; align?: 'left' | 'right' } = {},
  ) => {
    const font = opts.bold ? fonts.bold : fonts.regular;
    const size = opts.size ?? 9.5;
    const str = drawable(fonts, font, s);
    const w = font.widthOfTextAtSize(str, size);
    page.drawText(str, { x: opts.align === 'right' ? x - w : x, y: yy, size, font, color: opts.color ?? INK });
    return w;
  };

  // --- Header: logo and seller on the left, the document's data on the right.
  drawLogo(page, LEFT, y + 4, 40);
  text(issuer.name ?? '', LEFT + 50, y - 12, { size: 15, bold: true });
  const issuerLine = [issuer.street, [issuer.postal_code, issuer.city].filter(Boolean).join(' ')].filter(Boolean).join(' · ');
  text(issuerLine, LEFT + 50, y - 27, { size: 8.5, color: GREY });
  y -= 70;

  // Sender line and buyer (DIN 5008 window position, about 45 mm from the top), or the note.
  const addressTop = PAGE_H - 127;
  const senderLine = [issuer.name, issuer.street, [issuer.postal_code, issuer.city].filter(Boolean).join(' ')].filter(Boolean).join(' · ');
  const senderWidth = text(senderLine, LEFT, addressTop, { size: 7, color: GREY });
  page.drawLine({ start: { x: LEFT, y: addressTop - 2 }, end: { x: LEFT + senderWidth, y: addressTop - 2 }, thickness: 0.4, color: GREY });
  let ay = addressTop - 16;
  const r = doc.recipient;
  if (r) {
    const rows = [r.company, partyName(r), r.street, [r.postal_code, r.city].filter(Boolean).join(' '), r.country].filter(
      (s): s is string => !!s && s.trim() !== '',
    );
    rows.forEach((row, i) => {
      text(row, LEFT, ay, { size: 10.5, bold: i === (r.company ? 1 : 0) });
      ay -= 13.5;
    });
    if (r.vat_id) {
      text(`${t.vatId} ${r.vat_id}`, LEFT, ay, { size: 9, color: GREY });
      ay -= 13.5;
    }
  } else if (doc.small_amount) {
    for (const line of wrap(fonts, fonts.regular, 9.5, t.small, 240)) {
      text(line, LEFT, ay, { size: 9.5 });
      ay -= 12.5;
    }
  }

  // Document data, right column.
  const service = doc.service_from
    ? doc.service_to && doc.service_to !== doc.service_from
      ? `${f.day(doc.service_from)} – ${f.day(doc.service_to)}`
      : f.day(doc.service_from)
    : '';
  const meta: [string, string, boolean][] = [
    [t.number, doc.invoice_number, true],
    [t.date, Number.isNaN(issuedAt.getTime()) ? '' : f.issued(doc.issued_at), false],
  ];
  if (service) meta.push([t.service, service, false]);
  if (doc.refers_to_number) meta.push([t.refersTo, doc.refers_to_number, true]);
  if (doc.booking_number) meta.push([t.booking, doc.booking_number, false]);
  let my = addressTop - 16;
  const metaLabelX = RIGHT - 210;
  for (const [label, value, bold] of meta) {
    text(label, metaLabelX, my, { size: 9, color: GREY });
    text(value, RIGHT, my, { size: 9.5, bold, align: 'right' });
    my -= 14;
  }
  y = Math.min(ay, my) - 28;

  // --- Title and what a correction does.
  text(`${title} ${doc.invoice_number}`, LEFT, y, { size: 17, bold: true });
  y -= 20;
  const intro = doc.kind === 'cancellation' ? t.cancellationIntro : doc.kind === 'credit_note' ? t.creditIntro : '';
  const introLines = [
    ...(intro ? wrap(fonts, fonts.regular, 9.5, fill(intro, { ref: doc.refers_to_number ?? '' }), RIGHT - LEFT) : []),
    ...(doc.small_amount && r ? [t.smallShort] : []),
  ];
  for (const line of introLines) {
    text(line, LEFT, y, { size: 9.5 });
    y -= 13;
  }
  y -= 8;

  // --- Line table; its header repeats on every page.
  const col = {
    pos: LEFT + 4,
    item: LEFT + 32,
    qtyRight: RIGHT - 200,
    priceRight: RIGHT - 118,
    vatRight: RIGHT - 70,
    netRight: RIGHT - 4,
  };
  const itemWidth = col.qtyRight - 62 - col.item;
  const tableHeader = () => {
    page.drawRectangle({ x: LEFT, y: y - 6, width: RIGHT - LEFT, height: 19, color: SHADE });
    text(t.pos, col.pos, y, { size: 8.5, bold: true });
    text(t.item, col.item, y, { size: 8.5, bold: true });
    text(t.qty, col.qtyRight, y, { size: 8.5, bold: true, align: 'right' });
    text(t.unitPrice, col.priceRight, y, { size: 8.5, bold: true, align: 'right' });
    text(t.vat, col.vatRight, y, { size: 8.5, bold: true, align: 'right' });
    text(t.net, col.netRight, y, { size: 8.5, bold: true, align: 'right' });
    y -= 22;
  };
  const newPage = () => {
    page = pdf.addPage([PAGE_W, PAGE_H]);
    y = PAGE_H - 50;
    drawLogo(page, LEFT, y + 4, 22);
    text(`${title} ${doc.invoice_number} (${t.continued})`, LEFT + 30, y - 12, { size: 10, bold: true });
    y -= 44;
  };
  tableHeader();
  const lines = [...(doc.lines ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  lines.forEach((l, i) => {
    const description = locale === 'en' && l.description_en ? l.description_en : l.description;
    const wrapped = wrap(fonts, fonts.regular, 9.5, description, itemWidth);
    const height = wrapped.length * 12 + 10;
    if (y - height < FOOTER_TOP + 20) {
      newPage();
      tableHeader();
    }
    text(String(l.position ?? i + 1), col.pos, y);
    wrapped.forEach((w, k) => text(w, col.item, y - k * 12));
    text(`${f.num(l.quantity)} ${unitLabel(t, l.unit, l.quantity)}`.trim(), col.qtyRight, y, { align: 'right' });
    text(f.eur(l.unit_price_cents), col.priceRight, y, { align: 'right' });
    text(f.rate(l.vat_rate), col.vatRight, y, { align: 'right' });
    text(f.eur(l.net_cents), col.netRight, y, { align: 'right' });
    y -= height;
    // The rule halfway between this row's descenders and the next row's capitals.
    page.drawLine({ start: { x: LEFT, y: y + 13 }, end: { x: RIGHT, y: y + 13 }, thickness: 0.4, color: RULE });
  });

  // --- Totals: net, VAT per rate, VAT, gross; kept together on one page with the closing words.
  const breakdown = doc.vat_breakdown ?? [];
  const closing =
    doc.kind === 'invoice'
      ? t.paid
      : doc.kind === 'credit_note'
        ? t.refunded
        : doc.kind === 'cancellation'
          ? fill(t.cancelled, { ref: doc.refers_to_number ?? '' })
          : doc.kind === 'receipt'
            ? t.receiptPaid
            : '';
  const totalsHeight = 14 * (3 + breakdown.length) + 40 + (closing ? 30 : 0);
  if (y - totalsHeight < FOOTER_TOP + 10) newPage();
  y -= 6;
  const labelX = RIGHT - 250;
  const totalRow = (label: string, value: string, opts: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb> } = {}) => {
    text(label, labelX, y, opts);
    text(value, col.netRight, y, { ...opts, align: 'right' });
    y -= (opts.size ?? 9.5) + 5;
  };
  totalRow(t.sumNet, f.eur(doc.net_cents));
  for (const v of breakdown)
    totalRow(fill(t.vatOn, { rate: f.rate(v.vat_rate), net: f.eur(v.net_cents) }), f.eur(v.vat_cents), { size: 8.5, color: GREY });
  totalRow(t.sumVat, f.eur(doc.vat_cents));
  y -= 2;
  page.drawLine({ start: { x: labelX, y: y + 12 }, end: { x: RIGHT, y: y + 12 }, thickness: 0.8, color: INK });
  y -= 4;
  totalRow(t.gross, f.eur(doc.gross_cents), { size: 12, bold: true });
  if (closing) {
    y -= 16;
    for (const line of wrap(fonts, fonts.regular, 9.5, closing, RIGHT - LEFT)) {
      text(line, LEFT, y);
      y -= 13;
    }
  }

  // --- Footer on every page: seller's data, page x of n.
  const pages = pdf.getPages();
  const footer = [
    [issuer.name, issuer.street, [issuer.postal_code, issuer.city].filter(Boolean).join(' ')].filter(Boolean).join(' · '),
    [issuer.vat_id ? `${t.vatId} ${issuer.vat_id}` : '', issuer.email ?? ''].filter(Boolean).join(' · '),
  ];
  pages.forEach((p, i) => {
    page = p;
    p.drawLine({ start: { x: LEFT, y: FOOTER_TOP - 14 }, end: { x: RIGHT, y: FOOTER_TOP - 14 }, thickness: 0.5, color: RULE });
    footer.forEach((line, k) => text(line, LEFT, FOOTER_TOP - 27 - k * 11, { size: 7.5, color: GREY }));
    text(fill(t.page, { n: String(i + 1), total: String(pages.length) }), RIGHT, FOOTER_TOP - 27, { size: 8, color: GREY, align: 'right' });
  });

  // A business guest's document is also the e-invoice: the CII XML inside (./einvoice.ts).
  const einvoice = isEInvoice(doc);
  if (einvoice) attachFacturX(pdf, doc);
  // PDF/A-3b: Info and XMP alike (dates = the issue date, so the same document gives the same bytes).
  await finishPdfA(pdf, {
    title: `${title} ${doc.invoice_number}`,
    author: issuer.name || undefined,
    subject: `${title} ${doc.invoice_number}${doc.booking_number ? ` (${t.booking} ${doc.booking_number})` : ''}`,
    creator: issuer.name || undefined,
    producer: 'pdf-lib',
    language: locale === 'en' ? 'en-GB' : 'de-DE',
    date: issuedAt,
    idSeed: seed,
    xmpDescriptions: einvoice ? facturXXmp() : undefined,
  });
  return await pdf.save({ useObjectStreams: false });
}
