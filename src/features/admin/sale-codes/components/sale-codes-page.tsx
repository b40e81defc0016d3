import { useState } from 'react';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { buttonVariants } from '@/components/ui/button';
import { adminErrorMessage } from '../../shared/admin-errors';
import { AdminTable, Cell } from '../../shared/admin-table';
import { ConfirmDialog } from '../../shared/confirm-dialog';
import { RowActions } from '../../shared/row-actions';
import { deleteSaleCode, saleCodeKeys, saleCodesQueryOptions, type SaleCode } from '../api/sale-codes';

/** What a code does, for people (the only type: set-additional-costs). */
export function useSaleCodeLabel() {
  const { t, i18n } = useLingui();
  const euro = new Intl.NumberFormat(i18n.locale === 'en' ? 'en-GB' : 'de-DE', { style: 'currency', currency: 'EUR' });
  return {
    type: () => t`Nebenkosten pro Nacht festlegen`,
    effect: (code: Pick<SaleCode, 'value'>) => t`Nebenkosten ${euro.format(code.value / 100)} statt 10,00 € pro Nacht`,
    euro: (cents: number) => euro.format(cents / 100),
  };
}

/** /account/admin/sale-codes: list, create, edit, delete. */
export function SaleCodesPage() {
  const { t } = useLingui();
  const label = useSaleCodeLabel();
  const queryClient = useQueryClient();
  const { data: codes } = useSuspenseQuery(saleCodesQueryOptions());
  const [toDelete, setToDelete] = useState<SaleCode | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();

  const confirmDelete = async () => {
    if (!toDelete) return;
    setBusy(true);
    setError(undefined);
    try {
      await deleteSaleCode(toDelete.id);
      setDone(t`Der Code ${toDelete.code} wurde gelöscht.`);
      setToDelete(null);
      await queryClient.invalidateQueries({ queryKey: saleCodeKeys.all });
    } catch (e) {
      setError(adminErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t`Codes`} lead={t`Aktionscodes ersetzen bei einer Buchung die Nebenkosten von 10,00 € pro Nacht durch ihren Betrag.`}>
      <div className="flex flex-wrap items-center gap-3">
        <PathLink path="/account/admin/sale-codes/create" className={buttonVariants()}><Trans>Code erstellen</Trans></PathLink>
        <p role="status" className="text-sm text-green-800">{done}</p>
      </div>
      {codes.length === 0 ? (
        <p className="text-slate-600"><Trans>Es gibt noch keine Codes.</Trans></p>
      ) : (
        <AdminTable caption={t`Codes`} head={[t`Code`, t`Art`, t`Nebenkosten pro Nacht`, t`Aktionen`]}>
          {codes.map((code) => (
            <tr key={code.id}>
              <Cell className="font-mono font-medium">{code.code}</Cell>
              <Cell>{label.type()}</Cell>
              <Cell className="whitespace-nowrap">{label.euro(code.value)}</Cell>
              <Cell>
                <RowActions name={code.code} editPath={`/account/admin/sale-codes/${code.id}/edit`} onDelete={() => { setError(undefined); setToDelete(code); }} />
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
      <ConfirmDialog
        key={toDelete?.id}
        open={!!toDelete}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t`Code löschen`}
        description={t`Möchten Sie den Code ${toDelete?.code ?? ''} wirklich löschen? Bestehende Buchungen behalten ihren Preis.`}
        confirmLabel={t`Löschen`}
        destructive
        busy={busy}
        error={error}
        onConfirm={() => void confirmDelete()}
      />
    </Page>
  );
}
