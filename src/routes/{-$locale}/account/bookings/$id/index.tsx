import { createFileRoute } from '@tanstack/react-router';
import { OrderPage } from '@/features/orders/components/order-view';
import { VerifyEmailCard } from '@/features/identity/components/verify-email-card';
import { validatePaymentReturn } from '@/lib/payment-return';

/** The booking issue's order view, inside the account area. */
export const Route = createFileRoute('/{-$locale}/account/bookings/$id/')({
  // Back from Stripe Checkout: ?payment=success&session_id=… or ?payment=cancelled.
  validateSearch: validatePaymentReturn,
  // Imported in the loader, so the orders code stays out of the initial bundle (route options are in it).
  loader: async ({ context, params }) => {
    const { orderQueryOptions } = await import('@/features/orders/api/order');
    return context.queryClient.ensureQueryData(orderQueryOptions(params.id));
  },
  component: function AccountBooking() {
    const { id } = Route.useParams();
    const { payment } = Route.useSearch();
    return <OrderPage id={id} verify={(props) => <VerifyEmailCard {...props} />} payment={payment} />;
  },
});
