import { createFileRoute, redirect } from '@tanstack/react-router';
import { identityQueryOptions, isStaff } from '@/lib/auth';

/**
 * Logged-in users have no business on the auth pages, except setting a new password, the second
 * factor (/auth/mfa) and the registration page (its password step follows the code, i.e. a fresh session; the page itself
 * sends a logged-in visitor who has not just registered on to /account).
 */
export const Route = createFileRoute('/{-$locale}/auth')({
  beforeLoad: async ({ context, location, params }) => {
    if (location.pathname.endsWith('/auth/reset-password') || location.pathname.endsWith('/auth/register')) return;
    // The second factor's page is for logged-in users (it sends the others on itself).
    if (location.pathname.endsWith('/auth/mfa')) return;
    const identity = await context.queryClient.ensureQueryData(identityQueryOptions);
    // Staff and admins to the back office's overview, everyone else to their account.
    if (identity.status === 'loggedIn')
      throw redirect({
        to: isStaff(identity) ? '/{-$locale}/account/admin/overview' : '/{-$locale}/account',
        params: { locale: params.locale },
        replace: true,
      });
  },
});
