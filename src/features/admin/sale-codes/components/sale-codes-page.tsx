import { useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { buttonVariants } from '@/components/ui/button';
import {
  DataTable,
  DataTableColumnHeader,
  DataTablePagination,
  DataTableTextFilter,
  DataTableViewOptions,
  useUrlTable,
} from '@/components/ui/data-table';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { ConfirmDialog } from '@/components/confirm-dialog';
import type { ListSearch } from '@/features/admin/shared/list-search';
import { RowActions } from '@/features/admin/shared/row-actions';
import { saleCodesQueryOptions, useDeleteSaleCode, type SaleCode } from '@/features/admin/sale-codes/api/sale-codes';

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

const PAGE_SIZE = 25;

/** /account/admin/sale-codes: list (a client-side data table, its state in the URL), create, edit, delete. */
export function SaleCodesPage({
  search,
  onSearch,
}: {
  search: ListSearch;
  onSearch: (next: ListSearch | ((previous: ListSearch) => ListSearch)) => void;
}) {
  const { t } = useLingui();
  const label = useSaleCodeLabel();
  const { data: codes } = useSuspenseQuery(saleCodesQueryOptions());
  const [toDelete, setToDelete] = useState<SaleCode | null>(null);
  const deleting = useDeleteSaleCode();
  const busy = deleting.isPending;
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const rows = useMemo(() => {
    const term = (search.q ?? '').toLowerCase();
    return term ? codes.filter((c) => c.code.toLowerCase().includes(term)) : codes;
  }, [codes, search.q]);
  const columns: ColumnDef<SaleCode>[] = [
    {
      id: 'code',
      accessorFn: (c) => c.code,
      enableHiding: false,
      meta: { label: t`Code`, className: 'font-mono font-medium' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Code`} />,
    },
    { id: 'type', enableSorting: false, meta: { label: t`Art` }, header: t`Art`, cell: () => label.type() },
    {
      id: 'value',
      accessorFn: (c) => c.value,
      meta: { label: t`Nebenkosten pro Nacht`, className: 'whitespace-nowrap' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Nebenkosten pro Nacht`} />,
      cell: ({ row }) => label.euro(row.original.value),
    },
    {
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: t`Aktionen`,
      cell: ({ row: { original: code } }) => (
        <RowActions
          name={code.code}
          editPath={`/account/admin/sale-codes/${code.id}/edit`}
          onDelete={() => {
            setError(undefined);
            setToDelete(code);
          }}
        />
      ),
    },
  ];
  const table = useUrlTable({ data: rows, columns, search, onSearch, pageSize: PAGE_SIZE, getRowId: (c) => c.id });

  const confirmDelete = async () => {
    if (!toDelete) return;
    setError(undefined);
    try {
      await deleting.mutateAsync(toDelete.id);
      setDone(t`Der Code ${toDelete.code} wurde gelöscht.`);
      setToDelete(null);
    } catch (e) {
      setError(staffErrorMessage(e));
    }
  };

  return (
    <Page title={t`Codes`} lead={t`Aktionscodes ersetzen bei einer Buchung die Nebenkosten von 10,00 € pro Nacht durch ihren Betrag.`}>
      <div className="flex flex-wrap items-center gap-3">
        <PathLink path="/account/admin/sale-codes/create" className={buttonVariants()}>
          <Trans>Code erstellen</Trans>
        </PathLink>
        <p role="status" className="text-sm text-green-800">
          {done}
        </p>
      </div>
      {codes.length === 0 ? (
        <p className="text-slate-600">
          <Trans>Es gibt noch keine Codes.</Trans>
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <DataTableTextFilter
              id="codes-search"
              label={t`Suche`}
              placeholder={t`Code`}
              value={search.q ?? ''}
              onChange={(q) => onSearch((previous) => ({ ...previous, q: q.trim() || undefined, page: undefined }))}
            />
            <div className="ml-auto">
              <DataTableViewOptions table={table} />
            </div>
          </div>
          <DataTable table={table} caption={t`Codes`} empty={<Trans>Keine Codes gefunden.</Trans>} />
          <DataTablePagination table={table} />
        </>
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
