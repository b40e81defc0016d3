import { createFileRoute } from '@tanstack/react-router';
import { CheckInPage } from '@/features/orders/components/check-in-page';
import { VerifyEmailCard } from '@/features/identity/components/verify-email-card';

/** The booking issue's check-in (arrival day only), inside the account area. */
export const Route = createFileRoute('/{-$locale}/account/bookings/$id/check-in')({
  // Imported in the loader, so the orders code stays out of the initial bundle (route options are in it).
  loader: async ({ context, params }) => {
    const { orderQueryOptions } = await import('@/features/orders/api/order');
    return context.queryClient.ensureQueryData(orderQueryOptions(params.id));
  },
  component: function AccountCheckIn() {
    const { id } = Route.useParams();
    return <CheckInPage id={id} verify={(props) => <VerifyEmailCard {...props} />} />;
  },
});
