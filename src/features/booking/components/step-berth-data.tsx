import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { addDaysIso, berlinToday, formatDay } from '@/lib/dates';
import { fairPeriodsQueryOptions } from '../api/fair-periods';
import { Button, Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage, Input, Label } from './clsx-ui';
import { emptyBerthData, type BerthDataValues } from '../schemas/berth-values';
import { DatePicker } from '@/components/ui/date-picker';
import { useAppQuery } from '@/lib/query';

// The form validates with zod (schemas/berth-data.ts) through a resolver that loads when the form
// is first focused or touched, or at the latest when it is submitted: zod is not part of the
// first download of /start/booking, whose first screen this is.
const loadResolver = () => import('../schemas/berth-data-resolver');
const resolver: Resolver<BerthDataValues> = async (values, context, options) => (await loadResolver()).berthDataResolver(values, context, options);

/**
 * Step 1, berth data: kind of stay, period, boat. `forStaff`: staff fill it in for a guest at the
 * desk (the walk-in booking): it speaks of the guest's boat and offers no long-term application.
 */
export function StepBerthData({ initial, onSubmit, forStaff = false }: { initial?: BerthDataValues; onSubmit: (values: BerthDataValues) => void; forStaff?: boolean }) {
  const { t, i18n } = useLingui();
  const form = useForm<BerthDataValues>({
    resolver,
    defaultValues: initial ?? { ...emptyBerthData, arrival: berlinToday(), departure: addDaysIso(berlinToday(), 1) },
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const arrival = useWatch({ control: form.control, name: 'arrival' });
  // The departure's calendar starts the day after the arrival (typed days are still checked by the schema).
  const departureFrom = /^\d{4}-\d{2}-\d{2}$/.test(arrival ?? '') ? addDaysIso(arrival, 1) : berlinToday();
  const fairs = useAppQuery({ ...fairPeriodsQueryOptions, enabled: kind === 'fair' });
  const kinds = [
    ['overnight', t`Übernachtung`, t`Ab 14:00 Uhr am Anreisetag bis 12:00 Uhr am Abreisetag`],
    ['day', t`Tagesliegeplatz`, t`Ohne Übernachtung: bis zu 5 Stunden zwischen 08:00 und 22:00 Uhr`],
    ['fair', t`Messe-Liegeplatz`, t`Übernachtungen während einer Messe wie der boot Düsseldorf`],
  ] as const;
  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} onFocus={() => void loadResolver()} onPointerDown={() => void loadResolver()} noValidate className="flex flex-col gap-6" aria-label={t`Liegeplatzdaten`}>
        <FormField control={form.control} name="kind" render={({ field }) => (
          <FormItem>
            <FormLabel><Trans>Art des Aufenthalts</Trans></FormLabel>
            {/* Native radio buttons (one Tab stop, arrow keys move and choose), drawn like ui/radio-group's:
                radix's radio group would be ~8 KB gzip of /start/booking's first download. */}
            <div role="radiogroup" aria-label={t`Art des Aufenthalts`} className="grid gap-3 md:grid-cols-3">
              {kinds.map(([value, title, hint]) => (
                <Label key={value} htmlFor={`kind-${value}`} className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-checked:border-primary-dark has-checked:bg-sky-50">
                  <span className="relative mt-0.5 flex size-5 shrink-0 items-center justify-center">
                    <input
                      type="radio"
                      id={`kind-${value}`}
                      name={field.name}
                      value={value}
                      checked={field.value === value}
                      onChange={() => field.onChange(value)}
                      onBlur={field.onBlur}
                      ref={field.value === value ? field.ref : undefined}
                      className="peer absolute inset-0 m-0 cursor-pointer appearance-none rounded-full border border-slate-400 bg-white outline-none checked:border-primary-dark focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-offset-2"
                    />
                    <span aria-hidden className="pointer-events-none relative hidden size-2.5 rounded-full bg-primary-dark peer-checked:block" />
                  </span>
                  <span className="flex flex-col gap-1">
                    <span className="font-semibold">{title}</span>
                    <span className="text-sm font-normal text-slate-600">{hint}</span>
                  </span>
                </Label>
              ))}
            </div>
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
