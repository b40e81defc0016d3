/**
 * Reading a stored invoice document (public.invoices) through PostgREST with plain fetch, as
 * whoever's token is given: a user's token lets RLS decide (the order's owner or staff), the
 * service role key reads any (send-mail). The document's language is the order's (the language
 * it was booked in, as the e-mails), unless the caller names one.
 */
import type { PdfInvoiceDocument, PdfLocale } from './invoice-pdf.ts';

export type DocumentRead = { ok: true; doc: PdfInvoiceDocument; locale: PdfLocale } | { ok: false; status: number; code: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A GET of PostgREST (`/rest/v1/<path>`) with the key and bearer given; 503 when the database cannot answer. */
export async function restGet(path: string, apikey: string, bearer: string): Promise<{ status: number; body: unknown }> {
  const url = Deno.env.get('SUPABASE_URL');
  if (!url) return { status: 503, body: null };
  try {
    const res = await fetch(`${url.replace(/\/$/, '')}/rest/v1/${path}`, {
      headers: { apikey, authorization: `Bearer ${bearer}`, accept: 'application/json' },
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, body };
  } catch {
    return { status: 503, body: null };
  }
}

/** The apikey and bearer for a user's token ('service_role': the service role key); undefined when not configured. */
export function restKeys(token: 'service_role' | string): { apikey: string; bearer: string } | undefined {
  const service = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY') ?? '';
  const anon = Deno.env.get('SUPABASE_ANON_KEY') ?? '';
  const apikey = token === 'service_role' ? service : anon;
  const bearer = token === 'service_role' ? service : token;
  return apikey && bearer ? { apikey, bearer } : undefined;
}

/**
 * The document `id` as the holder of `token` may read it ('service_role' for the service role
 * key): 404 not_found when it does not exist or is not theirs, 503 when the database cannot answer.
 */
export async function readInvoiceDocument(id: string, token: 'service_role' | string, locale?: string): Promise<DocumentRead> {
  if (!UUID.test(id)) return { ok: false, status: 400, code: 'invalid_request' };
  const keys = restKeys(token);
  if (!keys) return { ok: false, status: 503, code: 'not_configured' };
  const { apikey, bearer } = keys;
  const found = await restGet(`invoices?id=eq.${id}&select=*`, apikey, bearer);
  if (found.status === 401 || found.status === 403) return { ok: false, status: found.status, code: 'forbidden' };
  if (found.status !== 200 || !Array.isArray(found.body)) return { ok: false, status: 503, code: 'database_unavailable' };
  const doc = found.body[0] as (PdfInvoiceDocument & { order_id?: string }) | undefined;
  if (!doc) return { ok: false, status: 404, code: 'not_found' };
  if (locale === 'de' || locale === 'en') return { ok: true, doc, locale };
  // The order's language: person.locale as booked (private.order_locale's first choice), else German.
  let orderLocale: PdfLocale = 'de';
  if (doc.order_id && UUID.test(doc.order_id)) {
    const order = await restGet(`orders?id=eq.${doc.order_id}&select=person`, apikey, bearer);
    const person = Array.isArray(order.body) ? (order.body[0] as { person?: { locale?: string } } | undefined)?.person : undefined;
    if (person?.locale === 'en') orderLocale = 'en';
  }
  return { ok: true, doc, locale: orderLocale };
}
