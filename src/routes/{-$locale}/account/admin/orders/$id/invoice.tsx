import { createFileRoute } from '@tanstack/react-router';
import { InvoicePage } from '@/features/harbour/orders/components/invoice-page';

/** The printable invoice of a paid order. */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/$id/invoice')({
  component: function AdminOrderInvoice() {
    const { id } = Route.useParams();
    return <InvoicePage id={id} />;
  },
});
