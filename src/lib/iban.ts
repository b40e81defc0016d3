/**
 * IBANs (ISO 13616): normalise what a person typed, check the length of its country and the
 * mod-97 check digits. No imports, so the payment sandbox (supabase/local) uses the same rule as
 * the app's zod schemas.
 */

/** Total IBAN length per country, from the SWIFT IBAN registry (ISO 13616). */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** Countries of the SEPA scheme (EPC list): IBANs a SEPA direct debit can be drawn on. */
export const SEPA_COUNTRIES: ReadonlySet<string> = new Set([
  'AD',
  'AT',
  'BE',
  'BG',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GI',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MC',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'SM',
  'VA',
]);

/** Upper case without spaces, dashes or dots: `de89 3704-0044` -> `DE8937040044`. */
export function normalizeIban(input: string): string {
  return input.replace(/[\s.\-\u00a0]/g, '').toUpperCase();
}

/** Groups of four, as printed on paper: `DE89 3704 0044 0532 0130 00`. */
export function formatIban(input: string): string {
  return normalizeIban(input).replace(/(.{4})(?=.)/g, '$1 ');
}

/** The ISO 7064 mod 97-10 remainder of an IBAN moved around (country and check digits last). */
export function ibanRemainder(iban: string): number {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const c of moved) {
    const value = c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/**
 * What is wrong with an IBAN, or null: `incomplete` (shorter than its country's length, as a
 * form says while one is typing), `country` (no IBAN country), `invalid` (characters, too long,
 * or the check digits do not match).
 */
export type IbanProblem = 'incomplete' | 'country' | 'invalid';

export function ibanProblem(input: string): IbanProblem | null {
  const iban = normalizeIban(input);
  if (iban.length < 2 || !/^[A-Z]{2}/.test(iban)) return iban.length < 2 && /^[A-Z]?$/.test(iban) ? 'incomplete' : 'country';
  const length = IBAN_LENGTHS[iban.slice(0, 2)];
  if (!length) return 'country';
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]*$/.test(iban) && !/^[A-Z]{2}\d{0,1}$/.test(iban)) return 'invalid';
  if (iban.length < length) return 'incomplete';
  if (iban.length > length) return 'invalid';
  return ibanRemainder(iban) === 1 ? null : 'invalid';
}

/** True for a complete IBAN whose country length and check digits are right. */
export function isValidIban(input: string): boolean {
  return ibanProblem(input) === null;
}

/** True for a valid IBAN of a SEPA country. */
export function isSepaIban(input: string): boolean {
  return isValidIban(input) && SEPA_COUNTRIES.has(normalizeIban(input).slice(0, 2));
}
