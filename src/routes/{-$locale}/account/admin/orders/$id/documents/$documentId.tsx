import { createFileRoute, Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { InvoiceDocumentPage } from '@/features/orders/components/invoice-document';

/** One invoice document of an order for the harbour team, as stored, ready to print. */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/$id/documents/$documentId')({
  loader: async ({ context, params }) => {
    const { invoiceDocumentQueryOptions } = await import('@/features/orders/api/invoices');
    return context.queryClient.ensureQueryData(invoiceDocumentQueryOptions(params.documentId));
  },
  component: function AdminOrderDocument() {
    const { id, documentId } = Route.useParams();
    return (
      <InvoiceDocumentPage
        id={documentId}
        orderId={id}
        back={
          <Link
            to="/{-$locale}/account/admin/orders/$id"
            params={{ id }}
            className="self-center text-primary-dark underline underline-offset-4"
          >
            <Trans>Zur Buchung</Trans>
          </Link>
        }
      />
    );
  },
});
