import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { formatEuro } from '@/lib/prices';
import { euroCentsField, messages } from '@/lib/validation';

/**
 * An amount typed in euros ("12,50"), checked and turned into integer cents: more than 0 and at
 * most `maxCents` (the outstanding or refundable amount). The database checks again.
 */
const amountField = (maxCents: number, locale: string, tooMuch?: (max: string) => string) =>
  euroCentsField({
    min: 1,
    max: maxCents,
    invalid: () => t`Betrag in Euro, z. B. 12,50`,
    tooSmall: () => t`Der Betrag muss größer als 0 sein.`,
    tooLarge: () => tooMuch?.(formatEuro(maxCents, locale)) ?? '',
  });

const note = () =>
  z
    .string()
    .trim()
    .max(500, { error: () => messages.max(500) });

/** Record a payment at the desk: card terminal, cash or bank transfer, at most the outstanding amount. */
export const deskPaymentSchema = (outstandingCents: number, locale: string) =>
  z.object({
    method: z.enum(['card_terminal', 'cash', 'bank_transfer'], { error: messages.required }),
    amount: amountField(outstandingCents, locale, (max) => t`Höchstens der offene Betrag von ${max}.`),
    note: note(),
  });

/**
 * A refund: online through Stripe (at most what the online payments still hold) or, for desk
 * payments, cash or bank transfer (at most what was paid at the desk and not yet refunded).
 */
export const refundSchema = (limits: { onlineCents: number; deskCents: number }, locale: string) =>
  z
    .object({
      method: z.enum(['online', 'cash', 'bank_transfer'], { error: messages.required }),
      // The limit depends on the method: checked below, with a message that names it.
      amount: amountField(Number.MAX_SAFE_INTEGER, locale),
      note: note(),
    })
    .superRefine((v, ctx) => {
      const max = v.method === 'online' ? limits.onlineCents : limits.deskCents;
      if (v.amount > max) {
        const text = formatEuro(max, locale);
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message:
            v.method === 'online'
              ? t`Online können höchstens ${text} erstattet werden.`
              : t`Bar oder per Überweisung können höchstens ${text} erstattet werden (was am Hafenbüro bezahlt wurde).`,
        });
      }
    });

export type DeskPaymentInput = z.input<ReturnType<typeof deskPaymentSchema>>;
export type DeskPaymentValues = z.output<ReturnType<typeof deskPaymentSchema>>;
export type RefundInput = z.input<ReturnType<typeof refundSchema>>;
export type RefundValues = z.output<ReturnType<typeof refundSchema>>;
