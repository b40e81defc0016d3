import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download, Trash2, UserRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { AuthError } from '@/features/identity';
import { NewPasswordForm } from '@/features/auth';
import { localeFromPath, withLocale } from '@/lib/i18n';
import {
  avatarUrlQueryOptions,
  confirmEmailChange,
  downloadMyData,
  requestEmailChange,
  uploadAvatar,
  useDeleteMyAccount,
  UploadError,
} from '@/features/account/api/profile';
import {
  avatarMessages,
  avatarProblem,
  emailChangeCodesSchema,
  newEmailSchema,
  type EmailChangeCodesValues,
  type NewEmailValues,
} from '@/features/account/schemas/profile';
import { FormAlert } from '@/components/form-alert';
import { refusalOf } from '@/lib/refused';

const failedText = () => <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>;

/** Profile picture: choose a file, checked here (type, 5 MB) and by the bucket; upload with progress. */
export function AvatarCard({ userId, path }: { userId: string; path: string | null }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [state, setState] = useState<'saved' | 'failed'>();
  const { data: url } = useQuery(avatarUrlQueryOptions(path));
  // The thumbnail that failed to load (then the original is shown instead).
  const [failedThumb, setFailedThumb] = useState<string>();
  const upload = async (file: File | undefined) => {
    setState(undefined);
    const why = avatarProblem(file);
    setProblem(why);
    if (why || !file) return;
    setProgress(0);
    try {
      const saved = await uploadAvatar(file, setProgress);
      await queryClient.invalidateQueries({ queryKey: ['profile', userId] });
      await queryClient.invalidateQueries({ queryKey: ['avatar', saved] });
      setState('saved');
    } catch (e) {
      if (e instanceof UploadError && e.status === 413) setProblem(avatarMessages.fileTooLarge());
      else if (e instanceof UploadError && (e.status === 415 || e.status === 400)) setProblem(avatarMessages.imageRequired());
      else setState('failed');
    } finally {
      setProgress(undefined);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Profilbild</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>JPEG, PNG oder WebP, höchstens 5 MB. Nur Sie und das Hafenteam sehen es.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-4">
        {url ? (
          <img
            src={failedThumb === url.src ? url.original : url.src}
            onError={() => setFailedThumb(url.src)}
            width={80}
            height={80}
            alt={t`Ihr Profilbild`}
            className="size-20 rounded-full border border-slate-200 object-cover"
          />
        ) : (
          <span
            className="flex size-20 items-center justify-center rounded-full border border-slate-200 bg-slate-50 text-slate-500"
            aria-hidden
          >
            <UserRound className="size-10" />
          </span>
        )}
        <div className="flex flex-col gap-2">
          <label className="text-sm font-medium" htmlFor="avatar-file">
            <Trans>Bild auswählen</Trans>
          </label>
          <input
            id="avatar-file"
            ref={input}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            aria-invalid={!!problem}
            aria-describedby={problem ? 'avatar-problem' : undefined}
            disabled={progress !== undefined}
            className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5"
            onChange={(e) => void upload(e.target.files?.[0])}
          />
          {progress !== undefined && (
            <div className="flex items-center gap-2 text-sm">
              <progress max={1} value={progress} aria-label={t`Hochladen`} className="h-2 w-40" />
              <span>{Math.round(progress * 100)} %</span>
            </div>
          )}
          <div aria-live="polite">
            {problem && (
              <FormAlert id="avatar-problem" className="text-sm">
                {problem}
              </FormAlert>
            )}
            {state === 'saved' && (
              <p role="status" className="text-sm text-green-800">
                <Trans>Profilbild gespeichert.</Trans>
              </p>
            )}
            {state === 'failed' && <FormAlert className="text-sm">{failedText()}</FormAlert>}
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

/** E-mail change by code: new address -> a code to it and one to the current address -> both entered. */
export function EmailChangeCard({ current }: { current: string }) {
  const { t, i18n } = useLingui();
  const [next, setNext] = useState<string>();
  const [currentDone, setCurrentDone] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>();
  // The current address changes under the card once a change is confirmed: read it at validation time.
  const currentRef = useRef(current);
  useEffect(() => {
    currentRef.current = current;
  }, [current]);
  const emailForm = useForm<NewEmailValues>({
    resolver: (values, context, options) => zodResolver(newEmailSchema(currentRef.current))(values, context, options),
    defaultValues: { email: '' },
  });
  const codeForm = useForm<EmailChangeCodesValues>({
    resolver: zodResolver(emailChangeCodesSchema),
    defaultValues: { codeNew: '', codeCurrent: '' },
  });
  const request = emailForm.handleSubmit(async (v) => {
    setError(undefined);
    setDone(false);
    try {
      await requestEmailChange(v.email.trim(), i18n.locale);
      setNext(v.email.trim().toLowerCase());
      setCurrentDone(false);
      codeForm.reset();
    } catch (e) {
      setError(e);
    }
  });
  const confirm = codeForm.handleSubmit(async (v) => {
    setError(undefined);
    try {
      await confirmEmailChange(current, next!, { codeCurrent: v.codeCurrent.trim(), codeNew: v.codeNew.trim() }, currentDone);
      setDone(true);
      setNext(undefined);
      emailForm.reset();
    } catch (e) {
      if ((e as { currentDone?: boolean }).currentDone) setCurrentDone(true);
      setError(e);
    }
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>E-Mail-Adresse ändern</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Derzeit: {current}. Zur Sicherheit senden wir je einen Code an die neue und an die bisherige Adresse.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {done && (
          <p role="status" className="text-sm text-green-800">
            <Trans>Ihre E-Mail-Adresse wurde geändert.</Trans>
          </p>
        )}
        {!next ? (
          <Form {...emailForm}>
            <form onSubmit={request} noValidate className="flex flex-col gap-4" aria-label={t`E-Mail-Adresse ändern`}>
              <FormField
                control={emailForm.control}
                name="email"
                render={({ field }) => (
                  <FormItem className="max-w-md">
                    <FormLabel>
                      <Trans>Neue E-Mail-Adresse</Trans>
                    </FormLabel>
                    <FormControl>
                      <Input type="email" autoComplete="email" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <AuthError error={error} />
              <div>
                <Button type="submit" variant="outline" disabled={emailForm.formState.isSubmitting}>
                  <Trans>Codes senden</Trans>
                </Button>
              </div>
            </form>
          </Form>
        ) : (
          <Form {...codeForm}>
            <form onSubmit={confirm} noValidate className="flex flex-col gap-4" aria-label={t`Neue E-Mail-Adresse bestätigen`}>
              <FormField
                control={codeForm.control}
                name="codeNew"
                render={({ field }) => (
                  <FormItem className="max-w-xs">
                    <FormLabel>
                      <Trans>Code aus der E-Mail an {next}</Trans>
                    </FormLabel>
                    <FormControl>
                      <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              {!currentDone && (
                <FormField
                  control={codeForm.control}
                  name="codeCurrent"
                  render={({ field }) => (
                    <FormItem className="max-w-xs">
                      <FormLabel>
                        <Trans>Code aus der E-Mail an {current}</Trans>
                      </FormLabel>
                      <FormControl>
                        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              )}
              <AuthError error={error} />
              <div className="flex flex-wrap gap-3">
                <Button type="submit" disabled={codeForm.formState.isSubmitting}>
                  <Trans>Änderung bestätigen</Trans>
                </Button>
                <Button
                  type="button"
                  variant="link"
                  onClick={() => {
                    setNext(undefined);
                    setError(undefined);
                  }}
                >
                  <Trans>Abbrechen</Trans>
                </Button>
              </div>
            </form>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

/** Password change with the registration's rules (the same form and schema). */
export function PasswordChangeCard() {
  const { t } = useLingui();
  const [saved, setSaved] = useState(0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Passwort ändern</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Mindestens 6 Zeichen mit Klein- und Großbuchstaben und Ziffern.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <NewPasswordForm key={saved} submitLabel={t`Passwort ändern`} onDone={() => setSaved((n) => n + 1)} />
        {saved > 0 && (
          <p role="status" className="text-sm text-green-800">
            <Trans>Ihr Passwort wurde geändert.</Trans>
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** GDPR: download everything stored about me; delete my account after a confirmation dialog. */
export function MyDataCard({ avatarPath }: { avatarPath: string | null }) {
  const router = useRouter();
  // The download's outcome; the deletion's is the mutation's. One message at a time: each clears the other.
  const [downloaded, setDownloaded] = useState<'downloaded' | 'failed'>();
  const deleting = useDeleteMyAccount(() =>
    router.navigate({ href: withLocale('/start', localeFromPath(router.state.location.pathname)), replace: true }),
  );
  const refusal = refusalOf<'last_admin'>(deleting.error);
  const state = downloaded ?? (refusal === 'last_admin' ? 'last-admin' : refusal ? 'failed' : undefined);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const download = async () => {
    setDownloaded(undefined);
    deleting.reset();
    try {
      await downloadMyData();
      setDownloaded('downloaded');
    } catch {
      setDownloaded('failed');
    }
  };
  const remove = () => {
    setDownloaded(undefined);
    deleting.mutate(avatarPath);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Meine Daten</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Laden Sie alle Daten herunter, die wir über Sie speichern, oder löschen Sie Ihr Konto.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-3">
          <Button type="button" variant="outline" onClick={() => void download()}>
            <Download aria-hidden />
            <Trans>Meine Daten herunterladen</Trans>
          </Button>
          <ConfirmDialog
            open={confirmOpen}
            onOpenChange={setConfirmOpen}
            trigger={
              <Button type="button" variant="destructive" disabled={deleting.isPending}>
                <Trash2 aria-hidden />
                <Trans>Konto löschen</Trans>
              </Button>
            }
            title={<Trans>Konto wirklich löschen?</Trans>}
            description={
              <Trans>
                Ihr Konto, Ihr Profil und Ihre Bootsdaten werden gelöscht; künftige Buchungen werden storniert. Vergangene Buchungen
                bewahren wir ohne Ihre persönlichen Daten auf, wie es das Steuerrecht verlangt. Das lässt sich nicht rückgängig machen.
              </Trans>
            }
            confirmLabel={<Trans>Endgültig löschen</Trans>}
            destructive
            onConfirm={() => {
              setConfirmOpen(false);
              remove();
            }}
          />
        </div>
        <div aria-live="polite">
          {state === 'downloaded' && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Ihre Daten wurden als JSON-Datei heruntergeladen.</Trans>
            </p>
          )}
          {state === 'last-admin' && (
            <FormAlert className="text-sm">
              <Trans>Als letzter Admin können Sie Ihr Konto nicht löschen. Ernennen Sie zuerst einen weiteren Admin.</Trans>
            </FormAlert>
          )}
          {state === 'failed' && <FormAlert className="text-sm">{failedText()}</FormAlert>}
        </div>
      </CardContent>
    </Card>
  );
}
