import { z } from 'zod';
import { t } from '@lingui/core/macro';

/** The acceptance of an offer: payment plan and method, and the ticked terms (issue 42, ADR 0047). */
export const acceptOfferSchema = z.object({
  plan: z.enum(['1', '2', '4']),
  method: z.enum(['bank_transfer', 'sepa_debit']),
  agree: z.boolean().refine((v) => v, { error: () => t`Bitte bestätigen Sie, dass Sie den Vertrag gelesen haben und annehmen.` }),
});

export type AcceptOfferValues = z.infer<typeof acceptOfferSchema>;
