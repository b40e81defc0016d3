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
