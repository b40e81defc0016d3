import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { FormAlert } from '@/components/form-alert';
import { berlinToday, formatDay, nightsBetween } from '@/lib/dates';
import { errorCode } from '@/lib/errors/codes';
import { errorMessage } from '@/lib/errors/guest-messages';
import { absencesQueryOptions, useDeleteAbsence, useSaveAbsence, type Absence } from '@/features/account/holder-absences/api';
import { absenceSchema, type AbsenceValues } from '@/features/account/holder-absences/schema';

/** The refusal's sentence; for nights already let, the nights themselves (DETAIL of absence_nights_let). */
function absenceError(error: unknown, i18n: I18n): string {
  const detail = (error as { details?: unknown; detail?: unknown } | null) ?? {};
  const raw = typeof detail.details === 'string' ? detail.details : typeof detail.detail === 'string' ? detail.detail : '';
  if (errorCode(error) === 'absence_nights_let' && /^\d{4}-\d{2}-\d{2}(,\d{4}-\d{2}-\d{2})*$/.test(raw)) {
    const nights = raw
      .split(',')
      .map((d) => formatDay(d, i18n.locale))
      .join(', ');
    return i18n._(
      msg`Diese Nächte sind schon an Gäste vergeben: ${nights}. Ihre Abwesenheit muss sie weiter einschließen; wählen Sie eine Rückkehr danach.`,
    );
  }
  return errorMessage(error, { i18n });
}

/**
 * A holder's absences (issue 43 deliverable 4, ADR 0054): the list with the nights already let,
 * a form to enter one and, per absence, to change or withdraw it. Used on the holder's contract
 * (/account) and by staff on the berth's holder (back office); the database decides who may.
 */
export function HolderAbsences({ holderId, forStaff = false }: { holderId: string; forStaff?: boolean }) {
  const { t } = useLingui();
  const absences = useQuery(absencesQueryOptions(holderId));
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <section
      aria-label={t`Abwesenheiten`}
      className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-4 text-sm"
      data-absences={holderId}
    >
      <h3 className="font-semibold">
        <Trans>Abwesenheiten</Trans>
      </h3>
      <p className="text-slate-700">
        {forStaff ? (
          <Trans>
            Nächte, in denen der Langzeitlieger weg ist: Der Liegeplatz wird dann an Gäste vergeben. Vergebene Nächte kann er nicht
            zurücknehmen.
          </Trans>
        ) : (
          <Trans>
            Wenn Sie unterwegs sind, tragen Sie hier ein, wann Sie weg sind. In diesen Nächten vergibt der Hafen Ihren Liegeplatz an Gäste.
            Nächte, die schon vergeben sind, bleiben den Gästen.
          </Trans>
        )}
      </p>
      {absences.isError ? (
        <FormAlert>{errorMessage(absences.error)}</FormAlert>
      ) : (
        (absences.data ?? []).length > 0 && (
          <ul className="flex flex-col gap-2">
            {absences.data!.map((a) =>
              editing === a.id ? (
                <li key={a.id} className="flex flex-col gap-2">
                  <LetNights absence={a} />
                  <AbsenceForm holderId={holderId} absence={a} onDone={() => setEditing(null)} />
                </li>
              ) : (
                <AbsenceRow key={a.id} holderId={holderId} absence={a} onEdit={() => setEditing(a.id)} />
              ),
            )}
          </ul>
        )
      )}
      {editing === null && <AbsenceForm holderId={holderId} />}
    </section>
  );
}

/** The nights of an absence already let to guests (they stay let), if any. */
function LetNights({ absence }: { absence: Absence }) {
  const { i18n } = useLingui();
  if (absence.let_nights.length === 0) return null;
  const letNights = absence.let_nights.map((d) => formatDay(d, i18n.locale)).join(', ');
  return (
    <span className="text-amber-800" data-testid="let-nights">
      <Trans>Schon an Gäste vergeben: {letNights}</Trans>
    </span>
  );
}

function AbsenceRow({ holderId, absence, onEdit }: { holderId: string; absence: Absence; onEdit: () => void }) {
  const { t, i18n } = useLingui();
  const remove = useDeleteAbsence(holderId);
  const from = formatDay(absence.starts_on, i18n.locale);
  const back = formatDay(absence.ends_on, i18n.locale);
  const count = nightsBetween(absence.starts_on, absence.ends_on);
  const over = absence.ends_on <= berlinToday();
  return (
    <li className="flex flex-col gap-1 rounded-md bg-slate-50 p-2" data-absence={absence.id}>
      <span>
        <Trans>
          Weg ab {from}, zurück am {back} ({count} Nächte)
        </Trans>
      </span>
      <LetNights absence={absence} />
      {remove.error && <FormAlert>{absenceError(remove.error, i18n)}</FormAlert>}
      {!over && (
        <span className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={onEdit} aria-label={t`Abwesenheit ab ${from} ändern`}>
            <Trans>Ändern</Trans>
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={remove.isPending}
            onClick={() => remove.mutate(absence.id)}
            aria-label={t`Abwesenheit ab ${from} zurücknehmen`}
          >
            <Trans>Zurücknehmen</Trans>
          </Button>
        </span>
      )}
    </li>
  );
}

function AbsenceForm({ holderId, absence, onDone }: { holderId: string; absence?: Absence; onDone?: () => void }) {
  const { t, i18n } = useLingui();
  const save = useSaveAbsence(holderId);
  const today = berlinToday();
  const form = useForm<AbsenceValues>({
    resolver: zodResolver(absenceSchema),
    defaultValues: { startsOn: absence?.starts_on ?? '', endsOn: absence?.ends_on ?? '' },
  });
  const onSubmit = form.handleSubmit((v) =>
    save.mutate(
      { startsOn: v.startsOn, endsOn: v.endsOn, absenceId: absence?.id },
      {
        onSuccess: () => {
          if (!absence) form.reset();
          onDone?.();
        },
      },
    ),
  );
  return (
    <Form {...form}>
      <form
        onSubmit={onSubmit}
        noValidate
        className="flex flex-col gap-3"
        aria-label={absence ? t`Abwesenheit ändern` : t`Abwesenheit eintragen`}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="startsOn"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Weg ab (erste Nacht)</Trans>
                </FormLabel>
                <FormControl>
                  <DatePicker {...field} min={absence && absence.starts_on < today ? absence.starts_on : today} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="endsOn"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Zurück am</Trans>
                </FormLabel>
                <FormControl>
                  <DatePicker {...field} min={today} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        {save.error && <FormAlert>{absenceError(save.error, i18n)}</FormAlert>}
        {save.isSuccess && !absence && (
          <p role="status" className="text-green-700">
            <Trans>Abwesenheit eingetragen. Ihr Liegeplatz wird in diesen Nächten an Gäste vergeben.</Trans>
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            {absence ? <Trans>Änderung speichern</Trans> : <Trans>Abwesenheit eintragen</Trans>}
          </Button>
          {absence && (
            <Button type="button" variant="outline" onClick={onDone}>
              <Trans>Abbrechen</Trans>
            </Button>
          )}
        </div>
      </form>
    </Form>
  );
}
