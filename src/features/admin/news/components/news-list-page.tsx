import { useState } from 'react';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { buttonVariants } from '@/components/ui/button';
import { formatBerlinDateTime } from '@/lib/dates';
import { adminErrorMessage } from '../../shared/admin-errors';
import { AdminTable, Cell } from '../../shared/admin-table';
import { ConfirmDialog } from '../../shared/confirm-dialog';
import { RowActions } from '../../shared/row-actions';
import { adminNewsKeys, adminNewsListQueryOptions, deleteNews, type AdminNews } from '../api/news';

/** /account/admin/news: columns Titel, Beginn, Ende, Aktionen; create and delete (spec section 2). */
export function NewsListPage() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { data: news } = useSuspenseQuery(adminNewsListQueryOptions());
  const [toDelete, setToDelete] = useState<AdminNews | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();

  const confirmDelete = async () => {
    if (!toDelete) return;
    setBusy(true);
    setError(undefined);
    try {
      await deleteNews(toDelete);
      setDone(t`Die News „${toDelete.title}“ wurde gelöscht.`);
      setToDelete(null);
      await queryClient.invalidateQueries({ queryKey: adminNewsKeys.all });
    } catch (e) {
      setError(adminErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t`News`}>
      <div className="flex flex-wrap items-center gap-3">
        <PathLink path="/account/admin/news/create" className={buttonVariants()}><Trans>News erstellen</Trans></PathLink>
        <p role="status" className="text-sm text-green-800">{done}</p>
      </div>
      {news.length === 0 ? (
        <p className="text-slate-600"><Trans>Es gibt noch keine News.</Trans></p>
      ) : (
        <AdminTable caption={t`News`} head={[t`Titel`, t`Beginn`, t`Ende`, t`Aktionen`]}>
          {news.map((item) => (
            <tr key={item.id}>
              <Cell className="font-medium">{i18n.locale === 'en' && item.title_en ? item.title_en : item.title}</Cell>
              <Cell className="whitespace-nowrap">{formatBerlinDateTime(item.starts_at, i18n.locale)}</Cell>
              <Cell className="whitespace-nowrap">{formatBerlinDateTime(item.ends_at, i18n.locale)}</Cell>
              <Cell>
                <RowActions name={item.title} editPath={`/account/admin/news/${item.id}/edit`} onDelete={() => { setError(undefined); setToDelete(item); }} />
              </Cell>
            </tr>
          ))}
        </AdminTable>
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
