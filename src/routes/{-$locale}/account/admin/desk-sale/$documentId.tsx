import { createFileRoute } from '@tanstack/react-router';
import { DeskReceiptPage } from '@/features/harbour/desk-sale/components/desk-sale-page';

/** A desk sale's receipt as stored, ready to print (never live data). */
export const Route = createFileRoute('/{-$locale}/account/admin/desk-sale/$documentId')({
  loader: async ({ context, params }) => {
    const { invoiceDocumentQueryOptions } = await import('@/features/orders/api/invoices');
    await context.queryClient.prefetchQuery(invoiceDocumentQueryOptions(params.documentId));
  },
  component: function AdminDeskReceipt() {
    const { documentId } = Route.useParams();
    return <DeskReceiptPage id={documentId} />;
  },
});
