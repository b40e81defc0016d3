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
import { getSupabase, identityQueryOptions, safeInternalPath } from '@/lib/auth';
import { activateLocale, isLocale, localeFromPath, persistLocale, storedLocale, withLocale } from '@/lib/i18n';
import { loginSchema, type LoginValues } from '../schemas/login';

/** E-mail + password; afterwards back to `from` (internal paths only) or /account. */
export function LoginPage({ from }: { from?: string }) {
  const { t } = useLingui();
  const router = useRouter();
  const queryClient = useQueryClient();
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
      const identity = await queryClient.fetchQuery({ ...identityQueryOptions, staleTime: 0 });
      if (identity.status !== 'loggedIn') {
        setFailure('incomplete');
        return;
      }
      const locale = localeFromPath(router.state.location.pathname);
      // No choice made on this device yet: take the language kept in the profile.
      if (!storedLocale() && isLocale(identity.locale)) {
        persistLocale(identity.locale);
        if (!locale) await activateLocale(identity.locale);
      }
      const target = safeInternalPath(from) ?? withLocale('/account', locale);
      await router.navigate({ href: target, replace: true });
    } catch {
      setFailure('network');
    }
  });
  return (
    <Page title={t`Anmelden`} lead={t`Melden Sie sich mit E-Mail und Passwort an.`}>
      <Card className="max-w-md">
        <CardContent className="pt-4">
          <Form {...form}>
            <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Anmelden`}>
              <FormField control={form.control} name="email" render={({ field }) => (
                <FormItem><FormLabel><Trans>E-Mail</Trans></FormLabel><FormControl><Input type="email" autoComplete="email" {...field} /></FormControl><FormMessage /></FormItem>
              )} />
              <FormField control={form.control} name="password" render={({ field }) => (
                <FormItem><FormLabel><Trans>Passwort</Trans></FormLabel><FormControl><Input type="password" autoComplete="current-password" {...field} /></FormControl><FormMessage /></FormItem>
              )} />
              <div aria-live="polite">
                {failure === 'credentials' && <p role="alert" className="text-sm text-red-700"><Trans>Anmeldung fehlgeschlagen. Bitte prüfen Sie E-Mail-Adresse und Passwort.</Trans></p>}
                {failure === 'incomplete' && <p role="alert" className="text-sm text-red-700"><Trans>Ihr Konto ist noch nicht vollständig eingerichtet. Bitte wenden Sie sich an das Hafenbüro.</Trans></p>}
                {failure === 'network' && <p role="alert" className="text-sm text-red-700"><Trans>Die Anmeldung ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans></p>}
              </div>
              <Button type="submit" disabled={form.formState.isSubmitting}><Trans>Anmelden</Trans></Button>
            </form>
          </Form>
        </CardContent>
      </Card>
      <div className="flex flex-col gap-2 text-sm">
        <Link to="/{-$locale}/auth/password-forgotten" className="text-primary-dark underline underline-offset-4"><Trans>Passwort vergessen?</Trans></Link>
        <Link to="/{-$locale}/auth/register" className="text-primary-dark underline underline-offset-4"><Trans>Noch kein Konto? Registrieren</Trans></Link>
      </div>
    </Page>
  );
}
