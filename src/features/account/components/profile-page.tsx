import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { t as tm } from '@lingui/core/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { getSupabase, identityQueryOptions } from '@/lib/auth';
import { decimalInput } from '@/lib/numbers';
import { activateLocale, localeFromPath, persistLocale, stripLocale, withLocale } from '@/lib/i18n';
import { AvatarCard, EmailChangeCard, MyDataCard, PasswordChangeCard } from '@/features/account/components/profile-extras';
import { MfaCard } from '@/features/auth';
import { messages, optionalPhone, requiredText } from '@/lib/validation';
import { metresField } from '@/features/account/schemas/profile';
import { FormAlert } from '@/components/form-alert';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => messages.max(max) });
const optionalMetres = (lo: number, hi: number) => metresField(lo, hi, true);

const profileSchema = z.object({
  firstName: requiredText(100),
  lastName: requiredText(100),
  phone: optionalPhone(),
  company: optionalText(100),
  street: optionalText(200),
  postalCode: optionalText(20),
  city: optionalText(100),
  country: optionalText(100),
  boatName: optionalText(60),
  boatTag: optionalText(60),
  boatLength: optionalMetres(1, 60),
  boatWidth: optionalMetres(0.5, 15),
  // ADR 0053 "Draught against depth": prefills the booking, where the search checks it against the berths' depth.
  boatDraught: optionalMetres(0.1, 5),
  locale: z.enum(['de', 'en']),
});
type ProfileValues = z.infer<typeof profileSchema>;

interface ProfileRow {
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  company: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  boat_name: string | null;
  boat_tag: string | null;
  boat_length: string | number | null;
  boat_width: string | number | null;
  boat_draught: string | number | null;
  locale: 'de' | 'en';
  avatar_path: string | null;
}

const profileQueryOptions = (userId: string) => ({
  queryKey: ['profile', userId] as const,
  queryFn: async (): Promise<ProfileRow | null> => {
    const supabase = await getSupabase();
    const { data, error } = await supabase
      .from('profiles')
      .select(
        'first_name,last_name,phone,company,street,postal_code,city,country,boat_name,boat_tag,boat_length,boat_width,boat_draught,locale,avatar_path',
      )
      .eq('id', userId)
      .maybeSingle();
    if (error) throw error;
    return data as ProfileRow | null;
  },
});

const fields: {
  name: Exclude<keyof ProfileValues, 'locale'>;
  label: () => string;
  autoComplete?: string;
  inputMode?: 'decimal' | 'tel';
}[] = [
  { name: 'firstName', label: () => tm`Vorname`, autoComplete: 'given-name' },
  { name: 'lastName', label: () => tm`Nachname`, autoComplete: 'family-name' },
  { name: 'phone', label: () => tm`Telefon`, autoComplete: 'tel', inputMode: 'tel' },
  { name: 'company', label: () => tm`Firma`, autoComplete: 'organization' },
  { name: 'street', label: () => tm`Straße und Hausnummer`, autoComplete: 'street-address' },
  { name: 'postalCode', label: () => tm`PLZ`, autoComplete: 'postal-code' },
  { name: 'city', label: () => tm`Ort`, autoComplete: 'address-level2' },
  { name: 'country', label: () => tm`Land`, autoComplete: 'country-name' },
  { name: 'boatName', label: () => tm`Bootsname` },
  { name: 'boatTag', label: () => tm`Kennzeichen` },
  { name: 'boatLength', label: () => tm`Bootslänge (m)`, inputMode: 'decimal' },
  { name: 'boatWidth', label: () => tm`Bootsbreite (m)`, inputMode: 'decimal' },
  { name: 'boatDraught', label: () => tm`Tiefgang (m)`, inputMode: 'decimal' },
];

/**
 * /account/profile: picture, person and boat data (prefill for bookings), the preferred language
 * (applied on saving), e-mail and password changes, and my data (download, delete the account).
 */
export function ProfilePage() {
  const { t } = useLingui();
  const { data: identity } = useQuery(identityQueryOptions);
  const userId = identity?.status === 'loggedIn' ? identity.userId : undefined;
  const profile = useQuery({ ...profileQueryOptions(userId ?? ''), enabled: !!userId });
  return (
    <Page title={t`Profil und Bootsdaten`} lead={t`Diese Daten füllen Ihre Buchungen vor.`}>
      {profile.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : profile.data ? (
        <div className="flex max-w-2xl flex-col gap-6">
          <AvatarCard userId={userId!} path={profile.data.avatar_path} />
          <ProfileForm userId={userId!} row={profile.data} />
          {identity?.status === 'loggedIn' && identity.email && <EmailChangeCard current={identity.email} />}
          <PasswordChangeCard />
          <MfaCard />
          <MyDataCard avatarPath={profile.data.avatar_path} />
        </div>
      ) : (
        <FormAlert>
          <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>
        </FormAlert>
      )}
    </Page>
  );
}

export function ProfileForm({ userId, row }: { userId: string; row: ProfileRow }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [state, setState] = useState<'saved' | 'failed'>();
  const s = (v: string | number | null) => (v == null ? '' : String(v));
  const form = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: {
      firstName: s(row.first_name),
      lastName: s(row.last_name),
      phone: s(row.phone),
      company: s(row.company),
      street: s(row.street),
      postalCode: s(row.postal_code),
      city: s(row.city),
      country: s(row.country),
      boatName: s(row.boat_name),
      boatTag: s(row.boat_tag),
      boatLength: decimalInput(row.boat_length, i18n.locale),
      boatWidth: decimalInput(row.boat_width, i18n.locale),
      boatDraught: decimalInput(row.boat_draught, i18n.locale),
      locale: row.locale,
    },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    const n = (x: string) => (x === '' ? null : Number(x.replace(',', '.')));
    const o = (x: string) => (x === '' ? null : x);
    try {
      const supabase = await getSupabase();
      const { error } = await supabase
        .from('profiles')
        .update({
          first_name: v.firstName,
          last_name: v.lastName,
          phone: o(v.phone ?? ''),
          company: o(v.company),
          street: o(v.street),
          postal_code: o(v.postalCode),
          city: o(v.city),
          country: o(v.country),
          boat_name: o(v.boatName),
          boat_tag: o(v.boatTag),
          boat_length: n(v.boatLength),
          boat_width: n(v.boatWidth),
          boat_draught: n(v.boatDraught),
          locale: v.locale,
        })
        .eq('id', userId);
      if (error) throw error;
      await queryClient.invalidateQueries({ queryKey: ['profile', userId] });
      await queryClient.invalidateQueries({ queryKey: ['identity'] });
      setState('saved');
      // The preferred language applies at once: on this device, and in the address when it has one.
      persistLocale(v.locale);
      const { pathname } = router.state.location;
      if (localeFromPath(pathname) && localeFromPath(pathname) !== v.locale) {
        await router.navigate({ href: withLocale(stripLocale(pathname), v.locale), replace: true });
      } else if (!localeFromPath(pathname)) {
        await activateLocale(v.locale);
      }
    } catch {
      setState('failed');
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-4" aria-label={t`Profil und Bootsdaten`}>
        <div className="grid gap-4 sm:grid-cols-2">
          {fields.map((f) => (
            <FormField
              key={f.name}
              control={form.control}
              name={f.name}
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{f.label()}</FormLabel>
                  <FormControl>
                    <Input autoComplete={f.autoComplete} inputMode={f.inputMode} {...field} value={field.value ?? ''} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
          ))}
          <FormField
            control={form.control}
            name="locale"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Bevorzugte Sprache</Trans>
                </FormLabel>
                <FormControl>
                  <select className="h-10 rounded-md border border-slate-300 bg-white px-3" {...field}>
                    <option value="de">Deutsch</option>
                    <option value="en">English</option>
                  </select>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <div aria-live="polite">
          {state === 'saved' && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Gespeichert.</Trans>
            </p>
          )}
          {state === 'failed' && (
            <FormAlert className="text-sm">
              <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>
            </FormAlert>
          )}
        </div>
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>Speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}
