import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useRouter } from '@tanstack/react-router';
import { identityQueryOptions } from '@/lib/auth';
import { localeFromPath } from '@/lib/i18n';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { sendEmailCode, AuthError, CodeForm, guestSchema, type GuestValues } from '@/features/identity';
import { afterLogin, sendResetEmail, setPassword, verifyRecoveryCode } from '@/features/auth/api/auth';
import { emailOnlySchema, type EmailOnlyValues } from '@/features/auth/schemas/password';
import { NewPasswordForm } from '@/features/auth/components/new-password-form';

const linkClass = 'text-primary-dark underline underline-offset-4';

/**
 * Registration = the identity path: e-mail + names -> 6-digit code -> password. An address that
 * already has an account goes the same way (its owner logs in by code and sets a new password),
 * so nothing reveals whether an address is registered.
 */
export function RegisterPage() {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<'details' | 'code' | 'password'>('details');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<unknown>();
  const form = useForm<GuestValues>({ resolver: zodResolver(guestSchema), defaultValues: { email: '', firstName: '', lastName: '' } });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      await sendEmailCode(v.email, { locale: i18n.locale, firstName: v.firstName, lastName: v.lastName });
      setEmail(v.email);
      setStep('code');
    } catch (e) {
      setError(e);
    }
  });
  const { data: identity } = useQuery(identityQueryOptions);
  // Already logged in (and not in the middle of registering): nothing to register.
  if (identity?.status === 'loggedIn' && step === 'details') return <Navigate to="/{-$locale}/account" replace />;
  return (
    <Page title={t`Registrieren`} lead={t`Legen Sie ein Konto an, um Buchungen und Bootsdaten zu verwalten.`}>
      <Card className="max-w-xl">
        {step === 'details' && (
          <CardContent className="pt-4">
            <Form {...form}>
              <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Registrieren`}>
                <FormField
                  control={form.control}
                  name="email"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>
                        <Trans>E-Mail</Trans>
                      </FormLabel>
                      <FormControl>
                        <Input type="email" autoComplete="email" {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField
                    control={form.control}
                    name="firstName"
                    render={({ field }) => (
                      <FormItem>
                        <FormLabel>
                          <Trans>Vorname</Trans>
                        </FormLabel>
                        <FormControl>
                          <Input autoComplete="given-name" {...field} />
                        </FormControl>
                        <FormMessage />
                      </FormItem>
                    )}
                  />
                  <FormField
                    control={form.control}
                    name="lastName"
                    render={({ field }) => (
                      <FormItem>
                        <FormLabel>
                          <Trans>Nachname</Trans>
                        </FormLabel>
                        <FormControl>
                          <Input autoComplete="family-name" {...field} />
                        </FormControl>
                        <FormMessage />
                      </FormItem>
                    )}
                  />
                </div>
                {error ? <EmailRefused error={error} /> : null}
                <div>
                  <Button type="submit" disabled={form.formState.isSubmitting}>
                    <Trans>Weiter</Trans>
                  </Button>
                </div>
              </form>
            </Form>
          </CardContent>
        )}
        {step === 'code' && (
          <>
            <CardHeader>
              <CardTitle>
                <Trans>E-Mail-Adresse bestätigen</Trans>
              </CardTitle>
              <CardDescription>
                <Trans>
                  Wir haben einen 6-stelligen Code an {email} gesendet. Sie können diesen Schritt überspringen und sich später mit einem
                  Code anmelden.
                </Trans>
              </CardDescription>
            </CardHeader>
            <CardContent>
              <CodeForm
                email={email}
                onVerified={() => setStep('password')}
                extraActions={
                  <Link to="/{-$locale}/auth/login" search={{ from: undefined }} className={linkClass}>
                    <Trans>Überspringen, später bestätigen</Trans>
                  </Link>
                }
              />
            </CardContent>
          </>
        )}
        {step === 'password' && (
          <>
            <CardHeader>
              <CardTitle>
                <Trans>Passwort festlegen</Trans>
              </CardTitle>
              <CardDescription>
                <Trans>Ihre E-Mail-Adresse ist bestätigt. Legen Sie jetzt Ihr Passwort fest.</Trans>
              </CardDescription>
            </CardHeader>
            <CardContent>
              <NewPasswordForm
                onDone={async () => {
                  await afterLogin(queryClient, router);
                }}
              />
            </CardContent>
          </>
        )}
      </Card>
      {step === 'details' && (
        <p className="text-sm">
          <Link to="/{-$locale}/auth/login" search={{ from: undefined }} className={linkClass}>
            <Trans>Schon ein Konto? Anmelden</Trans>
          </Link>
        </p>
      )}
    </Page>
  );
}

/** The spec's 'e-mail invalid' dialog, for addresses the server refuses; other failures as usual. */
function EmailRefused({ error }: { error: unknown }) {
  const e = error as { status?: number; code?: string } | null;
  if (e?.code === 'email_address_invalid' || e?.code === 'validation_failed' || e?.status === 400 || e?.status === 422) {
    return (
      <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
        <p className="font-semibold">
          <Trans>E-Mail ungültig</Trans>
        </p>
        <p>
          <Trans>Bitte überprüfen Sie Ihre E-Mail-Adresse.</Trans>
        </p>
      </div>
    );
  }
  return <AuthError error={error} />;
}

/** Sends the reset e-mail (code and link); answers the same whether or not the address has an account. */
export function PasswordForgottenPage() {
  const { t } = useLingui();
  const [sentTo, setSentTo] = useState<string>();
  const [error, setError] = useState<unknown>();
  const form = useForm<EmailOnlyValues>({ resolver: zodResolver(emailOnlySchema), defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      await sendResetEmail(v.email);
      setSentTo(v.email);
    } catch (e) {
      setError(e);
    }
  });
  return (
    <Page title={t`Passwort vergessen`} lead={t`Wir senden Ihnen einen Code, mit dem Sie ein neues Passwort setzen.`}>
      <Card className="max-w-md">
        <CardContent className="pt-4">
          {sentTo ? (
            <div role="status" className="flex flex-col gap-3">
              <p className="font-semibold">
                <Trans>Passwort zurücksetzen</Trans>
              </p>
              <p className="text-sm">
                <Trans>
                  Falls ein Konto zu {sentTo} besteht, haben wir eine E-Mail mit einem Link und einem Code zum Zurücksetzen gesendet.
                </Trans>
              </p>
              <Link to="/{-$locale}/auth/reset-password" search={{ email: sentTo }} className={linkClass}>
                <Trans>Code eingeben</Trans>
              </Link>
            </div>
          ) : (
            <Form {...form}>
              <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Passwort vergessen`}>
                <FormField
                  control={form.control}
                  name="email"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>
                        <Trans>E-Mail</Trans>
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
                  <Button type="submit" disabled={form.formState.isSubmitting}>
                    <Trans>Link und Code senden</Trans>
                  </Button>
                </div>
              </form>
            </Form>
          )}
        </CardContent>
      </Card>
    </Page>
  );
}

/** From the e-mailed link (a session already) or with e-mail + code (verifyOtp recovery), then the new password. */
export function ResetPasswordPage({ email: initialEmail, hasSession }: { email?: string; hasSession: boolean }) {
  const { t } = useLingui();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [verified, setVerified] = useState(hasSession);
  const [error, setError] = useState<unknown>();
  const form = useForm<{ email: string; code: string }>({ defaultValues: { email: initialEmail ?? '', code: '' } });
  // Someone with a second factor (harbour staff): the recovery code alone is a session at aal1,
  // and GoTrue changes no password on it (insufficient_aal). The code from the app first, on
  // the second-factor page, which then brings the person back here to set the password.
  const savePassword = async (password: string) => {
    try {
      await setPassword(password);
    } catch (e) {
      if ((e as { code?: string } | null)?.code === 'insufficient_aal') {
        await queryClient.invalidateQueries({ queryKey: ['identity'] });
        await router.navigate({
          to: '/{-$locale}/auth/mfa',
          params: { locale: localeFromPath(router.state.location.pathname) },
          search: { from: router.state.location.href },
        });
      }
      throw e;
    }
  };
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    const parsed = emailOnlySchema.safeParse({ email: v.email });
    if (!parsed.success) {
      form.setError('email', { message: parsed.error.issues[0]?.message });
      return;
    }
    if (!/^\d{6}$/.test(v.code.trim())) {
      form.setError('code', { message: t`Der Code hat 6 Ziffern` });
      return;
    }
    try {
      await verifyRecoveryCode(v.email, v.code.trim());
      setVerified(true);
    } catch (e) {
      setError(e);
    }
  });
  return (
    <Page title={t`Neues Passwort`} lead={t`Setzen Sie ein neues Passwort für Ihr Konto.`}>
      <Card className="max-w-md">
        <CardContent className="pt-4">
          {verified ? (
            <NewPasswordForm
              save={savePassword}
              onDone={async () => {
                await afterLogin(queryClient, router);
              }}
            />
          ) : (
            <Form {...form}>
              <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Code eingeben`}>
                <FormField
                  control={form.control}
                  name="email"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>
                        <Trans>E-Mail</Trans>
                      </FormLabel>
                      <FormControl>
                        <Input type="email" autoComplete="email" {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <FormField
                  control={form.control}
                  name="code"
                  render={({ field }) => (
                    <FormItem className="max-w-xs">
                      <FormLabel>
                        <Trans>6-stelliger Code</Trans>
                      </FormLabel>
                      <FormControl>
                        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <AuthError error={error} />
                <div>
                  <Button type="submit" disabled={form.formState.isSubmitting}>
                    <Trans>Bestätigen</Trans>
                  </Button>
                </div>
              </form>
            </Form>
          )}
        </CardContent>
      </Card>
      <p className="text-sm">
        <Link to="/{-$locale}/auth/password-forgotten" className={linkClass}>
          <Trans>Neuen Code anfordern</Trans>
        </Link>
      </p>
    </Page>
  );
}
