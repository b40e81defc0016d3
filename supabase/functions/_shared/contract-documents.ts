/**
 * Reading a stored contract (public.contracts) through PostgREST with plain fetch, as whoever's
 * token is given: a user's token lets RLS decide (the holder, by account or verified e-mail, or
 * staff), the service role key reads any (send-mail).
 */
import { UUID } from './api.ts';
import { restGet, restKeys } from './invoice-documents.ts';
import type { PdfContract } from './contract-pdf.ts';

export type ContractRead = { ok: true; contract: PdfContract } | { ok: false; status: number; code: string };

const COLUMNS = 'id,contract_number,locale,contract_text,contract_sha256,accepted_at,terms_version,renews_contract_id';

/**
 * The contract `id` as the holder of `token` may read it: 400 invalid_request for a malformed
 * id, 404 not_found when it does not exist or is not theirs, 503 when the database cannot answer.
 */
export async function readContract(id: string, token: 'service_role' | string): Promise<ContractRead> {
  if (!UUID.test(id)) return { ok: false, status: 400, code: 'invalid_request' };
  const keys = restKeys(token);
  if (!keys) return { ok: false, status: 503, code: 'not_configured' };
  const found = await restGet(`contracts?id=eq.${id}&select=${COLUMNS}`, keys.apikey, keys.bearer);
  if (found.status === 401 || found.status === 403) return { ok: false, status: found.status, code: 'forbidden' };
  if (found.status !== 200 || !Array.isArray(found.body)) return { ok: false, status: 503, code: 'database_unavailable' };
  const contract = found.body[0] as PdfContract | undefined;
  if (!contract) return { ok: false, status: 404, code: 'not_found' };
  return { ok: true, contract };
}
