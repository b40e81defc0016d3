import { z } from 'zod';
import { t } from '@lingui/core/macro';

/**
 * A service request taken on as an extra: a booking number (4–20 letters, digits, dashes; case
 * does not matter), a chosen extra and a quantity of 1 to 99. The first thing missing is named,
 * for the form as a whole (errors.root); accept_service_request checks every value again.
 */
export const acceptSchema = z
  .object({
    booking: z.string().transform((v) => v.trim().toUpperCase()),
    extraId: z.string(),
    quantity: z.string().transform((v) => v.trim()),
  })
  .superRefine((v, ctx) => {
    const problem = !/^[A-Z0-9-]{4,20}$/.test(v.booking)
      ? t`Bitte die Buchungsnummer eintragen.`
      : !v.extraId
        ? t`Bitte ein Extra wählen.`
        : !/^\d{1,2}$/.test(v.quantity) || Number(v.quantity) < 1
          ? t`Die Menge muss zwischen 1 und 99 liegen.`
          : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['root'], message: problem });
  });
export type AcceptValues = z.input<typeof acceptSchema>;
export type AcceptInput = z.output<typeof acceptSchema>;
