/**
 * E-invoices from documents the database issued (local stack on PGlite, seeded demo harbour):
 * staff book a stay for a business guest (the person form names a company), take the money, add
 * ice (7 %) and a cooler deposit (0 %), take the rest and refund EUR 10. Every document the
 * order gets (invoices, cancellations, the credit note) is read as stored and
 * its CII XML (supabase/functions/_shared/einvoice.ts) validates against the Factur-X EN 16931
 * XSD, passes the official EN 16931 Schematron for CII (no fatal rule fails), keeps EN 16931's
 * calculation rules and carries the stored totals, VAT per rate and the
 * seller data from the settings; the type codes are 380 / 381. The ZUGFeRD PDF of the current
 * invoice holds the same XML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startTestStack } from '../../supabase/local/test/harness/stack.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import { buildCiiXml, isEInvoice } from '../../supabase/functions/_shared/einvoice.ts';
import { renderInvoicePdf, type PdfInvoiceDocument } from '../../supabase/functions/_shared/invoice-pdf.ts';
import { all, businessRuleErrors, cents, facturX, one, parseXml, xsdErrors } from '../../supabase/local/test/harness/einvoice-check.ts';
import { compiledSchematron, schematronErrors } from '../../supabase/local/test/harness/einvoice-schematron.ts';
import { signInWithPassword } from '../../supabase/local/test/harness/demo-staff.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });

describe('e-invoices of issued documents (pglite)', () => {
  let stack: Stack;
  let staff: SupabaseClient;

  beforeAll(async () => {
    stack = await startTestStack({ engine: 'pglite', workdir: 'supabase' });
    staff = createClient(stack.url, stack.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const { error } = await signInWithPassword(staff, { email: 'hafen@hafen.test', password: 'Hafen1234' });
    if (error) throw new Error(error.message);
    await compiledSchematron();
  }, 400_000); // the first run after a migration prepares PGlite's cached data directory (and a first run compiles the Schematron)
  afterAll(async () => {
    await stack?.close();
  });

  it('invoice, cancellation, new invoice and credit note of a company order: valid EN 16931 CII with the stored amounts', async () => {
    const arrival = day(70);
    const departure = day(73);
    const free = await staff.rpc('search_available_places', {
      p_kind: 'overnight',
      p_arrival: arrival,
      p_departure: departure,
      p_boat_length: 11,
      p_boat_width: 3.5,
    });
    expect(free.error).toBeNull();
    let orderId = '';
    for (const place of (free.data as { place_id: string }[]).slice(0, 10)) {
      const res = await staff.rpc('staff_create_booking', {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: 'Firmenboot', length: 11, width: 3.5 },
        p_person: {
          first_name: 'Frieda',
          last_name: 'Firma',
          company: 'Rhein & Ruhr Yachtcharter GmbH',
          email: 'buchhaltung@rr-charter.example',
          street: 'Hafenstraße 7',
          postal_code: '47119',
          city: 'Duisburg',
          country: 'Deutschland',
        },
      });
      if (!res.error) {
        orderId = (res.data as { id: string }).id;
        break;
      }
    }
    expect(orderId).not.toBe('');
    expect((await staff.rpc('record_desk_payment', { p_order_id: orderId, p_method: 'cash' })).error).toBeNull();
    const { data: extras } = await staff.from('extras').select('id, code').in('code', ['ice_2kg', 'cooler_deposit']);
    for (const e of extras as { id: string; code: string }[]) {
      expect(
        (await staff.rpc('add_order_extra', { p_order_id: orderId, p_extra_id: e.id, p_quantity: e.code === 'ice_2kg' ? 3 : 1 })).error,
      ).toBeNull();
    }
    expect((await staff.rpc('record_desk_payment', { p_order_id: orderId, p_method: 'cash' })).error).toBeNull();
    expect((await staff.rpc('record_desk_refund', { p_order_id: orderId, p_method: 'cash', p_amount_cents: 1000 })).error).toBeNull();

    const { data, error } = await staff.from('invoices').select('*').eq('order_id', orderId).order('number');
    expect(error).toBeNull();
    const docs = data as unknown as (PdfInvoiceDocument & {
      vat_breakdown: { vat_rate: number; net_cents: number; vat_cents: number }[];
    })[];
    // Each extra reissues the invoice (a cancellation and a new invoice), the refund is a credit note.
    expect(docs.map((d) => d.kind)).toEqual(['invoice', 'cancellation', 'invoice', 'cancellation', 'invoice', 'credit_note']);
    const types: string[] = [];
    for (const doc of docs) {
      expect(isEInvoice(doc)).toBe(true);
      const xml = buildCiiXml(doc);
      expect(await xsdErrors(xml), doc.invoice_number).toEqual([]);
      expect(await schematronErrors(xml), doc.invoice_number).toEqual([]);
      expect(businessRuleErrors(xml), doc.invoice_number).toEqual([]);
      const x = parseXml(xml);
      types.push(one(x, 'rsm:ExchangedDocument/ram:TypeCode')!.text);
      const sign = doc.gross_cents < 0 ? -1 : 1;
      expect(cents(one(x, 'ram:GrandTotalAmount'))).toBe(sign * doc.gross_cents);
      expect(cents(one(x, 'ram:TaxBasisTotalAmount'))).toBe(sign * doc.net_cents);
      expect(cents(one(x, 'ram:TaxTotalAmount'))).toBe(sign * doc.vat_cents);
      const taxes = all(x, 'ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax');
      expect(
        taxes.map((t) => [
          Number(one(t, 'ram:RateApplicablePercent')?.text ?? 0),
          cents(one(t, 'ram:BasisAmount')),
          cents(one(t, 'ram:CalculatedAmount')),
        ]),
      ).toEqual(doc.vat_breakdown.map((b) => [Number(b.vat_rate), sign * b.net_cents || 0, sign * b.vat_cents || 0]));
      // The seller as stamped from the settings, the buyer from the person form.
      expect(all(x, 'ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID').map((n) => n.attrs.schemeID)).toEqual(['VA', 'FC']);
      expect(one(x, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID')?.text).toBe('DE02120300000000202051');
      expect(one(x, 'ram:BuyerTradeParty/ram:Name')?.text).toBe('Rhein & Ruhr Yachtcharter GmbH');
      if (doc.refers_to_number) expect(one(x, 'ram:InvoiceReferencedDocument/ram:IssuerAssignedID')?.text).toBe(doc.refers_to_number);
    }
    expect(types).toEqual(['380', '381', '380', '381', '380', '381']);
    // The last invoice holds berth (19 %), ice (7 %) and the deposit (0 %, exempt beside taxed lines).
    expect(docs[4]!.vat_breakdown.map((b) => Number(b.vat_rate))).toEqual([19, 7, 0]);
    const pdf = await facturX(await renderInvoicePdf(docs[4]!, 'de'));
    expect(pdf.files.map((f) => [f.name, f.relationship])).toEqual([['factur-x.xml', '/Alternative']]);
    expect(pdf.files[0]!.xml).toBe(buildCiiXml(docs[4]!));
  });
});
