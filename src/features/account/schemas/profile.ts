import { z } from 'zod';
import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { dayField, emailField, messages, numberProblem, optionalPhone } from '@/lib/validation';
import { codeSchema } from '@/features/identity';

/** docs/architecture.md "Small things": images are JPEG, PNG or WebP up to 5 MB (the avatars bucket's limits). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const avatarMessages = {
  imageRequired: () => t`Bild wird benötigt (JPEG, PNG oder WebP)`,
  fileTooLarge: () => t`Datei ist zu groß (höchstens 5 MB)`,
};

/** Why a chosen file cannot be the avatar (spec section 5: 'image required', 'file too large'), or undefined. */
export function avatarProblem(file: { type: string; size: number } | null | undefined): string | undefined {
  if (!file || !(AVATAR_TYPES as readonly string[]).includes(file.type)) return avatarMessages.imageRequired();
  if (file.size > AVATAR_MAX_BYTES) return avatarMessages.fileTooLarge();
  return undefined;
}

/** The new address of an e-mail change; it must differ from the current one. */
export const newEmailSchema = (current: string) =>
  z.object({ email: emailField() }).refine((v) => v.email.toLowerCase() !== current.toLowerCase(), {
    path: ['email'],
    error: () => t`Das ist bereits Ihre E-Mail-Adresse`,
  });
export type NewEmailValues = { email: string };

/** Secure e-mail change: one code from the new address and one from the current address. */
export const emailChangeCodesSchema = z.object({ codeNew: codeSchema.shape.code, codeCurrent: codeSchema.shape.code });
export type EmailChangeCodesValues = z.infer<typeof emailChangeCodesSchema>;

/** The bounds of a boat size in the active language's number format (0,5 in German). */
export function metresMessage(lo: number, hi: number) {
  const format = new Intl.NumberFormat(i18n.locale === 'en' ? 'en-GB' : 'de-DE');
  const min = format.format(lo);
  const max = format.format(hi);
  return t`Bitte eine Zahl zwischen ${min} und ${max} Metern mit höchstens einer Nachkommastelle`;
}

/**
 * A boat size in metres with at most one decimal, in [lo, hi]: the shared messages first ("-3"
 * asks for a positive number with the range, letters for a number; issue 40 item 6), then the
 * one-decimal rule. Empty: required, or nothing when `optional`.
 */
export const metresField = (lo: number, hi: number, optional = false) =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (v === '') {
        if (!optional) ctx.addIssue({ code: 'custom', message: messages.required() });
        return;
      }
      // "-3": a positive number, with the range (the shared message); anything else off: the range with its decimal.
      const negative = /^[-−]/.test(v) ? numberProblem(v, { min: lo, max: hi, unit: ' m' }) : undefined;
      const value = Number(v.replace(',', '.'));
      if (negative) ctx.addIssue({ code: 'custom', message: negative });
      else if (!/^\d+([.,]\d)?$/.test(v) || value < lo || value > hi) ctx.addIssue({ code: 'custom', message: metresMessage(lo, hi) });
    });

/** Long-term berth application (public.apply_for_long_term_berth; bounds as the function checks them). */
const metres = (lo: number, hi: number) => metresField(lo, hi);
export const applicationSchema = z.object({
  placeId: z.string(),
  firstName: z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .max(100, { error: () => messages.max(100) }),
  lastName: z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .max(100, { error: () => messages.max(100) }),
  email: emailField(),
  phone: optionalPhone(),
  boatName: z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .max(60, { error: () => messages.max(60) }),
  boatTag: z
    .string()
    .trim()
    .max(60, { error: () => messages.max(60) }),
  boatLength: metres(1, 60),
  boatWidth: metres(0.5, 15),
  desiredStart: dayField(true),
  message: z
    .string()
    .trim()
    .max(2000, { error: () => messages.max(2000) }),
});
export type ApplicationValues = z.infer<typeof applicationSchema>;
