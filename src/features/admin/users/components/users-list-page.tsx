import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { Button, buttonVariants } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { adminErrorMessage } from '../../shared/admin-errors';
import { AdminTable, Cell } from '../../shared/admin-table';
import { adminUsersQueryOptions, USERS_PAGE_SIZE, type UserListRow } from '../api/users';

/** /account/admin/users: columns e-mail, last name, first name; search and paging live in the URL. */
export function UsersListPage({ search, page, onChange }: { search: string; page: number; onChange: (next: { search: string; page: number }) => void }) {
  const { t } = useLingui();
  const [typed, setTyped] = useState(search);
  const query = useQuery(adminUsersQueryOptions(search, page));
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ search: typed.trim(), page: 1 });
  };

  const roles = (u: UserListRow) =>
    [u.admin && t`Admin`, u.harbor && t`Hafen`, u.user && t`Benutzer`].filter(Boolean).join(', ') || '–';

  return (
    <Page title={t`Benutzer`}>
      <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor="user-search"><Trans>Suche nach E-Mail oder Name</Trans></Label>
          <Input id="user-search" type="search" value={typed} maxLength={100} onChange={(e) => setTyped(e.target.value)} className="w-72" />
        </div>
        <Button type="submit"><Trans>Suchen</Trans></Button>
        {search && <Button type="button" variant="outline" onClick={() => { setTyped(''); onChange({ search: '', page: 1 }); }}><Trans>Suche zurücksetzen</Trans></Button>}
      </form>
      {query.isPending ? <p role="status"><Trans>Lädt…</Trans></p> : query.isError ? (
        <p role="alert" className="text-red-700">{adminErrorMessage(query.error)}</p>
      ) : query.data.rows.length === 0 ? (
        <p className="text-slate-600"><Trans>Keine Benutzer gefunden.</Trans></p>
      ) : (
        <>
          <AdminTable caption={t`Benutzer`} head={[t`E-Mail`, t`Nachname`, t`Vorname`, t`Rollen`, t`Status`, t`Aktionen`]}>
            {query.data.rows.map((u) => (
              <tr key={u.id}>
                <Cell className="break-all">{u.email}</Cell>
                <Cell>{u.last_name}</Cell>
                <Cell>{u.first_name}</Cell>
                <Cell>{roles(u)}</Cell>
                <Cell>{u.active ? t`Aktiv` : t`Deaktiviert`}</Cell>
                <Cell>
                  <PathLink path={`/account/admin/users/${u.id}/edit`} className={buttonVariants({ variant: 'outline', size: 'sm' })} aria-label={t`${u.email ?? ''} bearbeiten`}>
                    <Trans>Bearbeiten</Trans>
                  </PathLink>
                </Cell>
              </tr>
            ))}
          </AdminTable>
          <nav aria-label={t`Seiten`} className="flex items-center gap-3">
            <Button type="button" variant="outline" size="sm" disabled={page <= 1} onClick={() => onChange({ search, page: page - 1 })}><Trans>Vorherige Seite</Trans></Button>
            <span className="text-sm text-slate-700"><Trans>Seite {page} von {pages} (<Plural value={total} one="# Benutzer" other="# Benutzer" />)</Trans></span>
            <Button type="button" variant="outline" size="sm" disabled={page >= pages} onClick={() => onChange({ search, page: page + 1 })}><Trans>Nächste Seite</Trans></Button>
          </nav>
        </>
      )}
    </Page>
  );
}
