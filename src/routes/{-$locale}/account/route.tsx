import { createFileRoute, redirect } from '@tanstack/react-router';
import { identityQueryOptions } from '@/lib/auth';

/** The account area is for logged-in users (ARCHITECTURE.md "Identity"); others log in first. */
export const Route = createFileRoute('/{-$locale}/account')({
  beforeLoad: async ({ context, location, params }) => {
    const identity = await context.queryClient.ensureQueryData(identityQueryOptions);
    if (identity.status !== 'loggedIn') {
      throw redirect({ to: '/{-$locale}/auth/login', params: { locale: params.locale }, search: { from: location.href }, replace: true });
    }
    return { identity };
  },
});
