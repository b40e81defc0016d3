/**
 * Invoice PDFs in the app (issue 21 item 8): on a document's page staff press "PDF herunterladen"
 * and get the PDF of the stored document from the invoice-pdf edge function (invoice,
 * cancellation invoice after a move, credit note after a partial refund); the guest gets the
 * same on the own order's page ("Download PDF" in English). The PDFs' text is read back, and
 * the pages are rendered to PNG by Chromium's own PDF viewer into reports/screenshots/
 * (invoice-pdf-*.png, looked at by hand), with a long synthetic document for "Seite 2 von 2".
 */
import { readFileSync } from 'node:fs';
import type { Browser, Download } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { pdfText } from '../../supabase/local/test/harness/pdf-text.ts';
import { renderInvoicePdf, type PdfInvoiceDocument } from '../../supabase/functions/_shared/invoice-pdf.ts';
import { apiUrl, berlinDay, euro, personaToken } from './booking-helpers.ts';

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const shots = 'reports/screenshots';

async function rpc<T>(name: string, body: Record<string, unknown>, token: string): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
}
async function documents(orderId: string, token: string) {
  const res = await fetch(`${apiUrl}/rest/v1/invoices?order_id=eq.${orderId}&select=id,invoice_number,kind&order=number`, {
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}` },
  });
  return (await res.json()) as { id: string; invoice_number: string; kind: string }[];
}

/** Staff book a boat for the seeded customer (with address), take the money, move it, refund EUR 10. */
async function bookedMovedRefunded(token: string) {
  const arrival = berlinDay(60);
  const departure = berlinDay(63);
  const free = await rpc<{ place_id: string; name: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 11, p_boat_width: 3.5 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(0, 10)) {
    const res = await rpc<{ id: string; price_cents: number }>(
      'staff_create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: `PDF ${run}`, length: 11, width: 3.5 },
        p_person: {
          first_name: 'Paula',
          last_name: `Pdf ${run}`,
          email: personas.customer.email,
          street: 'Kaistraße 4',
          postal_code: '40221',
          city: 'Düsseldorf',
        },
      },
      token,
    );
    if (res.status !== 200) continue;
    expect((await rpc('record_desk_payment', { p_order_id: res.data.id, p_method: 'cash' }, token)).status).toBe(200);
    const targets = await rpc<{ place_id: string }[]>('order_move_targets', { p_order_id: res.data.id }, token);
    expect((await rpc('move_booking', { p_order_id: res.data.id, p_place_id: targets.data[0]!.place_id }, token)).status).toBe(200);
    expect((await rpc('record_desk_refund', { p_order_id: res.data.id, p_method: 'cash', p_amount_cents: 1000 }, token)).status).toBe(200);
    return { id: res.data.id, place: place.name };
  }
  throw new Error('no free berth');
}

const bytesOf = (download: Download) => download.path().then((p) => new Uint8Array(readFileSync(p)));

/**
 * Chromium's PDF viewer shows the PDF's page `n` (a fresh page per view), saved as PNG once it
 * has painted: a screenshot of the empty viewer is a few KB of grey, a painted page much more,
 * and two equal screenshots in a row mean the painting is done.
 */
async function renderPages(browser: Browser, pdf: Uint8Array, name: string, pages: number) {
  const context = await browser.newContext({ viewport: { width: 760, height: 1075 } });
  try {
    for (let n = 1; n <= pages; n++) {
      const page = await context.newPage();
      await page.route('**/preview/*.pdf', (route) =>
        route.fulfill({ status: 200, contentType: 'application/pdf', body: Buffer.from(pdf) }),
      );
      await page.goto(`http://127.0.0.1:9/preview/${name}-${n}.pdf#toolbar=0&view=Fit&page=${n}`);
      let last: Buffer = Buffer.alloc(0);
      for (let i = 0; i < 40; i++) {
        await page.waitForTimeout(500);
        const shot = await page.screenshot();
        if (shot.length > 60_000 && shot.equals(last)) break;
        last = shot;
      }
      expect(last.length, `Chromium painted ${name} page ${n}`).toBeGreaterThan(60_000);
      await page.screenshot({ path: `${shots}/invoice-pdf-${name}-page${n}.png` });
      await page.close();
    }
  } finally {
    await context.close();
  }
}

test.describe('invoice PDFs', () => {
  test.setTimeout(150_000);

  test.describe('staff', () => {
    test.use({ persona: 'harbour' });

    test('download the invoice, the cancellation and the credit note as PDFs, rendered by Chromium', async ({
      page,
      browser,
      consoleErrors,
    }) => {
      const token = await personaToken(personas.harbour.email, personas.harbour.password);
      const order = await bookedMovedRefunded(token);
      const docs = await documents(order.id, token);
      expect(docs.map((d) => d.kind)).toEqual(['invoice', 'cancellation', 'invoice', 'credit_note']);
      const [first, storno, , credit] = docs;

      const downloads: Record<string, Uint8Array> = {};
      for (const doc of [first!, storno!, credit!]) {
        await page.goto(`/account/admin/orders/${order.id}/documents/${doc.id}`);
        await expect(page.getByTestId('invoice-number')).toHaveText(doc.invoice_number);
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'PDF herunterladen' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(`${doc.invoice_number}.pdf`);
        downloads[doc.kind] = await bytesOf(download);
        await expect(page.getByRole('button', { name: 'PDF herunterladen' })).toBeEnabled();
      }

      const invoice = (await pdfText(downloads.invoice!)).pages.flat();
      expect(invoice).toEqual(
        expect.arrayContaining([
          `Rechnung ${first!.invoice_number}`,
          'Paula Pdf ' + run,
          'Kaistraße 4',
          '40221 Düsseldorf',
          'Gesamtbetrag (brutto)',
          'Seite 1 von 1',
        ]),
      );
      expect(invoice.join(' ')).toContain(`Liegegebühr Liegeplatz ${order.place}, Boot 11 m`);
      const cancellation = (await pdfText(downloads.cancellation!)).pages.flat();
      expect(cancellation).toEqual(expect.arrayContaining([`Stornorechnung ${storno!.invoice_number}`, 'Zu Beleg', first!.invoice_number]));
      const creditNote = (await pdfText(downloads.credit_note!)).pages.flat();
      expect(creditNote).toEqual(
        expect.arrayContaining([`Rechnungskorrektur ${credit!.invoice_number}`, euro(-1000, 'de').replace(/\u00a0/g, ' ')]),
      );

      await renderPages(browser, downloads.invoice!, 'invoice-de', 1);
      await renderPages(browser, downloads.cancellation!, 'cancellation-de', 1);
      await renderPages(browser, downloads.credit_note!, 'credit-note-de', 1);
      expect(consoleErrors).toEqual([]);
    });

    test('a long document breaks over two pages, "Seite 2 von 2", rendered by Chromium', async ({ browser }) => {
      const line = (i: number) => ({
        position: i,
        code: 'berth_fee',
        description: `Liegegebühr Liegeplatz A${String(i).padStart(2, '0')}, Boot 11 m`,
        quantity: 1,
        unit: 'night',
        unit_price_cents: 2420,
        vat_rate: 19,
        net_cents: 2420,
      });
      const doc: PdfInvoiceDocument = {
        kind: 'invoice',
        invoice_number: 'RE-2026-09999',
        issued_at: new Date().toISOString(),
        booking_number: 'HD-26-LANG',
        service_from: berlinDay(1),
        service_to: berlinDay(29),
        issuer: {
          name: 'Hafen Düsseldorf',
          street: 'Speditionstraße 25',
          postal_code: '40221',
          city: 'Düsseldorf',
          vat_id: 'DE000000000',
          email: 'hafen@hafen-duesseldorf.example',
        },
        recipient: {
          company: 'Segelverein Rhein e. V.',
          first_name: 'Paula',
          last_name: 'Lang',
          street: 'Kaistraße 4',
          postal_code: '40221',
          city: 'Düsseldorf',
        },
        lines: Array.from({ length: 28 }, (_, i) => line(i + 1)),
        vat_breakdown: [{ vat_rate: 19, net_cents: 67760, vat_cents: 12874, gross_cents: 80634 }],
        net_cents: 67760,
        vat_cents: 12874,
        gross_cents: 80634,
      };
      const pdf = await renderInvoicePdf(doc, 'de');
      const text = await pdfText(pdf);
      expect(text.pageCount).toBe(2);
      expect(text.pages[1]).toContain('Seite 2 von 2');
      await renderPages(browser, pdf, 'long-de', 2);
    });
  });

  test.describe('guest', () => {
    test.use({ persona: 'customer' });

    test('the guest downloads the own invoice on the order page (en)', async ({ page, consoleErrors }) => {
      const staff = await personaToken(personas.harbour.email, personas.harbour.password);
      const order = await bookedMovedRefunded(staff);
      const customer = await personaToken(personas.customer.email, personas.customer.password);
      const docs = await documents(order.id, customer);
      expect(docs).toHaveLength(4);
      const current = docs[2]!;
      await page.goto(`/en/order/${order.id}/documents/${current.id}`);
      await expect(page.getByTestId('invoice-number')).toHaveText(current.invoice_number);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
      expect(download.suggestedFilename()).toBe(`${current.invoice_number}.pdf`);
      const text = (await pdfText(await bytesOf(download))).pages.flat();
      // The PDF is in the booking's language (booked at the desk in German).
      expect(text).toEqual(expect.arrayContaining([`Rechnung ${current.invoice_number}`, `Paula Pdf ${run}`]));
      expect(consoleErrors).toEqual([]);
    });
  });
});
