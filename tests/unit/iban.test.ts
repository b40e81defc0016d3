import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IBAN_LENGTHS, formatIban, ibanProblem, isSepaIban, isValidIban, normalizeIban } from '@/lib/iban';

/** IBANs: normalising what people type, ISO 13616 country lengths, ISO 7064 mod 97-10 check digits. */
describe('iban', () => {
  it('normalises spaces, dashes, dots and case, and prints groups of four', () => {
    expect(normalizeIban(' de89 3704-0044.0532 0130 00 ')).toBe('DE89370400440532013000');
    expect(formatIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(formatIban('NO9386011117947')).toBe('NO93 8601 1117 947');
  });

  it('accepts valid IBANs of several countries, including Stripe’s SEPA test IBANs', () => {
    for (const iban of [
      'DE89370400440532013000',
      'DE62370400440532013001',
      'DE35370400440532013002',
      'DE08370400440532013003',
      'DE78370400440532013004',
      'DE65370400440002222227',
      'AT611904300234573201',
      'FR1420041010050500013M02606',
      'NL91ABNA0417164300',
      'GB29NWBK60161331926819',
      'NO9386011117947',
      'MT84MALT011000012345MTLCAST001S',
      'de89 3704 0044 0532 0130 00',
    ]) {
      expect(ibanProblem(iban), iban).toBeNull();
      expect(isValidIban(iban), iban).toBe(true);
    }
  });

  it('refuses a wrong check digit, a swapped digit, a wrong length, an unknown country, stray characters', () => {
    expect(ibanProblem('DE89370400440532013001')).toBe('invalid');
    expect(ibanProblem('DE98370400440532013000')).toBe('invalid');
    expect(ibanProblem('DE89370400440523013000')).toBe('invalid');
    expect(ibanProblem('DE893704004405320130000')).toBe('invalid');
    expect(ibanProblem('DE8937040044053201300')).toBe('incomplete');
    expect(ibanProblem('DE')).toBe('incomplete');
    expect(ibanProblem('')).toBe('incomplete');
    expect(ibanProblem('XX89370400440532013000')).toBe('country');
    expect(ibanProblem('1234')).toBe('country');
    expect(ibanProblem('DE89_370400440532013000')).toBe('invalid');
    expect(ibanProblem('DEAB370400440532013000')).toBe('invalid');
    expect(isValidIban('GB29NWBK60161331926818')).toBe(false);
  });

  it('knows the lengths of the registry and which countries are SEPA', () => {
    expect(IBAN_LENGTHS.DE).toBe(22);
    expect(IBAN_LENGTHS.NO).toBe(15);
    expect(IBAN_LENGTHS.LC).toBe(32);
    expect(isSepaIban('DE89370400440532013000')).toBe(true);
    expect(isSepaIban('CH9300762011623852957')).toBe(true);
    // Valid, but not a SEPA country.
    expect(isValidIban('SA0380000000608010167519')).toBe(true);
    expect(isSepaIban('SA0380000000608010167519')).toBe(false);
  });

  it('serves a zod schema as a form uses it (normalised value, a message per problem)', () => {
    const schema = z
      .string()
      .transform(normalizeIban)
      .superRefine((value, ctx) => {
        const problem = ibanProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      });
    expect(schema.parse('de89 3704 0044 0532 0130 00')).toBe('DE89370400440532013000');
    const result = schema.safeParse('DE89 3704 0044 0532 0130 01');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('invalid');
  });
});
