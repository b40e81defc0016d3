import { z } from 'zod';
import { t } from '@lingui/core/macro';

const body = () =>
  z
    .string()
    .trim()
    .min(1, { error: () => t`Bitte den Text eingeben.` })
    .max(50000, { error: () => t`Höchstens 50.000 Zeichen.` });

/**
 * A new version of the contract terms, German and English, and whether contracts accepted on it
 * renew for the next season unless noticed (publish_contract_terms).
 */
export const contractTermsSchema = z.object({ bodyDe: body(), bodyEn: body(), renewsAutomatically: z.boolean() });

export type ContractTermsValues = z.infer<typeof contractTermsSchema>;
