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
};
