import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { addDaysIso, berlinToday, formatDay } from '@/lib/dates';
import { fairPeriodsQueryOptions } from '../api/fair-periods';
import { berthDataSchema, emptyBerthData, type BerthDataValues } from '../schemas/berth-data';
import { DatePicker } from '@/components/ui/date-picker';

/**
 * Step 1, berth data: kind of stay, period, boat. `forStaff`: staff fill it in for a guest at the
 * desk (the walk-in booking): it speaks of the guest's boat and offers no long-term application.
 */
export function StepBerthData({ initial, onSubmit, forStaff = false }: { initial?: BerthDataValues; onSubmit: (values: BerthDataValues) => void; forStaff?: boolean }) {
  const { t, i18n } = useLingui();
  const form = useForm<BerthDataValues>({
    resolver: zodResolver(berthDataSchema()),
    defaultValues: initial ?? { ...emptyBerthData, arrival: berlinToday(), departure: addDaysIso(berlinToday(), 1) },
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const arrival = useWatch({ control: form.control, name: 'arrival' });
  // The departure's calendar starts the day after the arrival (typed days are still checked by the schema).
  const departureFrom = /^\d{4}-\d{2}-\d{2}$/.test(arrival ?? '') ? addDaysIso(arrival, 1) : berlinToday();
  const fairs = useQuery({ ...fairPeriodsQueryOptions, enabled: kind === 'fair' });
  const kinds = [
    ['overnight', t`Übernachtung`, t`Ab 14:00 Uhr am Anreisetag bis 12:00 Uhr am Abreisetag`],
    ['day', t`Tagesliegeplatz`, t`Ohne Übernachtung: bis zu 5 Stunden zwischen 08:00 und 22:00 Uhr`],
    ['fair', t`Messe-Liegeplatz`, t`Übernachtungen während einer Messe wie der boot Düsseldorf`],
  ] as const;
  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-6" aria-label={t`Liegeplatzdaten`}>
        <FormField control={form.control} name="kind" render={({ field }) => (
          <FormItem>
            <FormLabel><Trans>Art des Aufenthalts</Trans></FormLabel>
            <RadioGroup value={field.value} onValueChange={field.onChange} aria-label={t`Art des Aufenthalts`} className="gap-3 md:grid-cols-3">
              {kinds.map(([value, title, hint]) => (
                <Label key={value} htmlFor={`kind-${value}`} className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[[data-state=checked]]:border-primary-dark has-[[data-state=checked]]:bg-sky-50">
                  <RadioGroupItem id={`kind-${value}`} value={value} className="mt-0.5" />
                  <span className="flex flex-col gap-1">
                    <span className="font-semibold">{title}</span>
                    <span className="text-sm font-normal text-slate-600">{hint}</span>
                  </span>
                </Label>
              ))}
            </RadioGroup>
            {!forStaff && (
              <FormDescription>
                <Trans>Einen Langzeitliegeplatz für die Saison?</Trans>{' '}
                <Link to="/{-$locale}/account/apply-long-time-place/{-$id}" params={{ id: undefined }} className="text-primary-dark underline underline-offset-4"><Trans>Langzeitliegeplatz beantragen</Trans></Link>
              </FormDescription>
            )}
            <FormMessage />
          </FormItem>
        )} />

        {kind === 'fair' && fairs.data && (
          <p className="rounded-md bg-sky-50 p-3 text-sm text-sky-950">
            {fairs.data.length === 0 ? (
              <Trans>Zurzeit ist kein Messezeitraum eingetragen.</Trans>
            ) : (
              fairs.data.map((f) => {
                const name = i18n.locale === 'en' ? (f.name_en ?? f.name) : f.name;
                const from = formatDay(f.starts_on, i18n.locale);
                const to = formatDay(f.ends_on, i18n.locale);
                return <span key={f.starts_on} className="block"><Trans>{name}: Anreise ab {from}, letzte Nacht {to}</Trans></span>;
              })
            )}
          </p>
        )}

        <div className="grid gap-4 sm:grid-cols-2">
          <FormField control={form.control} name="arrival" render={({ field }) => (
            <FormItem><FormLabel>{kind === 'day' ? <Trans>Datum</Trans> : <Trans>Anreise</Trans>}</FormLabel><FormControl><DatePicker min={berlinToday()} {...field} /></FormControl><FormMessage /></FormItem>
          )} />
          {kind === 'day' ? (
            <div className="grid grid-cols-2 gap-4">
              <FormField control={form.control} name="dayStart" render={({ field }) => (
                <FormItem><FormLabel><Trans>Von</Trans></FormLabel><FormControl><Input type="time" min="08:00" max="22:00" step={900} {...field} /></FormControl><FormMessage /></FormItem>
              )} />
              <FormField control={form.control} name="dayEnd" render={({ field }) => (
                <FormItem><FormLabel><Trans>Bis</Trans></FormLabel><FormControl><Input type="time" min="08:00" max="22:00" step={900} {...field} /></FormControl><FormMessage /></FormItem>
              )} />
            </div>
          ) : (
            <FormField control={form.control} name="departure" render={({ field }) => (
              <FormItem><FormLabel><Trans>Abreise</Trans></FormLabel><FormControl><DatePicker min={departureFrom} {...field} /></FormControl><FormMessage /></FormItem>
            )} />
          )}
        </div>

        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-base font-semibold">{forStaff ? <Trans>Boot des Gastes</Trans> : <Trans>Ihr Boot</Trans>}</legend>
          <FormField control={form.control} name="boatLength" render={({ field }) => (
            <FormItem><FormLabel><Trans>Bootslänge (m)</Trans></FormLabel><FormControl><Input inputMode="decimal" autoComplete="off" placeholder={t`z. B. 9,5`} {...field} /></FormControl><FormMessage /></FormItem>
          )} />
          <FormField control={form.control} name="boatWidth" render={({ field }) => (
            <FormItem><FormLabel><Trans>Bootsbreite (m)</Trans></FormLabel><FormControl><Input inputMode="decimal" autoComplete="off" placeholder={t`z. B. 3,2`} {...field} /></FormControl><FormMessage /></FormItem>
          )} />
          <FormField control={form.control} name="boatName" render={({ field }) => (
            <FormItem><FormLabel><Trans>Bootsname</Trans></FormLabel><FormControl><Input autoComplete="off" {...field} /></FormControl><FormMessage /></FormItem>
          )} />
          <FormField control={form.control} name="boatTag" render={({ field }) => (
            <FormItem><FormLabel><Trans>Kennzeichen (optional)</Trans></FormLabel><FormControl><Input autoComplete="off" {...field} /></FormControl><FormMessage /></FormItem>
          )} />
        </fieldset>

        <div>
          <Button type="submit" size="lg" disabled={form.formState.isSubmitting}><Trans>Freie Liegeplätze suchen</Trans></Button>
        </div>
      </form>
    </Form>
  );
}
