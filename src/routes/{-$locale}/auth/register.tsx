import { createFileRoute } from '@tanstack/react-router';
import { RegisterPage } from '@/features/auth/components/auth-pages';

export const Route = createFileRoute('/{-$locale}/auth/register')({
  component: RegisterPage,
});
