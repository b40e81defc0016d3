// euroCentsField (src/lib/validation.ts): the one rule for "euros typed -> integer cents" that the
// extras, cash book, payment, sale code and season schemas share. German and English input
// ("12,50" and "12.50"), bounds in cents, the digits before the separator, and which message
// answers which mistake, in the page's language.
import { describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { euroCentsField } from '@/lib/validation';

const field = (extra: Partial<Parameters<typeof euroCentsField>[0]> = {}) =>
  euroCentsField({ min: 1, max: 100_000, maxDigits: 4, invalid: () => 'invalid', ...extra });

const issue = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0].message);

describe('euroCentsField', () => {
  it('turns euros with a comma or a point into integer cents', async () => {
    await activateLocale('de', '/start/booking');
    const f = field();
    expect(f.parse('12,50')).toBe(1250);
    expect(f.parse('12.50')).toBe(1250);
    expect(f.parse(' 12,5 ')).toBe(1250);
    expect(f.parse('12')).toBe(1200);
    expect(f.parse('0,01')).toBe(1);
    expect(f.parse('1000')).toBe(100_000);
    // No float arithmetic: 0,29 is 29 cents, not 28.999…
    expect(f.parse('0,29')).toBe(29);
  });

  it('refuses what is no amount, a third decimal, a sign, thousands separators and too many digits', () => {
    const f = field();
    for (const bad of ['abc', '12,345', '-5', '+5', '1.000,00', '12,', ',5', '10000', '1e3'])
      expect(issue(f.safeParse(bad)), bad).toBe('invalid');
  });

  it('keeps the bounds in cents, with their own messages when given', () => {
    expect(issue(field().safeParse('0'))).toBe('invalid');
    expect(issue(field().safeParse('1000,01'))).toBe('invalid');
    const f = field({ tooSmall: () => 'small', tooLarge: () => 'large' });
    expect(issue(f.safeParse('0,00'))).toBe('small');
    expect(issue(f.safeParse('1000,01'))).toBe('large');
    expect(issue(f.safeParse('x'))).toBe('invalid');
    expect(field({ min: 0 }).parse('0')).toBe(0);
  });

  it('answers an empty field with the required message in the page language', async () => {
    await activateLocale('de', '/start/booking');
    expect(issue(field().safeParse('  '))).toBe('Pflichtfeld');
    await activateLocale('en', '/start/booking');
    expect(issue(field().safeParse(''))).toBe('This field is required');
    await activateLocale('de', '/start/booking');
  });

  it('reads its messages when the field is checked, so a language switch shows', async () => {
    let locale = 'de';
    const f = field({ invalid: () => (locale === 'de' ? 'Betrag' : 'Amount') });
    expect(issue(f.safeParse('x'))).toBe('Betrag');
    locale = 'en';
    expect(issue(f.safeParse('x'))).toBe('Amount');
  });
});
