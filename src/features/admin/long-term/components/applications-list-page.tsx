import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef, HeaderContext } from '@tanstack/react-table';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { Button } from '@/components/ui/button';
import {
  DataTable,
  DataTableColumnHeader,
  DataTableFacetFilter,
  DataTablePagination,
  DataTableViewOptions,
  useUrlTable,
} from '@/components/ui/data-table';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { berlinDay, formatDay } from '@/lib/dates';
import { formatSize } from '@/lib/numbers';

import { APPLICATIONS_PAGE_SIZE, applicationsListQueryOptions } from '@/features/admin/long-term/api/applications';
import type { ApplicationsSearch, ApplicationStatus } from '@/features/admin/long-term/api/applications-search';
import type { Application } from '@/features/admin/long-term/api/long-term';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';
import { InsuranceMissingList } from '@/features/admin/long-term/components/insurance-missing-list';

/**
 * /account/admin/applications: every long-term application (open and answered) as a server-side
 * data table; search, status, sort, hidden columns and page live in the URL. Deciding one stays
 * with the berth's holder (Liegeplätze → berth → Langzeitlieger), answering in the inbox.
 */
export function ApplicationsListPage({
  search,
  onSearch,
}: {
  search: ApplicationsSearch;
  onSearch: (next: ApplicationsSearch | ((previous: ApplicationsSearch) => ApplicationsSearch)) => void;
}) {
  const { t, i18n } = useLingui();
  const [typed, setTyped] = useState(search.q ?? '');
  const query = useQuery(applicationsListQueryOptions(search));
  const total = query.data?.total ?? 0;
  const page = search.page ?? 1;
  const pages = Math.max(1, Math.ceil(total / APPLICATIONS_PAGE_SIZE));
  const set = (patch: Partial<ApplicationsSearch>) => onSearch((previous) => ({ ...previous, ...patch, page: undefined }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: typed.trim() || undefined });
  };

  const statusLabel: Record<ApplicationStatus, string> = {
    open: t`Offen`,
    accepted: t`Angenommen`,
    declined: t`Abgelehnt`,
    withdrawn: t`Zurückgezogen`,
  };
  const header =
    (title: string) =>
    ({ column }: HeaderContext<Application, unknown>) => <DataTableColumnHeader column={column} title={title} />;

  const columns: ColumnDef<Application>[] = [
    {
      id: 'position',
      accessorFn: (a) => a.waiting_position,
      enableHiding: false,
      meta: { label: t`Warteliste`, className: 'w-20' },
      header: header(t`Warteliste`),
      cell: ({ row }) => (row.original.waiting_position == null ? '–' : t`Platz ${row.original.waiting_position}`),
    },
    {
      id: 'last_name',
      accessorFn: (a) => a.last_name,
      enableHiding: false,
      meta: { label: t`Name`, rowHeader: true, className: 'min-w-36' },
      header: header(t`Name`),
      cell: ({ row }) => `${row.original.last_name}, ${row.original.first_name}`,
    },
    {
      id: 'email',
      accessorFn: (a) => a.email,
      meta: { label: t`E-Mail`, className: 'min-w-44 break-all' },
      header: header(t`E-Mail`),
      cell: ({ row }) => (
        <a className="underline underline-offset-4" href={`mailto:${row.original.email}`}>
          {row.original.email}
        </a>
      ),
    },
    {
      id: 'boat',
      enableSorting: false,
      meta: { label: t`Boot` },
      header: t`Boot`,
      cell: ({ row: { original: a } }) =>
        [a.boat.name, a.boat.length != null && a.boat.width != null ? formatSize(a.boat.length, a.boat.width, i18n.locale) : null]
          .filter(Boolean)
          .join(' · ') || '–',
    },
    {
      id: 'place_name',
      accessorFn: (a) => a.place_name,
      meta: { label: t`Liegeplatz` },
      header: header(t`Liegeplatz`),
      cell: ({ row: { original: a } }) => (
        <>
          {a.place_id && a.place_name ? (
            <PathLink
              path={`/account/admin/places/${a.place_id}/edit`}
              className="underline underline-offset-4"
              aria-label={t`Liegeplatz ${a.place_name} (Langzeitlieger zuweisen)`}
            >
              {a.place_name}
            </PathLink>
          ) : (
            t`beliebig`
          )}
          {a.status === 'open' && (
            <PathLink
              path={a.place_id ? `/account/admin/offers?place=${a.place_id}` : '/account/admin/offers'}
              className="block text-xs whitespace-nowrap underline underline-offset-4"
              aria-label={t`Angebot vorbereiten für ${a.first_name} ${a.last_name}`}
            >
              <Trans>Angebot vorbereiten</Trans>
            </PathLink>
          )}
        </>
      ),
    },
    {
      id: 'desired_start',
      accessorFn: (a) => a.desired_start,
      meta: { label: t`Gewünschter Beginn` },
      header: header(t`Gewünschter Beginn`),
      cell: ({ row }) => (row.original.desired_start ? formatDay(row.original.desired_start, i18n.locale) : '–'),
    },
    {
      id: 'created_at',
      accessorFn: (a) => a.created_at,
      meta: { label: t`Eingegangen` },
      header: header(t`Eingegangen`),
      cell: ({ row }) => formatDay(berlinDay(row.original.created_at), i18n.locale),
    },
    {
      id: 'status',
      accessorFn: (a) => a.status,
      meta: { label: t`Status` },
      header: header(t`Status`),
      cell: ({ row }) => statusLabel[row.original.status as ApplicationStatus] ?? row.original.status,
    },
  ];
  const table = useUrlTable({
    data: query.data?.rows ?? [],
    columns,
    search,
    onSearch,
    pageSize: APPLICATIONS_PAGE_SIZE,
    total,
    getRowId: (a) => a.id,
    defaultSort: 'position.asc',
  });
  const filtered = !!(search.q || search.status);

  return (
    <Page
      title={t`Bewerbungen um einen Langzeitliegeplatz`}
      lead={t`Alle Bewerbungen, offene in der Reihenfolge der Warteliste. Zugewiesen wird beim Liegeplatz, beantwortet im Posteingang.`}
    >
      <div className="flex flex-wrap items-end gap-3">
        <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor="application-search">
              <Trans>Suche nach Name, E-Mail oder Liegeplatz</Trans>
            </Label>
            <Input
              id="application-search"
              type="search"
              value={typed}
              maxLength={100}
              onChange={(e) => setTyped(e.target.value)}
              className="w-full sm:w-72"
            />
          </div>
          <Button type="submit">
            <Trans>Suchen</Trans>
          </Button>
        </form>
        <DataTableFacetFilter
          id="application-status"
          label={t`Status`}
          value={search.status}
          options={(Object.keys(statusLabel) as ApplicationStatus[]).map((value) => ({ value, label: statusLabel[value] }))}
          onChange={(status) => set({ status })}
        />
        {filtered && (
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setTyped('');
              onSearch({ sort: search.sort, hide: search.hide });
            }}
          >
            <Trans>Suche zurücksetzen</Trans>
          </Button>
        )}
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
          <p role="status" className="text-sm text-slate-700" data-testid="applications-total">
            <Trans>
              Seite {page} von {pages} (<Plural value={total} one="# Bewerbung" other="# Bewerbungen" />)
            </Trans>
          </p>
          <DataTable
            table={table}
            caption={t`Bewerbungen um einen Langzeitliegeplatz`}
            empty={<Trans>Keine Bewerbungen gefunden.</Trans>}
            rowProps={(row) => ({ 'data-application': row.original.id })}
          />
          <DataTablePagination table={table} />
        </>
      )}
      <InsuranceMissingList />
    </Page>
  );
}
