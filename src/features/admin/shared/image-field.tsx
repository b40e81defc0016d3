import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { publicImageUrl, uploadImage, type ImageBucket, type UploadError } from '@/features/admin/shared/image-upload';
import { FormAlert } from '@/components/form-alert';

/**
 * A title image: pick a file, it uploads at once with a progress bar, and the stored path is
 * handed to the form. Removing only clears the field; the form's save decides what is kept.
 */
export function ImageField({
  bucket,
  folder,
  value,
  onChange,
  onUploadingChange,
  label,
}: {
  bucket: ImageBucket;
  folder: string;
  value: string;
  onChange: (path: string) => void;
  onUploadingChange?: (uploading: boolean) => void;
  label: string;
}) {
  const { t } = useLingui();
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<UploadError | null>(null);
  const messages: Record<UploadError, string> = {
    too_large: t`Die Datei ist zu groß (höchstens 5 MB).`,
    wrong_type: t`Bitte ein Bild als JPEG, PNG oder WebP wählen.`,
    failed: t`Das Bild konnte nicht hochgeladen werden. Bitte erneut versuchen.`,
  };

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setProgress(0);
    onUploadingChange?.(true);
    const result = await uploadImage(bucket, folder, file, setProgress);
    onUploadingChange?.(false);
    setProgress(null);
    if ('error' in result) return setError(result.error);
    onChange(result.path);
  };

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {value && (
        <div className="flex items-end gap-3">
          <img
            src={publicImageUrl(bucket, value)}
            alt={t`Aktuelles Titelbild`}
            className="h-24 w-auto rounded border border-slate-200 object-cover"
          />
          <Button type="button" variant="outline" size="sm" onClick={() => onChange('')}>
            <Trans>Bild entfernen</Trans>
          </Button>
        </div>
      )}
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        disabled={progress !== null}
        className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5"
        onChange={(e) => {
          void pick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {progress !== null && (
        <div className="grid gap-1">
          <progress max={100} value={Math.round(progress * 100)} aria-label={t`Hochladen`} className="h-2 w-full max-w-sm" />
          <span role="status" className="text-sm text-slate-700">
            <Trans>Wird hochgeladen … {Math.round(progress * 100)} %</Trans>
          </span>
        </div>
      )}
      {error && <FormAlert className="text-sm">{messages[error]}</FormAlert>}
    </div>
  );
}
