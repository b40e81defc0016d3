import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { ResetPasswordPage } from '@/features/auth/components/auth-pages';
import { identityQueryOptions } from '@/lib/auth';

export const Route = createFileRoute('/{-$locale}/auth/reset-password')({
  // A plain function rather than zod: route options are in the initial bundle.
  validateSearch: (search: Record<string, unknown>): { email?: string } => ({
    email: typeof search.email === 'string' ? search.email : undefined,
  }),
  component: function ResetPassword() {
    const { email } = Route.useSearch();
    const { data: identity, isPending } = useQuery(identityQueryOptions);
    if (isPending) return null;
    // Arriving from the e-mailed link, supabase-js has already made the session from the URL.
    return <ResetPasswordPage email={email} hasSession={identity?.status === 'loggedIn'} />;
  },
});
