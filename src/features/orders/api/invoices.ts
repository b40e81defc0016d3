import { queryOptions } from '@tanstack/react-query';
import { getSupabase, hasStoredSession } from '@/lib/auth';
import { invokeFunction } from '@/lib/edge-functions';
import type { Tables } from '@/lib/database.types';
import { orderKeys } from '@/features/orders/api/keys';
import { isUuid } from '@/lib/ids';

/** Invoice documents (supabase/schemas/35b_invoice_documents.sql): stored whole when issued, never changed. */
export type InvoiceKind = 'invoice' | 'cancellation' | 'credit_note';

/** Why a document was issued (public.invoices.reason). */
export type InvoiceReason = 'payment' | 'correction' | 'changed' | 'cancelled' | 'refunded' | 'partial_refund' | 'refund_reversed';

/** One line of a document as issued; descriptions are stored text (German and English). */
export interface InvoiceLine {
  position: number;
  code: string;
  description: string;
  description_en?: string;
  quantity: number;
  /** night, day, piece */
  unit: string;
  unit_price_cents: number;
  vat_rate: number;
  net_cents: number;
}

/** Net, VAT and gross of one VAT rate. */
export interface InvoiceVatRow {
  vat_rate: number;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
}

export interface InvoiceParty {
  name?: string;
  first_name?: string;
  last_name?: string;
  company?: string;
  street?: string;
  postal_code?: string;
  city?: string;
  country?: string;
  email?: string;
  vat_id?: string;
  phone?: string;
  /** The seller's, for the e-invoice (stamped since session 9 when set). */
  tax_number?: string;
  iban?: string;
  bic?: string;
}

/**
 * What the generated row cannot know: invoice_number is a generated column of two not-null
 * columns (never null, but the catalog reports generated columns nullable), kind and reason are
 * text with a check, and the jsonb columns' shapes.
 */
type InvoiceOverride = {
  invoice_number: string;
  kind: InvoiceKind;
  reason: InvoiceReason;
  recipient: InvoiceParty | null;
  issuer: InvoiceParty | null;
  lines: InvoiceLine[];
  vat_breakdown: InvoiceVatRow[];
};

export type InvoiceDocument = Omit<Tables<'invoices'>, keyof InvoiceOverride> & InvoiceOverride;

/** What an order's list of documents shows. */
export type InvoiceDocumentSummary = Pick<
  InvoiceDocument,
  'id' | 'order_id' | 'kind' | 'reason' | 'invoice_number' | 'issued_at' | 'gross_cents' | 'refers_to' | 'refers_to_number'
>;

const SUMMARY = 'id, order_id, kind, reason, invoice_number, issued_at, gross_cents, refers_to, refers_to_number';

/** The documents of an order, oldest first, as the visitor may read them (RLS: the order's owner or staff). */
export async function fetchOrderDocuments(orderId: string): Promise<InvoiceDocumentSummary[]> {
  if (!isUuid(orderId)) return [];
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .from('invoices')
    .select(SUMMARY)
    .eq('order_id', orderId)
    .order('year')
    .order('number')
    .overrideTypes<Pick<InvoiceOverride, 'invoice_number' | 'kind' | 'reason'>[]>();
  if (error) throw error;
  return data;
}

/** The order's invoice in force: the newest invoice no cancellation names. */
export function currentInvoice(documents: InvoiceDocumentSummary[]): InvoiceDocumentSummary | null {
  const cancelled = new Set(documents.filter((d) => d.kind === 'cancellation').map((d) => d.refers_to));
  return [...documents].reverse().find((d) => d.kind === 'invoice' && !cancelled.has(d.id)) ?? null;
}

export const orderDocumentsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderKeys.documents(orderId),
    queryFn: () => (hasStoredSession() ? fetchOrderDocuments(orderId) : Promise.resolve([])),
    staleTime: 10_000,
  });

/** One document as stored; null when there is none or the visitor may not read it. */
export const invoiceDocumentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: orderKeys.document(id),
    queryFn: async (): Promise<InvoiceDocument | null> => {
      if (!isUuid(id) || !hasStoredSession()) return null;
      const supabase = await getSupabase();
      const { data, error } = await supabase.from('invoices').select('*').eq('id', id).maybeSingle().overrideTypes<InvoiceOverride>();
      if (error) throw error;
      return data;
    },
    // A document never changes once issued.
    staleTime: Infinity,
  });

/**
 * The PDF of a stored document from the invoice-pdf edge function (supabase/functions/invoice-pdf):
 * it reads the document with the visitor's session, so RLS decides (the order's owner, or
 * staff); the PDF is in the order's language. Throws FunctionCallError (e.g. not_found).
 */
export async function fetchInvoicePdf(id: string): Promise<Blob> {
  const data = await invokeFunction<Blob>('invoice-pdf', { invoice_id: id });
  if (!(data instanceof Blob)) throw new Error('invoice-pdf answered no PDF');
  return data;
}

/**
 * The EN 16931 CII XML of a business guest's document (the invoice-pdf edge function with
 * format 'xml'; the same XML the ZUGFeRD PDF carries). Throws FunctionCallError (not_found,
 * not_einvoice for a document without a company buyer).
 */
export async function fetchInvoiceXml(id: string): Promise<Blob> {
  const data = await invokeFunction<string | Blob>('invoice-pdf', { invoice_id: id, format: 'xml' });
  if (typeof data === 'string') return new Blob([data], { type: 'application/xml' });
  if (data instanceof Blob) return data;
  throw new Error('invoice-pdf answered no XML');
}
