/**
 * The text of a PDF made by supabase/functions/_shared/invoice-pdf.ts, read back with pdf-lib's
 * own parser: each page's content streams decoded (Flate), the strings its text operators show
 * (`<hex> Tj`, standard fonts in WinAnsiEncoding) mapped back to Unicode, in drawing order.
 * Enough for that renderer's output (it draws every string with one Tj); not a general
 * extractor.
 */
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

// WinAnsiEncoding is Windows code page 1252 (PDF 32000-1, Annex D).
const cp1252 = new TextDecoder('windows-1252');

export interface PdfText {
  pageCount: number;
  /** Every page's strings, in the order drawn. */
  pages: string[][];
  title?: string;
  language?: string;
}

export async function pdfText(bytes: Uint8Array): Promise<PdfText> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const pages = doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const strings: string[] = [];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const ops = new TextDecoder('latin1').decode(decodePDFRawStream(stream).decode());
      for (const m of ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
        // A no-break space (between amount and €) read as a space, as text extractors do.
        strings.push(cp1252.decode(Uint8Array.from(m[1].match(/../g) ?? [], (h) => parseInt(h, 16))).replace(/\u00a0/g, ' '));
      }
    }
    return strings;
  });
  const raw = new TextDecoder('latin1').decode(bytes);
  return { pageCount: pages.length, pages, title: doc.getTitle(), language: /\/Lang \(([^)]*)\)/.exec(raw)?.[1] };
}
