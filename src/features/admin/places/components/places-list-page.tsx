import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  DataTable,
  DataTableColumnHeader,
  DataTableFacetFilter,
  DataTablePagination,
  DataTableTextFilter,
  DataTableViewOptions,
  useUrlTable,
} from '@/components/ui/data-table';
import { Label } from '@/components/ui/label';
import { RowActions } from '@/features/admin/shared/row-actions';
import type { PlacesSearch } from '@/features/admin/shared/list-search';
import { adminPlacesQueryOptions, type AdminPlaceRow } from '@/features/admin/places/api/places';
import { FormAlert } from '@/components/form-alert';

const size = (n: number, locale: string) => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);
const PAGE_SIZE = 50;

/**
 * All berths as a client-side data table (about a hundred rows): search, pier, archived, sort,
 * hidden columns and page live in the URL.
 */
export function PlacesListPage({
  search,
  onSearch,
}: {
  search: PlacesSearch;
  onSearch: (next: PlacesSearch | ((previous: PlacesSearch) => PlacesSearch)) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const { data, error, isPending } = useQuery(adminPlacesQueryOptions());
  const set = (patch: Partial<PlacesSearch>) => onSearch((previous) => ({ ...previous, ...patch, page: undefined }));
  const piers = useMemo(
    () => [...new Set((data ?? []).map((p) => p.pier).filter((p): p is string => !!p))].sort((a, b) => a.localeCompare(b, locale)),
    [data, locale],
  );
  const rows = useMemo(() => {
    const term = (search.q ?? '').toLowerCase();
    return (data ?? []).filter(
      (p) =>
        (search.archived || !p.archived) &&
        (!search.pier || p.pier === search.pier) &&
        (!term || p.name.toLowerCase().includes(term) || (p.pier ?? '').toLowerCase().includes(term)),
    );
  }, [data, search.q, search.archived, search.pier]);

  const columns = useMemo<ColumnDef<AdminPlaceRow>[]>(
    () => [
      {
        id: 'name',
        accessorFn: (p) => p.name,
        enableHiding: false,
        sortingFn: 'alphanumeric',
        meta: { label: t`Name`, rowHeader: true },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Name`} />,
      },
      {
        id: 'pier',
        accessorFn: (p) => p.pier ?? '',
        meta: { label: t`Steg` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Steg`} />,
      },
      {
        id: 'length',
        accessorFn: (p) => p.length,
        meta: { label: t`Länge × Breite`, className: 'whitespace-nowrap' },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Länge × Breite`} />,
        cell: ({ row: { original: p } }) => `${size(p.length, locale)} × ${size(p.width, locale)} m`,
      },
      {
        id: 'one_day',
        accessorFn: (p) => (p.one_day ? 1 : 0),
        meta: { label: t`Tagesplatz` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Tagesplatz`} />,
        cell: ({ row }) => (row.original.one_day ? t`ja` : t`nein`),
      },
      {
        id: 'archived',
        accessorFn: (p) => (p.archived ? 1 : 0),
        meta: { label: t`Status` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Status`} />,
        cell: ({ row }) => (row.original.archived ? t`archiviert` : t`aktiv`),
      },
      {
        id: 'actions',
        enableSorting: false,
        enableHiding: false,
        header: t`Aktionen`,
        cell: ({ row: { original: p } }) => (
          <RowActions name={p.name} edit={{ to: '/{-$locale}/account/admin/places/$id/edit', params: { id: p.id } }}>
            <Link
              to="/{-$locale}/account/admin/places/$id/calendar"
              params={{ id: p.id }}
              className={buttonVariants({ size: 'sm', variant: 'outline' })}
              aria-label={t`Kalender von ${p.name}`}
            >
              <Trans>Kalender</Trans>
            </Link>
          </RowActions>
        ),
      },
    ],
    [t, locale],
  );
  const table = useUrlTable({ data: rows, columns, search, onSearch, pageSize: PAGE_SIZE, getRowId: (p) => p.id, defaultSort: 'name.asc' });

  return (
    <Page title={t`Liegeplätze`}>
      <div className="flex flex-wrap items-end gap-3">
        <DataTableTextFilter
          id="places-search"
          label={t`Suche`}
          placeholder={t`Name oder Steg`}
          value={search.q ?? ''}
          onChange={(q) => set({ q: q.trim() || undefined })}
        />
        <DataTableFacetFilter
          id="places-pier"
          label={t`Steg`}
          value={search.pier}
          options={piers.map((p) => ({ value: p, label: p }))}
          onChange={(pier) => set({ pier })}
        />
        <div className="flex items-center gap-2 pb-2">
          <Checkbox
            id="places-archived"
            checked={!!search.archived}
            onCheckedChange={(v) => set({ archived: v === true ? true : undefined })}
          />
          <Label htmlFor="places-archived">
            <Trans>Archivierte anzeigen</Trans>
          </Label>
        </div>
        <DataTableViewOptions table={table} />
        <div className="ml-auto flex flex-wrap gap-2">
          <Link to="/{-$locale}/account/admin/additional-places" className={buttonVariants({ variant: 'outline' })}>
            <Trans>Säulen</Trans>
          </Link>
          <Link to="/{-$locale}/account/admin/map" className={buttonVariants({ variant: 'outline' })}>
            <Trans>Hafenplan</Trans>
          </Link>
          <Link to="/{-$locale}/account/admin/places/create" className={buttonVariants()}>
            <Trans>Liegeplatz erstellen</Trans>
          </Link>
        </div>
      </div>
      {error ? (
        <FormAlert>
          <Trans>Die Liegeplätze konnten nicht geladen werden.</Trans>
        </FormAlert>
      ) : isPending ? (
        <p>
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <>
          <DataTable
            table={table}
            caption={t`Liegeplätze`}
            empty={<Trans>Keine Liegeplätze gefunden.</Trans>}
            rowProps={(row) => ({ 'data-place': row.original.id })}
          />
          <DataTablePagination table={table} />
        </>
      )}
    </Page>
  );
}
