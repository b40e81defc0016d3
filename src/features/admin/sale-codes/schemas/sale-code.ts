import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { centsToInput, parseEuroCents } from '@/lib/prices';
import { euroCentsField, messages } from '@/lib/validation';

/** "5", "5,5", "5,50" or "5.50" euros (at most 4 digits before the separator) as cents; null when not such a number. */
export const euroToCents = (value: string): number | null => parseEuroCents(value, 4);

/** Cents as the euro amount typed in the form: 500 -> "5,00" (de) or "5.00" (en). */
export const centsToEuro = centsToInput;

export const saleCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .min(3, { error: () => messages.min(3) })
    .max(40, { error: () => messages.max(40) })
    .regex(/^[A-Za-z0-9_-]+$/, { error: () => t`Nur Buchstaben A–Z, Ziffern, - und _` }),
  type: z.literal('set-additional-costs'),
  // Euros typed, cents out (0 to 1.000 €).
  value: euroCentsField({
    min: 0,
    max: 100_000,
    maxDigits: 4,
    invalid: () => t`Bitte einen Betrag zwischen 0 und 1000 Euro angeben, z. B. 5,00`,
  }),
});
export type SaleCodeInput = z.input<typeof saleCodeSchema>;
export type SaleCodeValues = z.output<typeof saleCodeSchema>;
