/**
 * The harbour's price list (spec section 9, made exact in ARCHITECTURE.md "Prices").
 * Money in integer cents; every price is net, VAT 19 % comes on top.
 */
export const prices = {
  berthPerMetrePerNight: 200,
  dayBerthPerMetre: 100,
  additionalCostsPerNight: 1000,
  washingMachinePerLoad: 500,
  boatLiftPerDayFrom: 10000,
  ice2kg: 300,
  ice5kg: 500,
  coolerDeposit: 2000,
  parkingKeyDeposit: 2000,
} as const;

export const VAT_RATE = 0.19;
/** Day berths: 08:00-22:00, at most 5 hours. */
export const dayBerthWindow = { from: '08:00', to: '22:00', maxHours: 5 } as const;
/** Street parking in front of the harbour: at most 2 hours. */
export const streetParkingMaxHours = 2;

/** VAT on a net amount in cents, rounded half up to the cent. */
export function vatCents(netCents: number): number {
  return Math.floor(netCents * VAT_RATE + 0.5);
}

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
