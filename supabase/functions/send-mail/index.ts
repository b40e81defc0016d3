/**
 * send-mail: delivers the outbox (public.outbox) over SMTP.
 *
 * Called by pg_cron + pg_net every minute and right after mail is queued (migration
 * 20261122001600_cron.sql), or by hand. Claims due rows with the service role through the REST
 * API (public.claim_outbox: a 5-minute lease, skip locked, so parallel calls never send a
 * message twice), sends each with nodemailer (the text part as queued and the branded HTML part
 * that html.ts renders from it), and reports every result (public.complete_outbox): sent, or a
 * retry with exponential backoff (1, 2, 4 ... 60 minutes), failed after 8 attempts.
 *
 * Environment: SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY (set by the platform); SMTP_HOST,
 * SMTP_PORT, SMTP_SECURE ('true' for TLS on connect, e.g. port 465 on hosted Supabase, where
 * 25 and 587 are blocked), SMTP_USER, SMTP_PASS, MAIL_FROM (default "Hafen Düsseldorf
 * <noreply@hafen-duesseldorf.de>"), SITE_URL (named in the HTML footer). The local stack points
 * SMTP_* at its mail catcher.
 */
import nodemailer from 'nodemailer';
import { readContract } from '../_shared/contract-documents.ts';
import { contractPdfFileName, renderContractPdf } from '../_shared/contract-pdf.ts';
import { readInvoiceDocument } from '../_shared/invoice-documents.ts';
import { pdfFileName, renderInvoicePdf } from '../_shared/invoice-pdf.ts';
import { renderMailHtml } from './html.ts';

const BATCH = 20;
const TIME_BUDGET_MS = 25_000;

interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  reply_to: string | null;
  locale: string;
  subject: string;
  body_text: string;
  attachments: Attachment[];
  attempts: number;
}

/**
 * An attachment as queued: its content inline (an .ics), or a reference to an invoice document
 * ({invoice_id}) or a long-term contract ({contract_id}) whose PDF is rendered here when the
 * message is sent, in the message's language, so no PDF is stored in the database
 * (docs/adr/0033-invoices-and-gobd.md, docs/adr/0047-offers-and-contracts.md).
 */
type Attachment =
  | { filename: string; content_type: string; content: string }
  | { invoice_id: string; filename?: string }
  | { contract_id: string; filename?: string };

type MailAttachment = { filename: string; content: string; encoding: 'base64'; contentType: string };

function bytesBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The message's attachments for nodemailer; a document that cannot be read fails the message (it is retried). */
async function attachmentsOf(row: OutboxRow): Promise<MailAttachment[]> {
  const out: MailAttachment[] = [];
  for (const a of row.attachments ?? []) {
    if ('invoice_id' in a) {
      const locale = row.locale === 'en' ? 'en' : 'de';
      const read = await readInvoiceDocument(a.invoice_id, 'service_role', locale);
      if (!read.ok) throw new Error(`invoice document ${a.invoice_id}: ${read.code}`);
      out.push({
        filename: pdfFileName(read.doc, locale),
        content: bytesBase64(await renderInvoicePdf(read.doc, locale)),
        encoding: 'base64',
        contentType: 'application/pdf',
      });
    } else if ('contract_id' in a) {
      const locale = row.locale === 'en' ? 'en' : 'de';
      const read = await readContract(a.contract_id, 'service_role');
      if (!read.ok) throw new Error(`contract ${a.contract_id}: ${read.code}`);
      out.push({
        filename: contractPdfFileName(read.contract, locale),
        content: bytesBase64(await renderContractPdf(read.contract, locale)),
        encoding: 'base64',
        contentType: 'application/pdf',
      });
    } else {
      // Base64, so the bytes (the CRLF lines an .ics needs) arrive unchanged.
      out.push({ filename: a.filename, content: base64(a.content), encoding: 'base64', contentType: a.content_type });
    }
  }
  return out;
}

function env(name: string, fallback?: string): string {
  const value = Deno.env.get(name) ?? fallback;
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const key = env('SUPABASE_SERVICE_ROLE_KEY');
  const res = await fetch(`${env('SUPABASE_URL').replace(/\/$/, '')}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`rpc ${name}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function transport() {
  const user = Deno.env.get('SMTP_USER');
  return nodemailer.createTransport({
    host: env('SMTP_HOST'),
    port: Number(env('SMTP_PORT', '465')),
    secure: (Deno.env.get('SMTP_SECURE') ?? 'true') === 'true',
    auth: user ? { user, pass: Deno.env.get('SMTP_PASS') ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}

async function deliver(): Promise<{ sent: number; retried: number; failed: number; errors: string[] }> {
  const started = Date.now();
  const from = Deno.env.get('MAIL_FROM') ?? 'Hafen Düsseldorf <noreply@hafen-duesseldorf.de>';
  const smtp = transport();
  const result = { sent: 0, retried: 0, failed: 0, errors: [] as string[] };
  try {
    while (Date.now() - started < TIME_BUDGET_MS) {
      const rows = await rpc<OutboxRow[]>('claim_outbox', { p_limit: BATCH });
      if (rows.length === 0) break;
      for (const row of rows) {
        let error: string | null = null;
        try {
          await smtp.sendMail({
            from,
            to: row.recipient,
            replyTo: row.reply_to ?? undefined,
            subject: row.subject,
            text: row.body_text,
            html: renderMailHtml({
              subject: row.subject,
              text: row.body_text,
              locale: row.locale,
              siteUrl: Deno.env.get('SITE_URL'),
              replies: row.reply_to !== null,
            }),
            headers: { 'Content-Language': row.locale, 'X-Outbox-Id': String(row.id) },
            attachments: await attachmentsOf(row),
          });
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        }
        const done = await rpc<{ status: string }>('complete_outbox', { p_id: row.id, p_ok: error === null, p_error: error });
        if (error === null) result.sent++;
        else {
          result.errors.push(`${row.id}: ${error}`);
          if (done.status === 'failed') result.failed++;
          else result.retried++;
        }
      }
      // Rows that failed are not due again in this call (backoff), so the loop ends.
      if (rows.length < BATCH) break;
    }
  } finally {
    smtp.close();
  }
  return result;
}

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204 });
  if (req.method !== 'POST') return Response.json({ error: 'method_not_allowed' }, { status: 405 });
  try {
    const result = await deliver();
    return Response.json(result);
  } catch (e) {
    console.error('send-mail:', e);
    return Response.json({ error: e instanceof Error ? e.message : String(e) }, { status: 500 });
  }
});
