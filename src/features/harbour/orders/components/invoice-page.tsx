import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { invoiceDocumentQueryOptions, InvoiceDocumentView, useInvoiceKindLabel } from '@/features/orders';
import { orderDetailQueryOptions } from '@/features/harbour/orders/api/orders';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/**
 * /account/admin/orders/{id}/invoice: the order's invoice in force (the newest one no
 * cancellation names), rendered from the stored document; every document of the order has its
 * own page under documents/{documentId}.
 */
export function InvoicePage({ id }: { id: string }) {
  const { t } = useLingui();
  const kindLabel = useInvoiceKindLabel();
  const detail = useQuery(orderDetailQueryOptions(id));
  const current = detail.data?.invoice ?? null;
  const doc = useQuery({ ...invoiceDocumentQueryOptions(current?.id ?? ''), enabled: !!current });
  const back = (
    <Link to="/{-$locale}/account/admin/orders/$id" params={{ id }} className="self-center text-primary-dark underline underline-offset-4">
      <Trans>Zur Buchung</Trans>
    </Link>
  );
  if (detail.isPending || (current && doc.isPending))
    return (
      <Page title={t`Rechnung`}>
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      </Page>
    );
  const error = detail.error ?? doc.error;
  if (error)
    return (
      <Page title={t`Rechnung`}>
        <FormAlert>{staffErrorMessage(error)}</FormAlert>
      </Page>
    );
  if (!current || !doc.data) {
    return (
      <Page title={t`Rechnung`}>
        <p role="alert">
          <Trans>
            Für diese Buchung gilt keine Rechnung: sie entsteht, sobald die Buchung bezahlt ist; eine stornierte steht mit ihrer
            Stornorechnung unter den Belegen der Buchung.
          </Trans>
        </p>
        {back}
      </Page>
    );
  }
  return <InvoiceDocumentView doc={doc.data} back={back} title={`${kindLabel(doc.data.kind)} ${doc.data.invoice_number}`} />;
}
