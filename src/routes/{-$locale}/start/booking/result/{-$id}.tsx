import { createFileRoute, redirect } from '@tanstack/react-router';
import { OrderPage } from '@/features/orders/components/order-view';
import { VerifyEmailCard } from '@/features/identity/components/verify-email-card';
import { validatePaymentReturn } from '@/lib/payment-return';

/** The booking result; without an id there is nothing to show, so back to the booking. */
export const Route = createFileRoute('/{-$locale}/start/booking/result/{-$id}')({
  beforeLoad: ({ params }) => {
    if (!params.id) throw redirect({ to: '/{-$locale}/start/booking', params: { locale: params.locale }, replace: true });
  },
  // Back from Stripe Checkout: ?payment=success&session_id=… or ?payment=cancelled.
  validateSearch: validatePaymentReturn,
  // Imported in the loader, so the orders code stays out of the initial bundle (route options are in it).
  loader: async ({ context, params }) => {
    const { orderQueryOptions } = await import('@/features/orders/api/order');
    return context.queryClient.ensureQueryData(orderQueryOptions(params.id ?? ''));
  },
  component: function BookingResult() {
    const { id } = Route.useParams();
    const { payment } = Route.useSearch();
    return <OrderPage id={id ?? ''} variant="result" verify={(props) => <VerifyEmailCard {...props} codeSent />} payment={payment} />;
  },
});
