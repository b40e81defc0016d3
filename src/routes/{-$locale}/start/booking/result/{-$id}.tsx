import { createFileRoute, redirect } from '@tanstack/react-router';
import { OrderPage } from '@/features/booking/components/booking-pages';

/** The booking result; without an id there is nothing to show, so back to the booking. */
export const Route = createFileRoute('/{-$locale}/start/booking/result/{-$id}')({
  beforeLoad: ({ params }) => {
    if (!params.id) throw redirect({ to: '/{-$locale}/start/booking', params: { locale: params.locale }, replace: true });
  },
  component: function BookingResult() {
    const { id } = Route.useParams();
    return <OrderPage id={id ?? ''} />;
  },
});
