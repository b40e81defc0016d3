import { queryOptions } from '@tanstack/react-query';
import { fetchAll } from '@/lib/fetch-all';
import { invokeFunction } from '@/lib/edge-functions';
import { check } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import { buildExtf, extfFileName, type DatevPosting } from '@/features/admin/datev/lib/extf';
import { errorCode, sqlState } from '@/lib/errors/codes';

export const datevKeys = {
  settings: ['admin', 'datev', 'settings'] as const,
};

/** The export settings as public.datev_settings returns them (numbers as text, the account length a number). */
export interface DatevSettingsRow {
  consultant_number: string;
  client_number: string;
  fiscal_year_start: string;
  account_length: number;
  account_debtor: string;
  account_revenue_19: string;
  account_revenue_7: string;
  account_revenue_0: string;
  account_cash: string;
  account_bank: string;
  account_transit: string;
}

export const datevSettingsQueryOptions = () =>
  queryOptions({
    queryKey: datevKeys.settings,
    queryFn: async (): Promise<DatevSettingsRow> => {
      const db = await getSupabase();
      const row = check(await db.rpc('datev_settings')) as unknown as DatevSettingsRow;
      return { ...row, account_length: Number(row.account_length) };
    },
  });

/** Stores the settings (the database checks every value: datev_invalid_setting, hint = the field). */
export async function saveDatevSettings(settings: Omit<DatevSettingsRow, 'account_length'> & { account_length: string }): Promise<void> {
  const db = await getSupabase();
  const result = await db.rpc('save_datev_settings', { p_settings: settings });
  if (result.error) throw Object.assign(new Error(result.error.message), { code: result.error.code, hint: result.error.hint });
}

/** Why an export failed: the database's own refusals. */
export type DatevExportError = 'admin_only' | 'invalid_range' | 'datev_range_fiscal_year' | 'datev_vat_rate' | 'unknown';

export class DatevError extends Error {
  constructor(
    readonly reason: DatevExportError,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal's catalogue code (src/lib/errors), never a pattern on the message text. */
const reasonOf = (error: unknown): DatevExportError => {
  const code = errorCode(error);
  if (code === 'admin_only' || sqlState(error) === '42501') return 'admin_only';
  return code === 'datev_range_fiscal_year' || code === 'datev_vat_rate' || code === 'invalid_range' ? code : 'unknown';
};

/** Berlin wall-clock digits YYYYMMDDHHMMSSFFF of an instant (the header's "erzeugt am"). */
export function berlinStamp(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}${parts.month}${parts.day}${parts.hour}${parts.minute}${parts.second}${String(at.getMilliseconds()).padStart(3, '0')}`;
}

export interface DatevFile {
  name: string;
  bytes: Uint8Array;
  lines: number;
}

/** Every posting line of the range, in pages past max_rows (the database refuses non-admins and bad ranges). */
export async function fetchPostings(from: string, to: string) {
  const db = await getSupabase();
  return fetchAll((a, b) => db.rpc('datev_postings', { p_from: from, p_to: to }).order('line_no').range(a, b));
}

/** Reads the settings and every posting line of the range (in pages past max_rows) and builds the file. */
export async function buildDatevFile(from: string, to: string, label: string, now = new Date()): Promise<DatevFile> {
  const db = await getSupabase();
  const settings = await db.rpc('datev_settings');
  if (settings.error) throw new DatevError(reasonOf(settings.error), settings.error.message);
  const s = settings.data as unknown as DatevSettingsRow;
  let rows: Awaited<ReturnType<typeof fetchPostings>>;
  try {
    rows = await fetchPostings(from, to);
  } catch (e) {
    throw new DatevError(reasonOf(e), (e as { message?: string }).message ?? 'error');
  }
  const postings: DatevPosting[] = rows.map((p) => ({ ...p, side: p.side === 'H' ? 'H' : 'S', amount_cents: Number(p.amount_cents) }));
  const bytes = buildExtf({
    settings: { ...s, account_length: Number(s.account_length) },
    from,
    to,
    createdAt: berlinStamp(now),
    label,
    postings,
  });
  return { name: extfFileName(from, to), bytes, lines: postings.length };
}

/** Lets the browser save a made file (the DATEV CSV in Windows-1252, the archive as ZIP). */
function saveBytes(file: DatevFile, type: string) {
  const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export const downloadFile = (file: DatevFile) => saveBytes(file, 'text/csv;charset=windows-1252');

/** Why the PDF archive could not be made: the edge function's and the database's refusals. */
export type ArchiveError = 'admin_only' | 'invalid_range' | 'archive_range_too_long' | 'no_documents' | 'unknown';

/**
 * The PDF archive of a range: every stored invoice document issued in it (invoices,
 * cancellations, credit notes, desk receipts) rendered as issued by the invoice-archive edge
 * function, as one ZIP. The function reads the documents with the admin's session through
 * public.invoice_archive_documents, which refuses everyone else and ranges over 366 days.
 */
export async function fetchInvoiceArchive(from: string, to: string): Promise<DatevFile> {
  let data: unknown;
  try {
    data = await invokeFunction<Blob>('invoice-archive', { from, to });
  } catch (e) {
    const code = errorCode(e);
    const reason: ArchiveError =
      code === 'forbidden' || code === 'admin_only'
        ? 'admin_only'
        : code === 'invalid_range' || code === 'archive_range_too_long' || code === 'no_documents'
          ? code
          : 'unknown';
    throw new ArchiveFailure(reason);
  }
  if (!(data instanceof Blob)) throw new ArchiveFailure('unknown');
  const bytes = new Uint8Array(await data.arrayBuffer());
  // The entry count from the ZIP's end record (the last 22 bytes: no archive comment is written).
  const count = bytes.length >= 22 ? new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 22, 22).getUint16(10, true) : 0;
  return { name: `Belege-${from}-${to}.zip`, bytes, lines: count };
}

export class ArchiveFailure extends Error {
  constructor(readonly reason: ArchiveError) {
    super(reason);
  }
}

export const downloadZip = (file: DatevFile) => saveBytes(file, 'application/zip');
