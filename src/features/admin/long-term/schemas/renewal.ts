import { z } from 'zod';
import { t } from '@lingui/core/macro';

/** Choosing the season whose contracts renew (into the next season of the same kind). */
export const renewalSeasonSchema = z.object({
  seasonId: z.string().min(1, { error: () => t`Bitte eine Saison wählen.` }),
});

export type RenewalSeasonValues = z.infer<typeof renewalSeasonSchema>;

/** The harbour ends a contract: a reason is required (it is e-mailed to the holder). */
export const endContractSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { error: () => t`Bitte einen Grund angeben.` })
    .max(1000, { error: () => t`Höchstens 1000 Zeichen.` }),
});

export type EndContractValues = z.infer<typeof endContractSchema>;
