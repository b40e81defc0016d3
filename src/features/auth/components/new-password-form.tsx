import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { AuthError } from '@/features/identity';
import { setPassword } from '@/features/auth/api/auth';
import { newPasswordSchema, type NewPasswordValues } from '@/features/auth/schemas/password';

/** Password + confirmation with the rules of spec section 5; sets it for the signed-in user. */
export function NewPasswordForm({
  onDone,
  submitLabel,
  save = setPassword,
}: {
  onDone: () => void | Promise<void>;
  submitLabel?: string;
  save?: (password: string) => Promise<void>;
}) {
  const { t } = useLingui();
  const [error, setError] = useState<unknown>();
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', passwordConfirm: '' },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      await save(v.password);
      await onDone();
    } catch (e) {
      setError(e);
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Passwort festlegen`}>
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Neues Passwort</Trans>
              </FormLabel>
              <FormControl>
                <Input type="password" autoComplete="new-password" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="passwordConfirm"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Passwort wiederholen</Trans>
              </FormLabel>
              <FormControl>
                <Input type="password" autoComplete="new-password" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <AuthError error={error} />
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {submitLabel ?? t`Passwort speichern`}
          </Button>
        </div>
      </form>
    </Form>
  );
}
