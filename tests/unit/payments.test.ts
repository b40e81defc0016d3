import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { deskPaymentSchema, refundSchema } from '@/features/harbour/orders/schemas/payment';
import { centsToInput, formatEuro, parseEuroCents } from '@/lib/prices';
import { validatePaymentReturn } from '@/lib/payment-return';
import { canPayOnline, paymentLapsed } from '@/features/orders/api/payments';
import type { OrderBalance } from '@/features/orders/api/types';

i18n.loadAndActivate({ locale: 'de', messages: {} });

const firstError = (result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.error?.issues[0];

describe('euro amounts typed by staff', () => {
  it('turns euros with a comma or a point into integer cents, and refuses anything else', () => {
    expect(parseEuroCents('12')).toBe(1200);
    expect(parseEuroCents('12,5')).toBe(1250);
    expect(parseEuroCents(' 12.05 ')).toBe(1205);
    expect(parseEuroCents('0,01')).toBe(1);
    for (const bad of ['', 'zehn', '12,505', '1.234,56', '-5', '12,', ',50', '1e3']) expect(parseEuroCents(bad), bad).toBeNull();
    expect(parseEuroCents('12345', 4)).toBeNull();
    expect(centsToInput(1250, 'de')).toBe('12,50');
    expect(centsToInput(1250, 'en')).toBe('12.50');
    expect(centsToInput(7, 'de')).toBe('0,07');
  });

  it('a desk payment is 1 cent up to the outstanding amount, in cents', () => {
    const schema = deskPaymentSchema(5000, 'de');
    expect(schema.parse({ method: 'cash', amount: '49,99', note: '' })).toEqual({ method: 'cash', amount: 4999, note: '' });
    expect(schema.parse({ method: 'card_terminal', amount: '50', note: ' Steg ' })).toEqual({
      method: 'card_terminal',
      amount: 5000,
      note: 'Steg',
    });
    expect(firstError(schema.safeParse({ method: 'cash', amount: '50,01', note: '' }))?.message).toBe(
      `Höchstens der offene Betrag von ${formatEuro(5000, 'de')}.`,
    );
    expect(firstError(schema.safeParse({ method: 'cash', amount: '0', note: '' }))?.message).toBe('Der Betrag muss größer als 0 sein.');
    expect(firstError(schema.safeParse({ method: 'cash', amount: 'zehn', note: '' }))?.message).toBe('Betrag in Euro, z. B. 12,50');
    expect(firstError(schema.safeParse({ method: 'cash', amount: '', note: '' }))?.message).toBe('Pflichtfeld');
    expect(schema.safeParse({ method: 'online', amount: '1', note: '' }).success).toBe(false);
    expect(firstError(schema.safeParse({ method: 'cash', amount: '1', note: 'x'.repeat(501) }))?.path).toEqual(['note']);
  });

  it('a refund is limited by what its method can return: online payments online, desk payments in cash or by transfer', () => {
    const schema = refundSchema({ onlineCents: 3000, deskCents: 1000 }, 'de');
    expect(schema.parse({ method: 'online', amount: '30', note: '' }).amount).toBe(3000);
    expect(schema.parse({ method: 'bank_transfer', amount: '10', note: '' }).amount).toBe(1000);
    const tooMuchCash = firstError(schema.safeParse({ method: 'cash', amount: '10,01', note: '' }));
    expect(tooMuchCash?.path).toEqual(['amount']);
    expect(tooMuchCash?.message).toBe(
      `Bar oder per Überweisung können höchstens ${formatEuro(1000, 'de')} erstattet werden (was am Hafenbüro bezahlt wurde).`,
    );
    expect(firstError(schema.safeParse({ method: 'online', amount: '30,01', note: '' }))?.message).toBe(
      `Online können höchstens ${formatEuro(3000, 'de')} erstattet werden.`,
    );
    expect(schema.safeParse({ method: 'card_terminal', amount: '1', note: '' }).success).toBe(false);
  });
});

describe('the return from Stripe Checkout', () => {
  it('keeps payment=success with a checkout session id, or payment=cancelled, and nothing else', () => {
    expect(validatePaymentReturn({ payment: 'success', session_id: 'cs_test_a1B2' })).toEqual({
      payment: 'success',
      session_id: 'cs_test_a1B2',
    });
    expect(validatePaymentReturn({ payment: 'cancelled' })).toEqual({ payment: 'cancelled' });
    expect(validatePaymentReturn({ payment: 'cancelled', session_id: 'cs_test_x' })).toEqual({ payment: 'cancelled' });
    expect(validatePaymentReturn({ payment: 'success', session_id: '<script>' })).toEqual({ payment: 'success' });
    expect(validatePaymentReturn({ payment: 'paid' })).toEqual({});
    expect(validatePaymentReturn({})).toEqual({});
  });
});

describe('paying online before the deadline', () => {
  const balance = (over: Partial<OrderBalance>): OrderBalance => ({
    price_cents: 5712,
    paid_cents: 0,
    refunded_cents: 0,
    net_cents: 0,
    outstanding_cents: 5712,
    to_refund_cents: 0,
    refundable_online_cents: 0,
    refundable_desk_cents: 0,
    payment_mode: 'online_required',
    pay_by: null,
    ...over,
  });
  const open = { status: 'confirmed', payment_status: 'pending' } as const;
  const now = Date.parse('2027-01-10T12:00:00Z');

  it('an order that must be paid online is payable until its deadline, not at or after it', () => {
    expect(canPayOnline(open, balance({ pay_by: '2027-01-10T12:00:01Z' }), now)).toBe(true);
    expect(paymentLapsed(balance({ pay_by: '2027-01-10T12:00:01Z' }), now)).toBe(false);
    expect(canPayOnline(open, balance({ pay_by: '2027-01-10T12:00:00Z' }), now)).toBe(false);
    expect(paymentLapsed(balance({ pay_by: '2027-01-10T11:59:00Z' }), now)).toBe(true);
  });

  it('without a deadline only the mode, the status and what is outstanding decide', () => {
    expect(canPayOnline(open, balance({ payment_mode: 'online_optional' }), now)).toBe(true);
    expect(canPayOnline(open, balance({ payment_mode: 'desk' }), now)).toBe(false);
    expect(canPayOnline({ ...open, status: 'expired' }, balance({}), now)).toBe(false);
    expect(canPayOnline(open, balance({ outstanding_cents: 0 }), now)).toBe(false);
    expect(paymentLapsed(undefined, now)).toBe(false);
  });
});
