/**
 * The shape of a stored invoice document as the PDF and the e-invoice read it (a row of
 * public.invoices as PostgREST returns it). Types only: ./invoice-pdf.ts and ./einvoice.ts both
 * read it, and neither imports the other for it.
 */
export type PdfLocale = 'de' | 'en';

/** The stored document as PostgREST returns a row of public.invoices (fields not printed may be absent). */
export interface PdfInvoiceDocument {
  id?: string;
  kind: string;
  invoice_number: string;
  issued_at: string;
  booking_number?: string | null;
  order_id?: string | null;
  refers_to_number?: string | null;
  reason?: string | null;
  small_amount?: boolean | null;
  service_from?: string | null;
  service_to?: string | null;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
  currency?: string | null;
  issuer?: PdfParty | null;
  recipient?: PdfParty | null;
  lines?: PdfLine[] | null;
  vat_breakdown?: { vat_rate: number; net_cents: number; vat_cents: number; gross_cents: number }[] | null;
  /** A desk receipt may say how it was paid (cash, card, transfer). */
  payment_method?: string | null;
}

export interface PdfParty {
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
}

export interface PdfLine {
  position?: number;
  code?: string;
  description: string;
  description_en?: string | null;
  quantity: number;
  unit?: string | null;
  unit_price_cents: number;
  vat_rate: number;
  net_cents: number;
}
