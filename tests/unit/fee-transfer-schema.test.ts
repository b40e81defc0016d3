import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { feeRepaySchema, feeTransferSchema } from '@/features/admin/long-term-fees/schemas';

i18n.loadAndActivate({ locale: 'de', messages: {} });

/** The transfer form turns typed euros into integer cents and repeats the database's limits (record_fee_transfer). */
describe('the fee transfer form', () => {
  it('turns euros as people type them into cents', () => {
    for (const [typed, cents] of [
      ['608,77', 60877],
      ['608.77', 60877],
      ['0,01', 1],
      ['100000', 10_000_000],
    ] as const) {
      const parsed = feeTransferSchema().safeParse({ amount: typed, note: '' });
      expect(parsed.success && parsed.data.amount, typed).toBe(cents);
    }
  });

  it('refuses nothing, zero, letters, too much and a long note', () => {
    for (const bad of [
      { amount: '', note: '' },
      { amount: '0', note: '' },
      { amount: 'zwölf', note: '' },
      { amount: '100000,01', note: '' },
      { amount: '10', note: 'x'.repeat(501) },
    ]) {
      expect(feeTransferSchema().safeParse(bad).success, JSON.stringify(bad).slice(0, 40)).toBe(false);
    }
  });
});

/** The repayment form: the same euros, never more than is overpaid (repay_fee_overpayment refuses more). */
describe('the fee repayment form', () => {
  it('takes up to the overpaid amount and refuses a cent more', () => {
    const schema = feeRepaySchema(44000, 'de');
    const all = schema.safeParse({ amount: '440,00', note: 'Rücküberweisung' });
    expect(all.success && all.data.amount).toBe(44000);
    const part = schema.safeParse({ amount: '100', note: '' });
    expect(part.success && part.data.amount).toBe(10000);
    const more = schema.safeParse({ amount: '440,01', note: '' });
    expect(more.success).toBe(false);
    expect(more.error?.issues[0]?.message).toContain('440,00');
    expect(schema.safeParse({ amount: '0', note: '' }).success).toBe(false);
  });
});
