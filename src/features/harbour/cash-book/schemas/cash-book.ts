import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { euroCentsField, messages } from '@/lib/validation';

/** Euros typed by a person ("12,50") as integer cents, at least `min` cents. The database checks again. */
const euros = (min: number, max = Number.MAX_SAFE_INTEGER, tooLarge?: () => string) =>
  euroCentsField({
    min,
    max,
    invalid: () => t`Betrag in Euro, z. B. 12,50`,
    tooSmall: () => (min > 0 ? t`Der Betrag muss größer als 0 sein.` : t`Der Betrag darf nicht negativ sein.`),
    tooLarge,
  });

/** A movement of the till: opening float (in), deposit to the bank or withdrawal (out), always with a reason. */
export const cashMovementSchema = z.object({
  kind: z.enum(['opening_float', 'bank_deposit', 'withdrawal'], { error: messages.required }),
  amount: euros(1, 100_000_000, () => t`Höchstens 1.000.000 € je Buchung.`),
  reason: z
    .string()
    .trim()
    .min(1, { error: () => t`Bitte einen Grund angeben.` })
    .max(500, { error: () => messages.max(500) }),
});

/** The daily closing: the counted cash (0 or more) and an optional note (e.g. why the count differs). */
export const cashClosingSchema = z.object({
  counted: euros(0),
  note: z
    .string()
    .trim()
    .max(500, { error: () => messages.max(500) }),
});

export type CashMovementInput = z.input<typeof cashMovementSchema>;
export type CashMovementValues = z.output<typeof cashMovementSchema>;
export type CashClosingInput = z.input<typeof cashClosingSchema>;
export type CashClosingValues = z.output<typeof cashClosingSchema>;
