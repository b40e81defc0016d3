import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import {
  adminPlaceKeys,
  PLACE_BUCKET,
  placeImagePath,
  addPlacePhoto,
  useSavePlace,
  type PlaceSaveError,
} from '@/features/admin/places/api/places';
import { refusalOf } from '@/lib/refused';
import { uploadImage, type UploadError } from '@/features/admin/shared/upsert-image';
import { toPlaceInput, type PlaceValues } from '@/features/admin/places/schemas/place';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ImageField } from '@/features/admin/shared/upsert-image-field';
import { PlaceForm } from '@/features/admin/places/components/place-form';
import { FormAlert } from '@/components/form-alert';

export function usePlaceSaveMessages(): Record<PlaceSaveError, string> {
  const { t } = useLingui();
  return {
    duplicate_name: t`Es gibt schon einen Liegeplatz mit diesem Namen.`,
    invalid: t`Bitte die Eingaben prüfen: eine Angabe liegt außerhalb des Erlaubten.`,
    forbidden: t`Dazu fehlt Ihnen die Berechtigung.`,
    unknown: t`Der Liegeplatz konnte nicht gespeichert werden. Bitte erneut versuchen.`,
  };
}

/** Spec: title 'Liegeplatz erstellen', button 'Erstellen', through a confirmation dialog; the image uploads after the berth exists. */
export function PlaceCreatePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const messages = usePlaceSaveMessages();
  const [pending, setPending] = useState<PlaceValues | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const saving = useSavePlace();
  // After the berth is saved: its image uploading, then the way to its page.
  const [finishing, setFinishing] = useState(false);
  const busy = saving.isPending || finishing;
  const error = refusalOf<PlaceSaveError>(saving.error);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<UploadError | null>(null);

  const create = async () => {
    if (!pending) return;
    const id = await saving
      .mutateAsync({ input: toPlaceInput(pending), additionalPlaceIds: pending.additional_place_ids })
      .catch(() => null);
    setPending(null);
    if (id === null) return;
    const result = { id };
    setFinishing(true);
    if (file) {
      setProgress(0);
      const failed = await uploadImage(PLACE_BUCKET, placeImagePath(result.id), file, setProgress);
      if (failed || !(await addPlacePhoto(result.id, placeImagePath(result.id)))) {
        setUploadError(failed ?? 'failed');
        setFinishing(false);
        await new Promise((r) => setTimeout(r, 3000));
        await queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all });
        // The berth exists: continue on its page, where the image can be chosen again.
        await navigate({ to: '/{-$locale}/account/admin/places/$id/edit', params: { id: result.id } });
        return;
      }
    }
    await queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all });
    await navigate({ to: '/{-$locale}/account/admin/places/$id/edit', params: { id: result.id } });
  };

  return (
    <Page title={t`Liegeplatz erstellen`}>
      <ImageField label={t`Titelbild`} currentUrl={null} progress={progress} error={uploadError} onPick={setFile} disabled={busy} />
      <PlaceForm label={t`Liegeplatz erstellen`} onValid={setPending}>
        <Button type="submit" disabled={busy}>
          <Trans>Erstellen</Trans>
        </Button>
      </PlaceForm>
      {error && <FormAlert>{messages[error]}</FormAlert>}
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={t`Liegeplatz erstellen?`}
        description={<Trans>Der Liegeplatz „{pending?.name}“ wird angelegt und ist sofort buchbar.</Trans>}
        confirmLabel={t`Erstellen`}
        busy={busy}
        onConfirm={() => void create()}
      />
    </Page>
  );
}
