import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { identityQueryOptions } from '@/lib/auth';
import { ConfirmDialog } from '@/components/confirm-dialog';
import {
  adminMfaStatusQueryOptions,
  adminUserQueryOptions,
  useResetMfa,
  useSaveUser,
  type AdminUser,
} from '@/features/admin/users/api/users';
import { userSchema, type UserValues } from '@/features/admin/users/schemas/user';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** /account/admin/users/{id}/edit: person fields, role flags and the active flag. */
export function UserEditPage({ id }: { id: string }) {
  const { t } = useLingui();
  const { data: user } = useSuspenseQuery(adminUserQueryOptions(id));
  return (
    <Page title={t`Benutzer bearbeiten`} lead={user?.email ?? undefined}>
      {user && <MfaSection userId={user.id} />}
      {user ? (
        <UserForm key={user.id} user={user} />
      ) : (
        <FormAlert>
          <Trans>Diesen Benutzer gibt es nicht (mehr).</Trans>
        </FormAlert>
      )}
    </Page>
  );
}

type TextField = 'firstName' | 'lastName' | 'phone' | 'company' | 'street' | 'postalCode' | 'city' | 'country';

function UserForm({ user }: { user: AdminUser }) {
  const { t } = useLingui();
  const { data: identity } = useQuery(identityQueryOptions);
  const self = identity?.status === 'loggedIn' && identity.userId === user.id;
  const saving = useSaveUser();
  const s = (v: string | null) => v ?? '';
  const form = useForm<UserValues>({
    resolver: zodResolver(userSchema),
    defaultValues: {
      firstName: s(user.first_name),
      lastName: s(user.last_name),
      phone: s(user.phone),
      company: s(user.company),
      street: s(user.street),
      postalCode: s(user.postal_code),
      city: s(user.city),
      country: s(user.country),
      admin: user.roles.admin,
      harbor: user.roles.harbor,
      user: user.roles.user,
      active: user.active,
    },
  });
  const fields: { name: TextField; label: string }[] = [
    { name: 'firstName', label: t`Vorname` },
    { name: 'lastName', label: t`Nachname` },
    { name: 'phone', label: t`Telefon` },
    { name: 'company', label: t`Firma` },
    { name: 'street', label: t`Straße und Hausnummer` },
    { name: 'postalCode', label: t`PLZ` },
    { name: 'city', label: t`Ort` },
    { name: 'country', label: t`Land` },
  ];

  const onSubmit = form.handleSubmit((values) => saving.mutate({ id: user.id, values, self }));

  const flag = (name: 'admin' | 'harbor' | 'user' | 'active', label: string, locked: boolean) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem className="flex flex-row items-center gap-3">
          <FormControl>
            <Checkbox checked={field.value} disabled={locked} onCheckedChange={(c) => field.onChange(c === true)} />
          </FormControl>
          <FormLabel className="font-normal">{label}</FormLabel>
        </FormItem>
      )}
    />
  );

  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Benutzer bearbeiten`} className="flex max-w-2xl flex-col gap-5">
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">
            <Trans>Person</Trans>
          </legend>
          {fields.map((f) => (
            <FormField
              key={f.name}
              control={form.control}
              name={f.name}
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{f.label}</FormLabel>
                  <FormControl>
                    <Input {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
          ))}
        </fieldset>
        <fieldset className="grid gap-3">
          <legend className="mb-2 font-semibold">
            <Trans>Rollen und Status</Trans>
          </legend>
          {/* The database refuses both for oneself anyway (cannot_remove_own_admin, cannot_deactivate_self). */}
          {flag('admin', t`Admin`, self && user.roles.admin)}
          {flag('harbor', t`Hafenteam (harbor)`, false)}
          {flag('user', t`Benutzer (user)`, false)}
          {flag('active', t`Konto aktiv`, self && user.active)}
          {self && (
            <FormField
              control={form.control}
              name="admin"
              render={() => (
                <FormItem>
                  <FormDescription>
                    <Trans>Ihr eigenes Konto: Die Admin-Rolle und den Aktiv-Status kann nur ein anderer Admin ändern.</Trans>
                  </FormDescription>
                </FormItem>
              )}
            />
          )}
        </fieldset>
        <div aria-live="polite">
          {saving.isSuccess && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Gespeichert.</Trans>
            </p>
          )}
          {saving.error && <FormAlert className="text-sm">{staffErrorMessage(saving.error)}</FormAlert>}
        </div>
        <div className="flex gap-3">
          <Button type="submit" disabled={saving.isPending}>
            <Trans>Speichern</Trans>
          </Button>
          <PathLink path="/account/admin/users" className="self-center text-sm text-primary-dark underline">
            <Trans>Zurück zur Liste</Trans>
          </PathLink>
        </div>
      </form>
    </Form>
  );
}

/** The person's second factor; an admin resets it when the phone is lost (audited, e-mailed). */
function MfaSection({ userId }: { userId: string }) {
  const { t } = useLingui();
  const status = useQuery(adminMfaStatusQueryOptions(userId));
  const [open, setOpen] = useState(false);
  const resetting = useResetMfa();
  const reset = () => resetting.mutate(userId, { onSuccess: () => setOpen(false) });
  if (!status.data) return null;
  return (
    <section aria-labelledby="mfa-heading" className="flex max-w-2xl flex-col gap-2 rounded-md border border-slate-200 p-4">
      <h2 id="mfa-heading" className="font-semibold">
        <Trans>Zwei-Faktor-Anmeldung</Trans>
      </h2>
      <p className="text-sm text-slate-700">
        {status.data.verified ? <Trans>Eingerichtet.</Trans> : <Trans>Nicht eingerichtet.</Trans>}{' '}
        {status.data.required && <Trans>Für die Rollen dieser Person vorgeschrieben.</Trans>}
      </p>
      <div aria-live="polite">
        {resetting.isSuccess && (
          <p role="status" className="text-sm text-green-800">
            <Trans>
              Der zweite Faktor wurde zurückgesetzt. Die Person wurde per E-Mail informiert und richtet ihn bei der nächsten Anmeldung neu
              ein.
            </Trans>
          </p>
        )}
      </div>
      {status.data.factorCount > 0 && (
        <Button
          type="button"
          variant="outline"
          className="self-start"
          onClick={() => {
            if (resetting.isError) resetting.reset();
            setOpen(true);
          }}
        >
          <Trans>Zweiten Faktor zurücksetzen</Trans>
        </Button>
      )}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t`Zweiten Faktor zurücksetzen?`}
        description={
          <Trans>
            Die Person kann sich danach nur mit dem Passwort anmelden und muss die Zwei-Faktor-Anmeldung neu einrichten. Sie wird per E-Mail
            informiert; der Vorgang steht im Protokoll.
          </Trans>
        }
        confirmLabel={t`Zurücksetzen`}
        destructive
        busy={resetting.isPending}
        error={resetting.error ? staffErrorMessage(resetting.error) : undefined}
        onConfirm={reset}
      />
    </section>
  );
}
