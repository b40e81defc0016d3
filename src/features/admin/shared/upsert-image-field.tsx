import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Label } from '@/components/ui/label';
import { checkImage, type UploadError } from '@/features/admin/shared/upsert-image';
import { FormAlert } from '@/components/form-alert';

export function useUploadMessages(): Record<UploadError, string> {
  const { t } = useLingui();
  return {
    too_large: t`Die Datei ist zu groß (höchstens 5 MB).`,
    wrong_type: t`Bitte ein Bild im Format JPEG, PNG oder WebP wählen.`,
    failed: t`Das Bild konnte nicht hochgeladen werden. Bitte erneut versuchen.`,
  };
}

/**
 * A title image: the current one (if any), a file picker, the upload's progress and its error.
 * `onPick` receives a file that passed the size and type checks.
 */
export function ImageField({
  label,
  currentUrl,
  progress,
  error,
  onPick,
  disabled,
}: {
  label: string;
  currentUrl: string | null;
  progress: number | null;
  error: UploadError | null;
  onPick: (file: File) => void;
  disabled?: boolean;
}) {
  const { t } = useLingui();
  const id = useId();
  const messages = useUploadMessages();
  const [localError, setLocalError] = useState<UploadError | null>(null);
  const shown = localError ?? error;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {currentUrl && (
        <img
          src={currentUrl}
          alt={t`Aktuelles Bild`}
          className="aspect-[16/9] w-full max-w-sm rounded-md border border-slate-200 object-cover"
        />
      )}
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        disabled={disabled}
        aria-invalid={!!shown}
        className="text-sm"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          const invalid = checkImage(file);
          setLocalError(invalid);
          if (!invalid) onPick(file);
        }}
      />
      <p className="text-sm text-slate-600">
        <Trans>JPEG, PNG oder WebP, höchstens 5 MB.</Trans>
      </p>
      {progress !== null && (
        <div className="flex items-center gap-2 text-sm">
          <progress max={1} value={progress} aria-label={t`Upload-Fortschritt`} className="w-48" />
          <span role="status">{progress >= 1 ? t`Bild hochgeladen.` : t`${Math.round(progress * 100)} % hochgeladen`}</span>
        </div>
      )}
      {shown && <FormAlert className="text-sm">{messages[shown]}</FormAlert>}
    </div>
  );
}
