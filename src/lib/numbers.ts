/**
 * Numbers as the page's language writes them (Intl): 9,4 and 12,1 × 3,9 m on German pages,
 * 9.4 and 12.1 × 3.9 m on English ones. Never String(n) or a bare {n} for a decimal.
 */

/** The Intl locale for numbers of a page language. */
export const numberLocale = (locale: string) => (locale === 'en' ? 'en-GB' : 'de-DE');

/** A decimal (a number or a numeric string from PostgREST) with at most `maxDigits` decimals. */
export function formatDecimal(n: number | string, locale: string, maxDigits = 2): string {
  return new Intl.NumberFormat(numberLocale(locale), { maximumFractionDigits: maxDigits }).format(Number(n));
}

/** Length × width in metres: "12,1 × 3,9 m" (de), "12.1 × 3.9 m" (en). */
export function formatSize(length: number | string, width: number | string, locale: string): string {
  return `${formatDecimal(length, locale)} × ${formatDecimal(width, locale)} m`;
}

/**
 * A stored decimal as the text of an input a person edits, in the page's decimal separator
 * ("9,4" on German pages; no grouping); '' for none. The forms read a comma or a point.
 */
export function decimalInput(n: number | string | null | undefined, locale: string): string {
  if (n == null || n === '') return '';
  return new Intl.NumberFormat(numberLocale(locale), { maximumFractionDigits: 2, useGrouping: false }).format(Number(n));
}
