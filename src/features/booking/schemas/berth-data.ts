// zod's mini API (the same zod, functions instead of methods; docs/decisions.md, "/start/booking
// first load"). The checks and their order are those of the classic schema it replaced.
import * as z from 'zod/mini';
import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { messages } from '@/lib/validation-messages';
import { berlinToday, nightsBetween } from '@/lib/dates';
import { boatBounds, dayWindow, parseDecimal, stayKinds, type BerthDataValues } from './berth-values';

export * from './berth-values';

const minutes = (hhmm: string) => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
};

const decimalField = (bounds: { min: number; max: number }, which: 'length' | 'width') =>
  z.string().check(
    z.superRefine((raw, ctx) => {
      if (raw.trim() === '') {
        ctx.addIssue({ code: 'custom', message: messages.required() });
        return;
      }
      const value = parseDecimal(raw);
      if (Number.isNaN(value)) {
        ctx.addIssue({ code: 'custom', message: t`Bitte geben Sie eine Zahl in Metern ein, z. B. 9,5` });
      } else if (value < bounds.min || value > bounds.max) {
        const numberLocale = i18n.locale === 'en' ? 'en-GB' : 'de-DE';
        const min = bounds.min.toLocaleString(numberLocale);
        const max = bounds.max.toLocaleString(numberLocale);
        ctx.addIssue({
          code: 'custom',
          message: which === 'length' ? t`Die Bootslänge muss zwischen ${min} und ${max} m liegen` : t`Die Bootsbreite muss zwischen ${min} und ${max} m liegen`,
        });
      }
    }),
  );

/** Step 1, berth data: kind, period, boat. `today` is the Düsseldorf day the form validates against. */
export function berthDataSchema(today: () => string = () => berlinToday()) {
  return z
    .object({
      kind: z.enum(stayKinds),
      arrival: z.string(),
      departure: z.string(),
      dayStart: z.string(),
      dayEnd: z.string(),
      boatLength: decimalField(boatBounds.length, 'length'),
      boatWidth: decimalField(boatBounds.width, 'width'),
      boatName: z.string().check(z.trim(), z.minLength(1, { error: messages.required }), z.maxLength(boatBounds.nameMax, { error: () => messages.max(boatBounds.nameMax) })),
      boatTag: z.string().check(z.trim(), z.maxLength(boatBounds.tagMax, { error: () => messages.max(boatBounds.tagMax) })),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(v.arrival)) {
          ctx.addIssue({ code: 'custom', path: ['arrival'], message: messages.required() });
          return;
        }
        if (v.arrival < today()) {
          ctx.addIssue({ code: 'custom', path: ['arrival'], message: t`Die Anreise darf nicht in der Vergangenheit liegen` });
        }
        if (v.kind === 'day') {
          const start = minutes(v.dayStart);
          const end = minutes(v.dayEnd);
          if (Number.isNaN(start)) ctx.addIssue({ code: 'custom', path: ['dayStart'], message: messages.required() });
          if (Number.isNaN(end)) ctx.addIssue({ code: 'custom', path: ['dayEnd'], message: messages.required() });
          if (Number.isNaN(start) || Number.isNaN(end)) return;
          if (start < minutes(dayWindow.from) || end > minutes(dayWindow.to)) {
            ctx.addIssue({ code: 'custom', path: ['dayEnd'], message: t`Ein Tagesliegeplatz ist nur zwischen 08:00 und 22:00 Uhr buchbar` });
          } else if (end <= start) {
            ctx.addIssue({ code: 'custom', path: ['dayEnd'], message: t`Das Ende muss nach dem Beginn liegen` });
          } else if (end - start > dayWindow.maxMinutes) {
            ctx.addIssue({ code: 'custom', path: ['dayEnd'], message: t`Ein Tagesliegeplatz ist höchstens 5 Stunden buchbar` });
          }
          return;
        }
        if (!/^\d{4}-\d{2}-\d{2}$/.test(v.departure)) {
          ctx.addIssue({ code: 'custom', path: ['departure'], message: messages.required() });
          return;
        }
        const nights = nightsBetween(v.arrival, v.departure);
        if (nights < 1) {
          ctx.addIssue({ code: 'custom', path: ['departure'], message: t`Die Abreise muss nach der Anreise liegen` });
        } else if (nights > boatBounds.maxNights) {
          ctx.addIssue({ code: 'custom', path: ['departure'], message: t`Online buchbar sind höchstens 90 Nächte; für längere Zeiträume gibt es Langzeitliegeplätze` });
        }
      }),
    );
}

// The schema's output is exactly the values step 1 works with (written out in berth-values.ts).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameValues: Same<z.output<ReturnType<typeof berthDataSchema>>, BerthDataValues> = true;
void sameValues;
