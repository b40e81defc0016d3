import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { messages } from '@/lib/validation';
import { isIsoDay, MAX_RANGE_DAYS, rangeProblem } from '@/features/admin/reports/lib/range';

/** A required Berlin day (yyyy-MM-dd) of a range form. */
const requiredDay = () =>
  z.string().refine((v) => v !== '', { error: messages.required }).refine(isIsoDay, { error: () => t`Bitte ein gültiges Datum eingeben` });

/**
 * Two Berlin days in order (the reports, the DATEV export and the invoice archive ask for one).
 * `check` adds the form's own limit, told only once both are days in order; its message goes
 * under the end date.
 */
export const dayRangeSchema = (check: (range: { from: string; to: string }, refuse: (message: string) => void) => void = () => {}) =>
  z.object({ from: requiredDay(), to: requiredDay() }).superRefine((v, ctx) => {
    if (!isIsoDay(v.from) || !isIsoDay(v.to)) return;
    const refuse = (message: string) => ctx.addIssue({ code: 'custom', path: ['to'], message });
    if (rangeProblem(v.from, v.to) === 'order') refuse(t`Das Enddatum darf nicht vor dem Anfangsdatum liegen`);
    else check(v, refuse);
  });

/** The report's date range form: two Berlin days, in order, at most MAX_RANGE_DAYS apart. */
export const rangeSchema = () =>
  dayRangeSchema((v, refuse) => {
    if (rangeProblem(v.from, v.to) === 'too_long') {
      const max = MAX_RANGE_DAYS;
      refuse(t`Ein Bericht umfasst höchstens ${max} Tage`);
    }
  });

export type RangeValues = z.infer<ReturnType<typeof rangeSchema>>;
