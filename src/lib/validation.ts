import { z } from 'zod';
import { dayProblem, messages, numberProblem } from '@/lib/validation-messages';
import { parseEuroCents } from '@/lib/prices';

/** Shared field rules with the messages of spec section 5 (validation-messages.ts). */
export { dayProblem, messages, numberProblem };

/** A date field (yyyy-MM-dd from the date picker): "Pflichtfeld", "Dieses Datum gibt es nicht" or an example (dayProblem). */
export const dayField = (optional = false) =>
  z.string().superRefine((value, ctx) => {
    if (optional && value.trim() === '') return;
    const problem = dayProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A typed decimal in [min, max] ("9,5"): "Bitte eine positive Zahl von 1 bis 60 m eingeben" etc. (numberProblem). */
export const numberField = (bounds: { min: number; max: number; unit?: string; optional?: boolean }) =>
  z.string().superRefine((value, ctx) => {
    const problem = numberProblem(value, bounds);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Euros typed by a person ("12", "12,5", "12,50" or "12.50") turned into integer cents, from `min`
 * to `max` cents; empty is "Pflichtfeld". `maxDigits`: digits before the separator (default 7).
 * `invalid` answers text that is no such amount, and a number out of range unless `tooSmall` /
 * `tooLarge` say more. Messages are functions, read when the field is checked (the page's
 * language). The database checks the amount again.
 */
export const euroCentsField = (options: {
  min: number;
  max: number;
  maxDigits?: number;
  invalid: () => string;
  tooSmall?: () => string;
  tooLarge?: () => string;
}) =>
  z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .transform((text, ctx) => {
      const cents = parseEuroCents(text, options.maxDigits);
      let problem: (() => string) | undefined;
      if (cents === null) problem = options.invalid;
      else if (cents < options.min) problem = options.tooSmall ?? options.invalid;
      else if (cents > options.max) problem = options.tooLarge ?? options.invalid;
      if (cents === null || problem) {
        ctx.addIssue({ code: 'custom', message: (problem ?? options.invalid)() });
        return z.NEVER;
      }
      return cents;
    });

/** Text, an at sign, text, a dot and text (spec section 5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with an optional leading +, spaces, slashes, dashes and brackets; 6 to 20 digits. */
export const PHONE_PATTERN = /^\+?[\d\s/()-]{6,25}$/;

export const emailField = () =>
  z.string().trim().min(1, { error: messages.emailRequired }).regex(EMAIL_PATTERN, { error: messages.emailInvalid });

export const requiredText = (max = 100) =>
  z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .max(max, { error: () => messages.max(max) });

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

/** A typed decimal with a comma or a point ("9,5", "9.5"), no sign. */
export const isDecimal = (text: string) => /^\d+([.,]\d+)?$/.test(text.trim());

/** The number a typed decimal stands for ("9,5" → 9.5); check isDecimal first. */
export const decimal = (text: string) => Number(text.trim().replace(',', '.'));
