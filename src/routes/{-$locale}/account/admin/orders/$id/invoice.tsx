import { createFileRoute } from '@tanstack/react-router';
import { InvoicePage } from '@/features/harbour/components/invoice-page';

/** The printable invoice of a paid order. */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/$id/invoice')({
  loader: async ({ context, params }) => {
    const { orderDetailQueryOptions } = await import('@/features/harbour/api/orders');
    await context.queryClient.prefetchQuery(orderDetailQueryOptions(params.id));
  },
  component: function AdminOrderInvoice() {
    const { id } = Route.useParams();
    return <InvoicePage id={id} />;
  },
});
