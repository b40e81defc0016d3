/**
 * Money helpers and the harbour's rules that are not prices. The prices themselves (berth
 * tariffs and extras, gross with a VAT rate each) live in the database's one price list
 * (public.price_list; docs/adr/0011-consumer-prices-with-vat.md), never here.
 */

/** Day berths: 08:00-22:00, at most 5 hours. */
export const dayBerthWindow = { from: '08:00', to: '22:00', maxHours: 5 } as const;
/** Street parking in front of the harbour: at most 2 hours. */
export const streetParkingMaxHours = 2;

/** Formats cents as euros in the given locale: 2,00 € / €2.00. */
export function formatEuro(cents: number, locale: string): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'de-DE', {
    style: 'currency',
    currency: 'EUR',
  }).format(cents / 100);
}

/**
 * Euros typed by a person ("12", "12,5", "12,50", "12.50"; a comma or a point, at most two
 * decimals, no thousands separators, at most `maxDigits` digits before the separator) as
 * integer cents; null when it is not such an amount.
 */
export function parseEuroCents(text: string, maxDigits = 7): number | null {
  const m = new RegExp(`^(\\d{1,${maxDigits}})(?:[.,](\\d{1,2}))?$`).exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Cents as an editable amount in the locale's decimal separator: 500 -> "5,00" (de) or "5.00" (en). */
export function centsToInput(cents: number, locale: string): string {
  const text = (cents / 100).toFixed(2);
  return locale === 'en' ? text : text.replace('.', ',');
}
