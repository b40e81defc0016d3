/**
 * The PDF archive of the DATEV page (issue 21, item 5): an admin downloads every stored document
 * of a range (invoices, cancellations, credit notes, desk receipts) as PDFs in one ZIP. The test
 * reads the ZIP with a small reader of its own (central directory, stored entries, CRC-32 from
 * node:zlib), compares the entries with the documents the database holds for the range (read
 * with the service role) and loads every entry with pdf-lib: a valid PDF titled with its number.
 */
import { readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { createClient } from '@supabase/supabase-js';
import { PDFDocument } from 'pdf-lib';
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { DEMO_SERVICE_ROLE_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl } from './booking-helpers.ts';
import { clientAs } from './admin-content-helpers.ts';
import { fillDate } from '../helpers/dates';

const berlinDay = (at: Date | string) => new Date(at).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The entries of a ZIP (stored or deflated are both read from the central directory; we write stored). */
function readZip(zip: Buffer): { name: string; data: Buffer }[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end), 'end of central directory record').toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(zip.readUInt32LE(local), `local header of ${name}`).toBe(0x04034b50);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    expect(method, `${name} is stored`).toBe(0);
    const data = zip.subarray(start, start + size);
    expect(crc32(data) >>> 0, `CRC-32 of ${name}`).toBe(crc);
    entries.push({ name, data });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** The documents the database holds for a range of Berlin days (service role: every row). */
async function documentsOf(from: string, to: string) {
  const service = createClient(apiUrl, DEMO_SERVICE_ROLE_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
  const rows: { invoice_number: string; issued_at: string }[] = [];
  // In pages: the API answers at most max_rows (1000) rows at a time.
  for (let offset = 0; ; offset += 1000) {
    const { data, error } = await service
      .from('invoices')
      .select('invoice_number, issued_at')
      .gte('issued_at', new Date(Date.parse(`${addDays(from, -1)}T00:00:00Z`)).toISOString())
      .lt('issued_at', new Date(Date.parse(`${addDays(to, 2)}T00:00:00Z`)).toISOString())
      .order('invoice_number')
      .range(offset, offset + 999);
    if (error) throw error;
    rows.push(...data);
    if (data.length < 1000) break;
  }
  return rows.filter((d) => berlinDay(d.issued_at) >= from && berlinDay(d.issued_at) <= to);
}

/**
 * The archive against the database; `every` loads every entry with pdf-lib, otherwise the first
 * and last. `before` are the range's documents read before the download was asked for: other
 * specs issue documents today while the archive is built, so the archive holds every one of
 * `before` and nothing that is not in the database after the download (numbers, not a count).
 */
async function checkArchive(
  download: import('@playwright/test').Download,
  from: string,
  to: string,
  before: { invoice_number: string }[],
  every = true,
) {
  const entries = readZip(await readFile((await download.path())!));
  const after = new Set((await documentsOf(from, to)).map((d) => d.invoice_number));
  expect(before.length, 'the seeded range holds documents').toBeGreaterThan(0);
  const numbers = entries.map((e) => e.name.match(/^(RE-\d{4}-\d{5})-/)?.[1] ?? e.name);
  expect(new Set(numbers).size, 'each document once').toBe(numbers.length);
  expect(
    before.map((d) => d.invoice_number).filter((n) => !numbers.includes(n)),
    'documents missing from the archive',
  ).toEqual([]);
  expect(
    numbers.filter((n) => !after.has(n)),
    'entries that are no document of the range',
  ).toEqual([]);
  for (const entry of every ? entries : [entries[0], entries[entries.length - 1]]) {
    expect(entry.data.subarray(0, 5).toString('latin1'), entry.name).toBe('%PDF-');
    const pdf = await PDFDocument.load(entry.data, { updateMetadata: false });
    expect(pdf.getPageCount()).toBeGreaterThan(0);
    expect(pdf.getTitle(), entry.name).toContain(entry.name.slice(0, 13));
  }
  return { entries };
}

test.describe('PDF archive of the invoice documents', () => {
  test.use({ persona: 'admin' });
  test.setTimeout(240_000);

  test('de: the admin downloads the documents of the last weeks as one ZIP; too long a range is refused', async ({
    page,
    consoleErrors,
  }) => {
    const to = berlinDay(new Date());
    const from = addDays(to, -20);
    await page.goto('/account/admin/datev');
    const section = page.getByRole('region', { name: 'Belege als PDF-Archiv' });
    await expect(section).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    const form = section.getByRole('form', { name: 'Belegarchiv' });
    await fillDate(form.getByLabel('Von'), addDays(to, -400));
    await fillDate(form.getByLabel('Bis einschließlich'), to);
    await form.getByRole('button', { name: 'PDF-Archiv herunterladen' }).click();
    await expect(form.getByText('Ein Archiv umfasst höchstens ein Jahr (366 Tage). Bitte teilen Sie den Zeitraum auf.')).toBeVisible();

    await fillDate(form.getByLabel('Von'), from);
    const before = await documentsOf(from, to);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 200_000 }),
      form.getByRole('button', { name: 'PDF-Archiv herunterladen' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Belege-${from}-${to}.zip`);
    const { entries } = await checkArchive(download, from, to, before);
    expect(entries.some((e) => e.name.endsWith('-Rechnung.pdf'))).toBe(true);
    await expect(section.getByRole('status')).toHaveText(
      `Belege-${from}-${to}.zip wurde erstellt: ${entries.length.toLocaleString('de-DE')} Belege.`,
    );
    expect(consoleErrors).toEqual([]);
  });

  test('en: the page in English, the archive of a week, a range without documents, and the database refuses harbour staff', async ({
    page,
  }) => {
    const to = berlinDay(new Date());
    const from = addDays(to, -6);
    await page.goto('/en/account/admin/datev');
    const section = page.getByRole('region', { name: 'Documents as a PDF archive' });
    const form = section.getByRole('form', { name: 'Document archive' });
    await fillDate(form.getByLabel('From'), '2001-01-01');
    await fillDate(form.getByLabel(/Until/), '2001-01-31');
    await form.getByRole('button', { name: 'Download PDF archive' }).click();
    // (The de test may be building a 2,000-document archive in the same stack: allow for the wait.)
    await expect(section.getByRole('alert')).toHaveText('No documents were issued in this period.', { timeout: 60_000 });

    await fillDate(form.getByLabel('From'), from);
    await fillDate(form.getByLabel(/Until/), to);
    const before = await documentsOf(from, to);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 200_000 }),
      form.getByRole('button', { name: 'Download PDF archive' }).click(),
    ]);
    const { entries } = await checkArchive(download, from, to, before, false);
    await expect(section.getByRole('status')).toHaveText(
      `Belege-${from}-${to}.zip was created: ${entries.length.toLocaleString('en-GB')} ${entries.length === 1 ? 'document' : 'documents'}.`,
    );

    // Server side: harbour staff (not admins) are refused by the database, as is a range over 366 days.
    const harbour = await clientAs('harbour');
    const refused = await harbour.functions.invoke('invoice-archive', { body: { from, to } });
    expect((refused.error as { context?: Response } | null)?.context?.status).toBe(403);
    expect(await (refused.error as { context: Response }).context.json()).toEqual({ error: 'admin_only' });
    const rpc = await harbour.rpc('invoice_archive_documents', { p_from: from, p_to: to });
    expect(rpc.error?.message).toBe('admin_only');
    const admin = await clientAs('admin');
    const long = await admin.rpc('invoice_archive_documents', { p_from: addDays(to, -366), p_to: to });
    expect(long.error?.message).toBe('archive_range_too_long');
  });
});
