import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { HARBOUR_TIME_ZONE } from '@/lib/dates';
import { messages, requiredText } from '@/lib/validation';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => messages.max(max) });
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A datetime-local value (Düsseldorf wall clock) as an instant, or null when malformed. */
export function berlinLocalToIso(value: string): string | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const at = new TZDate(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), HARBOUR_TIME_ZONE);
  if (Number.isNaN(at.getTime())) return null;
  // Out-of-range parts (month 13, 31 April) roll over in Date: refuse them instead.
  if (format(at, 'yyyy-MM-dd') !== value.slice(0, 10)) return null;
  // UTC ("Z"), so that two instants compare correctly as strings whatever their offsets.
  return new Date(at.getTime()).toISOString();
}

/** An instant as a datetime-local value on the Düsseldorf wall clock. */
export function isoToBerlinLocal(instant: string): string {
  return format(new TZDate(new Date(instant), HARBOUR_TIME_ZONE), "yyyy-MM-dd'T'HH:mm");
}

export const newsSchema = z
  .object({
    title: requiredText(200),
    titleEn: requiredText(200),
    shortDescription: optionalText(500),
    shortDescriptionEn: optionalText(500),
    description: optionalText(10000),
    descriptionEn: optionalText(10000),
    imagePath: z.string(),
    location: requiredText(100),
    start: z.string().refine((v) => berlinLocalToIso(v) !== null, { error: messages.required }),
    end: z.string().refine((v) => berlinLocalToIso(v) !== null, { error: messages.required }),
    dates: z
      .array(z.object({ value: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.required }) }))
      .max(60, { error: () => t`Höchstens 60 Termine` }),
  })
  .superRefine((v, ctx) => {
    const start = berlinLocalToIso(v.start);
    const end = berlinLocalToIso(v.end);
    if (start && end && end <= start) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: t`Das Ende muss nach dem Beginn liegen` });
    }
  });

export type NewsValues = z.infer<typeof newsSchema>;
