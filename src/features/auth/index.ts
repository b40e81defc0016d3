/** The public face of features/auth: what other features may use (docs/architecture.md, "Boundaries"). */
export { MfaCard } from '@/features/auth/components/mfa';
export { NewPasswordForm } from '@/features/auth/components/new-password-form';
