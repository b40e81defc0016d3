import { createFileRoute } from '@tanstack/react-router';
import { PasswordForgottenPage } from '@/features/auth/components/auth-pages';

export const Route = createFileRoute('/{-$locale}/auth/password-forgotten')({
  component: PasswordForgottenPage,
});
