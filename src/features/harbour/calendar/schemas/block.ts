import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { dayField, messages } from '@/lib/validation';

/**
 * Blocking a berth for whole days (add_berth_block repeats each rule: the period, at most 400
 * days, no overlap).
 */
export const blockSchema = z
  .object({
    placeId: z.string().min(1, { error: messages.required }),
    reason: z.enum(['maintenance', 'reserved']),
    from: dayField(),
    to: dayField(),
    note: z.string().max(2000, { error: () => messages.max(2000) }),
  })
  .refine((v) => v.to >= v.from, { path: ['to'], error: () => t`Das Enddatum darf nicht vor dem Anfangsdatum liegen.` });
export type BlockValues = z.infer<typeof blockSchema>;
