import { createFileRoute } from '@tanstack/react-router';
import { OrderPage } from '@/features/booking/components/booking-pages';

export const Route = createFileRoute('/{-$locale}/order/$id/')({
  component: function Order() {
    const { id } = Route.useParams();
    return <OrderPage id={id} />;
  },
});
