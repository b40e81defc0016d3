import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef, HeaderContext } from '@tanstack/react-table';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { PathLink } from '@/components/layout/path-link';
import {
  DataTable,
  DataTableColumnHeader,
  DataTablePagination,
  DataTableTextFilter,
  DataTableViewOptions,
  useUrlTable,
} from '@/components/ui/data-table';
import type { TableSearch } from '@/components/ui/data-table-search';
import { FormAlert } from '@/components/form-alert';
import { formatDay } from '@/lib/dates';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { missingInsuranceQueryOptions, type MissingInsurance } from '@/features/admin/long-term/api/insurance';

const PAGE_SIZE = 25;

/**
 * Long-term holders (current and coming) without an insurance certificate valid today or without
 * a registration mark (ADR 0050): a client-side data table (a short list, every row loaded), its
 * sort, hidden columns and page kept in the component, as it shares its page with another table
 * whose state is in the URL.
 */
export function InsuranceMissingList() {
  const { t, i18n } = useLingui();
  const query = useQuery(missingInsuranceQueryOptions());
  const [search, setSearch] = useState<TableSearch>({});
  const header =
    (title: string) =>
    ({ column }: HeaderContext<MissingInsurance, unknown>) => <DataTableColumnHeader column={column} title={title} />;
  const columns: ColumnDef<MissingInsurance>[] = [
    {
      id: 'place_name',
      accessorFn: (h) => h.place_name,
      enableHiding: false,
      meta: { label: t`Liegeplatz`, className: 'w-24' },
      header: header(t`Liegeplatz`),
      cell: ({ row: { original: h } }) => (
        <PathLink path={`/account/admin/places/${h.place_id}/edit`} className="underline underline-offset-4">
          {h.place_name}
        </PathLink>
      ),
    },
    {
      id: 'last_name',
      accessorFn: (h) => `${h.last_name ?? ''} ${h.first_name ?? ''}`,
      enableHiding: false,
      meta: { label: t`Name`, rowHeader: true, className: 'min-w-36' },
      header: header(t`Name`),
      cell: ({ row: { original: h } }) => [h.last_name, h.first_name].filter(Boolean).join(', ') || '–',
    },
    {
      id: 'email',
      accessorFn: (h) => h.email,
      meta: { label: t`E-Mail`, className: 'min-w-44 break-all' },
      header: header(t`E-Mail`),
      cell: ({ row: { original: h } }) =>
        h.email ? (
          <a className="underline underline-offset-4" href={`mailto:${h.email}`}>
            {h.email}
          </a>
        ) : (
          '–'
        ),
    },
    {
      id: 'boat_name',
      accessorFn: (h) => h.boat_name,
      meta: { label: t`Boot` },
      header: header(t`Boot`),
      cell: ({ row: { original: h } }) => h.boat_name ?? '–',
    },
    {
      id: 'valid_until',
      accessorFn: (h) => h.valid_until ?? '',
      meta: { label: t`Versicherung` },
      header: header(t`Versicherung`),
      cell: ({ row: { original: h } }) =>
        !h.missing_certificate ? (
          t`gültig bis ${formatDay(h.valid_until!, i18n.locale)}`
        ) : h.valid_until ? (
          <span className="font-medium text-destructive">{t`abgelaufen am ${formatDay(h.valid_until, i18n.locale)}`}</span>
        ) : (
          <span className="font-medium text-destructive">{t`fehlt`}</span>
        ),
    },
    {
      id: 'boat_tag',
      accessorFn: (h) => h.boat_tag ?? '',
      meta: { label: t`Kennzeichen` },
      header: header(t`Kennzeichen`),
      cell: ({ row: { original: h } }) => h.boat_tag ?? <span className="font-medium text-destructive">{t`fehlt`}</span>,
    },
  ];
  const q = (search.q ?? '').trim().toLowerCase();
  const rows = (query.data ?? []).filter(
    (h) => !q || [h.place_name, h.first_name, h.last_name, h.email, h.boat_name].some((v) => v?.toLowerCase().includes(q)),
  );
  const table = useUrlTable({
    data: rows,
    columns,
    search,
    onSearch: (next) => setSearch((previous) => (typeof next === 'function' ? next(previous) : next)),
    pageSize: PAGE_SIZE,
    getRowId: (h) => h.holder_id,
    defaultSort: 'place_name.asc',
  });
  const total = rows.length;
  return (
    <section aria-labelledby="insurance-missing-title" className="flex flex-col gap-3" data-testid="insurance-missing">
      <div className="flex flex-col gap-1">
        <h2 id="insurance-missing-title" className="text-lg font-semibold">
          <Trans>Langzeitlieger ohne gültige Versicherung oder Kennzeichen</Trans>
        </h2>
        <p className="text-sm text-slate-700">
          <Trans>
            Die Hafenordnung verlangt eine Haftpflichtversicherung und das amtliche Kennzeichen. 30 Tage vor Ablauf erinnert die App den
            Langzeitlieger per E-Mail.
          </Trans>
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <DataTableTextFilter
          id="insurance-missing-search"
          label={t`Suche nach Name, E-Mail, Boot oder Liegeplatz`}
          value={search.q ?? ''}
          onChange={(value) => setSearch((previous) => ({ ...previous, q: value.trim() || undefined, page: undefined }))}
        />
        <div className="ml-auto">
          <DataTableViewOptions table={table} />
        </div>
      </div>
      {query.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : query.isError ? (
        <FormAlert>{staffErrorMessage(query.error)}</FormAlert>
      ) : (
        <>
          <p role="status" className="text-sm text-slate-700">
            <Plural value={total} one="# Langzeitlieger" other="# Langzeitlieger" />
          </p>
          <DataTable
            table={table}
            caption={t`Langzeitlieger ohne gültige Versicherung oder Kennzeichen`}
            empty={<Trans>Alle Langzeitlieger haben eine gültige Versicherung und ein Kennzeichen.</Trans>}
            rowProps={(row) => ({ 'data-holder': row.original.holder_id })}
          />
          {total > PAGE_SIZE && <DataTablePagination table={table} />}
        </>
      )}
    </section>
  );
}
