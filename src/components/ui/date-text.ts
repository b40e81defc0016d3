/**
 * The date picker's text field: a yyyy-MM-dd day written as the page's language writes it
 * (de 29.08.2031, en 29/08/2031) and read back. Plain functions (no date-fns), so the field costs
 * nothing until its calendar is opened.
 */

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether y-m-d is a real calendar day (no 31 April, 29 February only in leap years). */
function real(y: number, m: number, d: number): boolean {
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A valid yyyy-MM-dd day, or null. */
export function isoParts(value: string | null | undefined): [number, number, number] | null {
  const match = ISO.exec(value ?? '');
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return real(y, m, d) ? [y, m, d] : null;
}

export function isoDay(y: number, m: number, d: number): string {
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** "29.08.2031" (de) or "29/08/2031" (en); '' for no or an invalid day. */
export function formatDateText(value: string | null | undefined, locale: string): string {
  const parts = isoParts(value);
  if (!parts) return '';
  const [y, m, d] = parts;
  return locale === 'en' ? `${pad(d)}/${pad(m)}/${y}` : `${pad(d)}.${pad(m)}.${y}`;
}

/** The pattern shown as the placeholder: "TT.MM.JJJJ" / "DD/MM/YYYY". */
export function dateTextPattern(locale: string): string {
  return locale === 'en' ? 'DD/MM/YYYY' : 'TT.MM.JJJJ';
}

/**
 * A typed day as yyyy-MM-dd, or null when the text is not a whole, real day. The page's order
 * (day, month, four-digit year) with ".", "/" or "-" between, or a pasted yyyy-MM-dd.
 */
export function parseDateText(text: string): string | null {
  const trimmed = text.trim();
  const iso = isoParts(trimmed);
  if (iso) return isoDay(...iso);
  const match = /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4})$/.exec(trimmed);
  if (!match) return null;
  const [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return real(y, m, d) ? isoDay(y, m, d) : null;
}
