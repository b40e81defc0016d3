// zod's mini API (the same zod, functions instead of methods; docs/adr/0043-first-load-budgets.md, "/start/booking
// first load"). The checks and their order are those of the classic schema it replaced.
import * as z from 'zod/mini';
import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { dayProblem, messages, numberProblem } from '@/lib/validation-messages';
import { berlinToday, formatBerlinTime, formatDay, nightsBetween } from '@/lib/dates';
import {
  boatBounds,
  dayWindow,
  lastDayOf,
  minutesOf,
  parseDecimal,
  stayKinds,
  type BerthDataValues,
} from '@/features/booking/schemas/berth-values';

export * from '@/features/booking/schemas/berth-values';

const decimalField = (bounds: { min: number; max: number }, which: 'length' | 'width' | 'draught') =>
  z.string().check(
    z.superRefine((raw, ctx) => {
      if (raw.trim() === '') {
        if (which === 'draught') return;
        ctx.addIssue({ code: 'custom', message: messages.required() });
        return;
      }
      const value = parseDecimal(raw);
      if (Number.isNaN(value)) {
        // "-3": a positive number with the allowed range (numberProblem), not "a number".
        const negative = /^\s*[-−]\s*\d/.test(raw);
        ctx.addIssue({
          code: 'custom',
          message: (negative && numberProblem(raw, { ...bounds, unit: ' m' })) || t`Bitte geben Sie eine Zahl in Metern ein, z. B. 9,5`,
        });
      } else if (value < bounds.min || value > bounds.max) {
        const numberLocale = i18n.locale === 'en' ? 'en-GB' : 'de-DE';
        const min = bounds.min.toLocaleString(numberLocale);
        const max = bounds.max.toLocaleString(numberLocale);
        ctx.addIssue({
          code: 'custom',
          message:
            which === 'length'
              ? t`Die Bootslänge muss zwischen ${min} und ${max} m liegen`
              : which === 'width'
                ? t`Die Bootsbreite muss zwischen ${min} und ${max} m liegen`
                : t`Der Tiefgang muss zwischen ${min} und ${max} m liegen`,
        });
      }
    }),
  );

/** The fair periods and the booking horizon (api/booking-rules.ts); without them only the database checks those. */
export interface StayRules {
  fairs?: { starts_on: string; ends_on: string }[];
  /** The last day a stay may end (yyyy-MM-dd). */
  lastDay?: string;
}

/**
 * Step 1, berth data: kind, period, boat. `now` is the instant the form validates at (its
 * Düsseldorf day and time); `rules` the fair periods and booking horizon the database enforces,
 * checked here first so that a stay it would refuse never reaches step 2 (issue 40 item 4).
 */
export function berthDataSchema(now: () => Date = () => new Date(), rules: () => StayRules = () => ({})) {
  return z
    .object({
      kind: z.enum(stayKinds),
      arrival: z.string(),
      departure: z.string(),
      dayStart: z.string(),
      dayEnd: z.string(),
      boatLength: decimalField(boatBounds.length, 'length'),
      boatWidth: decimalField(boatBounds.width, 'width'),
      boatDraught: decimalField(boatBounds.draught, 'draught'),
      boatName: z
        .string()
        .check(
          z.trim(),
          z.minLength(1, { error: messages.required }),
          z.maxLength(boatBounds.nameMax, { error: () => messages.max(boatBounds.nameMax) }),
        ),
      boatTag: z.string().check(z.trim(), z.maxLength(boatBounds.tagMax, { error: () => messages.max(boatBounds.tagMax) })),
    })
    .check(
      z.superRefine((v, ctx) => {
        const at = now();
        const today = berlinToday(at);
        const { fairs, lastDay } = rules();
        const arrivalProblem = dayProblem(v.arrival);
        if (arrivalProblem) {
          ctx.addIssue({ code: 'custom', path: ['arrival'], message: arrivalProblem });
          return;
        }
        if (v.arrival < today) {
          ctx.addIssue({ code: 'custom', path: ['arrival'], message: t`Die Anreise darf nicht in der Vergangenheit liegen` });
          return;
        }
        const horizon = (path: 'arrival' | 'departure') => {
          if (lastDay && lastDayOf(v) > lastDay) {
            const day = formatDay(lastDay, i18n.locale);
            ctx.addIssue({
              code: 'custom',
              path: [path],
              message: t`Online buchbar sind Aufenthalte bis ${day}. Spätere Zeiträume sind noch nicht freigegeben.`,
            });
          }
        };
        if (v.kind === 'day') {
          const start = minutesOf(v.dayStart);
          const end = minutesOf(v.dayEnd);
          if (Number.isNaN(start)) ctx.addIssue({ code: 'custom', path: ['dayStart'], message: messages.required() });
          if (Number.isNaN(end)) ctx.addIssue({ code: 'custom', path: ['dayEnd'], message: messages.required() });
          if (Number.isNaN(start) || Number.isNaN(end)) return;
          if (start < minutesOf(dayWindow.from) || end > minutesOf(dayWindow.to)) {
            ctx.addIssue({
              code: 'custom',
              path: ['dayEnd'],
              message: t`Ein Tagesliegeplatz ist nur zwischen 08:00 und 22:00 Uhr buchbar`,
            });
          } else if (end <= start) {
            ctx.addIssue({ code: 'custom', path: ['dayEnd'], message: t`Das Ende muss nach dem Beginn liegen` });
          } else if (end - start > dayWindow.maxMinutes) {
            ctx.addIssue({ code: 'custom', path: ['dayEnd'], message: t`Ein Tagesliegeplatz ist höchstens 5 Stunden buchbar` });
          } else if (v.arrival === today && end <= minutesOf(formatBerlinTime(at))) {
            // The database's rule (stay_period: the window must not have ended).
            ctx.addIssue({
              code: 'custom',
              path: ['dayEnd'],
              message: t`Dieses Zeitfenster ist heute schon vorbei. Bitte wählen Sie eine spätere Uhrzeit oder einen anderen Tag.`,
            });
          } else {
            horizon('arrival');
          }
          return;
        }
        const departureProblem = dayProblem(v.departure);
        if (departureProblem) {
          ctx.addIssue({ code: 'custom', path: ['departure'], message: departureProblem });
          return;
        }
        const nights = nightsBetween(v.arrival, v.departure);
        if (nights < 1) {
          ctx.addIssue({ code: 'custom', path: ['departure'], message: t`Die Abreise muss nach der Anreise liegen` });
        } else if (nights > boatBounds.maxNights) {
          ctx.addIssue({
            code: 'custom',
            path: ['departure'],
            message: t`Online buchbar sind höchstens 90 Nächte; für längere Zeiträume gibt es Langzeitliegeplätze`,
          });
        } else if (v.kind === 'fair' && fairs && !fairs.some((f) => f.starts_on <= v.arrival && f.ends_on >= addDay(v.departure, -1))) {
          ctx.addIssue({
            code: 'custom',
            path: ['arrival'],
            message:
              fairs.length === 0
                ? t`Zurzeit ist kein Messezeitraum eingetragen; Messe-Liegeplätze sind nur während einer Messe buchbar.`
                : t`Messe-Liegeplätze sind nur innerhalb eines Messezeitraums buchbar: Anreise und letzte Nacht müssen in einer Messe liegen.`,
          });
        } else {
          horizon('departure');
        }
      }),
    );
}

const addDay = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

// The schema's output is exactly the values step 1 works with (written out in berth-values.ts).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameValues: Same<z.output<ReturnType<typeof berthDataSchema>>, BerthDataValues> = true;
void sameValues;
