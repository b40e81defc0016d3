import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { LoginPage } from '@/features/auth/components/login-page';

export const Route = createFileRoute('/{-$locale}/auth/login')({
  validateSearch: z.object({ from: z.string().optional().catch(undefined) }),
  component: function Login() {
    const { from } = Route.useSearch();
    return <LoginPage from={from} />;
  },
});
