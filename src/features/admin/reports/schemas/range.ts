import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { messages } from '@/lib/validation';
import { isIsoDay, MAX_RANGE_DAYS, rangeProblem } from '../lib/range';

/** The report's date range form: two Berlin days, in order, at most MAX_RANGE_DAYS apart. */
export const rangeSchema = () =>
  z
    .object({
      from: z.string().refine((v) => v !== '', { error: messages.required }).refine(isIsoDay, { error: () => t`Bitte ein gültiges Datum eingeben` }),
      to: z.string().refine((v) => v !== '', { error: messages.required }).refine(isIsoDay, { error: () => t`Bitte ein gültiges Datum eingeben` }),
    })
    .superRefine((v, ctx) => {
      if (!isIsoDay(v.from) || !isIsoDay(v.to)) return;
      const problem = rangeProblem(v.from, v.to);
      if (problem === 'order') ctx.addIssue({ code: 'custom', path: ['to'], message: t`Das Enddatum darf nicht vor dem Anfangsdatum liegen` });
      if (problem === 'too_long') {
        const max = MAX_RANGE_DAYS;
        ctx.addIssue({ code: 'custom', path: ['to'], message: t`Ein Bericht umfasst höchstens ${max} Tage` });
      }
    });

export type RangeValues = z.infer<ReturnType<typeof rangeSchema>>;
