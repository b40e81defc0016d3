/**
 * invoice-archive: POST {from, to} (Berlin days, 'YYYY-MM-DD') with an admin's token -> one ZIP
 * ("Belege-<from>-<to>.zip"; sent as application/octet-stream, the type supabase-js hands to
 * the app as a Blob: it reads application/zip as text) holding every stored invoice document issued in the
 * range as a PDF: invoices, cancellation invoices, credit notes and desk receipts, each rendered
 * from its row of public.invoices as issued (../_shared/invoice-pdf.ts, the renderer of the
 * invoice-pdf function and the e-mails; a business guest's document is its ZUGFeRD PDF), in the
 * language it was issued in. Entries are named "<number>-<title>.pdf" in number order.
 *
 * The documents come from public.invoice_archive_documents called with the caller's own token:
 * the database refuses anyone but an admin (admin_only) and a range over 366 days
 * (archive_range_too_long), and RLS on invoices decides what is read.
 *
 * Answers: 401 not_signed_in, 400 invalid_request / invalid_range / archive_range_too_long,
 * 403 admin_only, 404 no_documents (nothing issued in the range), 503 when the database cannot
 * answer; never 500.
 */
import { json, refusal, rpc, serve, userRequest } from '../_shared/api.ts';
import { pdfFileName, renderInvoicePdf, type PdfInvoiceDocument } from '../_shared/invoice-pdf.ts';
import { zipStore, type ZipEntry } from '../_shared/zip.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PAGE = 500;

const realDay = (s: unknown): s is string =>
  typeof s === 'string' &&
  DAY.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

serve(async (req) => {
  const start = await userRequest(req);
  if (start instanceof Response) return start;
  const { user, body } = start;
  const from = body?.from;
  const to = body?.to;
  if (!realDay(from) || !realDay(to)) return json(400, { error: 'invalid_request' });
  const entries: ZipEntry[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await rpc<{ document: PdfInvoiceDocument; locale: string }[]>(
      `invoice_archive_documents?limit=${PAGE}&offset=${offset}`,
      { p_from: from, p_to: to },
      user.token,
    );
    if (!page.ok) return refusal(page);
    for (const { document: doc, locale } of page.data) {
      const lang = locale === 'en' ? 'en' : 'de';
      const bytes = await renderInvoicePdf(doc, lang);
      // "RE-2026-00001-Rechnung.pdf": sorted by number, the kind readable.
      const file = pdfFileName(doc, lang);
      const suffix = `-${doc.invoice_number}.pdf`;
      const name = file.endsWith(suffix) ? `${doc.invoice_number}-${file.slice(0, -suffix.length)}.pdf` : file;
      entries.push({ name, data: bytes, modified: new Date(doc.issued_at) });
    }
    if (page.data.length < PAGE) break;
  }
  if (entries.length === 0) return json(404, { error: 'no_documents' });
  const zip = zipStore(entries);
  return new Response(new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), {
    status: 200,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'content-disposition',
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="Belege-${from}-${to}.zip"`,
      'cache-control': 'private, no-store',
    },
  });
});
