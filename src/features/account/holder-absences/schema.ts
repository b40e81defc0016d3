import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { dayField } from '@/lib/validation';

/**
 * An absence as the form takes it: the first night away and the day back (ADR 0054). The
 * database checks again (within the holding, not in the past, not over another absence).
 */
export const absenceSchema = z
  .object({ startsOn: dayField(), endsOn: dayField() })
  .refine((v) => !(v.startsOn && v.endsOn) || v.endsOn > v.startsOn, {
    path: ['endsOn'],
    error: () => t`Der Tag der Rückkehr muss nach dem ersten Abwesenheitstag liegen`,
  });
export type AbsenceValues = z.input<typeof absenceSchema>;
