import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { differenceInCalendarDays, parseISO } from 'date-fns';
import { EMAIL_PATTERN, messages, requiredText } from '@/lib/validation';
import { ibanRemainder } from '@/lib/iban';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const fairPeriodSchema = z
  .object({
    name: requiredText(100),
    nameEn: z
      .string()
      .trim()
      .max(100, { error: () => messages.max(100) }),
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

const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => messages.max(max) });

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

/** ISO 13616: capitals and digits, the check digits make the number mod 97 equal 1 (a German IBAN has 22 characters). */
export function ibanValid(value: string): boolean {
  const iban = value.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) || (iban.startsWith('DE') && iban.length !== 22)) return false;
  return ibanRemainder(iban) === 1;
}

/** ISO 9362: bank (4 letters), country (2 letters), location (2), optionally a branch (3). */
export const BIC_PATTERN = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** The seller data of new invoices; the database (save_invoice_seller_settings) checks the same. */
export const sellerSchema = z
  .object({
    name: requiredText(100),
    street: requiredText(100),
    postal_code: requiredText(100),
    city: requiredText(100),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, { error: () => t`Bitte den Ländercode mit zwei Buchstaben eingeben, z. B. DE` }),
    email: z.string().trim().min(1, { error: messages.emailRequired }).regex(EMAIL_PATTERN, { error: messages.emailInvalid }),
    phone: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\+?\d[\d ()/-]{4,28}\d$/.test(v), { error: messages.phoneInvalid }),
    vat_id: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => v === '' || /^[A-Z]{2}[A-Z0-9+*]{2,12}$/.test(v.replace(/\s/g, '')), {
        error: () => t`Die USt-IdNr. beginnt mit dem Ländercode, z. B. DE123456789`,
      }),
    tax_number: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d[\d /]{8,18}\d$/.test(v), {
        error: () => t`Bitte die Steuernummer mit Ziffern und Schrägstrichen eingeben, z. B. 133/8150/8159`,
      }),
    iban: z
      .string()
      .trim()
      .refine((v) => v === '' || ibanValid(v), { error: () => t`Diese IBAN ist nicht gültig (Prüfziffer oder Länge stimmen nicht)` }),
    bic: z
      .string()
      .trim()
      .toUpperCase()
      .refine((v) => v === '' || BIC_PATTERN.test(v.replace(/\s/g, '')), {
        error: () => t`Eine BIC hat 8 oder 11 Zeichen, z. B. BYLADEM1001`,
      }),
  })
  .superRefine((v, ctx) => {
    if (v.vat_id === '' && v.tax_number === '')
      ctx.addIssue({ code: 'custom', path: ['tax_number'], message: t`Bitte USt-IdNr. oder Steuernummer angeben (§ 14 UStG)` });
  });
export type SellerValues = z.infer<typeof sellerSchema>;
