/**
 * The e-invoice of a business guest (issue 21 item 6): staff book a stay whose person form names
 * a company and take the money; on the invoice's page (German) staff download the ZUGFeRD /
 * Factur-X PDF (factur-x.xml inside) and the CII XML alone; the guest downloads the XML on the
 * own order's document page (English). The downloaded XML validates against the Factur-X
 * EN 16931 XSD and keeps EN 16931's sums; a private guest's invoice offers no XML.
 */
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { personas } from '../helpers/personas.ts';
import { businessRuleErrors, facturX, xsdErrors } from '../../supabase/local/test/harness/einvoice-check.ts';
import { berlinDay, personaToken } from './booking-helpers.ts';
import { rest, rpc } from './payment-helpers.ts';

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** Staff book and take the money for the seeded customer, as a company or not: the order and its invoice. */
async function paidOrder(token: string, company: string | null, offset: number) {
  const arrival = berlinDay(offset);
  const departure = berlinDay(offset + 2);
  const free = await rpc<{ place_id: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 10, p_boat_width: 3.4 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(0, 10)) {
    const res = await rpc<{ id: string }>(
      'staff_create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: `E-Rechnung ${run}`, length: 10, width: 3.4 },
        p_person: {
          first_name: 'Emil',
          last_name: `Einv ${run}`,
          ...(company ? { company } : {}),
          email: personas.customer.email,
          street: 'Kaistraße 4',
          postal_code: '40221',
          city: 'Düsseldorf',
        },
      },
      token,
    );
    if (res.status !== 200) continue;
    expect((await rpc('record_desk_payment', { p_order_id: res.data.id, p_method: 'card_terminal' }, token)).status).toBe(200);
    const docs = await rest<{ id: string; invoice_number: string }[]>(
      `rest/v1/invoices?order_id=eq.${res.data.id}&select=id,invoice_number`,
      token,
    );
    const [invoice] = docs.data;
    return { id: res.data.id, invoice: invoice! };
  }
  throw new Error('no free berth');
}

const bytesOf = (download: Download) => download.path().then((p) => new Uint8Array(readFileSync(p)));

async function downloadXml(page: Page, label: string, number: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
  expect(download.suggestedFilename()).toBe(`${number}.xml`);
  const xml = new TextDecoder().decode(await bytesOf(download));
  expect(await xsdErrors(xml)).toEqual([]);
  expect(businessRuleErrors(xml)).toEqual([]);
  expect(xml).toContain(`<ram:ID>${number}</ram:ID>`);
  expect(xml).toContain('<ram:Name>Rhein-Charter GmbH</ram:Name>');
  return xml;
}

test.describe('e-invoice for business guests', () => {
  test.setTimeout(120_000);

  test.describe('staff', () => {
    test.use({ persona: 'harbour' });

    test('download the ZUGFeRD PDF and the XML of a company order (de); a private order has no XML', async ({ page, consoleErrors }) => {
      const token = await personaToken(personas.harbour.email, personas.harbour.password);
      const order = await paidOrder(token, 'Rhein-Charter GmbH', 80);
      await page.goto(`/account/admin/orders/${order.id}/documents/${order.invoice.id}`);
      await expect(page.getByTestId('invoice-number')).toHaveText(order.invoice.invoice_number);
      await expect(page.getByTestId('einvoice-note')).toContainText('E-Rechnung nach EN 16931');
      const xml = await downloadXml(page, 'E-Rechnung als XML (CII)', order.invoice.invoice_number);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'PDF herunterladen' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${order.invoice.invoice_number}.pdf`);
      const pdf = await facturX(await bytesOf(download));
      expect(pdf.files.map((f) => [f.name, f.relationship])).toEqual([['factur-x.xml', '/Alternative']]);
      expect(pdf.files[0]!.xml).toBe(xml);
      expect(pdf.xmp).toContain('<pdfaid:part>3</pdfaid:part>');

      const plain = await paidOrder(token, null, 84);
      await page.goto(`/account/admin/orders/${plain.id}/documents/${plain.invoice.id}`);
      await expect(page.getByTestId('invoice-number')).toHaveText(plain.invoice.invoice_number);
      await expect(page.getByRole('button', { name: 'PDF herunterladen' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'E-Rechnung als XML (CII)' })).toHaveCount(0);
      expect(consoleErrors).toEqual([]);
    });
  });

  test.describe('guest', () => {
    test.use({ persona: 'customer' });

    test('the guest downloads the e-invoice XML of the own company order (en)', async ({ page, consoleErrors }) => {
      const staff = await personaToken(personas.harbour.email, personas.harbour.password);
      const order = await paidOrder(staff, 'Rhein-Charter GmbH', 88);
      await page.goto(`/en/order/${order.id}/documents/${order.invoice.id}`);
      await expect(page.getByTestId('invoice-number')).toHaveText(order.invoice.invoice_number);
      await expect(page.getByTestId('einvoice-note')).toContainText('E-invoice under EN 16931');
      await downloadXml(page, 'E-invoice as XML (CII)', order.invoice.invoice_number);
      expect(consoleErrors).toEqual([]);
    });
  });
});
