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
import { formatBerlinDateTime } from '@/lib/dates';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { ConfirmDialog } from '@/components/confirm-dialog';
import type { ListSearch } from '@/features/admin/shared/list-search';
import { RowActions } from '@/features/admin/shared/row-actions';
import { adminNewsListQueryOptions, useDeleteNews, type AdminNews } from '@/features/admin/news/api/news';

const PAGE_SIZE = 25;

/**
 * /account/admin/news: columns Titel, Beginn, Ende, Aktionen; create and delete (spec section 2).
 * A client-side data table (a few dozen rows): search, sort, hidden columns and page live in the URL.
 */
export function NewsListPage({
  search,
  onSearch,
}: {
  search: ListSearch;
  onSearch: (next: ListSearch | ((previous: ListSearch) => ListSearch)) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const { data: news } = useSuspenseQuery(adminNewsListQueryOptions());
  const [toDelete, setToDelete] = useState<AdminNews | null>(null);
  const deleting = useDeleteNews();
  const busy = deleting.isPending;
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const title = (item: AdminNews) => (locale === 'en' && item.title_en ? item.title_en : item.title);
  const rows = useMemo(() => {
    const term = (search.q ?? '').toLowerCase();
    return term ? news.filter((n) => n.title.toLowerCase().includes(term) || (n.title_en ?? '').toLowerCase().includes(term)) : news;
  }, [news, search.q]);
  const columns: ColumnDef<AdminNews>[] = [
    {
      id: 'title',
      accessorFn: title,
      enableHiding: false,
      meta: { label: t`Titel`, className: 'min-w-48 font-medium' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Titel`} />,
    },
    {
      id: 'starts_at',
      accessorFn: (n) => n.starts_at,
      meta: { label: t`Beginn`, className: 'whitespace-nowrap' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Beginn`} />,
      cell: ({ row }) => formatBerlinDateTime(row.original.starts_at, locale),
    },
    {
      id: 'ends_at',
      accessorFn: (n) => n.ends_at,
      meta: { label: t`Ende`, className: 'whitespace-nowrap' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Ende`} />,
      cell: ({ row }) => formatBerlinDateTime(row.original.ends_at, locale),
    },
    {
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: t`Aktionen`,
      cell: ({ row: { original: item } }) => (
        <RowActions
          name={item.title}
          editPath={`/account/admin/news/${item.id}/edit`}
          onDelete={() => {
            setError(undefined);
            setToDelete(item);
          }}
        />
      ),
    },
  ];
  const table = useUrlTable({ data: rows, columns, search, onSearch, pageSize: PAGE_SIZE, getRowId: (n) => n.id });

  const confirmDelete = async () => {
    if (!toDelete) return;
    setError(undefined);
    try {
      await deleting.mutateAsync(toDelete);
      setDone(t`Die News „${toDelete.title}“ wurde gelöscht.`);
      setToDelete(null);
    } catch (e) {
      setError(staffErrorMessage(e));
    }
  };

  return (
    <Page title={t`News`}>
      <div className="flex flex-wrap items-center gap-3">
        <PathLink path="/account/admin/news/create" className={buttonVariants()}>
          <Trans>News erstellen</Trans>
        </PathLink>
        <p role="status" className="text-sm text-green-800">
          {done}
        </p>
      </div>
      {news.length === 0 ? (
        <p className="text-slate-600">
          <Trans>Es gibt noch keine News.</Trans>
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <DataTableTextFilter
              id="news-search"
              label={t`Suche`}
              placeholder={t`Titel`}
              value={search.q ?? ''}
              onChange={(q) => onSearch((previous) => ({ ...previous, q: q.trim() || undefined, page: undefined }))}
            />
            <div className="ml-auto">
              <DataTableViewOptions table={table} />
            </div>
          </div>
          <DataTable table={table} caption={t`News`} empty={<Trans>Keine News gefunden.</Trans>} />
          <DataTablePagination table={table} />
        </>
      )}
      <ConfirmDialog
        key={toDelete?.id}
        open={!!toDelete}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t`News löschen`}
        description={t`Möchten Sie die News „${toDelete?.title ?? ''}“ wirklich löschen? Das Titelbild wird ebenfalls gelöscht.`}
        confirmLabel={t`Löschen`}
        destructive
        busy={busy}
        error={error}
        onConfirm={() => void confirmDelete()}
      />
    </Page>
  );
}
