import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { emailField, messages, requiredText } from '@/lib/validation';

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => messages.max(max) });
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DECIMAL = /^-?\d{1,4}([.,]\d+)?$/;

/**
 * The harbour's phone in international form, as the check harbour_settings_contact_phone has it:
 * +, country code, then groups of digits after a space, slash or hyphen (one bracketed group such
 * as "(0)211" allowed), 7 to 15 digits in all (E.164).
 */
export const INTERNATIONAL_PHONE = /^\+[1-9]\d*(?: ?\(\d+\) ?\d+)?(?:[ /-]\d+)*$/;
export const isInternationalPhone = (v: string) => {
  const digits = v.replace(/\D/g, '').length;
  return v.length <= 30 && INTERNATIONAL_PHONE.test(v) && digits >= 7 && digits <= 15;
};

/** A decimal as typed (comma or point) or '' for none. */
export const parseDecimal = (v: string) => (v.trim() === '' ? null : Number(v.trim().replace(',', '.')));

const time = z
  .string()
  .trim()
  .refine((v) => v === '' || TIME.test(v), { error: () => t`Bitte eine Uhrzeit wie 08:00 eingeben` });
const decimal = (min: number, max: number, message: () => string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (DECIMAL.test(v) && parseDecimal(v)! >= min && parseDecimal(v)! <= max), { error: message });

/** Both times or neither; opening before closing (the checks harbour_settings_office_*). */
function hoursPair(ctx: z.RefinementCtx, opens: string, closes: string, path: string) {
  if (!TIME.test(opens) && opens !== '') return;
  if (!TIME.test(closes) && closes !== '') return;
  if ((opens === '') !== (closes === ''))
    ctx.addIssue({ code: 'custom', path: [path], message: t`Bitte beide Uhrzeiten angeben oder beide leer lassen (geschlossen)` });
  else if (opens && opens >= closes)
    ctx.addIssue({ code: 'custom', path: [path], message: t`Das Hafenbüro muss vor dem Schließen öffnen` });
}

/** The start page's introduction (the harbour_settings columns and their checks). */
export const startIntroSchema = z
  .object({
    address_street: requiredText(100),
    address_postal_code: requiredText(10),
    address_city: requiredText(60),
    latitude: decimal(-90, 90, () => t`Breitengrad zwischen -90 und 90, z. B. 51,2139`),
    longitude: decimal(-180, 180, () => t`Längengrad zwischen -180 und 180, z. B. 6,7452`),
    office_weekdays_opens: time,
    office_weekdays_closes: time,
    office_weekend_opens: time,
    office_weekend_closes: time,
    office_hours_note: text(200),
    office_hours_note_en: text(200),
    rhine_km: decimal(0, 1040, () => t`Rhein-Kilometer zwischen 0 und 1040, z. B. 744`),
    vhf_channel: z
      .string()
      .trim()
      .refine((v) => v === '' || (/^\d{1,2}$/.test(v) && Number(v) >= 1 && Number(v) <= 88), {
        error: () => t`UKW-Kanal zwischen 1 und 88 oder leer`,
      }),
    water_approach: text(800),
    water_approach_en: text(800),
    contact_phone: z
      .string()
      .trim()
      .min(1, { error: messages.required })
      .refine(isInternationalPhone, { error: () => t`Bitte die Telefonnummer international angeben, z. B. +49 211 1234560` }),
    contact_email: emailField().max(254, { error: () => messages.max(254) }),
  })
  .superRefine((v, ctx) => {
    if ((v.latitude === '') !== (v.longitude === ''))
      ctx.addIssue({ code: 'custom', path: ['longitude'], message: t`Bitte Breiten- und Längengrad angeben oder beide leer lassen` });
    hoursPair(ctx, v.office_weekdays_opens, v.office_weekdays_closes, 'office_weekdays_closes');
    hoursPair(ctx, v.office_weekend_opens, v.office_weekend_closes, 'office_weekend_closes');
  });
export type StartIntroValues = z.infer<typeof startIntroSchema>;
