import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { decimalInput } from '@/lib/numbers';
import { harbourIntroKeys } from '@/lib/harbour-intro';

import { saveStartIntro, startIntroQueryOptions, type StartIntro } from '@/features/admin/settings/api/start-intro';
import { parseDecimal, startIntroSchema, type StartIntroValues } from '@/features/admin/settings/schemas/start-intro';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

type SaveState = { ok: true } | { ok: false; message: string } | undefined;

const hhmm = (v: string | null) => (v ? v.slice(0, 5) : '');
const textareaClass = 'min-h-24 w-full rounded-md border border-slate-300 bg-white p-2 text-base md:text-sm';

/** Settings: what the start page says about the harbour (address, hours, map, approach by water). */
export function StartIntroSection() {
  const { t } = useLingui();
  const { data: intro } = useSuspenseQuery(startIntroQueryOptions());
  const [state, setState] = useState<SaveState>();
  return (
    <Section title={t`Startseite: der Hafen`} aria-label={t`Startseite: der Hafen`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Adresse, Telefon und E-Mail, Öffnungszeiten, Kartenposition und Anreise über das Wasser, wie die Startseite, die Kontakt- und die
          Rechtsseiten sie allen zeigen. Englische Texte sind optional; leer zeigt die englische Seite den deutschen Text.
        </Trans>
      </p>
      {intro ? (
        <StartIntroForm key={intro.updated_at} intro={intro} state={state} setState={setState} />
      ) : (
        <FormAlert>
          <Trans>Die Angaben zur Startseite konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
    </Section>
  );
}

function StartIntroForm({ intro, state, setState }: { intro: StartIntro; state: SaveState; setState: (state: SaveState) => void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  /** The database's own checks on phone and e-mail (when the form's were passed by): which field, in the admin's language. */
  const contactErrorMessage = (error: unknown): string | undefined => {
    const { code, message = '' } = (error ?? {}) as { code?: string; message?: string };
    if (code !== '23514') return undefined;
    if (message.includes('harbour_settings_contact_phone'))
      return t`Die Telefonnummer ist nicht gültig: bitte international angeben, z. B. +49 211 1234560.`;
    if (message.includes('harbour_settings_contact_email')) return t`Die E-Mail-Adresse ist nicht gültig.`;
    return undefined;
  };
  const form = useForm<StartIntroValues>({
    resolver: zodResolver(startIntroSchema),
    defaultValues: {
      address_street: intro.address_street,
      address_postal_code: intro.address_postal_code,
      address_city: intro.address_city,
      latitude: decimalInput(intro.latitude, i18n.locale),
      longitude: decimalInput(intro.longitude, i18n.locale),
      office_weekdays_opens: hhmm(intro.office_weekdays_opens),
      office_weekdays_closes: hhmm(intro.office_weekdays_closes),
      office_weekend_opens: hhmm(intro.office_weekend_opens),
      office_weekend_closes: hhmm(intro.office_weekend_closes),
      office_hours_note: intro.office_hours_note,
      office_hours_note_en: intro.office_hours_note_en,
      rhine_km: decimalInput(intro.rhine_km, i18n.locale),
      vhf_channel: intro.vhf_channel == null ? '' : String(intro.vhf_channel),
      water_approach: intro.water_approach,
      water_approach_en: intro.water_approach_en,
      contact_phone: intro.contact_phone,
      contact_email: intro.contact_email,
    },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await saveStartIntro({
        ...v,
        latitude: parseDecimal(v.latitude),
        longitude: parseDecimal(v.longitude),
        office_weekdays_opens: v.office_weekdays_opens || null,
        office_weekdays_closes: v.office_weekdays_closes || null,
        office_weekend_opens: v.office_weekend_opens || null,
        office_weekend_closes: v.office_weekend_closes || null,
        rhine_km: parseDecimal(v.rhine_km),
        vhf_channel: v.vhf_channel === '' ? null : Number(v.vhf_channel),
      });
      setState({ ok: true });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: startIntroQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: harbourIntroKeys.all }),
      ]);
    } catch (e) {
      setState({ ok: false, message: contactErrorMessage(e) ?? staffErrorMessage(e) });
    }
  });
  const field = (
    name: keyof StartIntroValues,
    label: string,
    opts: {
      placeholder?: string;
      inputMode?: 'decimal' | 'numeric' | 'tel' | 'email';
      type?: string;
      autoComplete?: string;
      description?: string;
      className?: string;
    } = {},
  ) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field: f }) => (
        <FormItem className={opts.className}>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input
              {...f}
              type={opts.type}
              autoComplete={opts.autoComplete ?? 'off'}
              placeholder={opts.placeholder}
              inputMode={opts.inputMode}
            />
          </FormControl>
          {opts.description && <FormDescription>{opts.description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
  const area = (name: 'water_approach' | 'water_approach_en', label: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field: f }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <textarea rows={4} className={textareaClass} {...f} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Startseite: der Hafen`} className="grid max-w-4xl gap-6">
        <fieldset className="grid gap-4 sm:grid-cols-[2fr_1fr_2fr]">
          <legend className="mb-2 font-semibold">
            <Trans>Adresse</Trans>
          </legend>
          {field('address_street', t`Straße und Hausnummer`)}
          {field('address_postal_code', t`PLZ`)}
          {field('address_city', t`Ort`)}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">
            <Trans>Kontakt des Hafenbüros</Trans>
          </legend>
          {field('contact_phone', t`Telefon`, {
            type: 'tel',
            placeholder: '+49 211 1234560',
            description: t`International mit Ländervorwahl, z. B. +49 211 1234560`,
          })}
          {field('contact_email', t`E-Mail`, { type: 'email', placeholder: 'hafen@example.de' })}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">
            <Trans>Position für den Kartenlink (OpenStreetMap)</Trans>
          </legend>
          {field('latitude', t`Breitengrad`, { placeholder: '51,2139', inputMode: 'decimal' })}
          {field('longitude', t`Längengrad`, { placeholder: '6,7452', inputMode: 'decimal' })}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <legend className="mb-2 font-semibold">
            <Trans>Öffnungszeiten Hafenbüro (leer: geschlossen)</Trans>
          </legend>
          {field('office_weekdays_opens', t`Mo–Fr ab`, { placeholder: '08:00' })}
          {field('office_weekdays_closes', t`Mo–Fr bis`, { placeholder: '18:00' })}
          {field('office_weekend_opens', t`Sa/So ab`, { placeholder: '09:00' })}
          {field('office_weekend_closes', t`Sa/So bis`, { placeholder: '17:00' })}
          {field('office_hours_note', t`Hinweis (Deutsch)`, { className: 'sm:col-span-2' })}
          {field('office_hours_note_en', t`Hinweis (Englisch, optional)`, { className: 'sm:col-span-2' })}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">
            <Trans>Anreise über das Wasser</Trans>
          </legend>
          {field('rhine_km', t`Rhein-Kilometer`, { placeholder: '744', inputMode: 'decimal' })}
          {field('vhf_channel', t`UKW-Kanal (optional)`, { inputMode: 'numeric' })}
          {area('water_approach', t`Beschreibung (Deutsch)`)}
          {area('water_approach_en', t`Beschreibung (Englisch, optional)`)}
        </fieldset>
        <div aria-live="polite">
          {state?.ok && (
            <p role="status" className="text-sm text-green-800">
              <Trans>Gespeichert.</Trans>
            </p>
          )}
          {state && !state.ok && <FormAlert className="text-sm">{state.message}</FormAlert>}
        </div>
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>Startseite speichern</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}
