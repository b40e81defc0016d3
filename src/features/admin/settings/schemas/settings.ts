import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { differenceInCalendarDays, parseISO } from 'date-fns';
import { messages, requiredText } from '@/lib/validation';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const fairPeriodSchema = z
  .object({
    name: requiredText(100),
    nameEn: z.string().trim().max(100, { error: () => messages.max(100) }),
    startsOn: z.string().regex(DAY, { error: messages.required }),
    endsOn: z.string().regex(DAY, { error: messages.required }),
  })
  .superRefine((v, ctx) => {
    if (!DAY.test(v.startsOn) || !DAY.test(v.endsOn)) return;
    const days = differenceInCalendarDays(parseISO(v.endsOn), parseISO(v.startsOn));
    if (days <= 0) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: t`Das Ende muss nach dem Beginn liegen` });
    else if (days > 60) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: t`Ein Messezeitraum dauert höchstens 60 Tage` });
  });
export type FairPeriodValues = z.infer<typeof fairPeriodSchema>;

const optional = (max: number) => z.string().trim().max(max, { error: () => messages.max(max) });

export const accessSchema = z.object({
  doorCode: optional(40),
  wifiSsid: optional(64),
  wifiPassword: optional(100),
});
export type AccessValues = z.infer<typeof accessSchema>;

const mode = z.enum(['online_required', 'online_optional', 'desk'], { error: messages.required });

/** Whole minutes, 15 to 1440 (the database's check harbour_settings_payment_hold). */
const holdMinutes = z
  .string()
  .trim()
  .min(1, { error: messages.required })
  .regex(/^\d{1,4}$/, { error: () => t`Bitte eine ganze Zahl von Minuten eingeben` })
  .refine((v) => Number(v) >= 15 && Number(v) <= 1440, { error: () => t`Zwischen 15 Minuten und 24 Stunden (1440 Minuten)` });

/** The payment mode per kind of order and the payment hold (the harbour_settings columns). */
export const paymentModesSchema = z.object({
  payment_mode_day: mode,
  payment_mode_overnight: mode,
  payment_mode_fair: mode,
  payment_mode_walk_in: mode,
  payment_hold_minutes: holdMinutes,
});
export type PaymentModesValues = z.infer<typeof paymentModesSchema>;
