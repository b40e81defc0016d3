import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import {
  adminPlacePhotosQueryOptions,
  PLACE_BUCKET,
  useAddPlacePhoto,
  useRemovePlacePhoto,
  useReorderPlacePhotos,
  type AdminPlacePhoto,
} from '@/features/admin/places/api/places';
import { publicImageUrl, type UploadError } from '@/features/admin/shared/upsert-image';
import { ImageField } from '@/features/admin/shared/upsert-image-field';
import { FormAlert } from '@/components/form-alert';
import { refusalOf } from '@/lib/refused';

/**
 * A berth's photos in the order guests see them (the first is the cover): add one after the
 * other, move up or down (buttons, so the keyboard works as the mouse), remove.
 */
export function PhotosSection({ placeId }: { placeId: string }) {
  const { t } = useLingui();
  const { data: photos = [], error } = useQuery(adminPlacePhotosQueryOptions(placeId));
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  // The photo just moved and the way it went: it keeps the focus once the buttons are enabled again.
  const moved = useRef<{ id: string; by: -1 | 1 } | null>(null);
  const adding = useAddPlacePhoto(placeId);
  const reordering = useReorderPlacePhotos(placeId);
  const removing = useRemovePlacePhoto(placeId);
  const busy = adding.isPending || reordering.isPending || removing.isPending;
  const addRefusal = refusalOf<UploadError>(adding.error);
  const uploadError: UploadError | null = addRefusal === 'unknown' ? 'failed' : addRefusal;

  const add = (file: File) => {
    setMessage(null);
    setProgress(0);
    adding.mutate(
      { file, onProgress: setProgress },
      {
        onSuccess: () => {
          setPickerKey((k) => k + 1);
          setProgress(null);
          setMessage({ ok: true, text: t`Foto hinzugefügt.` });
        },
        onError: () => setProgress(null),
      },
    );
  };

  const move = (index: number, by: -1 | 1) => {
    const ids = photos.map((p) => p.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id);
    reordering.mutate(ids, {
      onSuccess: () => setMessage({ ok: true, text: t`Foto ${index + 1} ist jetzt Foto ${index + 1 + by}.` }),
      onError: () => setMessage({ ok: false, text: t`Die Reihenfolge konnte nicht gespeichert werden. Bitte erneut versuchen.` }),
      onSettled: () => {
        moved.current = { id, by };
      },
    });
  };

  // The moved photo keeps the focus: on the same arrow, or the other one at either end.
  useEffect(() => {
    const last = moved.current;
    if (!last || busy) return;
    moved.current = null;
    const same = document.getElementById(`photo-${last.id}-${last.by < 0 ? 'up' : 'down'}`) as HTMLButtonElement | null;
    const other = document.getElementById(`photo-${last.id}-${last.by < 0 ? 'down' : 'up'}`) as HTMLButtonElement | null;
    (same && !same.disabled ? same : other)?.focus();
  }, [busy]);

  const remove = (photo: AdminPlacePhoto, index: number) =>
    removing.mutate(photo, {
      onSuccess: () => setMessage({ ok: true, text: t`Foto ${index + 1} entfernt.` }),
      onError: () => setMessage({ ok: false, text: t`Das Foto konnte nicht entfernt werden. Bitte erneut versuchen.` }),
    });

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
                  onClick={() => move(i, -1)}
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
                  onClick={() => move(i, 1)}
                >
                  <ArrowDown className="size-4" aria-hidden />
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  aria-label={t`Foto ${i + 1} entfernen`}
                  onClick={() => remove(photo, i)}
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
        onPick={add}
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
