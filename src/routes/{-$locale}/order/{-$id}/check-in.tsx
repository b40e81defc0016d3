import { createFileRoute } from '@tanstack/react-router';
import { CheckInPage } from '@/features/booking/components/booking-pages';

/** /order/<id>/check-in for one order; /order/check-in for the visitor's orders arriving today. */
export const Route = createFileRoute('/{-$locale}/order/{-$id}/check-in')({
  component: function OrderCheckIn() {
    const { id } = Route.useParams();
    return <CheckInPage id={id} />;
  },
});
