import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { emailField, messages, requiredText } from '@/lib/validation';

/** Spec section 5: at least 6 characters with lower and upper case letters and digits. */
export const passwordField = () =>
  z
    .string()
    .min(1, { error: messages.passwordRequired })
    .min(6, { error: messages.passwordMin })
    .refine((v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v), {
      error: () => t`Das Passwort braucht Klein- und Großbuchstaben und Ziffern`,
    });

export const newCustomerSchema = z
  .object({
    email: emailField(),
    firstName: requiredText(100),
    lastName: requiredText(100),
    password: passwordField(),
    passwordConfirm: z.string(),
  })
  .refine((v) => v.password === v.passwordConfirm, { path: ['passwordConfirm'], error: () => t`Die Passwörter stimmen nicht überein` });
export type NewCustomerValues = z.infer<typeof newCustomerSchema>;

export const guestSchema = z.object({ email: emailField(), firstName: requiredText(100), lastName: requiredText(100) });
export type GuestValues = z.infer<typeof guestSchema>;

export const loginSchema = z.object({ email: emailField(), password: z.string() });
export type LoginValues = z.infer<typeof loginSchema>;

export const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: () => t`Der Code hat 6 Ziffern` }),
});
export type CodeValues = z.infer<typeof codeSchema>;
