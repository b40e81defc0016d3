import { createFileRoute } from '@tanstack/react-router';
import { CheckInPage } from '@/features/orders/components/check-in-page';
import { arrivingTodayQueryOptions, orderQueryOptions } from '@/features/orders/api/order';
import { VerifyEmailCard } from '@/features/identity/components/verify-email-card';

/** /order/<id>/check-in for one order; /order/check-in for the visitor's orders arriving today. */
export const Route = createFileRoute('/{-$locale}/order/{-$id}/check-in')({
  loader: ({ context, params }) =>
    params.id ? context.queryClient.ensureQueryData(orderQueryOptions(params.id)) : context.queryClient.ensureQueryData(arrivingTodayQueryOptions()),
  component: function OrderCheckIn() {
    const { id } = Route.useParams();
    return <CheckInPage id={id} verify={(props) => <VerifyEmailCard {...props} />} />;
  },
});
