import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { messages } from '@/lib/validation';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Minutes since midnight of a HH:MM time. */
export function timeToMinutes(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/**
 * One shift: date, start, end, break and note. The same rules as the table (end after start,
 * break shorter than the span, at most 600 minutes break, note at most 500 characters); the
 * database also refuses a shift overlapping another of the same person.
 */
export const hoursSchema = z
  .object({
    work_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.required }),
    start_time: z.string().regex(TIME, { error: () => t`Uhrzeit wie 08:00` }),
    end_time: z.string().regex(TIME, { error: () => t`Uhrzeit wie 16:30` }),
    break_minutes: z.coerce
      .number({ error: () => t`Pause in ganzen Minuten` })
      .int({ error: () => t`Pause in ganzen Minuten` })
      .min(0, { error: () => t`Pause in ganzen Minuten` })
      .max(600, { error: () => t`Höchstens 600 Minuten Pause` }),
    note: z
      .string()
      .trim()
      .max(500, { error: () => messages.max(500) }),
  })
  .superRefine((v, ctx) => {
    if (!TIME.test(v.start_time) || !TIME.test(v.end_time)) return;
    const span = timeToMinutes(v.end_time) - timeToMinutes(v.start_time);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['end_time'], message: t`Das Ende liegt nach dem Beginn.` });
    else if (v.break_minutes >= span)
      ctx.addIssue({ code: 'custom', path: ['break_minutes'], message: t`Die Pause ist kürzer als die Arbeitszeit.` });
  });

export type HoursInput = z.input<typeof hoursSchema>;
export type HoursValues = z.output<typeof hoursSchema>;
