import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { messages } from '@/lib/validation';

const whole = (min: number, max: number, range: () => string) =>
  z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .regex(/^\d{1,4}$/, { error: () => t`Bitte eine ganze Zahl eingeben` })
    .refine((v) => Number(v) >= min && Number(v) <= max, { error: range });

/** The cancellation policy (harbour_settings; the database's checks harbour_settings_cancel_free_hours and _fee_percent say the same). */
export const cancellationPolicySchema = z.object({
  cancel_free_hours: whole(0, 2160, () => t`Zwischen 0 und 2160 Stunden (90 Tage)`),
  cancel_fee_percent: whole(0, 100, () => t`Zwischen 0 und 100 Prozent`),
});
export type CancellationPolicyValues = z.infer<typeof cancellationPolicySchema>;
