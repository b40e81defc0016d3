import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { ibanRemainder } from '@/lib/iban';
import { messages } from '@/lib/validation';

/** Capitals without spaces: `de98 zzz0 9999 9999 99` -> `DE98ZZZ09999999999`. */
export const normalizeCreditorId = (input: string) => input.replace(/\s/g, '').toUpperCase();

/**
 * The SEPA creditor identifier (EPC262-08, Creditor Identifier Overview): country code, two check
 * digits (ISO 7064 MOD 97-10), a three-character creditor business code (ZZZ when unused; not
 * part of the check) and the national identifier (Germany: 11 characters, 18 in all). The
 * database checks the same (private.sepa_creditor_id_valid).
 */
export function creditorIdValid(input: string): boolean {
  const id = normalizeCreditorId(input);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{3}[A-Z0-9]{1,28}$/.test(id) || (id.startsWith('DE') && id.length !== 18)) return false;
  // The business code (positions 5-7) is left out: national identifier, then country and check digits.
  return ibanRemainder(id.slice(0, 4) + id.slice(7)) === 1;
}

/** Whole days from 1 to 30 (the database's check in save_sepa_settings). */
export const PRENOTIFICATION_DAYS = { min: 1, max: 30 } as const;

export const sepaSettingsSchema = () =>
  z.object({
    creditor_id: z
      .string()
      .trim()
      .min(1, { error: messages.required })
      .refine(creditorIdValid, {
        error: () =>
          t`Diese Gläubiger-Identifikationsnummer ist nicht gültig (Aufbau oder Prüfziffer stimmen nicht), z. B. DE98ZZZ09999999999`,
      }),
    prenotification_days: z
      .string()
      .trim()
      .min(1, { error: messages.required })
      .refine((v) => /^\d{1,2}$/.test(v) && Number(v) >= PRENOTIFICATION_DAYS.min && Number(v) <= PRENOTIFICATION_DAYS.max, {
        error: () => t`Bitte eine ganze Zahl von Tagen zwischen 1 und 30 eingeben`,
      }),
  });
export type SepaSettingsValues = z.infer<ReturnType<typeof sepaSettingsSchema>>;
