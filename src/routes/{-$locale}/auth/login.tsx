import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '@/features/auth/components/login-page';

export const Route = createFileRoute('/{-$locale}/auth/login')({
  // A plain function rather than zod: route options are in the initial bundle.
  validateSearch: (search: Record<string, unknown>): { from?: string } => ({
    from: typeof search.from === 'string' ? search.from : undefined,
  }),
  component: function Login() {
    const { from } = Route.useSearch();
    return <LoginPage from={from} />;
  },
});
