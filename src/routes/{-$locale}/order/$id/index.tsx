import { createFileRoute } from '@tanstack/react-router';
import { OrderPage } from '@/features/orders/components/order-view';
import { orderQueryOptions } from '@/features/orders/api/order';
import { VerifyEmailCard } from '@/features/identity/components/verify-email-card';

export const Route = createFileRoute('/{-$locale}/order/$id/')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(orderQueryOptions(params.id)),
  component: function Order() {
    const { id } = Route.useParams();
    return <OrderPage id={id} verify={(props) => <VerifyEmailCard {...props} />} />;
  },
});
