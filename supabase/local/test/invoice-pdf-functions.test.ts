/**
 * Invoice PDFs through the stack (issue 21 item 8), offline (Deno takes pdf-lib from
 * node_modules): a guest books and pays online on the payment sandbox, as in the browser; the
 * invoice-pdf edge function then gives the owner the PDF of the stored invoice (200,
 * application/pdf, the document's number and buyer in it, in the booking's language), gives
 * staff the same, and refuses another guest (404, as for a document that does not exist),
 * callers without a session (401) and bad requests (400). send-mail delivers the payment
 * receipt with the invoice PDF attached (rendered from the outbox's {invoice_id} reference).
 * One engine: the SQL that attaches documents runs on both engines in supabase/tests/352-invoice-mail.sql.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses, downloadedNpmFiles } from './harness/offline.ts';
import { callFunction, clientOptions, guestOrder, payOnSandbox, until, type GuestOrder } from './harness/payments.ts';
import { pdfText } from './harness/pdf-text.ts';
import type { Stack } from '../src/stack.ts';
import { signInWithPassword } from './harness/demo-staff.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

const STAFF = { email: 'hafen@hafen.test', password: 'Hafen1234' };

const engine = engines()[0];
const suite = `invoice PDFs through the edge functions on ${engine.name}`;
describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
  let stack: Stack;
  let owner: GuestOrder;
  let other: GuestOrder;
  let staffToken: string;
  let invoice: { id: string; invoice_number: string };

  /** invoice-pdf's raw answer (the PDF's bytes, or the JSON error). */
  async function download(token: string | null, body: unknown) {
    const headers: Record<string, string> = { apikey: stack.keys.anonKey, 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${stack.url}/functions/v1/invoice-pdf`, { method: 'POST', headers, body: JSON.stringify(body) });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      bytes: new Uint8Array(await res.arrayBuffer()),
    };
  }

  beforeAll(async () => {
    stack = await startTestStack({ engine: engine.name, workdir: project, paymentsPort: 0 });
    owner = await guestOrder(stack, 50, 'en');
    other = await guestOrder(stack, 53, 'de');
    const staff = createClient(stack.url, stack.keys.anonKey, clientOptions);
    const { data, error } = await signInWithPassword(staff, STAFF);
    if (error) throw error;
    staffToken = data.session!.access_token;
    // The owner pays online: the sandbox's webhook marks the order paid, which issues the invoice.
    const started = await callFunction(stack, 'create-checkout', { token: owner.token, body: { order_id: owner.orderId } });
    expect(started.status).toBe(200);
    expect((await payOnSandbox(started.body.url as string)).status).toBe(303);
    const rows = await until(
      async () =>
        (
          await stack.db.query<{ id: string; invoice_number: string }>(
            `select id::text, invoice_number from public.invoices where order_id = $1`,
            [owner.orderId],
          )
        ).rows,
      (r) => r.length === 1,
      60_000,
      200,
    );
    expect(rows).toHaveLength(1);
    invoice = rows[0];
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it("gives the owner the PDF of the stored invoice, in the booking's language", async () => {
    const res = await download(owner.token, { invoice_id: invoice.id });
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.disposition).toBe(`attachment; filename="Invoice-${invoice.invoice_number}.pdf"`);
    const pdf = await pdfText(res.bytes);
    const text = pdf.pages.flat();
    expect(pdf.title).toBe(`Invoice ${invoice.invoice_number}`);
    expect(text).toEqual(
      expect.arrayContaining([`Invoice ${invoice.invoice_number}`, 'Hafen Düsseldorf', 'Total amount (gross)', 'Page 1 of 1']),
    );
    // The guest gave no address and paid less than EUR 250: a Kleinbetragsrechnung without the buyer.
    expect(text.join(' ')).toContain('Small-amount invoice (§ 33 UStDV): issued without the recipient’s details.');
    // The gross on the PDF is the order's price.
    expect(text).toContain(new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(owner.priceCents / 100));
    // German when asked.
    const de = await download(owner.token, { invoice_id: invoice.id, locale: 'de' });
    expect((await pdfText(de.bytes)).pages.flat()).toContain(`Rechnung ${invoice.invoice_number}`);
  });

  it('gives staff the same document', async () => {
    const res = await download(staffToken, { invoice_id: invoice.id });
    expect(res.status).toBe(200);
    expect((await pdfText(res.bytes)).pages.flat()).toContain(`Invoice ${invoice.invoice_number}`);
  });

  it('refuses another guest, callers without a session, and bad requests', async () => {
    const foreign = await download(other.token, { invoice_id: invoice.id });
    expect(foreign.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(foreign.bytes))).toEqual({ error: 'not_found' });
    expect((await download(null, { invoice_id: invoice.id })).status).toBe(401);
    const anonKey = await download(stack.keys.anonKey, { invoice_id: invoice.id });
    expect(anonKey.status).toBe(401);
    expect(JSON.parse(new TextDecoder().decode(anonKey.bytes))).toEqual({ error: 'not_signed_in' });
    for (const body of [
      {},
      { invoice_id: 'RE-2026-00001' },
      { invoice_id: invoice.id, locale: 'fr' },
      { invoice_id: invoice.id, format: 'docx' },
    ]) {
      const bad = await download(owner.token, body);
      expect(bad.status).toBe(400);
      expect(JSON.parse(new TextDecoder().decode(bad.bytes))).toEqual({ error: 'invalid_request' });
    }
    expect((await download(owner.token, { invoice_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    // The e-invoice XML only for a company buyer (this guest is private); RLS answers first.
    const xml = await download(owner.token, { invoice_id: invoice.id, format: 'xml' });
    expect(xml.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(xml.bytes))).toEqual({ error: 'not_einvoice' });
    const foreignXml = await download(other.token, { invoice_id: invoice.id, format: 'xml' });
    expect(JSON.parse(new TextDecoder().decode(foreignXml.bytes))).toEqual({ error: 'not_found' });
  });

  it('send-mail delivers the payment receipt with the invoice PDF attached', async () => {
    const receipt = await until(
      async () => stack.context.mailer.store.list(owner.email).find((m) => m.subject.startsWith('Payment received')),
      (m) => m !== undefined,
      60_000,
      250,
    );
    expect(receipt, 'the receipt e-mail').toBeDefined();
    const pdfs = receipt!.attachments.filter((a) => a.contentType === 'application/pdf');
    expect(pdfs.map((a) => a.filename)).toEqual([`Invoice-${invoice.invoice_number}.pdf`]);
    const pdf = await pdfText(new Uint8Array(Buffer.from(pdfs[0].content, 'base64')));
    expect(pdf.pages.flat()).toEqual(expect.arrayContaining([`Invoice ${invoice.invoice_number}`, 'Total amount (gross)']));
    // The outbox holds the reference only.
    const stored = (
      await stack.db.query<{ attachments: unknown }>(
        `select attachments from public.outbox where order_id = $1 and kind = 'payment_receipt'`,
        [owner.orderId],
      )
    ).rows[0];
    expect(stored.attachments).toEqual([
      { invoice_id: invoice.id, filename: `Invoice-${invoice.invoice_number}.pdf`, content_type: 'application/pdf' },
    ]);
  });

  it('downloaded nothing at run time', () => {
    expect(downloadedNpmFiles(stack.context.denoDir)).toEqual([]);
  });
});
