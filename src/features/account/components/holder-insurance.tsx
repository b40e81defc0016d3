import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { FormAlert } from '@/components/form-alert';
import { addDaysIso, berlinToday, formatDay } from '@/lib/dates';
import { errorMessage } from '@/lib/errors/guest-messages';
import { Refused } from '@/lib/refused';
import {
  certificatesQueryOptions,
  certificateUrl,
  useAddInsuranceCertificate,
  useSetRegistrationMark,
  type Certificate,
} from '@/features/account/api/insurance';
import type { Holding } from '@/features/account/api/long-term';
import {
  certificateSchema,
  registrationMarkSchema,
  uploadProblemText,
  type CertificateValues,
  type RegistrationMarkValues,
  type UploadProblem,
} from '@/features/account/schemas/insurance';

/**
 * A current or coming holding's insurance certificate (upload, insurer, policy number, valid
 * until; earlier ones listed) and the boat's registration mark (ADR 0050). Mounted in the
 * holding's card on /account/long-time-place.
 */
export function HolderInsurance({ holding }: { holding: Holding }) {
  const { t } = useLingui();
  if (holding.ends_on && holding.ends_on < berlinToday()) return null;
  return (
    <section
      aria-label={t`Versicherung und Kennzeichen`}
      className="mt-4 flex flex-col gap-4 border-t border-slate-200 pt-4"
      data-testid="holder-insurance"
    >
      <h3 className="font-semibold">
        <Trans>Versicherung und Kennzeichen</Trans>
      </h3>
      <p className="text-sm text-slate-700">
        <Trans>
          Die Hafenordnung verlangt für jedes Boot eine gültige Haftpflichtversicherung und das amtliche Kennzeichen. Den Nachweis sehen nur
          Sie und das Hafenteam.
        </Trans>
      </p>
      <CurrentCertificate holderId={holding.id} />
      <RegistrationMarkForm holderId={holding.id} current={holding.boat_tag ?? ''} />
      <CertificateForm holderId={holding.id} />
    </section>
  );
}

function CertificateLink({ certificate }: { certificate: Certificate }) {
  const [failed, setFailed] = useState(false);
  return (
    <>
      <Button
        type="button"
        variant="link"
        className="h-auto p-0"
        onClick={async () => {
          setFailed(false);
          const url = await certificateUrl(certificate.file_path).catch(() => null);
          if (url) window.open(url, '_blank', 'noopener');
          else setFailed(true);
        }}
      >
        <Trans>Nachweis ansehen</Trans>
      </Button>
      {failed && (
        <FormAlert className="text-sm">
          <Trans>Der Nachweis lässt sich gerade nicht öffnen. Bitte versuchen Sie es später noch einmal.</Trans>
        </FormAlert>
      )}
    </>
  );
}

function CurrentCertificate({ holderId }: { holderId: string }) {
  const { i18n } = useLingui();
  const certificates = useQuery(certificatesQueryOptions(holderId));
  if (certificates.isPending)
    return (
      <p role="status" className="text-sm">
        <Trans>Lädt…</Trans>
      </p>
    );
  if (certificates.isError) return <FormAlert className="text-sm">{errorMessage(certificates.error, { i18n })}</FormAlert>;
  const today = berlinToday();
  const [latest, ...earlier] = certificates.data;
  const valid = latest && latest.valid_until >= today;
  const soon = valid && latest.valid_until <= addDaysIso(today, 30);
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="insurance-status">
      {!latest ? (
        <FormAlert variant="warning" box>
          <Trans>Uns liegt noch kein Versicherungsnachweis vor. Bitte laden Sie ihn unten hoch.</Trans>
        </FormAlert>
      ) : !valid ? (
        <FormAlert variant="warning" box>
          <Trans>
            Ihr Versicherungsnachweis ist am {formatDay(latest.valid_until, i18n.locale)} abgelaufen. Bitte laden Sie den neuen hoch.
          </Trans>
        </FormAlert>
      ) : (
        <p className={soon ? 'rounded-md bg-warning p-3 text-warning-foreground' : undefined}>
          <Trans>
            Versichert bei {latest.insurer} (Police {latest.policy_number}) bis {formatDay(latest.valid_until, i18n.locale)}.
          </Trans>{' '}
          {soon && <Trans>Bitte laden Sie rechtzeitig den neuen Nachweis hoch.</Trans>}
        </p>
      )}
      {latest && (
        <div>
          <CertificateLink certificate={latest} />
        </div>
      )}
      {earlier.length > 0 && (
        <details>
          <summary className="cursor-pointer">
            <Trans>Frühere Nachweise</Trans>
          </summary>
          <ul className="mt-2 flex flex-col gap-1">
            {earlier.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center gap-2">
                <span>
                  {c.insurer} ({c.policy_number}), <Trans>bis {formatDay(c.valid_until, i18n.locale)}</Trans>
                </span>
                <CertificateLink certificate={c} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function RegistrationMarkForm({ holderId, current }: { holderId: string; current: string }) {
  const { t, i18n } = useLingui();
  const save = useSetRegistrationMark();
  const form = useForm<RegistrationMarkValues>({ resolver: zodResolver(registrationMarkSchema), defaultValues: { mark: current } });
  const onSubmit = form.handleSubmit((v) => save.mutate({ holderId, mark: v.mark }));
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" aria-label={t`Amtliches Kennzeichen`}>
        <div className="flex flex-wrap items-end gap-2">
          <FormField
            control={form.control}
            name="mark"
            render={({ field }) => (
              <FormItem className="min-w-0 flex-1 sm:max-w-xs">
                <FormLabel>
                  <Trans>Amtliches Kennzeichen</Trans>
                </FormLabel>
                <FormControl>
                  <Input {...field} autoCapitalize="characters" placeholder={t`z. B. K-AB 123`} maxLength={30} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <Button type="submit" variant="outline" disabled={save.isPending}>
            <Trans>Kennzeichen speichern</Trans>
          </Button>
        </div>
        <div aria-live="polite">
          {save.isSuccess && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Kennzeichen gespeichert.</Trans>
            </p>
          )}
          {save.isError && <FormAlert className="text-sm">{errorMessage(save.error, { i18n })}</FormAlert>}
        </div>
      </form>
    </Form>
  );
}

function CertificateForm({ holderId }: { holderId: string }) {
  const { t, i18n } = useLingui();
  // A new key empties the file field after a saved certificate.
  const [fileKey, setFileKey] = useState(0);
  const [progress, setProgress] = useState<number>();
  const add = useAddInsuranceCertificate(setProgress);
  const form = useForm<CertificateValues>({
    resolver: zodResolver(certificateSchema),
    defaultValues: { insurer: '', policyNumber: '', validUntil: '', file: undefined },
  });
  const onSubmit = form.handleSubmit((v) =>
    add.mutate(
      { holderId, insurer: v.insurer, policyNumber: v.policyNumber, validUntil: v.validUntil, file: v.file as File },
      {
        onSuccess: () => {
          form.reset();
          setFileKey((k) => k + 1);
        },
      },
    ),
  );
  const failure =
    add.error instanceof Refused
      ? uploadProblemText(add.error.reason as UploadProblem)
      : add.error
        ? errorMessage(add.error, { i18n })
        : null;
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={t`Versicherungsnachweis hochladen`}>
        <h4 className="text-sm font-semibold">
          <Trans>Neuen Versicherungsnachweis hochladen</Trans>
        </h4>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="insurer"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Versicherer</Trans>
                </FormLabel>
                <FormControl>
                  <Input {...field} maxLength={100} autoComplete="off" />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="policyNumber"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Policennummer</Trans>
                </FormLabel>
                <FormControl>
                  <Input {...field} maxLength={60} autoComplete="off" />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="validUntil"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Gültig bis</Trans>
                </FormLabel>
                <FormControl>
                  <DatePicker {...field} min={addDaysIso(berlinToday(), 1)} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="file"
            render={({ field: { onChange, onBlur, name, ref } }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Nachweis (PDF oder Foto, höchstens 5 MB)</Trans>
                </FormLabel>
                <FormControl>
                  <input
                    key={fileKey}
                    ref={ref}
                    name={name}
                    onBlur={onBlur}
                    type="file"
                    accept="application/pdf,image/jpeg,image/png,image/webp"
                    className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5"
                    onChange={(e) => {
                      onChange(e.target.files?.[0]);
                      void form.trigger('file');
                    }}
                  />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        {progress !== undefined && (
          <div className="flex items-center gap-2 text-sm">
            <progress max={1} value={progress} aria-label={t`Hochladen`} className="h-2 w-40" />
            <span>{Math.round(progress * 100)} %</span>
          </div>
        )}
        <div aria-live="polite">
          {add.isSuccess && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Versicherungsnachweis gespeichert.</Trans>
            </p>
          )}
          {failure && <FormAlert className="text-sm">{failure}</FormAlert>}
        </div>
        <div>
          <Button type="submit" disabled={add.isPending}>
            <Trans>Nachweis hochladen</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}
