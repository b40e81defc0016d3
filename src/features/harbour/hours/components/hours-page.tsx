import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input, Textarea } from '@/components/ui/input';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { identityQueryOptions, isAdmin } from '@/lib/auth';
import { berlinToday, formatDay } from '@/lib/dates';
import {
  deleteHours,
  formatDecimalHours,
  formatMinutes,
  hoursCsv,
  hoursError,
  hoursKeys,
  hoursQueryOptions,
  monthBounds,
  peopleQueryOptions,
  saveHours,
  shiftMonth,
  type HoursEntry,
  type HoursError,
} from '@/features/harbour/hours/api/hours';
import { hoursSchema, type HoursInput, type HoursValues } from '@/features/harbour/hours/schemas/hours';
import { DatePicker } from '@/components/ui/date-picker';
import { FormAlert } from '@/components/form-alert';

const EMPTY = (day: string): HoursInput => ({ work_date: day, start_time: '', end_time: '', break_minutes: 0, note: '' });

/** /account/admin/hours: staff record their shifts and see the month with totals; admins see everyone's and export CSV. */
export function HoursPage({
  month,
  person,
  onChange,
}: {
  month: string;
  person?: string;
  onChange: (next: { month: string; person?: string }) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const queryClient = useQueryClient();
  const { data: identity } = useQuery(identityQueryOptions);
  const admin = isAdmin(identity);
  const me = identity?.status === 'loggedIn' ? identity.userId : undefined;
  const hours = useQuery(hoursQueryOptions(month, person));
  const people = useQuery({ ...peopleQueryOptions(), enabled: admin });
  const names = new Map((people.data ?? []).map((p) => [p.id, p.name]));

  const today = berlinToday();
  const { from, until } = monthBounds(month);
  const defaultDay = today >= from && today < until ? today : from;
  const [editing, setEditing] = useState<HoursEntry | null>(null);
  const [status, setStatus] = useState<{ kind: 'saved' | 'deleted' } | { kind: 'error'; error: HoursError } | null>(null);
  const [toDelete, setToDelete] = useState<HoursEntry | null>(null);
  const form = useForm<HoursInput, unknown, HoursValues>({ resolver: zodResolver(hoursSchema), defaultValues: EMPTY(defaultDay) });

  const errorText: Record<HoursError, string> = {
    overlap: t`Dieser Eintrag überschneidet sich mit einem anderen Eintrag derselben Person.`,
    closed: t`Dieser Monat ist abgeschlossen: Einträge sind nur im laufenden und im letzten Monat möglich.`,
    invalid: t`Bitte die Angaben prüfen: Das Ende liegt nach dem Beginn, die Pause ist kürzer als die Arbeitszeit.`,
    failed: t`Das hat nicht geklappt. Bitte erneut versuchen.`,
  };

  const refresh = () => queryClient.invalidateQueries({ queryKey: hoursKeys.all });
  const onSubmit = form.handleSubmit(async (values) => {
    setStatus(null);
    try {
      await saveHours(values, editing?.id);
      setEditing(null);
      form.reset(EMPTY(values.work_date));
      setStatus({ kind: 'saved' });
      await refresh();
    } catch (error) {
      setStatus({ kind: 'error', error: hoursError(error) });
    }
  });
  const startEdit = (entry: HoursEntry) => {
    setEditing(entry);
    setStatus(null);
    form.reset({
      work_date: entry.work_date,
      start_time: entry.start_time,
      end_time: entry.end_time,
      break_minutes: entry.break_minutes,
      note: entry.note ?? '',
    });
  };
  const confirmDelete = async () => {
    if (!toDelete) return;
    const entry = toDelete;
    setToDelete(null);
    try {
      await deleteHours(entry.id);
      if (editing?.id === entry.id) {
        setEditing(null);
        form.reset(EMPTY(defaultDay));
      }
      setStatus({ kind: 'deleted' });
      await refresh();
    } catch (error) {
      setStatus({ kind: 'error', error: hoursError(error) });
    }
  };

  const monthLabel = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'de-DE', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${from}T12:00:00Z`));
  const entries = hours.data ?? [];
  const byDay = new Map<string, HoursEntry[]>();
  for (const e of entries) (byDay.get(e.work_date) ?? byDay.set(e.work_date, []).get(e.work_date)!).push(e);
  const total = entries.reduce((sum, e) => sum + e.minutes, 0);
  const perPerson = new Map<string, number>();
  for (const e of entries) perPerson.set(e.user_id, (perPerson.get(e.user_id) ?? 0) + e.minutes);

  const exportCsv = () => {
    const csv = hoursCsv(
      entries,
      names,
      {
        person: t`Person`,
        date: t`Datum`,
        start: t`Beginn`,
        end: t`Ende`,
        breakMinutes: t`Pause (Minuten)`,
        minutes: t`Minuten`,
        hours: t`Stunden`,
        note: t`Notiz`,
        total: t`Summe`,
      },
      locale,
    );
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    const who = person ? `-${(names.get(person) ?? person).replace(/[^\p{L}\p{N}]+/gu, '-')}` : '';
    a.download = `${t`arbeitsstunden`}-${month}${who}.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Page title={t`Arbeitsstunden`}>
      <nav aria-label={t`Monat`} className="flex flex-wrap items-center gap-2">
        <Button variant="outline" onClick={() => onChange({ month: shiftMonth(month, -1), person })}>
          <Trans>Voriger Monat</Trans>
        </Button>
        <h2 className="min-w-40 text-center text-xl font-semibold" aria-live="polite">
          {monthLabel}
        </h2>
        <Button variant="outline" onClick={() => onChange({ month: shiftMonth(month, 1), person })}>
          <Trans>Nächster Monat</Trans>
        </Button>
        {admin && (
          <>
            <label className="ml-auto flex items-center gap-2 text-sm">
              <Trans>Person</Trans>
              <select
                value={person ?? ''}
                onChange={(e) => onChange({ month, person: e.target.value || undefined })}
                className="h-10 rounded-md border border-slate-300 bg-white px-3 text-base"
              >
                <option value="">{t`Alle`}</option>
                {(people.data ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <Button onClick={exportCsv} disabled={!hours.data}>
              <Trans>CSV exportieren</Trans>
            </Button>
          </>
        )}
      </nav>

      <Section title={editing ? t`Eintrag ändern` : t`Arbeitszeit eintragen`}>
        <Form {...form}>
          <form
            onSubmit={onSubmit}
            noValidate
            aria-label={editing ? t`Eintrag ändern` : t`Arbeitszeit eintragen`}
            className="grid max-w-2xl gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-4"
          >
            <FormField
              control={form.control}
              name="work_date"
              render={({ field }) => (
                <FormItem className="sm:col-span-2">
                  <FormLabel>
                    <Trans>Datum</Trans>
                  </FormLabel>
                  <FormControl>
                    <DatePicker {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="start_time"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    <Trans>Beginn</Trans>
                  </FormLabel>
                  <FormControl>
                    <Input type="time" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="end_time"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    <Trans>Ende</Trans>
                  </FormLabel>
                  <FormControl>
                    <Input type="time" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="break_minutes"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    <Trans>Pause (Minuten)</Trans>
                  </FormLabel>
                  <FormControl>
                    <Input type="number" inputMode="numeric" min={0} max={600} step={1} {...field} value={field.value as number | string} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="note"
              render={({ field }) => (
                <FormItem className="sm:col-span-3">
                  <FormLabel>
                    <Trans>Notiz</Trans>
                  </FormLabel>
                  <FormControl>
                    <Textarea rows={1} {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="flex flex-wrap gap-2 sm:col-span-4">
              <Button type="submit" disabled={form.formState.isSubmitting}>
                {editing ? <Trans>Änderung speichern</Trans> : <Trans>Eintragen</Trans>}
              </Button>
              {editing && (
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => {
                    setEditing(null);
                    form.reset(EMPTY(defaultDay));
                  }}
                >
                  <Trans>Abbrechen</Trans>
                </Button>
              )}
            </div>
            <div aria-live="polite" className="sm:col-span-4">
              {status?.kind === 'saved' && (
                <p className="text-sm text-green-800">
                  <Trans>Gespeichert.</Trans>
                </p>
              )}
              {status?.kind === 'deleted' && (
                <p className="text-sm text-green-800">
                  <Trans>Eintrag gelöscht.</Trans>
                </p>
              )}
              {status?.kind === 'error' && <FormAlert className="text-sm">{errorText[status.error]}</FormAlert>}
            </div>
          </form>
        </Form>
      </Section>

      <Section aria-label={t`Monatsübersicht`} title={<Trans>Monatsübersicht</Trans>}>
        {hours.error ? (
          <FormAlert>
            <Trans>Die Arbeitsstunden konnten nicht geladen werden.</Trans>
          </FormAlert>
        ) : hours.isPending ? (
          <p>
            <Trans>Lädt…</Trans>
          </p>
        ) : (
          <>
            <p className="text-lg font-semibold" data-testid="month-total">
              <Trans>
                Summe im Monat: {formatMinutes(total)} h ({formatDecimalHours(total, locale)} Std.)
              </Trans>
            </p>
            {admin && perPerson.size > 1 && (
              <ul className="grid gap-0.5 text-sm" aria-label={t`Summe je Person`}>
                {[...perPerson].map(([user, minutes]) => (
                  <li key={user}>
                    {names.get(user) ?? user}: {formatMinutes(minutes)} h
                  </li>
                ))}
              </ul>
            )}
            {entries.length === 0 ? (
              <p className="text-sm text-slate-600">
                <Trans>In diesem Monat ist noch nichts eingetragen.</Trans>
              </p>
            ) : (
              <ol className="grid gap-3">
                {[...byDay].map(([day, list]) => {
                  const dayTotal = list.reduce((sum, e) => sum + e.minutes, 0);
                  const dayLabel = formatDay(day, locale);
                  return (
                    <li key={day} aria-label={dayLabel} className="rounded-lg border border-slate-200 bg-white p-3">
                      <div className="flex items-baseline justify-between gap-2">
                        <h3 className="font-semibold">{dayLabel}</h3>
                        <span className="text-sm">
                          <Trans>Tagessumme: {formatMinutes(dayTotal)} h</Trans>
                        </span>
                      </div>
                      <ul className="mt-2 grid gap-2 text-sm">
                        {list.map((e) => {
                          const mine = e.user_id === me;
                          return (
                            <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                              {admin && <span className="font-medium">{names.get(e.user_id) ?? ''}</span>}
                              <span>
                                {e.start_time}–{e.end_time}
                              </span>
                              <span className="text-slate-600">
                                <Trans>Pause {e.break_minutes} min</Trans>
                              </span>
                              <span className="font-medium">{formatMinutes(e.minutes)} h</span>
                              {e.note && <span className="text-slate-600">{e.note}</span>}
                              {(mine || admin) && (
                                <span className="ml-auto flex gap-1">
                                  <Button
                                    size="sm"
                                    variant="outline"
                                    onClick={() => startEdit(e)}
                                    aria-label={t`${e.start_time}–${e.end_time} am ${dayLabel} ändern`}
                                  >
                                    <Trans>Ändern</Trans>
                                  </Button>
                                  <Button
                                    size="sm"
                                    variant="outline"
                                    onClick={() => setToDelete(e)}
                                    aria-label={t`${e.start_time}–${e.end_time} am ${dayLabel} löschen`}
                                  >
                                    <Trans>Löschen</Trans>
                                  </Button>
                                </span>
                              )}
                            </li>
                          );
                        })}
                      </ul>
                    </li>
                  );
                })}
              </ol>
            )}
          </>
        )}
      </Section>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={<Trans>Eintrag löschen?</Trans>}
        description={
          toDelete && (
            <Trans>
              {formatDay(toDelete.work_date, locale)}, {toDelete.start_time}–{toDelete.end_time} wird endgültig gelöscht.
            </Trans>
          )
        }
        confirmLabel={<Trans>Löschen</Trans>}
        destructive
        onConfirm={() => void confirmDelete()}
      />
    </Page>
  );
}
