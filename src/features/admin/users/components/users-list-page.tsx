import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { Button, buttonVariants } from '@/components/ui/button';
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

import { adminUsersQueryOptions, USERS_PAGE_SIZE, type UserListRow } from '@/features/admin/users/api/users';
import type { UsersSearch } from '@/features/admin/users/api/users-search';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/**
 * /account/admin/users: a server-side data table (admin_list_users sorts, filters and pages in
 * Postgres); search, role, state, sort, hidden columns and page live in the URL.
 */
export function UsersListPage({
  search,
  onSearch,
}: {
  search: UsersSearch;
  onSearch: (next: UsersSearch | ((previous: UsersSearch) => UsersSearch)) => void;
}) {
  const { t } = useLingui();
  const [typed, setTyped] = useState(search.q ?? '');
  const query = useQuery(adminUsersQueryOptions(search));
  const total = query.data?.total ?? 0;
  const page = search.page ?? 1;
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const set = (patch: Partial<UsersSearch>) => onSearch((previous) => ({ ...previous, ...patch, page: undefined }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: typed.trim() || undefined });
  };

  const roles = (u: UserListRow) => [u.admin && t`Admin`, u.harbor && t`Hafen`, u.user && t`Benutzer`].filter(Boolean).join(', ') || '–';

  const columns: ColumnDef<UserListRow>[] = [
    {
      id: 'email',
      accessorFn: (u) => u.email ?? '',
      enableHiding: false,
      meta: { label: t`E-Mail`, className: 'min-w-48 break-all' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`E-Mail`} />,
      cell: ({ row }) => row.original.email,
    },
    {
      id: 'last_name',
      accessorFn: (u) => u.last_name ?? '',
      meta: { label: t`Nachname` },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Nachname`} />,
      cell: ({ row }) => row.original.last_name,
    },
    {
      id: 'first_name',
      accessorFn: (u) => u.first_name ?? '',
      meta: { label: t`Vorname` },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Vorname`} />,
      cell: ({ row }) => row.original.first_name,
    },
    { id: 'roles', enableSorting: false, meta: { label: t`Rollen` }, header: t`Rollen`, cell: ({ row }) => roles(row.original) },
    {
      id: 'active',
      accessorFn: (u) => u.active,
      meta: { label: t`Status` },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Status`} />,
      cell: ({ row }) => (row.original.active ? t`Aktiv` : t`Deaktiviert`),
    },
    {
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: t`Aktionen`,
      cell: ({ row: { original: u } }) => (
        <PathLink
          path={`/account/admin/users/${u.id}/edit`}
          className={buttonVariants({ variant: 'outline', size: 'sm' })}
          aria-label={t`${u.email ?? ''} bearbeiten`}
        >
          <Trans>Bearbeiten</Trans>
        </PathLink>
      ),
    },
  ];
  const table = useUrlTable({
    data: query.data?.rows ?? [],
    columns,
    search,
    onSearch,
    pageSize: USERS_PAGE_SIZE,
    total,
    getRowId: (u) => u.id,
    defaultSort: undefined,
  });
  const filtered = !!(search.q || search.role || search.state);

  return (
    <Page title={t`Benutzer`}>
      <div className="flex flex-wrap items-end gap-3">
        <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor="user-search">
              <Trans>Suche nach E-Mail oder Name</Trans>
            </Label>
            <Input
              id="user-search"
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
          id="user-role"
          label={t`Rolle`}
          value={search.role}
          options={[
            { value: 'admin', label: t`Admin` },
            { value: 'harbor', label: t`Hafen` },
            { value: 'user', label: t`Benutzer` },
          ]}
          onChange={(role) => set({ role })}
        />
        <DataTableFacetFilter
          id="user-state"
          label={t`Status`}
          value={search.state}
          options={[
            { value: 'active', label: t`Aktiv` },
            { value: 'inactive', label: t`Deaktiviert` },
          ]}
          onChange={(state) => set({ state })}
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
          <p role="status" className="text-sm text-slate-700" data-testid="users-total">
            <Trans>
              Seite {page} von {pages} (<Plural value={total} one="# Benutzer" other="# Benutzer" />)
            </Trans>
          </p>
          <DataTable
            table={table}
            caption={t`Benutzer`}
            empty={<Trans>Keine Benutzer gefunden.</Trans>}
            rowProps={(row) => ({ 'data-user': row.original.id })}
          />
          <DataTablePagination table={table} />
        </>
      )}
    </Page>
  );
}
