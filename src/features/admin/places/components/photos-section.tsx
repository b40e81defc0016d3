import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import {
  addPlacePhoto,
  adminPlaceKeys,
  adminPlacePhotosQueryOptions,
  PLACE_BUCKET,
  placePhotoPath,
  removePlacePhoto,
  reorderPlacePhotos,
  type AdminPlacePhoto,
} from '@/features/admin/places/api/places';
import { publicImageUrl, uploadImage, type UploadError } from '@/features/admin/shared/upsert-image';
import { ImageField } from '@/features/admin/shared/upsert-image-field';
import { FormAlert } from '@/components/form-alert';

/**
 * A berth's photos in the order guests see them (the first is the cover): add one after the
 * other, move up or down (buttons, so the keyboard works as the mouse), remove.
 */
export function PhotosSection({ placeId }: { placeId: string }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { data: photos = [], error } = useQuery(adminPlacePhotosQueryOptions(placeId));
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<UploadError | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pickerKey, setPickerKey] = useState(0);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminPlaceKeys.photos(placeId) }),
      queryClient.invalidateQueries({ queryKey: adminPlaceKeys.list() }),
      queryClient.invalidateQueries({ queryKey: adminPlaceKeys.place(placeId) }),
    ]);

  const add = async (file: File) => {
    setUploadError(null);
    setMessage(null);
    setProgress(0);
    setBusy(true);
    const path = placePhotoPath(placeId, file);
    const failed = await uploadImage(PLACE_BUCKET, path, file, setProgress);
    const ok = !failed && (await addPlacePhoto(placeId, path));
    setBusy(false);
    if (!ok) {
      setProgress(null);
      setUploadError(failed ?? 'failed');
      return;
    }
    setPickerKey((k) => k + 1);
    await refresh();
    setProgress(null);
    setMessage({ ok: true, text: t`Foto hinzugefügt.` });
  };

  const move = async (index: number, by: -1 | 1) => {
    const ids = photos.map((p) => p.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id);
    setBusy(true);
    const ok = await reorderPlacePhotos(placeId, ids);
    await refresh();
    setBusy(false);
    setMessage(
      ok
        ? { ok: true, text: t`Foto ${index + 1} ist jetzt Foto ${index + 1 + by}.` }
        : { ok: false, text: t`Die Reihenfolge konnte nicht gespeichert werden. Bitte erneut versuchen.` },
    );
    // The moved photo keeps the focus: on the same arrow, or the other one at either end.
    requestAnimationFrame(() => {
      const same = document.getElementById(`photo-${id}-${by < 0 ? 'up' : 'down'}`) as HTMLButtonElement | null;
      const other = document.getElementById(`photo-${id}-${by < 0 ? 'down' : 'up'}`) as HTMLButtonElement | null;
      (same && !same.disabled ? same : other)?.focus();
    });
  };

  const remove = async (photo: AdminPlacePhoto, index: number) => {
    setBusy(true);
    const ok = await removePlacePhoto(photo);
    await refresh();
    setBusy(false);
    setMessage(
      ok
        ? { ok: true, text: t`Foto ${index + 1} entfernt.` }
        : { ok: false, text: t`Das Foto konnte nicht entfernt werden. Bitte erneut versuchen.` },
    );
  };

  return (
    <Section title={t`Fotos`} aria-label={t`Fotos`}>
      <p className="text-sm text-slate-600">
        <Trans>Gäste sehen die Fotos bei der Buchung in dieser Reihenfolge; das erste ist das Titelbild.</Trans>
      </p>
      {error && (
        <FormAlert>
          <Trans>Die Fotos konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
      {photos.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>Noch keine Fotos.</Trans>
        </p>
      ) : (
        <ol aria-label={t`Reihenfolge der Fotos`} className="grid gap-2">
          {photos.map((photo, i) => (
            <li key={photo.id} className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 p-2" data-path={photo.path}>
              <span className="w-6 text-right text-sm font-medium text-slate-700" aria-hidden>
                {i + 1}.
              </span>
              <img
                src={publicImageUrl(PLACE_BUCKET, photo.path)}
                alt={t`Foto ${i + 1} von ${photos.length}`}
                className="aspect-[4/3] h-16 w-auto rounded object-cover"
              />
              <div className="ml-auto flex gap-1">
                <Button
                  id={`photo-${photo.id}-up`}
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={busy || i === 0}
                  aria-label={t`Foto ${i + 1} nach vorn`}
                  onClick={() => void move(i, -1)}
                >
                  <ArrowUp className="size-4" aria-hidden />
                </Button>
                <Button
                  id={`photo-${photo.id}-down`}
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={busy || i === photos.length - 1}
                  aria-label={t`Foto ${i + 1} nach hinten`}
                  onClick={() => void move(i, 1)}
                >
                  <ArrowDown className="size-4" aria-hidden />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  aria-label={t`Foto ${i + 1} entfernen`}
                  onClick={() => void remove(photo, i)}
                >
                  <Trans>Entfernen</Trans>
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <ImageField
        key={pickerKey}
        label={t`Foto hinzufügen`}
        currentUrl={null}
        progress={progress}
        error={uploadError}
        onPick={(file) => void add(file)}
        disabled={busy}
      />
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={`text-sm ${message.ok ? 'text-green-700' : 'text-red-700'}`}>
          {message.text}
        </p>
      )}
    </Section>
  );
}
