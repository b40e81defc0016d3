import { z } from 'zod';
import { t } from '@lingui/core/macro';

/**
 * Shared field rules with the messages of spec section 5. Messages are functions, so they are
 * translated in the language active when the form validates.
 */
export const messages = {
  required: () => t`Pflichtfeld`,
  emailRequired: () => t`E-Mail wird benötigt`,
  emailInvalid: () => t`E-Mail ist nicht gültig`,
  passwordRequired: () => t`Passwort wird benötigt`,
  passwordMin: () => t`Passwort muss mindestens 6 Zeichen haben`,
  phoneInvalid: () => t`Telefonnummer ist nicht gültig`,
  messageRequired: () => t`Nachricht wird benötigt`,
  min: (n: number) => t`Mindestens ${n} Zeichen`,
  max: (n: number) => t`Höchstens ${n} Zeichen`,
};

/** Text, an at sign, text, a dot and text (spec section 5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with an optional leading +, spaces, slashes, dashes and brackets; 6 to 20 digits. */
export const PHONE_PATTERN = /^\+?[\d\s/()-]{6,25}$/;

export const emailField = () =>
  z.string().trim().min(1, { error: messages.emailRequired }).regex(EMAIL_PATTERN, { error: messages.emailInvalid });

export const requiredText = (max = 100) =>
  z.string().trim().min(1, { error: messages.required }).max(max, { error: () => messages.max(max) });

export const optionalPhone = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (PHONE_PATTERN.test(v) && v.replace(/\D/g, '').length >= 6), { error: messages.phoneInvalid });

export const messageField = (min = 10, max = 2000) =>
  z
    .string()
    .trim()
    .min(1, { error: messages.messageRequired })
    .min(min, { error: () => messages.min(min) })
    .max(max, { error: () => messages.max(max) });
