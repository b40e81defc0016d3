import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { addDaysIso, berlinToday, formatDay } from '@/lib/dates';
import { bookingRulesQueryOptions } from '@/features/booking/api/booking-rules';
import {
  Button,
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
  Input,
  Label,
} from '@/features/booking/components/clsx-ui';
import {
  boatBounds,
  dayTimes,
  dayWindowOn,
  defaultBerthData,
  emptyBerthData,
  type BerthDataValues,
  type StayKind,
} from '@/features/booking/schemas/berth-values';
import { DatePicker } from '@/components/ui/date-picker';
import { useAppQuery } from '@/lib/query';
import { StayRangePicker } from '@/features/booking/components/stay-range-picker';

// The form validates with zod (schemas/berth-data.ts) through a resolver that loads when the form
// is first focused or touched, or at the latest when it is submitted: zod is not part of the
// first download of /start/booking, whose first screen this is.
const loadResolver = () => import('@/features/booking/schemas/berth-data-resolver');
const resolver: Resolver<BerthDataValues> = async (values, context, options) =>
  (await loadResolver()).berthDataResolver(values, context, options);

/**
 * Step 1, berth data: kind of stay, period, boat. `forStaff`: staff fill it in for a guest at the
 * desk (the walk-in booking): it speaks of the guest's boat and offers no long-term application.
 */
export function StepBerthData({
  initial,
  onSubmit,
  forStaff = false,
}: {
  initial?: BerthDataValues;
  onSubmit: (values: BerthDataValues) => void;
  forStaff?: boolean;
}) {
  const { t, i18n } = useLingui();
  const form = useForm<BerthDataValues>({
    resolver,
    // Valid now (issue 40 item 4): today's next day window, not one that has passed.
    // A flow saved before the draught was asked has none: ''.
    defaultValues: initial ? { ...emptyBerthData, ...initial } : defaultBerthData(),
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const arrival = useWatch({ control: form.control, name: 'arrival' });
  const departure = useWatch({ control: form.control, name: 'departure' });
  const today = berlinToday();
  // The fair periods and the booking horizon (the schema checks them too, before step 2), asked
  // when the form is first used, as its resolver loads: supabase-js is not part of the first
  // download of /start/booking (tests/e2e/budget.spec.ts).
  const [used, setUsed] = useState(false);
  const rules = useAppQuery({ ...bookingRulesQueryOptions, enabled: used });
  const use = () => {
    void loadResolver();
    setUsed(true);
  };
  const lastDay = rules.data?.lastDay;
  const fairs = { data: rules.data?.fairs };
  /**
   * A new kind of stay keeps the dates when they fit it, else moves them to the next that do
   * (issue 40 item 4): a day stay in the evening to tomorrow's window, a fair stay into the next fair.
   */
  const changeKind = (next: StayKind) => {
    const v = form.getValues();
    if (next === 'day' && v.arrival === today && !dayWindowOn(today)) {
      form.setValue('arrival', addDaysIso(today, 1));
      form.setValue('dayStart', '10:00');
      form.setValue('dayEnd', '14:00');
    } else if (next === 'day' && v.arrival === today) {
      const window = dayWindowOn(today);
      if (window && v.dayEnd <= window.dayStart) {
        form.setValue('dayStart', window.dayStart);
        form.setValue('dayEnd', window.dayEnd);
      }
    }
    const fair = rules.data?.fairs.find((f) => f.ends_on >= today);
    if (
      next === 'fair' &&
      fair &&
      !rules.data!.fairs.some((f) => f.starts_on <= v.arrival && f.ends_on >= addDaysIso(v.departure || v.arrival, -1))
    ) {
      const from = fair.starts_on > today ? fair.starts_on : today;
      form.setValue('arrival', from);
      form.setValue('departure', addDaysIso(from, 1));
    }
  };
  const kinds = [
    ['overnight', t`Übernachtung`, t`Ab 14:00 Uhr am Anreisetag bis 12:00 Uhr am Abreisetag`],
    ['day', t`Tagesliegeplatz`, t`Ohne Übernachtung: bis zu 5 Stunden zwischen 08:00 und 22:00 Uhr`],
    ['fair', t`Messe-Liegeplatz`, t`Übernachtungen während einer Messe wie der boot Düsseldorf`],
  ] as const;
  return (
    <Form {...form}>
      <form
        onSubmit={form.handleSubmit(onSubmit)}
        onFocus={use}
        onPointerDown={use}
        noValidate
        className="flex flex-col gap-6"
        aria-label={t`Liegeplatzdaten`}
      >
        <FormField
          control={form.control}
          name="kind"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Art des Aufenthalts</Trans>
              </FormLabel>
              {/* Native radio buttons (one Tab stop, arrow keys move and choose), drawn like ui/radio-group's:
                radix's radio group would be ~8 KB gzip of /start/booking's first download. */}
              <div role="radiogroup" aria-label={t`Art des Aufenthalts`} className="grid gap-3 md:grid-cols-3">
                {kinds.map(([value, title, hint]) => (
                  <Label
                    key={value}
                    htmlFor={`kind-${value}`}
                    className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-checked:border-primary-dark has-checked:bg-sky-50"
                  >
                    <span className="relative mt-0.5 flex size-5 shrink-0 items-center justify-center">
                      <input
                        type="radio"
                        id={`kind-${value}`}
                        name={field.name}
                        value={value}
                        checked={field.value === value}
                        onChange={() => {
                          changeKind(value);
                          field.onChange(value);
                        }}
                        onBlur={field.onBlur}
                        ref={field.value === value ? field.ref : undefined}
                        className="peer absolute inset-0 m-0 cursor-pointer appearance-none rounded-full border border-slate-400 bg-white outline-none checked:border-primary-dark focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-offset-2"
                      />
                      <span
                        aria-hidden
                        className="pointer-events-none relative hidden size-2.5 rounded-full bg-primary-dark peer-checked:block"
                      />
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
                  <Link
                    to="/{-$locale}/account/apply-long-time-place/{-$id}"
                    params={{ id: undefined }}
                    className="text-primary-dark underline underline-offset-4"
                  >
                    <Trans>Langzeitliegeplatz beantragen</Trans>
                  </Link>
                </FormDescription>
              )}
              <FormMessage />
            </FormItem>
          )}
        />

        {kind === 'fair' && fairs.data && (
          <p className="rounded-md bg-sky-50 p-3 text-sm text-sky-950">
            {fairs.data.length === 0 ? (
              <Trans>Zurzeit ist kein Messezeitraum eingetragen.</Trans>
            ) : (
              fairs.data.map((f) => {
                const name = i18n.locale === 'en' ? (f.name_en ?? f.name) : f.name;
                const from = formatDay(f.starts_on, i18n.locale);
                const to = formatDay(f.ends_on, i18n.locale);
                return (
                  <span key={f.starts_on} className="block">
                    <Trans>
                      {name}: Anreise ab {from}, letzte Nacht {to}
                    </Trans>
                  </span>
                );
              })
            )}
          </p>
        )}

        {kind === 'day' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              control={form.control}
              name="arrival"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    <Trans>Datum</Trans>
                  </FormLabel>
                  <FormControl>
                    <DatePicker min={today} max={lastDay} {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="grid grid-cols-2 gap-4">
              {/* Selects of quarter hours in 24-hour time (issue 40 item 13): the page's language
                  decides, not the browser's (a native time input shows "10:00 AM" in an English browser). */}
              {(['dayStart', 'dayEnd'] as const).map((name) => (
                <FormField
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>{name === 'dayStart' ? <Trans>Von</Trans> : <Trans>Bis</Trans>}</FormLabel>
                      <FormControl>
                        <select
                          {...field}
                          className="flex h-10 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base tabular-nums focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none aria-invalid:border-red-700"
                        >
                          {!dayTimes.includes(field.value) && <option value={field.value}>{field.value}</option>}
                          {dayTimes.map((time) => (
                            <option key={time} value={time}>
                              {i18n.locale === 'en' ? time : `${time} Uhr`}
                            </option>
                          ))}
                        </select>
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              ))}
            </div>
          </div>
        ) : (
          <StayRangePicker
            arrival={arrival}
            departure={departure}
            min={today}
            max={lastDay}
            maxNights={boatBounds.maxNights}
            onChange={(range) => {
              form.setValue('arrival', range.arrival, { shouldDirty: true });
              form.setValue('departure', range.departure ?? '', {
                shouldDirty: true,
                shouldValidate: form.formState.isSubmitted && !!range.departure,
              });
            }}
            fields={
              <>
                <FormField
                  control={form.control}
                  name="arrival"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>
                        <Trans>Anreise</Trans>
                      </FormLabel>
                      <FormControl>
                        <DatePicker calendarButton={false} {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <FormField
                  control={form.control}
                  name="departure"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>
                        <Trans>Abreise</Trans>
                      </FormLabel>
                      <FormControl>
                        <DatePicker calendarButton={false} {...field} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              </>
            }
          />
        )}
        {lastDay && (
          <p className="-mt-3 text-sm text-slate-600">
            {(() => {
              const until = formatDay(lastDay, i18n.locale);
              return <Trans>Online buchbar bis {until}.</Trans>;
            })()}
          </p>
        )}

        <fieldset className="grid gap-4 sm:grid-cols-2 sm:items-start">
          <legend className="mb-2 text-base font-semibold">{forStaff ? <Trans>Boot des Gastes</Trans> : <Trans>Ihr Boot</Trans>}</legend>
          <FormField
            control={form.control}
            name="boatLength"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Bootslänge (m)</Trans>
                </FormLabel>
                <FormControl>
                  <Input inputMode="decimal" autoComplete="off" placeholder={t`z. B. 9,5`} {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="boatWidth"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Bootsbreite (m)</Trans>
                </FormLabel>
                <FormControl>
                  <Input inputMode="decimal" autoComplete="off" placeholder={t`z. B. 3,2`} {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="boatDraught"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Tiefgang (m)</Trans>
                </FormLabel>
                <FormControl>
                  <Input inputMode="decimal" autoComplete="off" placeholder={t`z. B. 1,2`} {...field} />
                </FormControl>
                <FormDescription>
                  <Trans>Bei Niedrigwasser zeigen wir nur Liegeplätze, die tief genug sind. Ohne Angabe prüfen wir die Tiefe nicht.</Trans>
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="boatName"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Bootsname</Trans>
                </FormLabel>
                <FormControl>
                  <Input autoComplete="off" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="boatTag"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Kennzeichen (optional)</Trans>
                </FormLabel>
                <FormControl>
                  <Input autoComplete="off" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </fieldset>

        <div>
          <Button type="submit" size="lg" disabled={form.formState.isSubmitting}>
            <Trans>Freie Liegeplätze suchen</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}
