/**
 * contract-pdf: POST {contract_id, locale?} with a signed-in user's token -> the long-term berth
 * contract's PDF/A-3b (application/pdf, attachment "Vertrag-LV-2027-0001.pdf"), rendered from
 * the stored, immutable contract (../_shared/contract-pdf.ts) in the contract's language unless
 * `locale` ('de' | 'en') is given.
 *
 * The contract is read with the caller's own token, so RLS decides who may have it (its holder,
 * or staff): another user gets 404 not_found, as for a contract that does not exist.
 *
 * Answers: 401 not_signed_in, 400 invalid_request, 404 not_found, 503 when the database
 * cannot answer; never 500. docs/adr/0047-offers-and-contracts.md.
 */
import { json, pdfResponse, serve, userRequest } from '../_shared/api.ts';
import { readContract } from '../_shared/contract-documents.ts';
import { contractPdfFileName, contractPdfLocale, renderContractPdf } from '../_shared/contract-pdf.ts';

serve(async (req) => {
  const start = await userRequest(req);
  if (start instanceof Response) return start;
  const { user, body } = start;
  const id = body?.contract_id;
  const locale = body?.locale;
  if (typeof id !== 'string' || (locale !== undefined && locale !== 'de' && locale !== 'en'))
    return json(400, { error: 'invalid_request' });
  const read = await readContract(id, user.token);
  if (!read.ok) return json(read.status, { error: read.code });
  const lang = contractPdfLocale(read.contract, locale);
  const bytes = await renderContractPdf(read.contract, lang);
  return pdfResponse(bytes, contractPdfFileName(read.contract, lang));
});
