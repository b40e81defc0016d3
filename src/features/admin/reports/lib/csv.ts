/**
 * CSV for spreadsheets: semicolon-separated (what German Excel expects), CRLF line ends, a UTF-8
 * byte order mark so Excel reads umlauts right, RFC 4180 quoting, and text cells that start
 * with = + - @ (or a tab/CR; plain negative numbers excepted) prefixed with ' so a spreadsheet never runs them as a formula.
 */
export type CsvCell = string | number | null | undefined;

export const CSV_SEPARATOR = ';';
export const UTF8_BOM = '\uFEFF';

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+([.,]\d+)?$/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The file's text: BOM, header row, data rows. */
export function toCsv(header: string[], rows: CsvCell[][]): string {
  return UTF8_BOM + [header, ...rows].map((row) => row.map(csvCell).join(CSV_SEPARATOR)).join('\r\n') + '\r\n';
}

/** Lets the browser save the text as a file. */
export function downloadCsv(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
