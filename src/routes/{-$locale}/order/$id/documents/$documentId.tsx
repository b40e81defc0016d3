import { createFileRoute, Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { InvoiceDocumentPage } from '@/features/orders/components/invoice-document';

/** One invoice document of the guest's order (invoice, cancellation, credit note), as stored. */
export const Route = createFileRoute('/{-$locale}/order/$id/documents/$documentId')({
  // Imported in the loader, so the orders code stays out of the initial bundle (route options are in it).
  loader: async ({ context, params }) => {
    const { invoiceDocumentQueryOptions } = await import('@/features/orders/api/invoices');
    return context.queryClient.ensureQueryData(invoiceDocumentQueryOptions(params.documentId));
  },
  component: function OrderDocument() {
    const { id, documentId } = Route.useParams();
    return (
      <InvoiceDocumentPage
        id={documentId}
        orderId={id}
        back={
          <Link to="/{-$locale}/order/$id" params={{ id }} className="self-center text-primary-dark underline underline-offset-4">
            <Trans>Zur Buchung</Trans>
          </Link>
        }
      />
    );
  },
});
