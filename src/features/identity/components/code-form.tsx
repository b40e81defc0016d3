import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { sendEmailCode, verifyEmailCode } from '@/features/identity/api/identity';
import { forgetPassword, pendingPassword } from '@/features/identity/api/pending-password';
import { codeSchema, passwordField } from '@/features/identity/schemas/identity';
import { AuthError } from '@/features/identity/components/auth-error';

/**
 * Enter the 6-digit code e-mailed to `email`. For a new customer whose password is no longer in
 * memory (a reload) the password is asked here again. Verifying signs in as the permanent user
 * and claims the guest orders of that address.
 */
export function CodeForm({
  email,
  newCustomer,
  onVerified,
  extraActions,
}: {
  email: string;
  newCustomer?: boolean;
  onVerified: (claimed: number) => void;
  extraActions?: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const [error, setError] = useState<unknown>();
  const [resent, setResent] = useState(false);
  const askPassword = !!newCustomer && !pendingPassword(email);
  const schema = askPassword ? codeSchema.extend({ password: passwordField() }) : codeSchema.extend({ password: z.string() });
  const form = useForm<{ code: string; password: string }>({ resolver: zodResolver(schema), defaultValues: { code: '', password: '' } });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      const password = newCustomer ? (pendingPassword(email) ?? v.password) : undefined;
      const claimed = await verifyEmailCode(email, v.code, password || undefined);
      forgetPassword();
      onVerified(claimed);
    } catch (e) {
      setError(e);
    }
  });
  // A new code at most once a minute (the auth server limits it too): the button counts down.
  const [wait, setWait] = useState(0);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);
  const resend = async () => {
    if (wait > 0) return;
    setError(undefined);
    setWait(60);
    try {
      await sendEmailCode(email, { locale: i18n.locale });
      setResent(true);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Code eingeben`}>
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
        {askPassword && (
          <FormField
            control={form.control}
            name="password"
            render={({ field }) => (
              <FormItem className="max-w-xs">
                <FormLabel>
                  <Trans>Passwort für Ihr neues Konto</Trans>
                </FormLabel>
                <FormControl>
                  <Input type="password" autoComplete="new-password" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        )}
        <AuthError error={error} />
        {resent && (
          <p className="text-sm text-green-800" role="status">
            <Trans>Ein neuer Code ist unterwegs.</Trans>
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>Bestätigen</Trans>
          </Button>
          <Button type="button" variant="link" onClick={resend} disabled={wait > 0}>
            {wait > 0 ? <Trans>Neuer Code in {wait} s möglich</Trans> : <Trans>Code erneut senden</Trans>}
          </Button>
          {extraActions}
        </div>
      </form>
    </Form>
  );
}
