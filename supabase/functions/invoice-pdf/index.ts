/**
 * invoice-pdf: POST {invoice_id, locale?, format?} with a signed-in user's token -> the document's
 * PDF (application/pdf, attachment "Rechnung-RE-2026-00001.pdf"). A business guest's document
 * (the buyer names a company) is the ZUGFeRD / Factur-X PDF with the CII XML inside; with
 * `format: 'xml'` its EN 16931 CII XML alone (application/xml, "RE-2026-00001.xml"); 404
 * not_einvoice for a document without a company buyer (../_shared/einvoice.ts).
 *
 * The document is read with the caller's own token, so RLS decides who may have it (the
 * order's owner, or staff): another user gets 404 not_found, as for a document that does not
 * exist. The PDF renders the stored document as issued (../_shared/invoice-pdf.ts), in the
 * order's language unless `locale` ('de' | 'en') is given.
 *
 * Answers: 401 not_signed_in, 400 invalid_request, 404 not_found, 503 when the database
 * cannot answer; never 500.
 */
import { fileResponse, json, pdfResponse, serve, userRequest } from '../_shared/api.ts';
import { readInvoiceDocument } from '../_shared/invoice-documents.ts';
import { pdfFileName, renderInvoicePdf } from '../_shared/invoice-pdf.ts';
import { buildCiiXml, isEInvoice } from '../_shared/einvoice.ts';

serve(async (req) => {
  const start = await userRequest(req);
  if (start instanceof Response) return start;
  const { user, body } = start;
  const id = body?.invoice_id;
  const locale = body?.locale;
  const format = body?.format ?? 'pdf';
  if (typeof id !== 'string' || (locale !== undefined && locale !== 'de' && locale !== 'en') || (format !== 'pdf' && format !== 'xml'))
    return json(400, { error: 'invalid_request' });
  const read = await readInvoiceDocument(id, user.token, locale);
  if (!read.ok) return json(read.status, { error: read.code });
  if (format === 'xml') {
    if (!isEInvoice(read.doc)) return json(404, { error: 'not_einvoice' });
    return fileResponse(buildCiiXml(read.doc), 'application/xml; charset=utf-8', `${read.doc.invoice_number}.xml`);
  }
  const bytes = await renderInvoicePdf(read.doc, read.locale);
  const name = pdfFileName(read.doc, read.locale);
  return pdfResponse(bytes, name);
});
