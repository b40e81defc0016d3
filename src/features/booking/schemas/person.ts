import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { emailField, messages, optionalPhone, requiredText } from '@/lib/validation';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => messages.max(max) });

/** Step 5, the booking person form (spec section 3, "Booking person form"). */
export const personSchema = z.object({
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: emailField(),
  phone: optionalPhone(),
  company: optionalText(100),
  street: optionalText(200),
  postalCode: optionalText(20),
  city: optionalText(100),
  country: optionalText(100),
  saveData: z.boolean(),
  saleCode: optionalText(40),
  acceptTerms: z.boolean().refine((v) => v, { error: () => t`Bitte akzeptieren Sie die AGB` }),
});

export type PersonValues = z.infer<typeof personSchema>;

export { storedPersonFields, type StoredPerson } from '@/features/booking/schemas/stored-person';
