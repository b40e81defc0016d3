import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '@/features/auth/components/auth-placeholder-pages';

export const Route = createFileRoute('/{-$locale}/auth/reset-password')({
  component: ResetPasswordPage,
});
