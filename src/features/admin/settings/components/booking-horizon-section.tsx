import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { berlinToday, formatDay } from '@/lib/dates';
import { dayField, numberField } from '@/lib/validation';

import { bookingHorizonQueryOptions, saveBookingHorizon, type BookingHorizon } from '@/features/admin/settings/api/booking-horizon';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';
import { SaveFooter } from '@/components/save-footer';

const horizonSchema = () =>
  z.object({
    months: numberField({ min: 1, max: 36 }).refine((v) => /^\d+$/.test(v.trim()), {
      error: () => t`Bitte eine ganze Zahl von Monaten eingeben`,
    }),
    lastDay: dayField(true),
  });
type HorizonValues = { months: string; lastDay: string };

/**
 * The booking horizon (issue 40 item 10, docs/adr/0014): how many months ahead a stay may be
 * booked, and optionally the last day a stay may end (e.g. the end of the season whose prices
 * are set). The booking functions refuse a later stay; the booking form's calendar stops there.
 */
export function BookingHorizonSection() {
  const { t, i18n } = useLingui();
  const { data } = useSuspenseQuery(bookingHorizonQueryOptions());
  const [state, setState] = useState<{ ok: true } | { ok: false; message: string }>();
  const lastDay = formatDay(data.lastDay, i18n.locale);
  return (
    <Section title={t`Buchungszeitraum`} aria-label={t`Buchungszeitraum`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>Wie weit im Voraus Gäste und das Hafenteam buchen können. Zurzeit buchbar bis {lastDay}.</Trans>
      </p>
      {data.settings ? (
        <HorizonForm
          key={`${data.settings.booking_horizon_months}|${data.settings.booking_last_day ?? ''}`}
          settings={data.settings}
          state={state}
          setState={setState}
        />
      ) : (
        <FormAlert>
          <Trans>Die Einstellungen konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
    </Section>
  );
}

function HorizonForm({
  settings,
  state,
  setState,
}: {
  settings: BookingHorizon;
  state: { ok: true } | { ok: false; message: string } | undefined;
  setState: (s: { ok: true } | { ok: false; message: string } | undefined) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<HorizonValues>({
    resolver: zodResolver(horizonSchema()),
    defaultValues: { months: String(settings.booking_horizon_months), lastDay: settings.booking_last_day ?? '' },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      await saveBookingHorizon({ booking_horizon_months: Number(v.months), booking_last_day: v.lastDay.trim() === '' ? null : v.lastDay });
      setState({ ok: true });
      await queryClient.invalidateQueries({ queryKey: bookingHorizonQueryOptions().queryKey });
    } catch (e) {
      setState({ ok: false, message: staffErrorMessage(e) });
    }
  });
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={t`Buchungszeitraum`} className="grid max-w-xl gap-4">
        <FormField
          control={form.control}
          name="months"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Monate im Voraus buchbar</Trans>
              </FormLabel>
              <FormControl>
                <Input {...field} inputMode="numeric" autoComplete="off" className="w-32" />
              </FormControl>
              <FormDescription>
                <Trans>1 bis 36 Monate ab heute.</Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="lastDay"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Letzter buchbarer Tag (optional)</Trans>
              </FormLabel>
              <FormControl>
                <DatePicker {...field} min={berlinToday()} className="w-44" />
              </FormControl>
              <FormDescription>
                <Trans>Spätester Abreisetag, z. B. das Ende der Saison, für die Preise feststehen. Leer: nur die Monate gelten.</Trans>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SaveFooter state={state} submitting={form.formState.isSubmitting}>
          <Trans>Buchungszeitraum speichern</Trans>
        </SaveFooter>
      </form>
    </Form>
  );
}
