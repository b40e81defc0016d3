import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { berlinToday, formatDay } from '@/lib/dates';
import { decimalInput, formatSize } from '@/lib/numbers';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Form, FormControl, FormField, FormItem, FormLabel } from '@/components/ui/form';
import { HolderAbsences } from '@/features/account';
import { holderSchema, sizeValue, type HolderValues } from '@/features/admin/long-term/schemas/holder';
import {
  applicationsQueryOptions,
  holdersQueryOptions,
  useAssignHolder,
  useRemoveHolder,
  userSearchQueryOptions,
  type Application,
  type Holder,
  type HolderError,
} from '@/features/admin/long-term/api/long-term';
import { DatePicker } from '@/components/ui/date-picker';
import { FormAlert } from '@/components/form-alert';
import { refusalOf } from '@/lib/refused';

function useHolderMessages(): Record<HolderError, string> {
  const { t } = useLingui();
  return {
    already_held: t`Der Liegeplatz hat in diesem Zeitraum schon einen Langzeitlieger.`,
    has_bookings: t`Der Liegeplatz ist in diesem Zeitraum gebucht. Bitte die Buchungen zuerst verlegen oder stornieren.`,
    invalid: t`Bitte die Angaben prüfen: Beginn, Bootsdaten (Länge 1–60 m, Breite 0,5–15 m) und eine Person (Benutzer, E-Mail oder Name).`,
    user_not_found: t`Diesen Benutzer gibt es nicht.`,
    application_not_open: t`Diese Bewerbung ist nicht mehr offen.`,
    unknown: t`Das hat nicht geklappt. Bitte erneut versuchen.`,
  };
}

const holderName = (h: Holder) => [h.first_name, h.last_name].filter(Boolean).join(' ') || h.email || '—';

/** The berth's long-term holder: shown here, assigned and removed in a dialog (save and remove). */
export function HolderSection({ placeId, placeName }: { placeId: string; placeName: string }) {
  const { t, i18n } = useLingui();
  const today = berlinToday();
  const holders = useQuery(holdersQueryOptions(placeId, today));
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Application | null>(null);
  return (
    <Section title={t`Langzeitlieger`} aria-label={t`Langzeitlieger`}>
      {holders.isError ? (
        <FormAlert>
          <Trans>Die Langzeitlieger konnten nicht geladen werden.</Trans>
        </FormAlert>
      ) : (holders.data ?? []).length === 0 ? (
        <p data-testid="holder-summary">
          <Trans>Kein Langzeitlieger.</Trans>
        </p>
      ) : (
        <ul data-testid="holder-summary" className="grid gap-1">
          {holders.data!.map((h) => (
            <li key={h.id}>
              {holderName(h)} · <Trans>ab {formatDay(h.starts_on, i18n.locale)}</Trans>
              {h.ends_on && (
                <>
                  {' '}
                  · <Trans>bis {formatDay(h.ends_on, i18n.locale)}</Trans>
                </>
              )}
              {h.boat_name && (
                <>
                  {' '}
                  · <Trans>Boot: {h.boat_name}</Trans>
                </>
              )}
              {/* Staff enter or change the holder's absences on their behalf (issue 43, ADR 0054). */}
              <details className="mt-1">
                <summary className="cursor-pointer text-sm">
                  <Trans>Abwesenheiten von {holderName(h)}</Trans>
                </summary>
                <HolderAbsences holderId={h.id} forStaff />
              </details>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => setOpen(true)}>
          <Trans>Langzeitlieger verwalten</Trans>
        </Button>
        <PathLink path={`/account/admin/offers?place=${placeId}`} className="text-sm underline underline-offset-4">
          <Trans>{placeName} aus der Warteliste anbieten</Trans>
        </PathLink>
      </div>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-h-[90vh] max-w-4xl overflow-y-auto">
          <DialogHeader>
            <DialogTitle>
              <Trans>Langzeitlieger für {placeName}</Trans>
            </DialogTitle>
            <DialogDescription>
              <Trans>
                Zuweisen mit Beginn und Bootsdaten oder entfernen. Rechts die Bewerbungen für diesen Liegeplatz in der Reihenfolge der
                Warteliste.
              </Trans>
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-6 md:grid-cols-[3fr_2fr]">
            <div className="grid gap-4">
              <CurrentHolders placeId={placeId} placeName={placeName} holders={holders.data ?? []} today={today} />
              <AssignForm key={picked?.id ?? 'new'} placeId={placeId} picked={picked} />
            </div>
            <Applications placeId={placeId} onPick={setPicked} />
          </div>
        </DialogContent>
      </Dialog>
    </Section>
  );
}

function CurrentHolders({ placeId, placeName, holders, today }: { placeId: string; placeName: string; holders: Holder[]; today: string }) {
  const { t, i18n } = useLingui();
  const messages = useHolderMessages();
  const [confirm, setConfirm] = useState<Holder | null>(null);
  const removing = useRemoveHolder(placeId);
  const error = refusalOf<HolderError>(removing.error);
  const remove = () => {
    if (!confirm) return;
    removing.mutate({ holderId: confirm.id, lastDay: today }, { onSettled: () => setConfirm(null) });
  };
  const removable = holders.filter((h) => h.ends_on === null || h.ends_on > today);
  return (
    <section aria-label={t`Aktueller Langzeitlieger`} className="grid gap-2">
      <h3 className="font-semibold">
        <Trans>Aktueller Langzeitlieger</Trans>
      </h3>
      {removable.length === 0 && (
        <p>
          <Trans>Kein Langzeitlieger.</Trans>
        </p>
      )}
      {removable.map((h) => (
        <div key={h.id} className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 p-2 text-sm">
          <span>
            {holderName(h)} · <Trans>ab {formatDay(h.starts_on, i18n.locale)}</Trans>
            {h.boat_name && (
              <>
                {' '}
                · <Trans>Boot: {h.boat_name}</Trans>
              </>
            )}
          </span>
          <Button size="sm" variant="destructive" className="ml-auto" onClick={() => setConfirm(h)}>
            <Trans>Entfernen</Trans>
          </Button>
        </div>
      ))}
      {removing.isSuccess && (
        <p role="status" className="text-sm text-green-700">
          <Trans>Langzeitlieger entfernt.</Trans>
        </p>
      )}
      {error && <FormAlert className="text-sm">{messages[error]}</FormAlert>}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={t`Langzeitlieger entfernen?`}
        description={
          <p>
            {confirm && confirm.starts_on > today ? (
              <Trans>
                Die Zuweisung von {confirm ? holderName(confirm) : ''} an {placeName} wird aufgehoben, bevor sie beginnt.
              </Trans>
            ) : (
              <Trans>
                {confirm ? holderName(confirm) : ''} ist ab morgen nicht mehr Langzeitlieger von {placeName}. Der Verlauf bleibt erhalten.
              </Trans>
            )}
          </p>
        }
        confirmLabel={t`Entfernen`}
        destructive
        busy={removing.isPending}
        onConfirm={remove}
      />
    </section>
  );
}

type Draft = HolderValues;

const emptyDraft = (): Draft => ({
  userId: '',
  email: '',
  firstName: '',
  lastName: '',
  startsOn: berlinToday(),
  boatName: '',
  boatTag: '',
  boatLength: '',
  boatWidth: '',
  boatDraught: '',
});

const draftFrom = (a: Application | null, locale: string): Draft =>
  a
    ? {
        ...emptyDraft(),
        email: a.email,
        firstName: a.first_name,
        lastName: a.last_name,
        startsOn: a.desired_start && a.desired_start > berlinToday() ? a.desired_start : berlinToday(),
        boatName: a.boat.name ?? '',
        boatTag: a.boat.tag ?? '',
        boatLength: decimalInput(a.boat.length, locale),
        boatWidth: decimalInput(a.boat.width, locale),
        applicationId: a.id,
      }
    : emptyDraft();

/** Assign: an account (searched) or a person by e-mail/name, a start date and boat data; an application on the right fills it. */
function AssignForm({ placeId, picked }: { placeId: string; picked: Application | null }) {
  const { t, i18n } = useLingui();
  const messages = useHolderMessages();
  const [q, setQ] = useState('');
  const users = useQuery({ ...userSearchQueryOptions(q), enabled: q.trim().length >= 2 });
  const form = useForm<HolderValues>({ resolver: zodResolver(holderSchema), defaultValues: draftFrom(picked, i18n.locale) });
  const assigning = useAssignHolder();
  const refusal = refusalOf<HolderError>(assigning.error);
  // The form's own check (start, boat sizes, a person) before anything is written.
  const formError = form.formState.errors.root?.message;
  const [userId, applicationId] = useWatch({ control: form.control, name: ['userId', 'applicationId'] });

  const save = form.handleSubmit(
    (draft) =>
      assigning.mutate(
        {
          placeId,
          startsOn: draft.startsOn,
          holder: {
            user_id: draft.userId || undefined,
            email: draft.email.trim() || undefined,
            first_name: draft.firstName.trim() || undefined,
            last_name: draft.lastName.trim() || undefined,
            boat_name: draft.boatName.trim() || undefined,
            boat_tag: draft.boatTag.trim() || undefined,
            boat_length: sizeValue(draft.boatLength),
            boat_width: sizeValue(draft.boatWidth),
            boat_draught: sizeValue(draft.boatDraught),
          },
          applicationId: draft.applicationId,
        },
        {
          onSuccess: () => {
            form.reset(emptyDraft());
            setQ('');
          },
        },
      ),
    () => assigning.reset(),
  );

  const field = (
    name: Exclude<keyof HolderValues, 'applicationId'>,
    label: string,
    props: { type?: string; inputMode?: 'decimal' } = {},
  ) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field: f }) => (
        <FormItem className="gap-1">
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input {...f} {...props} />
          </FormControl>
        </FormItem>
      )}
    />
  );

  const pickUser = (id: string) => {
    const u = users.data?.find((x) => x.id === id);
    if (!u) return form.setValue('userId', '');
    const draft = form.getValues();
    const picked: Partial<HolderValues> = {
      userId: u.id,
      email: u.email ?? '',
      firstName: u.first_name ?? '',
      lastName: u.last_name ?? '',
      boatName: u.boat_name ?? draft.boatName,
      boatTag: u.boat_tag ?? draft.boatTag,
      boatLength: u.boat_length != null ? decimalInput(u.boat_length, i18n.locale) : draft.boatLength,
      boatWidth: u.boat_width != null ? decimalInput(u.boat_width, i18n.locale) : draft.boatWidth,
      boatDraught: u.boat_draught != null ? decimalInput(u.boat_draught, i18n.locale) : draft.boatDraught,
    };
    for (const [name, value] of Object.entries(picked)) form.setValue(name as keyof HolderValues, value);
  };

  return (
    <Form {...form}>
      <form aria-label={t`Langzeitlieger zuweisen`} noValidate className="grid gap-3 sm:grid-cols-2" onSubmit={(e) => void save(e)}>
        <h3 className="font-semibold sm:col-span-2">
          <Trans>Langzeitlieger zuweisen</Trans>
        </h3>
        <div className="grid gap-1 sm:col-span-2">
          <Label htmlFor="holder-search">
            <Trans>Benutzer suchen (E-Mail oder Name)</Trans>
          </Label>
          <Input id="holder-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
          {users.data && users.data.length > 0 && (
            <>
              <Label htmlFor="holder-user">
                <Trans>Benutzer</Trans>
              </Label>
              <select
                id="holder-user"
                className="h-9 rounded-md border border-slate-300 bg-white px-2"
                value={userId}
                onChange={(e) => pickUser(e.target.value)}
              >
                <option value="">{t`– kein Benutzerkonto –`}</option>
                {users.data.map((u) => (
                  <option key={u.id} value={u.id}>
                    {[u.last_name, u.first_name].filter(Boolean).join(', ')} ({u.email})
                  </option>
                ))}
              </select>
            </>
          )}
          {users.data && users.data.length === 0 && (
            <p className="text-sm text-slate-600">
              <Trans>Kein Benutzer gefunden.</Trans>
            </p>
          )}
        </div>
        {field('email', t`E-Mail`, { type: 'email' })}
        <FormField
          control={form.control}
          name="startsOn"
          render={({ field: f }) => (
            <FormItem className="gap-1">
              <FormLabel>{t`Beginn`}</FormLabel>
              <FormControl>
                <DatePicker {...f} />
              </FormControl>
            </FormItem>
          )}
        />
        {field('firstName', t`Vorname`)}
        {field('lastName', t`Nachname`)}
        {field('boatName', t`Bootsname`)}
        {field('boatTag', t`Kennzeichen`)}
        {field('boatLength', t`Bootslänge (m)`, { inputMode: 'decimal' })}
        {field('boatWidth', t`Bootsbreite (m)`, { inputMode: 'decimal' })}
        {field('boatDraught', t`Tiefgang (m)`, { inputMode: 'decimal' })}
        {applicationId && (
          <p className="text-sm text-slate-600 sm:col-span-2">
            <Trans>Aus einer Bewerbung übernommen: sie wird als angenommen markiert.</Trans>
          </p>
        )}
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={assigning.isPending}>
            <Trans>Speichern</Trans>
          </Button>
          {assigning.isSuccess && (
            <p role="status" className="text-sm text-green-700">
              <Trans>Langzeitlieger gespeichert.</Trans>
            </p>
          )}
        </div>
        {(formError || refusal) && (
          <FormAlert className="text-sm sm:col-span-2">{formError ?? (refusal ? messages[refusal] : null)}</FormAlert>
        )}
      </form>
    </Form>
  );
}

/** Open applications for this berth (and for any berth), in waiting-list order. */
function Applications({ placeId, onPick }: { placeId: string; onPick: (a: Application) => void }) {
  const { t, i18n } = useLingui();
  const { data, isError, isPending } = useQuery(applicationsQueryOptions());
  const open = (data ?? []).filter((a) => a.status === 'open' && a.waiting_position !== null);
  const forThis = open.filter((a) => a.place_id === placeId);
  const anyBerth = open.filter((a) => a.place_id === null);
  const list = (items: Application[], label: string) => (
    <section aria-label={label} className="grid gap-2">
      <h3 className="font-semibold">{label}</h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>Keine offenen Bewerbungen.</Trans>
        </p>
      ) : (
        <ol className="grid gap-2">
          {items.map((a) => (
            <li key={a.id} className="rounded-md border border-slate-200 p-2 text-sm">
              <div className="font-medium">
                <Trans>Platz {a.waiting_position} auf der Warteliste</Trans>
              </div>
              <div>
                {a.first_name} {a.last_name} · {a.email}
              </div>
              <div className="text-slate-600">
                {a.boat.name} · {a.boat.length != null && a.boat.width != null ? formatSize(a.boat.length, a.boat.width, i18n.locale) : '–'}{' '}
                · <Trans>eingegangen {formatDay(a.created_at.slice(0, 10), i18n.locale)}</Trans>
              </div>
              <Button
                size="sm"
                variant="outline"
                className="mt-1"
                aria-label={t`Bewerbung von ${a.first_name} ${a.last_name} übernehmen`}
                onClick={() => onPick(a)}
              >
                <Trans>Übernehmen</Trans>
              </Button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
  return (
    <div className="grid content-start gap-4">
      {isError && (
        <FormAlert className="text-sm">
          <Trans>Die Bewerbungen konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
      {isPending && (
        <p>
          <Trans>Lädt…</Trans>
        </p>
      )}
      {list(forThis, t`Bewerbungen für diesen Liegeplatz`)}
      {list(anyBerth, t`Bewerbungen ohne bestimmten Liegeplatz`)}
    </div>
  );
}
