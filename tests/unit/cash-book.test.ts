import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { berlinDayBounds } from '@/features/harbour/cash-book/api/cash-book';
import { cashClosingSchema, cashMovementSchema } from '@/features/harbour/cash-book/schemas/cash-book';
import { staffErrorMessage } from '@/lib/errors/staff-messages';

i18n.loadAndActivate({ locale: 'de', messages: {} });

const firstError = (result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.error?.issues[0];

describe('cash book forms (checked again by the database)', () => {
  it('a movement: one of three kinds, an amount above 0 in cents, a reason', () => {
    expect(cashMovementSchema.parse({ kind: 'bank_deposit', amount: '150,5', reason: ' Geldtransit ' })).toEqual({
      kind: 'bank_deposit',
      amount: 15050,
      reason: 'Geldtransit',
    });
    expect(firstError(cashMovementSchema.safeParse({ kind: 'withdrawal', amount: '0', reason: 'x' }))?.message).toBe(
      'Der Betrag muss größer als 0 sein.',
    );
    expect(firstError(cashMovementSchema.safeParse({ kind: 'withdrawal', amount: '1000000,01', reason: 'x' }))?.message).toBe(
      'Höchstens 1.000.000 € je Buchung.',
    );
    expect(firstError(cashMovementSchema.safeParse({ kind: 'withdrawal', amount: '5', reason: '  ' }))?.message).toBe(
      'Bitte einen Grund angeben.',
    );
    expect(cashMovementSchema.safeParse({ kind: 'refund', amount: '5', reason: 'x' }).success).toBe(false);
  });

  it('a closing: the counted cash may be 0, never negative or text; a note of at most 500 characters', () => {
    expect(cashClosingSchema.parse({ counted: '0', note: '' })).toEqual({ counted: 0, note: '' });
    expect(cashClosingSchema.parse({ counted: '1234,56', note: ' 1 € fehlt ' })).toEqual({ counted: 123456, note: '1 € fehlt' });
    expect(firstError(cashClosingSchema.safeParse({ counted: '-5', note: '' }))?.message).toBe('Betrag in Euro, z. B. 12,50');
    expect(firstError(cashClosingSchema.safeParse({ counted: '', note: '' }))?.message).toBe('Pflichtfeld');
    expect(firstError(cashClosingSchema.safeParse({ counted: '1', note: 'x'.repeat(501) }))?.path).toEqual(['note']);
  });

  it('a Berlin day is [00:00, next 00:00) in Düsseldorf, 23 or 25 hours on the DST days', () => {
    expect(berlinDayBounds('2026-11-26')).toEqual({ from: '2026-11-25T23:00:00.000Z', until: '2026-11-26T23:00:00.000Z' });
    expect(berlinDayBounds('2026-03-29')).toEqual({ from: '2026-03-28T23:00:00.000Z', until: '2026-03-29T22:00:00.000Z' });
    expect(berlinDayBounds('2026-10-25')).toEqual({ from: '2026-10-24T22:00:00.000Z', until: '2026-10-25T23:00:00.000Z' });
  });

  it('the database refusals read as sentences', () => {
    expect(staffErrorMessage({ message: 'cash_balance_negative' })).toContain('nicht unter 0');
    expect(staffErrorMessage({ message: 'cash_day_closed' })).toContain('bereits abgeschlossen');
    expect(staffErrorMessage({ message: 'something_else' })).toBe('Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.');
  });
});
