import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { usePaymentMethodLabel } from '@/features/orders';
import { addDaysIso, berlinDay, formatBerlinDateTime, formatBerlinTime, formatDay } from '@/lib/dates';
import { formatEuro, parseEuroCents } from '@/lib/prices';
import { cn } from '@/lib/utils';
import {
  cashDayQueryOptions,
  useCashAction,
  type CashDay,
  type CashEntry,
  type CashEntryKind,
  type OtherPayment,
} from '@/features/harbour/cash-book/api/cash-book';
import {
  cashClosingSchema,
  cashMovementSchema,
  type CashClosingInput,
  type CashClosingValues,
  type CashMovementInput,
  type CashMovementValues,
} from '@/features/harbour/cash-book/schemas/cash-book';
import { DatePicker } from '@/components/ui/date-picker';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** Only the sheet is printed (bars, drawer, forms and buttons hidden), on A4. */
const PRINT_CSS = `
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body * { visibility: hidden !important; }
  #cash-sheet, #cash-sheet * { visibility: visible !important; }
  #cash-sheet { position: absolute; inset: 0 auto auto 0; width: 100%; }
}
`;

type Feedback = { ok: boolean; text: string } | null;

function useKindLabel() {
  const { t } = useLingui();
  const labels: Record<CashEntryKind, string> = {
    payment: t`Barzahlung`,
    refund: t`Barerstattung`,
    opening_float: t`Anfangsbestand / Einlage`,
    bank_deposit: t`Geldtransit zur Bank`,
    withdrawal: t`Entnahme`,
    difference: t`Kassendifferenz`,
  };
  return (kind: CashEntryKind) => labels[kind] ?? kind;
}

/**
 * /account/admin/cash: the cash book of a day (entries with the running balance), the day's
 * card-terminal, transfer and online payments beside it, the till's movements and the daily
 * closing (Kassenbericht); a closed day is shown read-only. The database numbers, balances and
 * refuses; this page asks and shows.
 */
export function CashBookPage({ day, onDay }: { day: string; onDay: (day: string) => void }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const query = useQuery(cashDayQueryOptions(day));
  const [feedback, setFeedback] = useState<Feedback>(null);
  const go = (next: string) => {
    setFeedback(null);
    onDay(next);
  };
  const data = query.data;
  const s = data?.summary;

  return (
    <Page title={t`Kassenbuch`}>
      <style>{PRINT_CSS}</style>
      <nav aria-label={t`Tag`} className="flex flex-wrap items-center gap-2 print:hidden">
        <Button variant="outline" onClick={() => go(addDaysIso(day, -1))}>
          <Trans>Voriger Tag</Trans>
        </Button>
        <label className="flex items-center gap-2">
          <span className="sr-only">
            <Trans>Tag wählen</Trans>
          </span>
          <DatePicker value={day} onChange={(v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && go(v)} className="w-44" />
        </label>
        <Button variant="outline" onClick={() => go(addDaysIso(day, 1))}>
          <Trans>Nächster Tag</Trans>
        </Button>
        {s && day !== s.open_day && (
          <Button variant="ghost" onClick={() => go(s.open_day)}>
            <Trans>Zum offenen Tag</Trans>
          </Button>
        )}
        <Button className="ml-auto" variant="outline" onClick={() => window.print()}>
          <Trans>Drucken</Trans>
        </Button>
      </nav>

      {feedback && (
        <p
          role={feedback.ok ? 'status' : 'alert'}
          className={cn('rounded-md p-3 print:hidden', feedback.ok ? 'bg-green-50 text-green-950' : 'bg-red-50 text-red-900')}
        >
          {feedback.text}
        </p>
      )}

      {query.isError ? (
        <FormAlert>{staffErrorMessage(query.error)}</FormAlert>
      ) : !data || !s ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <>
          <div id="cash-sheet" className="flex flex-col gap-6">
            <header className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 className="text-xl font-semibold" data-testid="cash-day">
                {formatDay(day, locale)}
              </h2>
              <DayState data={data} />
            </header>
            <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-3">
              <Section title={t`Kassenbuch (bar)`} className="lg:col-span-2">
                <CashTable data={data} />
              </Section>
              <Section title={t`Weitere Zahlungen des Tages`}>
                <OtherPayments others={data.others} />
              </Section>
            </div>
            {data.closing && <ClosingReport data={data} />}
          </div>

          {!data.closing && (
            <div className="grid gap-6 print:hidden lg:grid-cols-2">
              {day === s.open_day ? (
                <MovementForm onDone={(text) => setFeedback({ ok: true, text })} />
              ) : (
                <p className="text-sm text-slate-700">
                  <Trans>Kassenbewegungen werden auf den offenen Tag gebucht ({formatDay(s.open_day, locale)}).</Trans>
                </p>
              )}
              <ClosingForm key={day} data={data} onDone={(text) => setFeedback({ ok: true, text })} />
            </div>
          )}
        </>
      )}
    </Page>
  );
}

function DayState({ data }: { data: CashDay }) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const c = data.closing;
  if (c) {
    const at = formatBerlinDateTime(c.closed_at, locale);
    const who = c.closed_by_name ?? '';
    return (
      <p className="rounded-lg bg-slate-200 px-3 py-1 text-sm font-medium text-slate-900" data-testid="day-state">
        <Trans>
          Abgeschlossen am {at} von {who}
        </Trans>
      </p>
    );
  }
  return (
    <p className="rounded-full bg-green-100 px-3 py-1 text-sm font-medium text-green-950" data-testid="day-state">
      <Trans>Offen</Trans>
    </p>
  );
}

function Money({ cents, className }: { cents: number; className?: string }) {
  const { i18n } = useLingui();
  return <span className={cn('tabular-nums whitespace-nowrap', className)}>{formatEuro(cents, i18n.locale)}</span>;
}

function CashTable({ data }: { data: CashDay }) {
  const { t } = useLingui();
  const kindLabel = useKindLabel();
  const entries = data.entries;
  const first = entries[0];
  const opening = first ? Number(first.balance_cents) - first.amount_cents : data.closing ? null : data.summary.expected_cents;
  const closingBalance = entries.length ? Number(entries[entries.length - 1]!.balance_cents) : opening;
  const cashIn = entries.reduce((sum, e) => sum + Math.max(e.amount_cents, 0), 0);
  const cashOut = entries.reduce((sum, e) => sum + Math.max(-e.amount_cents, 0), 0);
  const row = (label: ReactNode, cents: number | null, testId: string) => (
    <tr className="bg-slate-50 font-semibold">
      <td colSpan={2} className="px-2 py-2">
        {label}
      </td>
      <td className="hidden px-2 py-2 sm:table-cell" />
      <td className="hidden px-2 py-2 sm:table-cell" />
      <td className="px-2 py-2 sm:hidden" />
      <td className="px-2 py-2 text-right" data-testid={testId}>
        {cents === null ? '–' : <Money cents={cents} />}
      </td>
    </tr>
  );
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-sm" aria-label={t`Kassenbuch`}>
        <thead className="border-b border-slate-200 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-2 py-2">
              <Trans>Nr.</Trans>
            </th>
            <th scope="col" className="px-2 py-2">
              <Trans>Vorgang</Trans>
            </th>
            <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">
              <Trans>Einnahme</Trans>
            </th>
            <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">
              <Trans>Ausgabe</Trans>
            </th>
            <th scope="col" className="px-2 py-2 text-right sm:hidden">
              <Trans>Betrag</Trans>
            </th>
            <th scope="col" className="px-2 py-2 text-right">
              <Trans>Bestand</Trans>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {row(<Trans>Anfangsbestand</Trans>, opening, 'cash-opening')}
          {entries.length === 0 && (
            <tr>
              <td colSpan={5} className="px-2 py-3 text-slate-600">
                <Trans>An diesem Tag wurde nichts bar gebucht.</Trans>
              </td>
            </tr>
          )}
          {entries.map((e) => (
            <EntryRow key={e.id} entry={e} kindLabel={kindLabel} />
          ))}
          {entries.length > 0 && (
            <tr className="text-slate-700">
              <td colSpan={2} className="px-2 py-2">
                <Trans>Summe des Tages</Trans>
              </td>
              <td className="hidden px-2 py-2 text-right sm:table-cell">
                <Money cents={cashIn} />
              </td>
              <td className="hidden px-2 py-2 text-right sm:table-cell">
                <Money cents={cashOut} />
              </td>
              <td className="px-2 py-2 text-right sm:hidden">
                <Money cents={cashIn - cashOut} />
              </td>
              <td />
            </tr>
          )}
          {row(<Trans>Endbestand</Trans>, closingBalance, 'cash-balance')}
        </tbody>
      </table>
    </div>
  );
}

function EntryRow({ entry: e, kindLabel }: { entry: CashEntry; kindLabel: (k: CashEntryKind) => string }) {
  const { i18n } = useLingui();
  const late = e.business_day !== berlinDay(e.booked_at);
  const bookedAt = formatBerlinDateTime(e.booked_at, i18n.locale);
  return (
    <tr data-kind={e.kind} data-testid="cash-entry">
      <td className="px-2 py-2 align-top tabular-nums">{e.entry_no}</td>
      <td className="px-2 py-2 align-top">
        <div className="font-medium text-slate-900">{kindLabel(e.kind)}</div>
        <div className="text-slate-600">
          {formatBerlinTime(e.booked_at)}
          {e.order_id && (
            <>
              {' · '}
              <Link
                to="/{-$locale}/account/admin/orders/$id"
                params={{ id: e.order_id }}
                className="text-primary-dark underline underline-offset-2"
              >
                {e.order_label || <Trans>Buchung</Trans>}
              </Link>
            </>
          )}
          {e.reason && <> · {e.reason}</>}
          {e.recorded_by_name && <> · {e.recorded_by_name}</>}
        </div>
        {late && (
          <div className="text-xs text-amber-900">
            <Trans>Nach dem Tagesabschluss erfasst: {bookedAt}</Trans>
          </div>
        )}
      </td>
      <td className="hidden px-2 py-2 text-right align-top sm:table-cell">{e.amount_cents > 0 && <Money cents={e.amount_cents} />}</td>
      <td className="hidden px-2 py-2 text-right align-top sm:table-cell">{e.amount_cents < 0 && <Money cents={-e.amount_cents} />}</td>
      <td className="px-2 py-2 text-right align-top sm:hidden">
        <Money cents={e.amount_cents} className={e.amount_cents < 0 ? 'text-red-800' : undefined} />
      </td>
      <td className="px-2 py-2 text-right align-top" data-testid="entry-balance">
        <Money cents={Number(e.balance_cents)} />
      </td>
    </tr>
  );
}

function OtherPayments({ others }: { others: OtherPayment[] }) {
  const { t } = useLingui();
  const methodLabel = usePaymentMethodLabel();
  const groups: OtherPayment['method'][] = ['card_terminal', 'bank_transfer', 'online'];
  return (
    <div className="flex flex-col gap-4">
      {groups.map((method) => {
        const rows = others.filter((p) => p.method === method);
        const total = rows.reduce((sum, p) => sum + (p.kind === 'refund' ? -p.amount_cents : p.amount_cents), 0);
        const title = methodLabel(method);
        return (
          <section key={method} aria-label={title} data-testid={`others-${method}`} className="rounded-xl border border-slate-200 bg-white">
            <h3 className="flex items-baseline justify-between gap-2 border-b border-slate-200 px-3 py-2 font-semibold">
              <span>
                {title}
                {method === 'online' && (
                  <span className="ml-1 text-xs font-normal text-slate-600">
                    (<Trans>zur Information</Trans>)
                  </span>
                )}
              </span>
              <Money cents={total} />
            </h3>
            {rows.length === 0 ? (
              <p className="px-3 py-2 text-sm text-slate-600">
                <Trans>Keine</Trans>
              </p>
            ) : (
              <ul className="divide-y divide-slate-100 text-sm" aria-label={t`${title}: Zahlungen`}>
                {rows.map((p) => (
                  <li key={p.id} className="flex items-baseline justify-between gap-3 px-3 py-1.5" data-testid="other-payment">
                    <span className="min-w-0">
                      {formatBerlinTime(p.recorded_at)}
                      {' · '}
                      {p.order_id ? (
                        <Link
                          to="/{-$locale}/account/admin/orders/$id"
                          params={{ id: p.order_id }}
                          className="text-primary-dark underline underline-offset-2"
                        >
                          {p.order_label || <Trans>Buchung</Trans>}
                        </Link>
                      ) : (
                        <Link
                          to="/{-$locale}/account/admin/desk-sale/$documentId"
                          params={{ documentId: p.document_id ?? '' }}
                          className="text-primary-dark underline underline-offset-2"
                        >
                          <Trans>Verkauf am Hafenbüro {p.order_label}</Trans>
                        </Link>
                      )}
                      {p.kind === 'refund' && (
                        <>
                          {' '}
                          · <Trans>Erstattung</Trans>
                        </>
                      )}
                    </span>
                    <Money cents={p.kind === 'refund' ? -p.amount_cents : p.amount_cents} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

function ClosingReport({ data }: { data: CashDay }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const c = data.closing!;
  const eur = (cents: number) => formatEuro(Number(cents), locale);
  const from = formatDay(c.period_from, locale);
  const to = formatDay(c.business_day, locale);
  return (
    <Section title={t`Kassenbericht`} aria-label={t`Kassenbericht`} data-testid="closing-report">
      {c.period_from !== c.business_day && (
        <p className="text-sm text-slate-700">
          <Trans>
            Zeitraum: {from} bis {to} (die Tage dazwischen wurden nicht einzeln abgeschlossen).
          </Trans>
        </p>
      )}
      {c.business_day !== data.summary.day && (
        <p className="text-sm text-slate-700">
          <Trans>Dieser Tag ist mit dem Kassenbericht vom {to} abgeschlossen.</Trans>
        </p>
      )}
      <FactList
        items={[
          { label: t`Anfangsbestand`, value: <Money cents={Number(c.opening_cents)} /> },
          { label: t`Einnahmen (bar)`, value: <Money cents={Number(c.cash_in_cents)} /> },
          { label: t`Ausgaben (bar)`, value: <Money cents={Number(c.cash_out_cents)} /> },
          {
            label: t`Sollbestand (laut Kassenbuch)`,
            value: (
              <span data-testid="closing-expected" className="whitespace-nowrap">
                {eur(c.expected_cents)}
              </span>
            ),
          },
          {
            label: t`Gezählter Bestand (Istbestand)`,
            value: (
              <span data-testid="closing-counted" className="whitespace-nowrap">
                {eur(c.counted_cents)}
              </span>
            ),
          },
          {
            label: t`Kassendifferenz`,
            value: (
              <span data-testid="closing-difference" className="whitespace-nowrap">
                {eur(c.difference_cents)}
              </span>
            ),
          },
          { label: t`Bestätigt von`, value: c.closed_by_name ?? '–' },
          { label: t`Bestätigt am`, value: formatBerlinDateTime(c.closed_at, locale) },
          ...(c.note ? [{ label: t`Notiz`, value: c.note }] : []),
        ]}
      />
      <p className="text-sm text-slate-600">
        <Trans>
          Abgeschlossen: Dieser Tag kann nicht mehr geändert werden. Spätere Barzahlungen werden auf den nächsten offenen Tag gebucht.
        </Trans>
      </p>
    </Section>
  );
}

function MovementForm({ onDone }: { onDone: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const kindLabel = useKindLabel();
  const action = useCashAction();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<CashMovementInput, unknown, CashMovementValues>({
    resolver: zodResolver(cashMovementSchema),
    defaultValues: { kind: 'opening_float', amount: '', reason: '' },
  });
  const control = form.control as unknown as Control<CashMovementInput>;
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await action.mutateAsync({ type: 'movement', kind: v.kind, amountCents: v.amount, reason: v.reason });
      form.reset({ kind: v.kind, amount: '', reason: '' });
      onDone(t`${kindLabel(v.kind)} über ${formatEuro(v.amount, locale)} gebucht.`);
    } catch (e) {
      setError(staffErrorMessage(e));
    }
  });
  const options: { value: CashMovementValues['kind']; hint: string }[] = [
    { value: 'opening_float', hint: t`Wechselgeld oder Geld, das in die Kasse gelegt wird` },
    { value: 'bank_deposit', hint: t`Bargeld, das zur Bank gebracht wird` },
    { value: 'withdrawal', hint: t`Bargeld, das aus anderem Grund entnommen wird` },
  ];
  return (
    <Section title={t`Kassenbewegung buchen`}>
      <Form {...form}>
        <form
          noValidate
          onSubmit={onSubmit}
          aria-label={t`Kassenbewegung buchen`}
          className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4"
        >
          <FormField
            control={control}
            name="kind"
            render={({ field }) => (
              <FormItem>
                <p className="text-sm font-medium">
                  <Trans>Art</Trans>
                </p>
                <RadioGroup value={field.value} onValueChange={field.onChange} aria-label={t`Art`} className="gap-2">
                  {options.map((o) => (
                    <Label
                      key={o.value}
                      className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[[data-state=checked]]:border-primary-dark has-[[data-state=checked]]:bg-sky-50"
                    >
                      <RadioGroupItem value={o.value} className="mt-0.5" />
                      <span className="flex flex-col gap-0.5">
                        <span className="font-medium">{kindLabel(o.value)}</span>
                        <span className="text-sm font-normal text-slate-600">{o.hint}</span>
                      </span>
                    </Label>
                  ))}
                </RadioGroup>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={control}
            name="amount"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Betrag (€)</Trans>
                </FormLabel>
                <FormControl>
                  <Input inputMode="decimal" autoComplete="off" className="max-w-40" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={control}
            name="reason"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Grund</Trans>
                </FormLabel>
                <FormControl>
                  <Input maxLength={500} autoComplete="off" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {error && <FormAlert className="text-sm">{error}</FormAlert>}
          <div>
            <Button type="submit" disabled={action.isPending}>
              <Trans>Buchen</Trans>
            </Button>
          </div>
        </form>
      </Form>
    </Section>
  );
}

function ClosingForm({ data, onDone }: { data: CashDay; onDone: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const s = data.summary;
  const action = useCashAction();
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<CashClosingValues | null>(null);
  const form = useForm<CashClosingInput, unknown, CashClosingValues>({
    resolver: zodResolver(cashClosingSchema),
    defaultValues: { counted: '', note: '' },
  });
  // FormField knows no transformed values: the fields see the input types.
  const control = form.control as unknown as Control<CashClosingInput>;
  const typed = useWatch({ control, name: 'counted' });
  const typedCents = parseEuroCents(typed ?? '');
  const dayLabel = formatDay(s.day, locale);
  const future = s.day > s.today;
  const eur = (cents: number) => formatEuro(cents, locale);

  if (future) {
    return (
      <p className="text-sm text-slate-700">
        <Trans>Ein Tag in der Zukunft kann noch nicht abgeschlossen werden.</Trans>
      </p>
    );
  }
  if (s.later_entries) {
    return (
      <p className="text-sm text-slate-700">
        <Trans>
          Nach diesem Tag wurde schon gebucht. Bitte den letzten Tag abschließen: Sein Kassenbericht umfasst die offenen Tage davor.
        </Trans>
      </p>
    );
  }
  const close = async () => {
    if (!confirm) return;
    const v = confirm;
    setConfirm(null);
    setError(null);
    try {
      await action.mutateAsync({ type: 'close', day: s.day, countedCents: v.counted, note: v.note });
      onDone(t`Der Tag ${dayLabel} ist abgeschlossen.`);
    } catch (e) {
      setError(staffErrorMessage(e));
    }
  };
  const difference = confirm ? confirm.counted - s.expected_cents : 0;
  const differenceText = eur(difference);
  return (
    <Section title={t`Tagesabschluss (Kassenbericht)`}>
      <FactList
        items={[
          ...(s.period_from && s.period_from !== s.day ? [{ label: t`Seit`, value: formatDay(s.period_from, locale) }] : []),
          { label: t`Anfangsbestand`, value: <Money cents={s.opening_cents} /> },
          { label: t`Einnahmen (bar)`, value: <Money cents={s.cash_in_cents} /> },
          { label: t`Ausgaben (bar)`, value: <Money cents={s.cash_out_cents} /> },
          {
            label: t`Sollbestand (laut Kassenbuch)`,
            value: (
              <span data-testid="expected" className="whitespace-nowrap">
                {eur(s.expected_cents)}
              </span>
            ),
          },
        ]}
      />
      <Form {...form}>
        <form
          noValidate
          onSubmit={form.handleSubmit((v) => {
            setError(null);
            setConfirm(v);
          })}
          aria-label={t`Tagesabschluss`}
          className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4"
        >
          <FormField
            control={control}
            name="counted"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Gezählter Bestand (€)</Trans>
                </FormLabel>
                <FormControl>
                  <Input inputMode="decimal" autoComplete="off" className="max-w-40" {...field} />
                </FormControl>
                <FormDescription>
                  {typedCents !== null ? (
                    <Trans>Differenz zum Sollbestand: {eur(typedCents - s.expected_cents)}</Trans>
                  ) : (
                    <Trans>Das Bargeld in der Kasse zählen und eintragen.</Trans>
                  )}
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={control}
            name="note"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Notiz (optional)</Trans>
                </FormLabel>
                <FormControl>
                  <Textarea rows={2} className="min-h-16" maxLength={500} {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {error && <FormAlert className="text-sm">{error}</FormAlert>}
          <div>
            <Button type="submit" disabled={action.isPending}>
              <Trans>Tag abschließen</Trans>
            </Button>
          </div>
        </form>
      </Form>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={<Trans>Tag {dayLabel} abschließen?</Trans>}
        description={
          difference === 0 ? (
            <Trans>
              Der gezählte Bestand stimmt mit dem Kassenbuch überein. Nach dem Abschluss kann dieser Tag nicht mehr geändert werden.
            </Trans>
          ) : (
            <Trans>
              Die Differenz von {differenceText} wird als Kassendifferenz gebucht. Nach dem Abschluss kann dieser Tag nicht mehr geändert
              werden.
            </Trans>
          )
        }
        confirmLabel={<Trans>Abschließen</Trans>}
        onConfirm={() => void close()}
      />
    </Section>
  );
}
