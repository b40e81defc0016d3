import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { decimal, isDecimal } from '@/lib/validation';

/** An optional boat size as typed: empty, or a decimal ("9,5" or "9.5"). */
const optionalSize = (v: string) => v.trim() === '' || isDecimal(v);

/** The typed size for the api: undefined when empty (check optionalSize first). */
export const sizeValue = (v: string) => (v.trim() === '' ? undefined : decimal(v));

/**
 * Assigning a long-term holder: a start day, boat sizes that are numbers (or empty) and a person
 * (an account, an e-mail address or a last name). One message for all of it, shown for the form
 * as a whole (errors.root); assign_long_term_holder checks the rest.
 */
export const holderSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    startsOn: z.string(),
    boatName: z.string(),
    boatTag: z.string(),
    boatLength: z.string(),
    boatWidth: z.string(),
    boatDraught: z.string(),
    applicationId: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(v.startsOn) ||
      !optionalSize(v.boatLength) ||
      !optionalSize(v.boatWidth) ||
      !optionalSize(v.boatDraught) ||
      (!v.userId && !v.email.trim() && !v.lastName.trim())
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['root'],
        message: t`Bitte einen Beginn, gültige Bootsmaße und einen Benutzer, eine E-Mail oder einen Namen angeben.`,
      });
    }
  });
export type HolderValues = z.infer<typeof holderSchema>;
