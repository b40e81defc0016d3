import { createFileRoute, redirect } from '@tanstack/react-router';
import { identityQueryOptions } from '@/lib/auth';

/** Logged-in users have no business on the auth pages, except setting a new password. */
export const Route = createFileRoute('/{-$locale}/auth')({
  beforeLoad: async ({ context, location, params }) => {
    if (location.pathname.endsWith('/auth/reset-password')) return;
    const identity = await context.queryClient.ensureQueryData(identityQueryOptions);
    if (identity.status === 'loggedIn') throw redirect({ to: '/{-$locale}/account', params: { locale: params.locale }, replace: true });
  },
});
