/** The public face of features/identity: what other features may use (docs/architecture.md, "Boundaries"). */
export { sendEmailCode } from '@/features/identity/api/identity';
export { AuthError } from '@/features/identity/components/auth-error';
export { CodeForm } from '@/features/identity/components/code-form';
export { VerifyEmailCard } from '@/features/identity/components/verify-email-card';
export { codeSchema, guestSchema, passwordField } from '@/features/identity/schemas/identity';
export type { CodeValues, GuestValues } from '@/features/identity/schemas/identity';
