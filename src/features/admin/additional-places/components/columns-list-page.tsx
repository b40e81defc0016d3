import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { RowActions } from '@/features/admin/shared/row-actions';
import { columnsQueryOptions, useDeleteColumn, type Column } from '@/features/admin/additional-places/api/additional-places';
import { FormAlert } from '@/components/form-alert';

export function useColumnTypeLabels() {
  const { t } = useLingui();
  return { electric: t`Stromsäule`, water: t`Wassersäule` } as const;
}

/** The electricity and water columns: list, create, edit, delete (with a confirmation). */
export function ColumnsListPage() {
  const { t } = useLingui();
  const { data, error, isPending } = useQuery(columnsQueryOptions());
  const types = useColumnTypeLabels();
  const [confirm, setConfirm] = useState<Column | null>(null);
  const deleting = useDeleteColumn();
  const busy = deleting.isPending;
  const failed = deleting.isError;
  const remove = async () => {
    if (!confirm) return;
    await deleting.mutateAsync(confirm.id).catch(() => undefined);
    setConfirm(null);
  };
  return (
    <Page title={t`Säulen (Strom und Wasser)`}>
      <div className="flex flex-wrap gap-2">
        <Link to="/{-$locale}/account/admin/additional-places/create" className={buttonVariants()}>
          <Trans>Säule erstellen</Trans>
        </Link>
        <Link to="/{-$locale}/account/admin/map" className={buttonVariants({ variant: 'outline' })}>
          <Trans>Auf dem Hafenplan platzieren</Trans>
        </Link>
      </div>
      {failed && (
        <FormAlert>
          <Trans>Die Säule konnte nicht gelöscht werden. Bitte erneut versuchen.</Trans>
        </FormAlert>
      )}
      {error ? (
        <FormAlert>
          <Trans>Die Säulen konnten nicht geladen werden.</Trans>
        </FormAlert>
      ) : isPending ? (
        <p>
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200">
          <table className="w-full text-left text-sm" aria-label={t`Säulen`}>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className="p-2">
                  <Trans>Name</Trans>
                </th>
                <th scope="col" className="p-2">
                  <Trans>Art</Trans>
                </th>
                <th scope="col" className="p-2">
                  <Trans>Position (x, y)</Trans>
                </th>
                <th scope="col" className="p-2">
                  <Trans>Aktionen</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((c) => (
                <tr key={c.id} className="border-t border-slate-100">
                  <th scope="row" className="p-2 font-medium">
                    {c.name}
                  </th>
                  <td className="p-2">{types[c.type]}</td>
                  <td className="p-2">
                    {Math.round(c.position[0])}, {Math.round(c.position[1])}
                  </td>
                  <td className="p-2">
                    <RowActions
                      name={c.name}
                      edit={{ to: '/{-$locale}/account/admin/additional-places/$id/edit', params: { id: c.id } }}
                      onDelete={() => setConfirm(c)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={t`Säule löschen?`}
        description={
          <p>
            <Trans>„{confirm?.name}“ wird mit ihrem Bild gelöscht und keinem Liegeplatz mehr zugeordnet.</Trans>
          </p>
        }
        confirmLabel={t`Löschen`}
        destructive
        busy={busy}
        onConfirm={() => void remove()}
      />
    </Page>
  );
}
