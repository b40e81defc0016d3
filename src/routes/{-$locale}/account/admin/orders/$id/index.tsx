import { createFileRoute } from '@tanstack/react-router';
import { OrderDetailPage } from '@/features/harbour/orders/components/order-detail-page';

/** Everything about one booking, with the staff actions. */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/$id/')({
  component: function AdminOrder() {
    const { id } = Route.useParams();
    return <OrderDetailPage id={id} />;
  },
});
