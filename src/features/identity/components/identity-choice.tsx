import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { ensureSession, passwordLogin, sendEmailCode } from '@/features/identity/api/identity';
import { rememberPassword } from '@/features/identity/api/pending-password';
import {
  guestSchema,
  loginSchema,
  newCustomerSchema,
  type GuestValues,
  type LoginValues,
  type NewCustomerValues,
} from '@/features/identity/schemas/identity';
import { AuthError } from '@/features/identity/components/auth-error';

export type ProceedMode = 'new' | 'login' | 'guest';

export interface IdentityResult {
  mode: 'new' | 'customer' | 'login-code' | 'guest';
  email: string;
  firstName: string;
  lastName: string;
  /** Logged in with a password: nothing left to verify. */
  verified: boolean;
}

/**
 * Step 3 of the booking: new customer, login (password or e-mail code), or guest. Whoever is not
 * logged in gets an anonymous session here; the code goes out for every path but the password login.
 */
export function IdentityChoice({ onDone, initial }: { onDone: (result: IdentityResult) => void; initial?: Partial<GuestValues> }) {
  const { t } = useLingui();
  const [mode, setMode] = useState<ProceedMode>('guest');
  return (
    <div className="flex flex-col gap-6">
      <RadioGroup
        value={mode}
        onValueChange={(v) => setMode(v as ProceedMode)}
        aria-label={t`Wie möchten Sie fortfahren?`}
        className="gap-3 sm:grid-cols-3"
      >
        {(
          [
            ['new', t`Neukunde`, t`Konto anlegen und Daten für später speichern`],
            ['login', t`Anmelden`, t`Mit Passwort oder E-Mail-Code`],
            ['guest', t`Als Gast buchen`, t`Ohne Konto, nur mit E-Mail-Adresse`],
          ] as const
        ).map(([value, title, hint]) => (
          <Label
            key={value}
            htmlFor={`proceed-${value}`}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[[data-state=checked]]:border-primary-dark has-[[data-state=checked]]:bg-sky-50"
          >
            <RadioGroupItem id={`proceed-${value}`} value={value} className="mt-0.5" />
            <span className="flex flex-col gap-1">
              <span className="font-semibold">{title}</span>
              <span className="text-sm font-normal text-slate-600">{hint}</span>
            </span>
          </Label>
        ))}
      </RadioGroup>
      {mode === 'new' && <NewCustomerForm onDone={onDone} initial={initial} />}
      {mode === 'login' && <LoginForm onDone={onDone} initial={initial} />}
      {mode === 'guest' && <GuestForm onDone={onDone} initial={initial} />}
    </div>
  );
}

function NameFields({ control }: { control: ReturnType<typeof useForm<GuestValues>>['control'] }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField
        control={control}
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
        control={control}
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
  );
}

function GuestForm({ onDone, initial }: { onDone: (r: IdentityResult) => void; initial?: Partial<GuestValues> }) {
  const { t, i18n } = useLingui();
  const [error, setError] = useState<unknown>();
  const form = useForm<GuestValues>({
    resolver: zodResolver(guestSchema),
    defaultValues: { email: initial?.email ?? '', firstName: initial?.firstName ?? '', lastName: initial?.lastName ?? '' },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      await ensureSession(i18n.locale);
      await sendEmailCode(v.email, { locale: i18n.locale, firstName: v.firstName, lastName: v.lastName });
      onDone({ mode: 'guest', email: v.email, firstName: v.firstName, lastName: v.lastName, verified: false });
    } catch (e) {
      setError(e);
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Als Gast buchen`}>
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
        <NameFields control={form.control} />
        <AuthError error={error} />
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>Weiter</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}

function NewCustomerForm({ onDone, initial }: { onDone: (r: IdentityResult) => void; initial?: Partial<GuestValues> }) {
  const { t, i18n } = useLingui();
  const [error, setError] = useState<unknown>();
  const form = useForm<NewCustomerValues>({
    resolver: zodResolver(newCustomerSchema),
    defaultValues: {
      email: initial?.email ?? '',
      firstName: initial?.firstName ?? '',
      lastName: initial?.lastName ?? '',
      password: '',
      passwordConfirm: '',
    },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      await ensureSession(i18n.locale);
      await sendEmailCode(v.email, { locale: i18n.locale, firstName: v.firstName, lastName: v.lastName });
      rememberPassword(v.email, v.password);
      onDone({ mode: 'new', email: v.email, firstName: v.firstName, lastName: v.lastName, verified: false });
    } catch (e) {
      setError(e);
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={t`Neukunde`}>
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
        <NameFields control={form.control as unknown as ReturnType<typeof useForm<GuestValues>>['control']} />
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="password"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Passwort</Trans>
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
        </div>
        <AuthError error={error} />
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>Weiter</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}

function LoginForm({ onDone, initial }: { onDone: (r: IdentityResult) => void; initial?: Partial<GuestValues> }) {
  const { t, i18n } = useLingui();
  const [error, setError] = useState<unknown>();
  const [byCode, setByCode] = useState(false);
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: initial?.email ?? '', password: '' } });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(undefined);
    try {
      if (byCode) {
        await ensureSession(i18n.locale);
        await sendEmailCode(v.email, { locale: i18n.locale });
        onDone({ mode: 'login-code', email: v.email, firstName: '', lastName: '', verified: false });
      } else {
        if (!v.password) {
          form.setError('password', { message: t`Passwort wird benötigt` });
          return;
        }
        await passwordLogin(v.email, v.password);
        onDone({ mode: 'customer', email: v.email, firstName: '', lastName: '', verified: true });
      }
    } catch (e) {
      setError(e);
    }
  });
  return (
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
        {!byCode && (
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
        )}
        <AuthError error={error} />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {byCode ? <Trans>Code senden</Trans> : <Trans>Anmelden</Trans>}
          </Button>
          <Button type="button" variant="link" onClick={() => setByCode((b) => !b)}>
            {byCode ? <Trans>Stattdessen mit Passwort anmelden</Trans> : <Trans>Stattdessen mit E-Mail-Code anmelden</Trans>}
          </Button>
        </div>
      </form>
    </Form>
  );
}
