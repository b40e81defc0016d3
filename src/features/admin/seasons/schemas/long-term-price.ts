import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { dayField, euroCentsField } from '@/lib/validation';
import { PRICE_BASES, SEASON_KINDS } from '@/features/admin/seasons/schemas/season';

/** Euros typed ("95", "95,50") as integer cents from `min` to 100.000 €; add_long_term_price checks again. */
const euroField = (min: number) =>
  euroCentsField({
    min,
    max: 10_000_000,
    maxDigits: 6,
    invalid: () => (min > 0 ? t`Betrag in Euro von 0,01 bis 100.000, z. B. 95,00` : t`Betrag in Euro von 0 bis 100.000, z. B. 120,00`),
  });

/**
 * A price change of a season kind: basis, gross price per unit and season, electricity flat
 * rate, VAT rates (19, 7, 0), valid from a day after today (the database refuses an earlier one:
 * a season that has begun keeps its price).
 */
export const longTermPriceSchema = (today: string) =>
  z
    .object({
      kind: z.enum(SEASON_KINDS),
      basis: z.enum(PRICE_BASES),
      price: euroField(1),
      vatRate: z.enum(['19', '7', '0']),
      electricity: euroField(0),
      electricityVatRate: z.enum(['19', '7', '0']),
      validFrom: dayField(),
    })
    .refine((v) => v.validFrom > today, { path: ['validFrom'], error: () => t`Eine Preisänderung gilt frühestens ab morgen.` });

export type LongTermPriceInput = z.input<ReturnType<typeof longTermPriceSchema>>;
export type LongTermPriceValues = z.output<ReturnType<typeof longTermPriceSchema>>;
