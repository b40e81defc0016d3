/**
 * The PDF of a long-term berth contract (public.contracts, supabase/schemas/62_offers_contracts.sql
 * and the renewals of 66_renewal_notice.sql): the stored text as accepted, never live data.
 * The harbour's letterhead (the logo and the harbour as the contract names it: its parties line
 * "Zwischen …  (der Hafen)"), the title "Liegeplatzvertrag LV-2027-0001" / "Berth contract …" in
 * the contract's language, the contract text line by line (long lines wrapped, "## " lines as
 * bold headings, pages with "Seite 1 von 3"), then the record of acceptance: when (Europe/Berlin),
 * the terms version and the stored SHA-256 of the text. The text itself, byte for byte as hashed,
 * is embedded as an associated file (PDF/A-3, AFRelationship Source), so the hash printed can be
 * checked against the file it came with.
 *
 * PDF/A-3b like the invoices (./pdfa.ts) and deterministic: the same contract and locale give
 * the same bytes (the PDF's dates are the acceptance). One module for Deno (the contract-pdf and
 * send-mail edge functions) and Node (the tests). docs/adr/0047-offers-and-contracts.md.
 */
import { PDFDocument, PDFFont, PDFHexString, PDFName, PDFString, type PDFPage } from 'pdf-lib';
import { embedPdfAFonts, finishPdfA, type PdfAFonts } from './pdfa.ts';
import { FOOTER_TOP, GREY, INK, LEFT, PAGE_H, PAGE_W, RIGHT, RULE, drawLogo, drawable } from './invoice-pdf.ts';

export type ContractLocale = 'de' | 'en';

/** The columns of public.contracts the PDF shows. */
export interface PdfContract {
  id?: string;
  contract_number: string;
  locale?: string | null;
  contract_text: string;
  contract_sha256: string;
  accepted_at: string;
  terms_version: number;
  /** Set on a renewal: the contract was issued by the renewal run, not accepted anew. */
  renews_contract_id?: string | null;
}

const TEXT: Record<ContractLocale, Record<string, string>> = {
  de: {
    title: 'Liegeplatzvertrag',
    file: 'Vertrag',
    continued: 'Fortsetzung',
    record: 'Nachweis der Annahme',
    accepted: 'Online angenommen am',
    renewed: 'Verlängert am',
    terms: 'Vertragsbedingungen',
    termsVersion: 'Fassung {v}',
    hash: 'SHA-256 des Vertragstexts',
    embedded: 'Der Vertragstext ist dieser Datei unverändert als {file} beigefügt; seine SHA-256-Prüfsumme ist die oben genannte.',
    page: 'Seite {n} von {total}',
    time: '{at} Uhr (Europe/Berlin)',
  },
  en: {
    title: 'Berth contract',
    file: 'Contract',
    continued: 'continued',
    record: 'Record of acceptance',
    accepted: 'Accepted online on',
    renewed: 'Renewed on',
    terms: 'Contract terms',
    termsVersion: 'version {v}',
    hash: 'SHA-256 of the contract text',
    embedded: 'The contract text is attached to this file unchanged as {file}; its SHA-256 checksum is the one above.',
    page: 'Page {n} of {total}',
    time: '{at} (Europe/Berlin)',
  },
};

const fill = (s: string, values: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

const localeOf = (contract: Pick<PdfContract, 'locale'>, locale?: string | null): ContractLocale =>
  (locale ?? contract.locale) === 'en' ? 'en' : 'de';

const safeNumber = (n: string) => String(n ?? '').replace(/[^A-Za-z0-9._-]/g, '');

/** The title of the contract's PDF: "Liegeplatzvertrag LV-2027-0001" / "Berth contract LV-2027-0001". */
export function contractTitle(contract: Pick<PdfContract, 'contract_number'>, locale: ContractLocale): string {
  return `${TEXT[locale].title} ${contract.contract_number}`;
}

/** The file name of the contract's PDF: "Vertrag-LV-2027-0001.pdf" / "Contract-LV-2027-0001.pdf". */
export function contractPdfFileName(contract: Pick<PdfContract, 'contract_number'>, locale: ContractLocale): string {
  return `${TEXT[locale].file}-${safeNumber(contract.contract_number)}.pdf`;
}

/** The name of the embedded text file: "Vertrag-LV-2027-0001.txt". */
function textFileName(contract: Pick<PdfContract, 'contract_number'>, locale: ContractLocale): string {
  return `${TEXT[locale].file}-${safeNumber(contract.contract_number)}.txt`;
}

/**
 * The harbour as the contract text names it (render_contract's parties line, "Zwischen <name>,
 * <street>, <postal code> <city> (der Hafen)"): the letterhead comes from the contract itself,
 * so it never changes when the harbour's settings do.
 */
export function contractHarbour(text: string): { name: string; address: string } {
  const m = /^(?:Zwischen|Between) (.+) \((?:der Hafen|the harbour)\)$/m.exec(text ?? '');
  if (!m) return { name: '', address: '' };
  const [name, ...rest] = m[1].split(', ');
  return { name, address: rest.join(' · ') };
}

/** An instant as Düsseldorf wall-clock time: "07.12.2026, 18:30 Uhr (Europe/Berlin)". */
function berlinTime(at: string, locale: ContractLocale): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  const formatted = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'de-DE', {
    timeZone: 'Europe/Berlin',
    day: locale === 'en' ? 'numeric' : '2-digit',
    month: locale === 'en' ? 'short' : '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d);
  return fill(TEXT[locale].time, { at: formatted });
}

/**
 * A line of the text wrapped to a width, its spaces kept (leading ones too: the text is shown as
 * stored). Continuation lines are drawn at `indent` (the width of the leading spaces and a list
 * dash). A word wider than the width is cut.
 */
function wrapLine(fonts: PdfAFonts, font: PDFFont, size: number, line: string, width: number): { lines: string[]; indent: number } {
  const s = drawable(fonts, font, line);
  const lead = /^ *(?:- )?/.exec(s)![0];
  const indent = Math.min(font.widthOfTextAtSize(lead, size), width / 3);
  const fits = (t: string, w: number) => font.widthOfTextAtSize(t.trimEnd(), size) <= w;
  const lines: string[] = [];
  let current = '';
  const room = () => (lines.length === 0 ? width : width - indent);
  for (let token of s.match(/ *[^ ]+ */g) ?? [s]) {
    if (fits(current + token, room())) {
      current += token;
      continue;
    }
    if (current.trim()) {
      lines.push(current.trimEnd());
      current = '';
      token = token.trimStart();
    }
    while (!fits(token, room())) {
      let cut = token.length - 1;
      while (cut > 1 && !fits(token.slice(0, cut), room())) cut--;
      lines.push(token.slice(0, cut));
      token = token.slice(cut);
    }
    current = token;
  }
  if (current.trim() || lines.length === 0) lines.push(current.trimEnd());
  return { lines, indent };
}

/** Embeds the contract text as it was hashed (UTF-8) as the PDF's associated file. */
function attachContractText(pdf: PDFDocument, contract: PdfContract, fileName: string, at: Date) {
  const context = pdf.context;
  const bytes = new TextEncoder().encode(contract.contract_text);
  const file = context.flateStream(bytes, {
    Type: 'EmbeddedFile',
    Subtype: 'text/plain',
    Params: { Size: bytes.length, ModDate: PDFString.fromDate(at) },
  });
  const fileRef = context.register(file);
  const spec = context.register(
    context.obj({
      Type: 'Filespec',
      F: PDFString.of(fileName),
      UF: PDFHexString.fromText(fileName),
      Desc: PDFString.of(`Contract text (UTF-8), SHA-256 ${contract.contract_sha256}`),
      AFRelationship: 'Source',
      EF: { F: fileRef, UF: fileRef },
    }),
  );
  pdf.catalog.set(PDFName.of('AF'), context.obj([spec]));
  pdf.catalog.set(PDFName.of('Names'), context.obj({ EmbeddedFiles: { Names: [PDFString.of(fileName), spec] } }));
}

/**
 * Renders a stored contract to PDF bytes, in the contract's language unless `locale` is given.
 * Deterministic: the same contract and locale give the same bytes.
 */
export async function renderContractPdf(contract: PdfContract, locale?: ContractLocale): Promise<Uint8Array> {
  const lang = localeOf(contract, locale);
  const t = TEXT[lang];
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const seed = `contract|${contract.id ?? ''}|${contract.contract_number}|${contract.contract_sha256}|${lang}`;
  const fonts = await embedPdfAFonts(pdf, seed);
  const harbour = contractHarbour(contract.contract_text);
  const title = contractTitle(contract, lang);
  const acceptedAt = new Date(contract.accepted_at);
  const date = Number.isNaN(acceptedAt.getTime()) ? new Date(0) : acceptedAt;

  let page: PDFPage = pdf.addPage([PAGE_W, PAGE_H]);
  let y = PAGE_H - 50;
  const text = (s: string, x: number, yy: number, opts: { size?: number; bold?: boolean; grey?: boolean; right?: boolean } = {}) => {
    const font = opts.bold ? fonts.bold : fonts.regular;
    const size = opts.size ?? 10;
    const str = drawable(fonts, font, s);
    const w = font.widthOfTextAtSize(str, size);
    page.drawText(str, { x: opts.right ? x - w : x, y: yy, size, font, color: opts.grey ? GREY : INK });
  };

  // Letterhead: the logo and the harbour, then the title.
  drawLogo(page, LEFT, y + 4, 40);
  text(harbour.name, LEFT + 50, y - 12, { size: 15, bold: true });
  text(harbour.address, LEFT + 50, y - 27, { size: 8.5, grey: true });
  y -= 80;
  text(title, LEFT, y, { size: 17, bold: true });
  y -= 30;

  const bottom = FOOTER_TOP + 10;
  const newPage = () => {
    page = pdf.addPage([PAGE_W, PAGE_H]);
    y = PAGE_H - 50;
    drawLogo(page, LEFT, y + 4, 22);
    text(`${title} (${t.continued})`, LEFT + 30, y - 12, { size: 10, bold: true });
    y -= 44;
  };

  // The text, line by line as stored.
  const width = RIGHT - LEFT;
  const lines = contract.contract_text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, i) => {
    if (raw.trim() === '') {
      y -= 7;
      return;
    }
    const heading = raw.startsWith('## ');
    const font = heading ? fonts.bold : fonts.regular;
    const size = heading ? 11 : 10;
    const step = heading ? 15 : 13.5;
    const wrapped = wrapLine(fonts, font, size, heading ? raw.slice(3) : raw, width);
    // A heading stays with the first line of what follows it.
    const need = wrapped.lines.length * step + (heading && i + 1 < lines.length ? 13.5 : 0);
    if (y - need < bottom && !(wrapped.lines.length * step > PAGE_H - 200)) newPage();
    if (heading) y -= 4;
    wrapped.lines.forEach((l, k) => {
      if (y < bottom) newPage();
      text(l, k === 0 ? LEFT : LEFT + wrapped.indent, y, { size, bold: heading });
      y -= step;
    });
  });

  // The record of acceptance, kept together on one page.
  const record: [string, string][] = [
    [contract.renews_contract_id ? t.renewed : t.accepted, berlinTime(contract.accepted_at, lang)],
    [t.terms, fill(t.termsVersion, { v: String(contract.terms_version) })],
    [t.hash, ''],
  ];
  const note = wrapLine(fonts, fonts.regular, 8.5, fill(t.embedded, { file: textFileName(contract, lang) }), width);
  if (y - (30 + record.length * 14 + 14 + note.lines.length * 11) < bottom) newPage();
  y -= 14;
  page.drawLine({ start: { x: LEFT, y: y + 12 }, end: { x: RIGHT, y: y + 12 }, thickness: 0.6, color: RULE });
  text(t.record, LEFT, y - 4, { size: 11, bold: true });
  y -= 22;
  for (const [label, value] of record) {
    text(label, LEFT, y, { size: 9.5, grey: true });
    if (value) text(value, LEFT + 170, y, { size: 9.5 });
    y -= 14;
  }
  // The hash on a line of its own, in one piece.
  text(contract.contract_sha256, LEFT, y + 2, { size: 9 });
  y -= 16;
  for (const l of note.lines) {
    text(l, LEFT, y, { size: 8.5, grey: true });
    y -= 11;
  }

  // Footer on every page: the harbour, page x of n.
  const pages = pdf.getPages();
  const footer = [harbour.name, harbour.address].filter(Boolean).join(' · ');
  pages.forEach((p, i) => {
    page = p;
    p.drawLine({ start: { x: LEFT, y: FOOTER_TOP - 14 }, end: { x: RIGHT, y: FOOTER_TOP - 14 }, thickness: 0.5, color: RULE });
    if (footer) text(footer, LEFT, FOOTER_TOP - 27, { size: 7.5, grey: true });
    text(fill(t.page, { n: String(i + 1), total: String(pages.length) }), RIGHT, FOOTER_TOP - 27, { size: 8, grey: true, right: true });
  });

  attachContractText(pdf, contract, textFileName(contract, lang), date);
  await finishPdfA(pdf, {
    title,
    author: harbour.name || undefined,
    subject: `${title} (SHA-256 ${contract.contract_sha256})`,
    creator: harbour.name || undefined,
    producer: 'pdf-lib',
    language: lang === 'en' ? 'en-GB' : 'de-DE',
    date,
    idSeed: seed,
  });
  return await pdf.save({ useObjectStreams: false });
}

/** The contract's language for its PDF: the one asked for, else the contract's own. */
export const contractPdfLocale = localeOf;
