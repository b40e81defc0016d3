import { z } from 'zod';
import { t } from '@lingui/core/macro';

/** Sending an offer: the applicant chosen from the candidates and an optional deadline (else the setting, 14 days). */
export const sendOfferSchema = z.object({
  applicationId: z.string().min(1, { error: () => t`Bitte eine Bewerbung wählen.` }),
  deadline: z.string(),
});

export type SendOfferValues = z.infer<typeof sendOfferSchema>;
