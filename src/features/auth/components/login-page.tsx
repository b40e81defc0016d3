import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { getSupabase } from '@/lib/auth';
import { VerifyEmailCard } from '@/features/identity';
import { afterLogin } from '@/features/auth/api/auth';
import { loginSchema, type LoginValues } from '@/features/auth/schemas/login';
import { FormAlert } from '@/components/form-alert';

/**
 * E-mail + password, or e-mail + code (the identity path's code login); afterwards back to `from`
 * (internal paths only) or /account. One neutral message for every failed login.
 */
export function LoginPage({ from }: { from?: string }) {
  const { t } = useLingui();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [byCode, setByCode] = useState(false);
  const [failure, setFailure] = useState<'credentials' | 'incomplete' | 'network' | undefined>();
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.signInWithPassword(values);
      if (error) {
        setFailure(error.status && error.status < 500 ? 'credentials' : 'network');
        return;
      }
      // Then the profile's language (no choice on this device yet) and on to `from` or /account.
      if (!(await afterLogin(queryClient, router, from))) setFailure('incomplete');
    } catch {
      setFailure('network');
    }
  });
  return (
    <Page
      title={t`Anmelden`}
      lead={
        byCode ? t`Melden Sie sich mit einem Code an, den wir Ihnen per E-Mail senden.` : t`Melden Sie sich mit E-Mail und Passwort an.`
      }
    >
      {byCode ? (
        <VerifyEmailCard
          onVerified={() =>
            void afterLogin(queryClient, router, from).then((ok) => {
              if (!ok) setFailure('incomplete');
            })
          }
        />
      ) : (
        <Card className="max-w-md">
          <CardContent className="pt-4">
            <Form {...form}>
              <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Anmelden`}>
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
                  name="password"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>
                        <Trans>Passwort</Trans>
                      </FormLabel>
                      <FormControl>
                        <Input type="password" autoComplete="current-password" {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <div aria-live="polite">
                  {failure === 'credentials' && (
                    <FormAlert className="text-sm">
                      <Trans>Anmeldung fehlgeschlagen. Bitte prüfen Sie E-Mail-Adresse und Passwort.</Trans>
                    </FormAlert>
                  )}
                  {failure === 'incomplete' && (
                    <FormAlert className="text-sm">
                      <Trans>Ihr Konto ist noch nicht vollständig eingerichtet. Bitte wenden Sie sich an das Hafenbüro.</Trans>
                    </FormAlert>
                  )}
                  {failure === 'network' && (
                    <FormAlert className="text-sm">
                      <Trans>Die Anmeldung ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>
                    </FormAlert>
                  )}
                </div>
                <Button type="submit" disabled={form.formState.isSubmitting}>
                  <Trans>Anmelden</Trans>
                </Button>
              </form>
            </Form>
          </CardContent>
        </Card>
      )}
      {byCode && failure === 'incomplete' && (
        <FormAlert className="text-sm">
          <Trans>Ihr Konto ist noch nicht vollständig eingerichtet. Bitte wenden Sie sich an das Hafenbüro.</Trans>
        </FormAlert>
      )}
      <div className="flex flex-col items-start gap-2 text-sm">
        <Button
          type="button"
          variant="link"
          className="h-auto p-0"
          onClick={() => {
            setFailure(undefined);
            setByCode((b) => !b);
          }}
        >
          {byCode ? <Trans>Stattdessen mit Passwort anmelden</Trans> : <Trans>Stattdessen mit E-Mail-Code anmelden</Trans>}
        </Button>
        <Link to="/{-$locale}/auth/password-forgotten" className="text-primary-dark underline underline-offset-4">
          <Trans>Passwort vergessen?</Trans>
        </Link>
        <Link to="/{-$locale}/auth/register" className="text-primary-dark underline underline-offset-4">
          <Trans>Noch kein Konto? Registrieren</Trans>
        </Link>
      </div>
    </Page>
  );
}
