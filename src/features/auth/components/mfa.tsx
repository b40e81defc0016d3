import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { identityQueryOptions } from '@/lib/auth';
import { localeFromPath } from '@/lib/i18n';
import { codeSchema, type CodeValues } from '@/features/identity';
import { landingPath } from '@/features/auth/api/auth';
import {
  MfaError,
  signOut,
  useRemoveFactor,
  useStartEnrolment,
  verifiedFactor,
  verifyCode,
  type MfaProblem,
} from '@/features/auth/api/mfa';
import { FormAlert } from '@/components/form-alert';

function ProblemText({ problem }: { problem: MfaProblem | undefined }) {
  if (!problem) return null;
  return (
    <FormAlert className="text-sm">
      {problem === 'wrong-code' && (
        <Trans>Der Code stimmt nicht. Bitte geben Sie den aktuellen 6-stelligen Code aus Ihrer Authenticator-App ein.</Trans>
      )}
      {problem === 'expired' && <Trans>Der Vorgang ist abgelaufen. Bitte geben Sie den Code noch einmal ein.</Trans>}
      {problem === 'too-many' && <Trans>Zu viele Versuche. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.</Trans>}
      {problem === 'needs-aal2' && <Trans>Bitte melden Sie sich zuerst mit Ihrem zweiten Faktor an.</Trans>}
      {problem === 'failed' && <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>}
    </FormAlert>
  );
}

const problemOf = (e: unknown): MfaProblem => (e instanceof MfaError ? e.problem : 'failed');

/** One 6-digit code field; `onCode` throws an MfaError for a clear message. */
function CodeEntry({ label, submitLabel, onCode }: { label: string; submitLabel: string; onCode: (code: string) => Promise<void> }) {
  const [problem, setProblem] = useState<MfaProblem>();
  const form = useForm<CodeValues>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });
  const onSubmit = form.handleSubmit(async ({ code }) => {
    setProblem(undefined);
    try {
      await onCode(code);
    } catch (e) {
      setProblem(problemOf(e));
      form.setValue('code', '');
      form.setFocus('code');
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={label}>
        <FormField
          control={form.control}
          name="code"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{label}</FormLabel>
              <FormControl>
                <Input
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  className="max-w-40 font-mono tracking-widest"
                  {...field}
                />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div aria-live="polite">
          <ProblemText problem={problem} />
        </div>
        <Button type="submit" className="self-start" disabled={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </form>
    </Form>
  );
}

/** The secret in groups of four, easier to type into an authenticator app. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/** Set up a TOTP factor: QR code and the key to type, then one code to confirm. */
export function TotpEnrolment({ onDone }: { onDone: () => Promise<void> | void }) {
  const { t } = useLingui();
  const enrol = useStartEnrolment();
  const enrolment = enrol.data;
  const problem = enrol.error ? problemOf(enrol.error) : undefined;
  if (!enrolment) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">
          <Trans>
            Sie brauchen eine Authenticator-App auf Ihrem Telefon, zum Beispiel Google Authenticator, Microsoft Authenticator oder FreeOTP.
          </Trans>
        </p>
        <ProblemText problem={problem} />
        <Button type="button" className="self-start" onClick={() => enrol.mutate()} disabled={enrol.isPending}>
          <Trans>Zwei-Faktor-Anmeldung einrichten</Trans>
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm text-slate-800">
        <li>
          <Trans>Scannen Sie den QR-Code mit Ihrer Authenticator-App.</Trans>
          <img
            src={enrolment.qrCode}
            alt={t`QR-Code für Ihre Authenticator-App`}
            width={200}
            height={200}
            className="mt-2 h-48 w-48 border border-slate-200 bg-white"
          />
        </li>
        <li>
          <Trans>Oder geben Sie diesen Schlüssel in der App ein:</Trans>
          <code
            data-testid="totp-secret"
            data-secret={enrolment.secret}
            className="mt-1 block break-all rounded bg-slate-100 px-2 py-1 font-mono text-base text-slate-900"
          >
            {grouped(enrolment.secret)}
          </code>
        </li>
        <li>
          <Trans>Geben Sie den 6-stelligen Code ein, den die App jetzt anzeigt.</Trans>
        </li>
      </ol>
      <CodeEntry
        label={t`Code aus der App`}
        submitLabel={t`Bestätigen`}
        onCode={async (code) => {
          await verifyCode(enrolment.factorId, code);
          await onDone();
        }}
      />
    </div>
  );
}

/**
 * /auth/mfa: the second step after the password (a verified factor, session still aal1), or the
 * set-up a staff member must do first when the harbour requires it. Then on to `from`.
 */
export function MfaPage({ from }: { from?: string }) {
  const { t } = useLingui();
  const router = useRouter();
  const queryClient = useQueryClient();
  const identity = useQuery(identityQueryOptions);
  const locale = localeFromPath(router.state.location.pathname);
  const step = identity.data?.status === 'loggedIn' ? identity.data.mfa : undefined;
  const factor = useQuery({ queryKey: ['mfa-factor'], queryFn: verifiedFactor, enabled: step === 'verify', staleTime: 0 });
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: ['identity'] });
    await router.navigate({ href: landingPath(queryClient.getQueryData(identityQueryOptions.queryKey), from, locale), replace: true });
  };
  useEffect(() => {
    if (!identity.data) return;
    if (identity.data.status !== 'loggedIn') {
      void router.navigate({ to: '/{-$locale}/auth/login', params: { locale }, search: { from }, replace: true });
    } else if (!identity.data.mfa) {
      void router.navigate({ href: landingPath(identity.data, from, locale), replace: true });
    }
  }, [identity.data, router, from, locale]);
  const leave = async () => {
    await signOut();
    await router.navigate({ to: '/{-$locale}/auth/login', params: { locale }, replace: true });
  };
  const title = step === 'enrol' ? t`Zwei-Faktor-Anmeldung einrichten` : t`Bestätigung mit zweitem Faktor`;
  return (
    <Page
      title={title}
      lead={
        step === 'enrol' ? (
          <Trans>
            Für Ihre Rolle im Hafen ist die Anmeldung mit einem zweiten Faktor vorgeschrieben. Richten Sie ihn einmal ein; danach fragt die
            Anmeldung jedes Mal nach einem Code aus Ihrer App.
          </Trans>
        ) : (
          <Trans>Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.</Trans>
        )
      }
    >
      <Card className="max-w-md">
        <CardContent className="pt-4">
          {step === 'enrol' && <TotpEnrolment onDone={done} />}
          {step === 'verify' && factor.data && (
            <CodeEntry
              label={t`Code aus der App`}
              submitLabel={t`Anmelden`}
              onCode={async (code) => {
                await verifyCode(factor.data!.id, code);
                await done();
              }}
            />
          )}
          {step === 'verify' && factor.isError && <ProblemText problem="failed" />}
        </CardContent>
      </Card>
      <div className="flex flex-col items-start gap-2 text-sm">
        {step === 'verify' && (
          <p className="max-w-prose text-slate-700">
            <Trans>
              Telefon verloren? Das Hafenbüro (ein Admin) kann Ihren zweiten Faktor zurücksetzen; danach richten Sie ihn neu ein.
            </Trans>
          </p>
        )}
        <Button type="button" variant="link" className="h-auto p-0" onClick={() => void leave()}>
          <Trans>Abmelden</Trans>
        </Button>
      </div>
    </Page>
  );
}

/** Profile: the second factor's state, set it up, or remove it (in an aal2 session only). */
export function MfaCard() {
  const queryClient = useQueryClient();
  const factor = useQuery({ queryKey: ['mfa-factor'], queryFn: verifiedFactor, staleTime: 0 });
  const removal = useRemoveFactor();
  const problem = removal.error ? problemOf(removal.error) : undefined;
  const [state, setState] = useState<'added' | 'removed'>();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['mfa-factor'] });
    await queryClient.invalidateQueries({ queryKey: ['identity'] });
  };
  const remove = (id: string) => {
    setState(undefined);
    removal.mutate(id, { onSuccess: () => setState('removed') });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Zwei-Faktor-Anmeldung</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Ein Code aus einer Authenticator-App schützt Ihr Konto zusätzlich zum Passwort.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {factor.data ? (
          <>
            <p className="text-sm text-green-800">
              <Trans>Die Zwei-Faktor-Anmeldung ist eingerichtet.</Trans>
            </p>
            <ProblemText problem={problem} />
            <Button
              type="button"
              variant="outline"
              className="self-start"
              onClick={() => remove(factor.data!.id)}
              disabled={removal.isPending}
            >
              <Trans>Zweiten Faktor entfernen</Trans>
            </Button>
          </>
        ) : factor.isSuccess ? (
          <TotpEnrolment
            key={state}
            onDone={async () => {
              setState('added');
              await refresh();
            }}
          />
        ) : null}
        <div aria-live="polite">
          {state === 'added' && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Die Zwei-Faktor-Anmeldung ist jetzt aktiv.</Trans>
            </p>
          )}
          {state === 'removed' && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Der zweite Faktor wurde entfernt.</Trans>
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
