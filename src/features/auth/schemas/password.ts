import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { passwordField } from '@/features/identity';
import { emailField } from '@/lib/validation';

/** New password + confirmation (spec section 5): required, 6+ characters, lower/upper case and digits, must match. */
export const newPasswordSchema = z
  .object({ password: passwordField(), passwordConfirm: z.string() })
  .refine((v) => v.password === v.passwordConfirm, { path: ['passwordConfirm'], error: () => t`Die Passwörter stimmen nicht überein` });
export type NewPasswordValues = z.infer<typeof newPasswordSchema>;

export const emailOnlySchema = z.object({ email: emailField() });
export type EmailOnlyValues = z.infer<typeof emailOnlySchema>;
