import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';

/**
 * Shared field messages of spec section 5 (re-exported by validation.ts). Messages are
 * functions, so they are translated in the language active when the form validates. A module
 * of their own: a schema written with `zod/mini` (booking step 1) takes them without
 * validation.ts's classic zod.
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
  dateMissing: () => t`Dieses Datum gibt es nicht`,
  dateFormat: () => t`Bitte ein Datum wie 24.12.2026 eingeben`,
  number: () => t`Bitte eine Zahl eingeben, z. B. 9,5`,
  positive: (min: string, max: string, unit: string) => t`Bitte eine positive Zahl von ${min} bis ${max}${unit} eingeben`,
  range: (min: string, max: string, unit: string) => t`Bitte eine Zahl von ${min} bis ${max}${unit} eingeben`,
};

/**
 * What is wrong with a date field's value (the date picker hands on yyyy-MM-dd for a real day and
 * the typed text otherwise), or undefined for a real day: empty -> "Pflichtfeld", a day that the
 * calendar has not (31.02.2026) -> "Dieses Datum gibt es nicht", anything else -> an example.
 */
export function dayProblem(value: string | null | undefined): string | undefined {
  const v = (value ?? '').trim();
  if (v === '') return messages.required();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v);
  const typed = /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4})$/.exec(v);
  const [y, m, d] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : typed
      ? [Number(typed[3]), Number(typed[2]), Number(typed[1])]
      : [];
  if (y === undefined || m === undefined || d === undefined) return messages.dateFormat();
  const date = new Date(Date.UTC(y, m - 1, d));
  const real = m >= 1 && m <= 12 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  if (!real) return messages.dateMissing();
  return iso && iso[2]!.length === 2 && iso[3]!.length === 2 ? undefined : messages.dateFormat();
}

/**
 * What is wrong with a typed number ("9,5" or "9.5") that must lie in [min, max], or undefined:
 * empty -> "Pflichtfeld" (unless optional), "-3" or 0 -> "a positive number from min to max",
 * text -> "a number, e.g. 9,5", out of range -> "a number from min to max"; the bounds in the
 * page language's number format, `unit` after them (" m").
 */
export function numberProblem(raw: string, bounds: { min: number; max: number; unit?: string; optional?: boolean }): string | undefined {
  const v = raw.trim().replace(',', '.');
  if (v === '') return bounds.optional ? undefined : messages.required();
  const format = new Intl.NumberFormat(i18n.locale === 'en' ? 'en-GB' : 'de-DE', { maximumFractionDigits: 2 });
  const [min, max, unit] = [format.format(bounds.min), format.format(bounds.max), bounds.unit ?? ''];
  if (!/^[-+−]?\s*\d+(\.\d+)?$/.test(v)) return messages.number();
  const value = Number(v.replace(/\s/g, '').replace('−', '-'));
  if (value <= 0 && bounds.min > 0) return messages.positive(min, max, unit);
  if (value < bounds.min || value > bounds.max) return messages.range(min, max, unit);
  return undefined;
}
