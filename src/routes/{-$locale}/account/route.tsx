import { createFileRoute, redirect } from '@tanstack/react-router';
import { identityQueryOptions } from '@/lib/auth';

/** The account area is for logged-in users (docs/architecture.md "Identity, guests and verification"); others log in first. */
export const Route = createFileRoute('/{-$locale}/account')({
  beforeLoad: async ({ context, location, params }) => {
    const identity = await context.queryClient.ensureQueryData(identityQueryOptions);
    if (identity.status !== 'loggedIn') {
      throw redirect({ to: '/{-$locale}/auth/login', params: { locale: params.locale }, search: { from: location.href }, replace: true });
    }
    // A second factor to verify or to set up first (issue 26): not the account's pages yet.
    if (identity.mfa) {
      throw redirect({ to: '/{-$locale}/auth/mfa', params: { locale: params.locale }, search: { from: location.href }, replace: true });
    }
    return { identity };
  },
});
