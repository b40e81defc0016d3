import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NotFoundPage } from '@/components/errors/not-found-page';
import { Page } from '@/components/page';
import { Button, buttonVariants } from '@/components/ui/button';
import { adminPlaceKeys } from '@/features/admin/shared/place-keys';
import { publicImageUrl, uploadImage, type UploadError } from '@/features/admin/shared/upsert-image';
import { ImageField } from '@/features/admin/shared/upsert-image-field';
import {
  COLUMN_BUCKET,
  columnImagePath,
  columnQueryOptions,
  setColumnImagePath,
  useSaveColumn,
  type Column,
  type ColumnInput,
  type ColumnSaveError,
} from '@/features/admin/additional-places/api/additional-places';
import { ColumnForm, useColumnForm, type ColumnDraft } from '@/features/admin/additional-places/components/column-form';
import { FormAlert } from '@/components/form-alert';
import { refusalOf } from '@/lib/refused';

export function useColumnSaveMessages(): Record<ColumnSaveError, string> {
  const { t } = useLingui();
  return {
    position: t`Position erforderlich: genau 2 Koordinaten (x 0–1000, y 0–600).`,
    invalid: t`Bitte die Eingaben prüfen.`,
    forbidden: t`Dazu fehlt Ihnen die Berechtigung.`,
    unknown: t`Die Säule konnte nicht gespeichert werden. Bitte erneut versuchen.`,
  };
}

export const columnDraft = (c?: Column | null): ColumnDraft => ({
  type: c?.type ?? 'electric',
  name: c?.name ?? '',
  x: c ? String(c.position[0]) : '',
  y: c ? String(c.position[1]) : '',
});

/** Create (no id) or edit a column, with its title image. */
export function ColumnEditPage({ id }: { id?: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const column = useQuery({ ...columnQueryOptions(id ?? ''), enabled: !!id });
  if (id && column.isSuccess && !column.data) return <NotFoundPage />;
  if (id && !column.data) {
    return column.isError ? (
      <FormAlert>
        <Trans>Die Säule konnte nicht geladen werden.</Trans>
      </FormAlert>
    ) : (
      <p>
        <Trans>Lädt…</Trans>
      </p>
    );
  }
  return (
    <Page title={id ? t`Säule ${column.data?.name ?? ''} bearbeiten` : t`Säule erstellen`}>
      <Link to="/{-$locale}/account/admin/additional-places" className={`${buttonVariants({ variant: 'outline', size: 'sm' })} self-start`}>
        <Trans>Alle Säulen</Trans>
      </Link>
      <ColumnEditor
        key={column.data?.id ?? 'new'}
        column={column.data ?? null}
        onSaved={async (savedId) => {
          if (!id) await navigate({ to: '/{-$locale}/account/admin/additional-places/$id/edit', params: { id: savedId } });
        }}
      />
    </Page>
  );
}

function ColumnEditor({ column, onSaved }: { column: Column | null; onSaved: (id: string) => Promise<void> }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const saving = useSaveColumn();
  const saveError = refusalOf<ColumnSaveError>(saving.error);
  const messages = useColumnSaveMessages();
  const form = useColumnForm(columnDraft(column));
  const [file, setFile] = useState<File | null>(null);
  const [version, setVersion] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<UploadError | null>(null);

  const upload = async (columnId: string, f: File) => {
    setUploadError(null);
    setProgress(0);
    const failed = await uploadImage(COLUMN_BUCKET, columnImagePath(columnId), f, setProgress);
    if (failed || !(await setColumnImagePath(columnId, columnImagePath(columnId)))) {
      setProgress(null);
      setUploadError(failed ?? 'failed');
      return false;
    }
    setVersion((v) => v + 1);
    return true;
  };

  const save = (input: ColumnInput) => {
    saving.mutate(
      { input, id: column?.id, then: file && !column ? (savedId) => upload(savedId, file) : undefined },
      { onSuccess: (savedId) => void onSaved(savedId) },
    );
  };

  /** A picked image of an existing column is uploaded at once; the admin's queries are refreshed after it. */
  const replaceImage = async (columnId: string, f: File) => {
    if (!(await upload(columnId, f))) return;
    await queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all });
    await onSaved(columnId);
  };

  return (
    <>
      <ImageField
        label={t`Bild`}
        currentUrl={column?.image_path ? publicImageUrl(COLUMN_BUCKET, column.image_path, String(version)) : null}
        progress={progress}
        error={uploadError}
        onPick={(f) => (column ? void replaceImage(column.id, f) : setFile(f))}
      />
      <ColumnForm form={form} onSubmit={save} label={column ? t`Säule bearbeiten` : t`Säule erstellen`}>
        <Button type="submit" disabled={saving.isPending}>
          {column ? <Trans>Speichern</Trans> : <Trans>Erstellen</Trans>}
        </Button>
        {saving.isSuccess && (
          <p role="status" className="text-sm text-green-700">
            <Trans>Gespeichert.</Trans>
          </p>
        )}
        {saveError && <FormAlert className="text-sm">{messages[saveError]}</FormAlert>}
      </ColumnForm>
    </>
  );
}
