/**
 * Long-term berth contracts as PDF/A (issue 42 deliverable 3, docs/adr/0047-offers-and-contracts.md).
 *
 * The renderer (supabase/functions/_shared/contract-pdf.ts) under Node: a long contract breaks
 * into pages with "Seite n von N", stays PDF/A-3b, shows its text line for line, and carries the
 * text as hashed as its associated file; the same contract gives the same bytes.
 *
 * Through the stack, offline: kunde accepts an offer (created as the admin's send_offer does) with
 * the real accept_offer, in English; the contract-pdf edge function gives the holder the PDF of
 * the stored contract (200, application/pdf, "Contract-LV-….pdf", the text and the stored hash
 * in it), gives staff the same, and refuses another customer (404, as a contract that does not
 * exist), callers without a session (401) and bad requests (400). send-mail delivers the
 * confirmation with the contract's PDF attached (rendered from the outbox's {contract_id}).
 * One engine: the SQL that attaches the reference runs on both in supabase/tests/410 and 450.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses, downloadedNpmFiles } from './harness/offline.ts';
import { clientOptions, until } from './harness/payments.ts';
import { checkPdfA } from './harness/pdfa-check.ts';
import { pdfText, type PdfText } from './harness/pdf-text.ts';
import { signInWithPassword } from './harness/demo-staff.ts';
import { contractHarbour, renderContractPdf, type PdfContract } from '../../functions/_shared/contract-pdf.ts';
import type { Stack } from '../src/stack.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

const HOLDER = { id: 'a0000000-0000-4000-8000-000000000003', email: 'kunde@hafen.test', password: 'Kunde1234' };
const OTHER = { email: 'anna.schmidt@hafen.test', password: 'Kunde1234' };
const STAFF = { email: 'hafen@hafen.test', password: 'Hafen1234' };

/** Text without its white space: wrapping moves line breaks, cuts over-long words and drops trailing spaces. */
const squash = (s: string) => s.replace(/\s+/g, '');

/** The text a PDF shows between its title and its record of acceptance, without headers and footers (white space removed). */
function bodyText(pdf: PdfText, title: string, record: string, footer: string): string {
  const strings = pdf.pages
    .flat()
    .filter((s) => s !== footer && !/^(Seite \d+ von \d+|Page \d+ of \d+)$/.test(s) && !s.startsWith(`${title} (`));
  return squash(strings.slice(strings.indexOf(title) + 1, strings.indexOf(record)).join(' '));
}

/** What the contract text shows: its lines, "## " headings without the marker (white space removed). */
const shownText = (text: string) => squash(text.replace(/^## /gm, ''));

/** The bytes of the PDF's associated files (names and relationships: checkPdfA's report). */
async function embeddedFiles(bytes: Uint8Array): Promise<Uint8Array[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const af = pdf.catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  return (af?.asArray() ?? []).map((ref) => {
    const file = pdf.context.lookup(ref, PDFDict).lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'));
    if (!(file instanceof PDFRawStream)) throw new Error('an associated file without its stream');
    return decodePDFRawStream(file).decode();
  });
}

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

describe('the contract PDF renderer', () => {
  const heading = (n: number) => `## ${n}. Abschnitt mit einer Überschrift`;
  const paragraph = (n: number) =>
    `Absatz ${n}: Der Hafen überlässt dem Mieter einen Liegeplatz für das im Vertrag bezeichnete Boot; ein Anspruch auf einen bestimmten Platz besteht nicht, der Hafen kann aus betrieblichen Gründen umlegen (Länge × Breite, 1.070,00 €).`;
  const text = [
    'LIEGEPLATZVERTRAG (Langzeitliegeplatz)',
    '',
    'Zwischen Hafen Düsseldorf, Speditionstraße 1, 40221 Düsseldorf (der Hafen)',
    'und Zoë Åkerlund, zoe@example.test (der Mieter)',
    '',
    '- Liegeplatz: 12,00 m × 4,00 m',
    '  enthaltene MwSt. 19 %: 170,84 €',
    `Ein-sehr-langes-Wort-${'x'.repeat(160)}`,
    '',
    ...Array.from({ length: 14 }, (_, i) => [heading(i + 1), paragraph(i + 1), '']).flat(),
  ].join('\n');
  const contract: PdfContract = {
    id: '00000000-0000-4000-8000-0000000000c1',
    contract_number: 'LV-2027-0042',
    locale: 'de',
    contract_text: text,
    contract_sha256: sha256(text),
    accepted_at: '2027-01-15T09:30:00Z',
    terms_version: 2,
  };

  it('breaks a long contract into pages, shows its text line for line and stays PDF/A-3b', async () => {
    const bytes = await renderContractPdf(contract);
    const report = await checkPdfA(bytes);
    expect(report.errors).toEqual([]);
    expect(report.xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(report.fonts.map((f) => f.baseFont.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['LiberationSans', 'LiberationSans-Bold']);
    expect(report.associatedFiles).toEqual([expect.objectContaining({ name: 'Vertrag-LV-2027-0042.txt', relationship: 'Source' })]);

    const pdf = await pdfText(bytes);
    expect(pdf.pageCount).toBeGreaterThanOrEqual(2);
    expect(pdf.title).toBe('Liegeplatzvertrag LV-2027-0042');
    expect(pdf.language).toBe('de-DE');
    const strings = pdf.pages.flat();
    expect(pdf.pages[0]).toEqual(expect.arrayContaining(['Hafen Düsseldorf', 'Speditionstraße 1 · 40221 Düsseldorf']));
    for (let n = 1; n <= pdf.pageCount; n++) expect(pdf.pages[n - 1]).toContain(`Seite ${n} von ${pdf.pageCount}`);
    // Headings as lines of their own (bold, without the marker); kept spaces; the record at the end.
    expect(strings).toContain('1. Abschnitt mit einer Überschrift');
    expect(strings).toContain('  enthaltene MwSt. 19 %: 170,84 €');
    expect(strings).toEqual(
      expect.arrayContaining(['Nachweis der Annahme', '15.01.2027, 10:30 Uhr (Europe/Berlin)', 'Fassung 2', contract.contract_sha256]),
    );
    expect(
      bodyText(pdf, 'Liegeplatzvertrag LV-2027-0042', 'Nachweis der Annahme', 'Hafen Düsseldorf · Speditionstraße 1 · 40221 Düsseldorf'),
    ).toBe(shownText(text));
    // The text as hashed, inside.
    const [file] = await embeddedFiles(bytes);
    expect(sha256(file)).toBe(contract.contract_sha256);
    expect(new TextDecoder().decode(file)).toBe(text);
  });

  it('gives the same bytes for the same contract, and English when asked', async () => {
    expect(sha256(await renderContractPdf(contract))).toBe(sha256(await renderContractPdf(contract)));
    const en = await pdfText(await renderContractPdf(contract, 'en'));
    expect(en.title).toBe('Berth contract LV-2027-0042');
    expect(en.pages.flat()).toEqual(expect.arrayContaining(['Record of acceptance', '15 Jan 2027, 10:30 (Europe/Berlin)', 'version 2']));
    expect(en.pages[0]).toContain(`Page 1 of ${en.pageCount}`);
  });

  it('takes the letterhead from the contract text', () => {
    expect(contractHarbour('x\nBetween Harbour Town, Quay 1, 12345 Port (the harbour)\n')).toEqual({
      name: 'Harbour Town',
      address: 'Quay 1 · 12345 Port',
    });
    expect(contractHarbour('no parties here')).toEqual({ name: '', address: '' });
  });
});

const engine = engines()[0];
const suite = `contract PDFs through the edge functions on ${engine.name}`;
describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
  let stack: Stack;
  let holderToken: string;
  let otherToken: string;
  let staffToken: string;
  let contract: { id: string; contract_number: string; contract_text: string; contract_sha256: string };

  const signIn = async (who: { email: string; password: string }) => {
    const client = createClient(stack.url, stack.keys.anonKey, clientOptions);
    const { data, error } = await signInWithPassword(client, who);
    if (error) throw error;
    return data.session!.access_token;
  };

  /** contract-pdf's raw answer (the PDF's bytes, or the JSON error). */
  async function download(token: string | null, body: unknown) {
    const headers: Record<string, string> = { apikey: stack.keys.anonKey, 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${stack.url}/functions/v1/contract-pdf`, { method: 'POST', headers, body: JSON.stringify(body) });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      bytes: new Uint8Array(await res.arrayBuffer()),
    };
  }

  /** A database function through PostgREST as the holder. */
  async function rpc(name: string, args: Record<string, unknown>) {
    const res = await fetch(`${stack.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${holderToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    expect(res.status, `${name}: ${res.status}`).toBe(200);
    return res.json();
  }

  beforeAll(async () => {
    stack = await startTestStack({ engine: engine.name, workdir: project });
    [holderToken, otherToken, staffToken] = [await signIn(HOLDER), await signIn(OTHER), await signIn(STAFF)];
    // kunde's application for a new berth and the offer of it for summer 2027, as send_offer makes it.
    const offer = (
      await stack.db.query<{ id: string }>(
        `with p as (insert into public.places (name, width, length) values ('CP-1', 4, 12) returning id),
              a as (insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, locale, boat)
                    select p.id, $1, $2, 'Klaus', 'Kunde', 'en', '{"name":"Testboot","length":10,"width":3}'::jsonb from p returning id)
         select (private.create_offer(a.id, p.id, (select id from public.seasons where name = 'Sommer 2027'), null, null)).id::text as id
           from a, p`,
        [HOLDER.id, HOLDER.email],
      )
    ).rows[0].id;
    // The holder reads the text and accepts it with its hash, as the account page does.
    const [shown] = (await rpc('offer_contract', { p_offer_id: offer, p_payment_plan: 1, p_payment_method: 'bank_transfer' })) as {
      contract_sha256: string;
    }[];
    contract = (await rpc('accept_offer', {
      p_offer_id: offer,
      p_payment_plan: 1,
      p_payment_method: 'bank_transfer',
      p_contract_sha256: shown.contract_sha256,
    })) as typeof contract;
    expect(contract.contract_number).toMatch(/^LV-2027-\d{4}$/);
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  const title = () => `Berth contract ${contract.contract_number}`;

  it("gives the holder the PDF/A of the stored contract, in the contract's language, with its text and hash", async () => {
    const res = await download(holderToken, { contract_id: contract.id });
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.disposition).toBe(`attachment; filename="Contract-${contract.contract_number}.pdf"`);
    expect((await checkPdfA(res.bytes)).errors).toEqual([]);
    const pdf = await pdfText(res.bytes);
    expect(pdf.title).toBe(title());
    const strings = pdf.pages.flat();
    expect(strings).toEqual(
      expect.arrayContaining([title(), 'Record of acceptance', contract.contract_sha256, 'Page 1 of ' + pdf.pageCount]),
    );
    // Every line of the stored text, in order, between the title and the record.
    const { name, address } = contractHarbour(contract.contract_text);
    expect(name).not.toBe('');
    expect(bodyText(pdf, title(), 'Record of acceptance', [name, address].filter(Boolean).join(' · '))).toBe(
      shownText(contract.contract_text),
    );
    const [file] = await embeddedFiles(res.bytes);
    expect(sha256(file)).toBe(contract.contract_sha256);
    // The same bytes again; German when asked.
    expect(sha256((await download(holderToken, { contract_id: contract.id })).bytes)).toBe(sha256(res.bytes));
    const de = await download(holderToken, { contract_id: contract.id, locale: 'de' });
    expect(de.disposition).toBe(`attachment; filename="Vertrag-${contract.contract_number}.pdf"`);
    expect((await pdfText(de.bytes)).pages.flat()).toContain(`Liegeplatzvertrag ${contract.contract_number}`);
  });

  it('gives staff the same contract', async () => {
    const res = await download(staffToken, { contract_id: contract.id });
    expect(res.status).toBe(200);
    expect((await pdfText(res.bytes)).pages.flat()).toContain(title());
  });

  it('refuses another customer, callers without a session, and bad requests', async () => {
    const foreign = await download(otherToken, { contract_id: contract.id });
    expect(foreign.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(foreign.bytes))).toEqual({ error: 'not_found' });
    expect((await download(null, { contract_id: contract.id })).status).toBe(401);
    const anonKey = await download(stack.keys.anonKey, { contract_id: contract.id });
    expect(anonKey.status).toBe(401);
    expect(JSON.parse(new TextDecoder().decode(anonKey.bytes))).toEqual({ error: 'not_signed_in' });
    for (const body of [{}, { contract_id: contract.contract_number }, { contract_id: contract.id, locale: 'fr' }, { contract_id: 42 }]) {
      const bad = await download(holderToken, body);
      expect(bad.status).toBe(400);
      expect(JSON.parse(new TextDecoder().decode(bad.bytes))).toEqual({ error: 'invalid_request' });
    }
    expect((await download(holderToken, { contract_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('send-mail delivers the confirmation with the contract PDF attached', async () => {
    const mail = await until(
      async () =>
        stack.context.mailer.store.list(HOLDER.email).find((m) => m.subject.startsWith(`Your berth contract ${contract.contract_number}`)),
      (m) => m !== undefined,
      60_000,
      250,
    );
    expect(mail, 'the confirmation e-mail').toBeDefined();
    // The body says so (ADR 0047), naming the attachment.
    expect(mail!.text).toContain(`The contract is attached to this e-mail as a PDF (Contract-${contract.contract_number}.pdf).`);
    const pdfs = mail!.attachments.filter((a) => a.contentType === 'application/pdf');
    expect(pdfs.map((a) => a.filename)).toEqual([`Contract-${contract.contract_number}.pdf`]);
    const bytes = new Uint8Array(Buffer.from(pdfs[0].content, 'base64'));
    expect((await pdfText(bytes)).pages.flat()).toEqual(expect.arrayContaining([title(), contract.contract_sha256]));
    // The same document as the download; the outbox holds the reference only.
    expect(sha256(bytes)).toBe(sha256((await download(holderToken, { contract_id: contract.id })).bytes));
    const stored = (
      await stack.db.query<{ attachments: unknown }>(
        `select attachments from public.outbox where kind = 'contract_accepted' and recipient = $1`,
        [HOLDER.email],
      )
    ).rows;
    expect(stored).toEqual([
      {
        attachments: [{ contract_id: contract.id, filename: `Contract-${contract.contract_number}.pdf`, content_type: 'application/pdf' }],
      },
    ]);
  });

  it('downloaded nothing at run time', () => {
    expect(downloadedNpmFiles(stack.context.denoDir)).toEqual([]);
  });
});
