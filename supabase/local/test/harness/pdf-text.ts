/**
 * The text of a PDF made by supabase/functions/_shared/invoice-pdf.ts, read back with pdf-lib's
 * own parser: each page's content streams decoded (Flate), the strings its text operators show
 * (`/F 9.5 Tf` then `<hex> Tj`) mapped back to Unicode through the font's ToUnicode CMap (the
 * embedded Liberation Sans subsets are Identity-H: two bytes a glyph), in drawing order. A font
 * without ToUnicode is read as WinAnsiEncoding (one byte a character). Enough for that renderer's
 * output (it draws every string with one Tj); not a general extractor.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream, type PDFPage } from 'pdf-lib';

// WinAnsiEncoding is Windows code page 1252 (PDF 32000-1, Annex D).
const cp1252 = new TextDecoder('windows-1252');

export interface PdfText {
  pageCount: number;
  /** Every page's strings, in the order drawn. */
  pages: string[][];
  title?: string;
  language?: string;
}

/** A ToUnicode CMap's bfchar and bfrange entries: code (hex) -> text. */
function parseToUnicode(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  const utf16 = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) map.set(m[1].toUpperCase(), utf16(m[2]));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const [from, to, dst] = [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
      for (let c = from; c <= to; c++)
        map.set(c.toString(16).toUpperCase().padStart(m[1].length, '0'), String.fromCharCode(dst + c - from));
    }
  }
  return map;
}

/** The page's fonts by resource name: a ToUnicode map, or undefined for a simple WinAnsi font. */
function pageFonts(doc: PDFDocument, page: PDFPage): Map<string, Map<string, string> | undefined> {
  const fonts = new Map<string, Map<string, string> | undefined>();
  const dict = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
  for (const [name, ref] of dict?.entries() ?? []) {
    const font = doc.context.lookup(ref, PDFDict);
    const toUnicode = font.lookup(PDFName.of('ToUnicode'));
    fonts.set(
      name.decodeText(),
      toUnicode instanceof PDFRawStream
        ? parseToUnicode(new TextDecoder('latin1').decode(decodePDFRawStream(toUnicode).decode()))
        : undefined,
    );
  }
  return fonts;
}

export async function pdfText(bytes: Uint8Array): Promise<PdfText> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const pages = doc.getPages().map((page) => {
    const fonts = pageFonts(doc, page);
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const strings: string[] = [];
    let font: Map<string, string> | undefined;
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const ops = new TextDecoder('latin1').decode(decodePDFRawStream(stream).decode());
      for (const m of ops.matchAll(/\/([^\s/<>[\]()]+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj/g)) {
        if (m[1] !== undefined) {
          font = fonts.get(m[1]);
          continue;
        }
        const text = font
          ? (m[2].match(/.{4}/g) ?? []).map((code) => font!.get(code.toUpperCase()) ?? '\ufffd').join('')
          : cp1252.decode(Uint8Array.from(m[2].match(/../g) ?? [], (h) => parseInt(h, 16)));
        // A no-break space (between amount and €) read as a space, as text extractors do.
        strings.push(text.replace(/\u00a0/g, ' '));
      }
    }
    return strings;
  });
  const raw = new TextDecoder('latin1').decode(bytes);
  return { pageCount: pages.length, pages, title: doc.getTitle(), language: /\/Lang \(([^)]*)\)/.exec(raw)?.[1] };
}
