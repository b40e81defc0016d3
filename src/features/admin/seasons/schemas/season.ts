import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { dayField, requiredText } from '@/lib/validation';

/** A season: name, kind, first and last day (add_season checks each again, and the overlap). */
export const seasonSchema = z
  .object({
    name: requiredText(100),
    kind: z.enum(['summer', 'winter', 'year_round']),
    startsOn: dayField(),
    endsOn: dayField(),
  })
  .refine((v) => v.endsOn > v.startsOn, { path: ['endsOn'], error: () => t`Das Saisonende muss nach dem Saisonbeginn liegen.` });

export type SeasonValues = z.infer<typeof seasonSchema>;
