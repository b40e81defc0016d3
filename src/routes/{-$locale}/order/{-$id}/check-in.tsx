import { createFileRoute } from '@tanstack/react-router';
import { CheckInPage } from '@/features/orders/components/check-in-page';
import { VerifyEmailCard } from '@/features/identity/components/verify-email-card';

/** /order/<id>/check-in for one order; /order/check-in for the visitor's orders arriving today. */
export const Route = createFileRoute('/{-$locale}/order/{-$id}/check-in')({
  // Imported in the loader, so the orders code stays out of the initial bundle (route options are in it).
  loader: async ({ context, params }) => {
    const { arrivingTodayQueryOptions, orderQueryOptions } = await import('@/features/orders/api/order');
    return params.id
      ? context.queryClient.ensureQueryData(orderQueryOptions(params.id))
      : context.queryClient.ensureQueryData(arrivingTodayQueryOptions());
  },
  component: function OrderCheckIn() {
    const { id } = Route.useParams();
    return <CheckInPage id={id} verify={(props) => <VerifyEmailCard {...props} />} />;
  },
});
