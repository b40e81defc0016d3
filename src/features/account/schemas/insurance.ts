import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { berlinToday } from '@/lib/dates';
import { dayField, messages } from '@/lib/validation';

/**
 * The holder's insurance certificate and registration mark (ADR 0050). The limits repeat
 * 64_holder_insurance.sql (insurer 1-100, policy number 1-60, valid until after today; mark 2-30
 * of letters, digits, space, dot, hyphen, slash); the database checks again.
 */
/** The bucket's limits (64_holder_insurance.sql): 5 MB, PDF or a photo. */
export const CERTIFICATE_MAX_BYTES = 5 * 1024 * 1024;
export const CERTIFICATE_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;

/** Why an upload cannot go (or did not go) to the bucket. */
export type UploadProblem = 'too_large' | 'wrong_type' | 'upload_failed';

/** Checks a picked file before it is sent (the bucket checks again). */
export function certificateFileProblem(file: { type: string; size: number }): UploadProblem | null {
  if (!(CERTIFICATE_TYPES as readonly string[]).includes(file.type)) return 'wrong_type';
  if (file.size > CERTIFICATE_MAX_BYTES) return 'too_large';
  return null;
}

/** The sentence for an upload problem, in the active language. */
export const uploadProblemText = (problem: UploadProblem): string =>
  ({
    too_large: () => t`Die Datei ist zu groß (höchstens 5 MB).`,
    wrong_type: () => t`Bitte laden Sie eine PDF-Datei oder ein Foto (JPEG, PNG, WebP) hoch.`,
    upload_failed: () => t`Das Hochladen hat nicht geklappt. Bitte versuchen Sie es noch einmal.`,
  })[problem]();

export const REGISTRATION_MARK_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ./-]*$/u;

export const certificateSchema = z.object({
  insurer: z
    .string()
    .trim()
    .min(1, { error: () => messages.required() })
    .max(100, { error: () => messages.max(100) }),
  policyNumber: z
    .string()
    .trim()
    .min(1, { error: () => messages.required() })
    .max(60, { error: () => messages.max(60) }),
  validUntil: dayField().refine((v) => !/^\d{4}-\d{2}-\d{2}$/.test(v) || v > berlinToday(), {
    error: () => t`„Gültig bis“ muss in der Zukunft liegen`,
  }),
  file: z.custom<File | undefined>().superRefine((v, ctx) => {
    if (!(v instanceof File)) return ctx.addIssue({ code: 'custom', message: t`Bitte wählen Sie den Nachweis aus (PDF oder Foto)` });
    const problem = certificateFileProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: uploadProblemText(problem) });
  }),
});
export type CertificateValues = z.input<typeof certificateSchema>;

export const registrationMarkSchema = z.object({
  mark: z
    .string()
    .trim()
    .min(2, { error: () => messages.min(2) })
    .max(30, { error: () => messages.max(30) })
    .regex(REGISTRATION_MARK_PATTERN, { error: () => t`Nur Buchstaben, Ziffern, Leerzeichen, Punkt, Bindestrich oder Schrägstrich` }),
});
export type RegistrationMarkValues = z.input<typeof registrationMarkSchema>;
