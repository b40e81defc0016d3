import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { emailField } from '@/lib/validation';
import { ensureSession, sendEmailCode } from '@/features/identity/api/identity';
import { AuthError } from '@/features/identity/components/auth-error';
import { CodeForm } from '@/features/identity/components/code-form';

const emailSchema = z.object({ email: emailField() });

/**
 * Verify an e-mail address (or log in) by code from anywhere: the order page, check-in, later
 * /auth/login. Afterwards the guest orders of that address belong to the signed-in user.
 */
export function VerifyEmailCard({
  defaultEmail = '',
  onVerified,
  title,
  description,
  codeSent = false,
}: {
  defaultEmail?: string;
  onVerified: () => void;
  title?: string;
  description?: string;
  /** A code went to defaultEmail already (the booking flow sent it): ask for it at once (issue 40 item 9). */
  codeSent?: boolean;
}) {
  const { t, i18n } = useLingui();
  const [sentTo, setSentTo] = useState<string | undefined>(codeSent && defaultEmail ? defaultEmail : undefined);
  const waiting = codeSent && sentTo === defaultEmail;
  const [error, setError] = useState<unknown>();
  const form = useForm<{ email: string }>({ resolver: zodResolver(emailSchema), defaultValues: { email: defaultEmail } });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      await ensureSession(i18n.locale);
      await sendEmailCode(v.email, { locale: i18n.locale });
      setSentTo(v.email);
    } catch (e) {
      setError(e);
    }
  });
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>{waiting ? t`Buchung mit Code bestätigen` : (title ?? t`Mit E-Mail-Code anmelden`)}</CardTitle>
        <CardDescription>
          {waiting
            ? t`Geben Sie den 6-stelligen Code aus unserer E-Mail ein. Keine E-Mail bekommen? Lassen Sie sich einen neuen Code senden.`
            : (description ??
              t`Wir senden Ihnen einen 6-stelligen Code. Damit bestätigen Sie Ihre E-Mail-Adresse und sehen Ihre Buchungen auf jedem Gerät.`)}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {sentTo ? (
          <div className="flex flex-col gap-3">
            <p className="text-sm text-slate-700">
              <Trans>Wir haben einen Code an {sentTo} gesendet.</Trans>
            </p>
            <CodeForm
              email={sentTo}
              onVerified={() => onVerified()}
              extraActions={
                <Button type="button" variant="ghost" onClick={() => setSentTo(undefined)}>
                  <Trans>Andere E-Mail-Adresse</Trans>
                </Button>
              }
            />
          </div>
        ) : (
          <Form {...form}>
            <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Code anfordern`}>
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
                  <Trans>Code senden</Trans>
                </Button>
              </div>
            </form>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
