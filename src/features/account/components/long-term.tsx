import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Prose } from '@/components/page';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { berlinToday, formatBerlinDateTime, formatDay } from '@/lib/dates';
import { decimalInput, formatSize } from '@/lib/numbers';
import {
  applicantQueryOptions,
  applyForLongTermBerth,
  berthOptionsQueryOptions,
  myApplicationsQueryOptions,
  myHoldingsQueryOptions,
  type Application,
  type Holding,
} from '@/features/account/api/long-term';
import { applicationSchema, type ApplicationValues } from '@/features/account/schemas/profile';
import { DatePicker } from '@/components/ui/date-picker';
import { FormAlert } from '@/components/form-alert';
import { OffersAndContracts } from '@/features/account/components/offers';
import { HolderInsurance } from '@/features/account/components/holder-insurance';
import { HolderAbsences } from '@/features/account/holder-absences/components';
import { MyFeesSection } from '@/features/account/long-term-fees/components';

const failed = (
  <FormAlert>
    <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>
  </FormAlert>
);
const metres = (n: number | null | undefined, locale: string) =>
  n == null ? '–' : `${new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'de-DE').format(Number(n))} m`;

/** /account/long-time-place/{id?}: my long-term berths with the contract data, and my applications. */
export function LongTimePlacePage({ id }: { id?: string }) {
  const { t } = useLingui();
  const holdings = useQuery(myHoldingsQueryOptions());
  const applications = useQuery(myApplicationsQueryOptions());
  const shown = holdings.data?.filter((h) => !id || h.id === id || h.place_id === id) ?? [];
  return (
    <Page title={t`Mein Langzeitliegeplatz`} lead={t`Ihre Langzeitliegeplätze mit den Vertragsdaten und Ihre Bewerbungen.`}>
      <OffersAndContracts />
      <section aria-label={t`Meine Langzeitliegeplätze`} className="flex flex-col gap-3">
        <h2 className="text-lg font-semibold">
          <Trans>Meine Langzeitliegeplätze</Trans>
        </h2>
        {holdings.isPending ? (
          <p role="status">
            <Trans>Lädt…</Trans>
          </p>
        ) : holdings.isError ? (
          failed
        ) : shown.length === 0 ? (
          <Prose>
            <p>
              <Trans>Sie haben derzeit keinen Langzeitliegeplatz.</Trans>
            </p>
          </Prose>
        ) : (
          <ul className="flex flex-col gap-3">
            {shown.map((h) => (
              <HoldingCard key={h.id} holding={h} />
            ))}
          </ul>
        )}
      </section>
      <MyFeesSection />
      <section aria-label={t`Meine Bewerbungen`} className="flex flex-col gap-3">
        <h2 className="text-lg font-semibold">
          <Trans>Meine Bewerbungen</Trans>
        </h2>
        {applications.isPending ? (
          <p role="status">
            <Trans>Lädt…</Trans>
          </p>
        ) : applications.isError ? (
          failed
        ) : applications.data.length === 0 ? (
          <Prose>
            <p>
              <Trans>Sie haben sich noch nicht um einen Langzeitliegeplatz beworben.</Trans>
            </p>
          </Prose>
        ) : (
          <ul className="flex flex-col gap-3">
            {applications.data.map((a) => (
              <ApplicationRow key={a.id} application={a} />
            ))}
          </ul>
        )}
        <div>
          <Link to="/{-$locale}/account/apply-long-time-place/{-$id}" params={{ id: undefined }} className={buttonVariants()}>
            <Trans>Langzeitliegeplatz beantragen</Trans>
          </Link>
        </div>
      </section>
    </Page>
  );
}

function HoldingCard({ holding: h }: { holding: Holding }) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const name = h.place?.name ?? '–';
  return (
    <li data-testid="holding">
      <Card>
        <CardHeader>
          <CardTitle>
            <Trans>Liegeplatz {name}</Trans>
          </CardTitle>
          <CardDescription>
            {h.ends_on ? (
              <Trans>
                Vertrag vom {formatDay(h.starts_on, locale)} bis {formatDay(h.ends_on, locale)}
              </Trans>
            ) : (
              <Trans>Vertrag ab {formatDay(h.starts_on, locale)}, unbefristet</Trans>
            )}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">
              <Trans>Vertragspartner</Trans>
            </dt>
            <dd>{[h.first_name, h.last_name].filter(Boolean).join(' ') || '–'}</dd>
            <dt className="text-slate-600">
              <Trans>Boot</Trans>
            </dt>
            <dd>
              {h.boat_name ?? '–'}
              {h.boat_tag ? ` (${h.boat_tag})` : ''}
            </dd>
            <dt className="text-slate-600">
              <Trans>Bootsmaße</Trans>
            </dt>
            <dd>
              {metres(h.boat_length, locale)} × {metres(h.boat_width, locale)}
            </dd>
            <dt className="text-slate-600">
              <Trans>Liegeplatzmaße</Trans>
            </dt>
            <dd>
              {metres(h.place?.length, locale)} × {metres(h.place?.width, locale)}
            </dd>
          </dl>
          <HolderInsurance holding={h} />
          {/* Away for some nights: the berth goes to guests then (issue 43, ADR 0054). */}
          {(!h.ends_on || h.ends_on >= berlinToday()) && <HolderAbsences holderId={h.id} />}
        </CardContent>
      </Card>
    </li>
  );
}

function ApplicationRow({ application: a }: { application: Application }) {
  const { i18n } = useLingui();
  const place = a.place_name;
  const position = a.waiting_position;
  return (
    <li data-testid="application" className="flex flex-col gap-1 rounded-xl border border-slate-200 bg-white p-4">
      <span className="font-semibold">
        {place ? <Trans>Bewerbung für Liegeplatz {place}</Trans> : <Trans>Bewerbung für einen passenden Liegeplatz</Trans>}
      </span>
      <span className="text-sm text-slate-700">
        <Trans>Eingegangen am {formatBerlinDateTime(a.created_at, i18n.locale)}</Trans>
        {a.boat.name ? ` · ${a.boat.name}` : ''}
      </span>
      <span className="text-sm">
        {a.status === 'open' && position != null && <Trans>Offen – Platz {position} auf der Warteliste</Trans>}
        {a.status === 'accepted' && <Trans>Angenommen</Trans>}
        {a.status === 'declined' && <Trans>Abgelehnt</Trans>}
        {a.status === 'withdrawn' && <Trans>Zurückgezogen</Trans>}
      </span>
      {a.answer && <span className="text-sm text-slate-700">{a.answer}</span>}
    </li>
  );
}

/** /account/apply-long-time-place/{id?}: apply for a long-term berth (the berth preselected when given). */
export function ApplyLongTimePlacePage({ id }: { id?: string }) {
  const { t } = useLingui();
  const applicant = useQuery(applicantQueryOptions());
  const berths = useQuery(berthOptionsQueryOptions());
  return (
    <Page
      title={t`Langzeitliegeplatz beantragen`}
      lead={t`Bewerben Sie sich um einen Liegeplatz für die ganze Saison. Wir führen eine Warteliste in der Reihenfolge der Bewerbungen.`}
    >
      {applicant.isPending || berths.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : applicant.isError || berths.isError ? (
        failed
      ) : (
        <ApplicationForm placeId={id && berths.data.some((b) => b.id === id) ? id : ''} applicant={applicant.data} berths={berths.data} />
      )}
    </Page>
  );
}

type Applicant = Awaited<ReturnType<NonNullable<ReturnType<typeof applicantQueryOptions>['queryFn']>>>;

export function ApplicationForm({
  placeId,
  applicant,
  berths,
}: {
  placeId: string;
  applicant: Applicant;
  berths: { id: string; name: string; length: number; width: number }[];
}) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<{ position: number; email: string }>();
  const [failure, setFailure] = useState<'too-many' | 'invalid' | 'network'>();
  const s = (v: string | number | null | undefined) => (v == null ? '' : String(v));
  const form = useForm<ApplicationValues>({
    resolver: zodResolver(applicationSchema),
    defaultValues: {
      placeId,
      firstName: s(applicant?.first_name),
      lastName: s(applicant?.last_name),
      email: s(applicant?.email),
      phone: s(applicant?.phone),
      boatName: s(applicant?.boat_name),
      boatTag: s(applicant?.boat_tag),
      boatLength: decimalInput(applicant?.boat_length, i18n.locale),
      boatWidth: decimalInput(applicant?.boat_width, i18n.locale),
      desiredStart: '',
      message: '',
    },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setFailure(undefined);
    const n = (x: string) => Number(x.replace(',', '.'));
    try {
      const row = await applyForLongTermBerth({
        email: v.email,
        firstName: v.firstName,
        lastName: v.lastName,
        phone: v.phone ?? '',
        placeId: v.placeId,
        boat: { name: v.boatName, tag: v.boatTag, length: n(v.boatLength), width: n(v.boatWidth) },
        desiredStart: v.desiredStart,
        message: v.message,
        locale: i18n.locale,
      });
      await queryClient.invalidateQueries({ queryKey: ['long-term'] });
      setResult({ position: row.waiting_position, email: v.email.trim().toLowerCase() });
    } catch (e) {
      const message = (e as { message?: string }).message ?? '';
      setFailure(message === 'too_many_applications' ? 'too-many' : /^invalid_|place_not_found/.test(message) ? 'invalid' : 'network');
    }
  });
  if (result) {
    const { position, email } = result;
    return (
      <Card className="max-w-2xl" role="status" aria-label={t`Bewerbung eingegangen`}>
        <CardHeader>
          <CardTitle>
            <Trans>Bewerbung eingegangen</Trans>
          </CardTitle>
          <CardDescription>
            <Trans>Ihr Platz auf der Warteliste: {position}</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 text-sm">
          <p>
            <Trans>
              Eine Eingangsbestätigung ist per E-Mail an {email} unterwegs. Wir melden uns, sobald ein passender Liegeplatz frei wird.
            </Trans>
          </p>
          <div>
            <Link
              to="/{-$locale}/account/long-time-place/{-$id}"
              params={{ id: undefined }}
              className={buttonVariants({ variant: 'outline' })}
            >
              <Trans>Zu meinen Bewerbungen</Trans>
            </Link>
          </div>
        </CardContent>
      </Card>
    );
  }
  const text = (
    name: Exclude<keyof ApplicationValues, 'placeId' | 'message' | 'desiredStart'>,
    label: string,
    extra: { autoComplete?: string; inputMode?: 'decimal' | 'tel'; type?: string } = {},
  ) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input {...extra} {...field} value={field.value ?? ''} />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-4" aria-label={t`Langzeitliegeplatz beantragen`}>
        <FormField
          control={form.control}
          name="placeId"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Liegeplatz</Trans>
              </FormLabel>
              <FormControl>
                <select className="h-10 w-full rounded-md border border-slate-300 bg-white px-3" {...field}>
                  <option value="">{t`Jeder passende Liegeplatz`}</option>
                  {berths.map((b) => (
                    <option key={b.id} value={b.id}>
                      {t`Liegeplatz ${b.name}`} ({formatSize(b.length, b.width, i18n.locale)})
                    </option>
                  ))}
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          {text('firstName', t`Vorname`, { autoComplete: 'given-name' })}
          {text('lastName', t`Nachname`, { autoComplete: 'family-name' })}
          {text('email', t`E-Mail`, { autoComplete: 'email', type: 'email' })}
          {text('phone', t`Telefon (optional)`, { autoComplete: 'tel', inputMode: 'tel' })}
          {text('boatName', t`Bootsname`)}
          {text('boatTag', t`Kennzeichen (optional)`)}
          {text('boatLength', t`Bootslänge (m)`, { inputMode: 'decimal' })}
          {text('boatWidth', t`Bootsbreite (m)`, { inputMode: 'decimal' })}
          <FormField
            control={form.control}
            name="desiredStart"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Gewünschter Beginn (optional)</Trans>
                </FormLabel>
                <FormControl>
                  <DatePicker {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <FormField
          control={form.control}
          name="message"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Nachricht an das Hafenbüro (optional)</Trans>
              </FormLabel>
              <FormControl>
                <textarea rows={4} className="rounded-md border border-slate-300 bg-white px-3 py-2" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div aria-live="polite">
          {failure === 'too-many' && (
            <FormAlert className="text-sm">
              <Trans>Zu dieser E-Mail-Adresse gibt es bereits drei offene Bewerbungen.</Trans>
            </FormAlert>
          )}
          {failure === 'invalid' && (
            <FormAlert className="text-sm">
              <Trans>Bitte prüfen Sie Ihre Angaben.</Trans>
            </FormAlert>
          )}
          {failure === 'network' && (
            <FormAlert className="text-sm">
              <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>
            </FormAlert>
          )}
        </div>
        <div>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            <Trans>Bewerbung absenden</Trans>
          </Button>
        </div>
      </form>
    </Form>
  );
}

/** The account page's short view: current or coming long-term berths and open applications. */
export function LongTermSummary() {
  const { t, i18n } = useLingui();
  const holdings = useQuery(myHoldingsQueryOptions());
  const applications = useQuery(myApplicationsQueryOptions());
  const today = berlinToday();
  const live = holdings.data?.filter((h) => !h.ends_on || h.ends_on >= today) ?? [];
  const open = applications.data?.filter((a) => a.status === 'open') ?? [];
  if (live.length === 0 && open.length === 0) return null;
  return (
    <section aria-label={t`Langzeitliegeplatz`} className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold">
        <Trans>Langzeitliegeplatz</Trans>
      </h2>
      <ul className="flex flex-col gap-2 text-sm">
        {live.map((h) => {
          const name = h.place?.name ?? '–';
          const from = formatDay(h.starts_on, i18n.locale);
          return (
            <li key={h.id}>
              <Link to="/{-$locale}/account/long-time-place/{-$id}" params={{ id: h.place_id }} className="underline">
                <Trans>
                  Liegeplatz {name}, ab {from}
                </Trans>
              </Link>
            </li>
          );
        })}
        {open.map((a) => {
          const position = a.waiting_position ?? '–';
          return (
            <li key={a.id}>
              <Trans>Offene Bewerbung: Platz {position} auf der Warteliste</Trans>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
