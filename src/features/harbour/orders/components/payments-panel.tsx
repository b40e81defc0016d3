import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { type Order, type OrderBalance, usePaymentMethodLabel } from '@/features/orders';
import { formatBerlinDateTime } from '@/lib/dates';
import { centsToInput, formatEuro } from '@/lib/prices';
import { cn } from '@/lib/utils';
import { orderDetailQueryOptions } from '@/features/harbour/orders/api/orders';
import {
  deskBalanceQueryOptions,
  orderLedgerQueryOptions,
  refundOutcomeOpen,
  paymentRequestKeys,
  usePaymentAction,
  type LedgerRow,
  type PaymentAction,
} from '@/features/harbour/orders/api/payments';
import { useOrderLedgerLive } from '@/features/harbour/orders/hooks/use-order-ledger-live';
import { NotifyGuestTick } from '@/features/harbour/orders/components/notify-guest-tick';
import {
  deskPaymentSchema,
  refundSchema,
  type DeskPaymentInput,
  type DeskPaymentValues,
  type RefundInput,
  type RefundValues,
} from '@/features/harbour/orders/schemas/payment';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/** How long the panel polls for the ledger row of a refund requested from Stripe. */
const REFUND_POLL_MS = 60_000;

type Feedback = { ok: boolean; text: string } | null;

/**
 * The order's payments for the harbour team: the ledger (when, method, amount, who; refunds
 * under the payment they return), what is outstanding, a warning when more was paid than the
 * price, and the desk actions: record a payment, refund (online through Stripe, or cash / bank
 * transfer). The database decides who may do what; its refusals are shown in words.
 */
export function PaymentsPanel({ order }: { order: Order }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const methodLabel = usePaymentMethodLabel();
  const [requested, setRequested] = useState<{ refunds: number; at: number } | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [dialog, setDialog] = useState<'payment' | 'refund' | null>(null);
  const [lateFor, setLateFor] = useState<number | null>(null);
  const waiting = requested !== null;
  const late = waiting && lateFor === requested.at;
  useEffect(() => {
    if (!requested) return;
    const timer = setTimeout(() => setLateFor(requested.at), REFUND_POLL_MS);
    return () => clearTimeout(timer);
  }, [requested]);
  // New ledger rows arrive live (realtime on public.payments). After a Stripe refund the panel
  // also polls, bounded, so a missed event only delays it.
  useOrderLedgerLive(order.id);
  const poll = () => (requested && Date.now() - requested.at < REFUND_POLL_MS ? 1_500 : false);
  const ledger = useQuery({ ...orderLedgerQueryOptions(order.id), refetchInterval: poll });
  const balanceQuery = useQuery({ ...deskBalanceQueryOptions(order.id), refetchInterval: poll });
  useQuery({ ...orderDetailQueryOptions(order.id), refetchInterval: poll });
  const balance = balanceQuery.data;
  const rows = ledger.data ?? [];
  const refunds = rows.filter((r) => r.kind === 'refund').length;
  if (requested && refunds > requested.refunds) {
    // The refund arrived (state adjusted while rendering, as React advises over an effect).
    setRequested(null);
    setFeedback({ ok: true, text: t`Die Erstattung ist eingegangen und im Zahlungsverlauf erfasst.` });
  }

  const byId = new Map(rows.map((r) => [r.id, r]));
  // A payment row that refers to a refund reverses it: Stripe reported the refund failed.
  const reversalOf = new Map(rows.filter((r) => r.kind === 'payment' && r.refund_of).map((r) => [r.refund_of!, r]));
  const canRecord = !!balance && balance.outstanding_cents > 0;
  const canRefund = !!balance && balance.refundable_online_cents + balance.refundable_desk_cents > 0;
  const paidTwice = !!balance && balance.net_cents > balance.price_cents;
  // The webhook marks a payment that must go back with a 'to_refund:' note, a failed refund's
  // reversal with 'reversal:' (the database's words, not the guest's; the reversal says it in its own line).
  const noteText = (note: string) =>
    note.startsWith('reversal:')
      ? null
      : !note.startsWith('to_refund:')
        ? note
        : note.includes('already paid')
          ? t`Zu erstatten: Die Buchung war schon bezahlt.`
          : note.includes('ended')
            ? t`Zu erstatten: Die Buchung war schon beendet, als die Zahlung einging.`
            : t`Zu erstatten.`;
  const who = (r: LedgerRow) =>
    r.recorded_by ? (r.recorded_by_name ?? t`Hafenteam`) : r.method === 'online' ? t`Stripe (automatisch)` : t`System`;

  return (
    <Section title={t`Zahlungen`} aria-label={t`Zahlungen`}>
      {balance && balance.to_refund_cents > 0 && (
        <FormAlert data-testid="overpaid-warning" variant="warning" box className="border border-amber-300">
          {paidTwice ? (
            <Trans>
              Achtung: Diese Buchung wurde doppelt bezahlt – es ist {formatEuro(balance.to_refund_cents, locale)} mehr eingegangen als der
              Preis. Bitte den zu viel gezahlten Betrag erstatten.
            </Trans>
          ) : (
            <Trans>
              Erstattung fällig: Dem Gast stehen nach der Stornierung (oder dem Verfall) dieser Buchung{' '}
              {formatEuro(balance.to_refund_cents, locale)} zu. Bitte erstatten.
            </Trans>
          )}
        </FormAlert>
      )}
      {feedback && (
        <p
          role={feedback.ok ? 'status' : 'alert'}
          className={feedback.ok ? 'rounded-md bg-green-50 p-3 text-green-950' : 'rounded-md bg-red-50 p-3 text-red-900'}
        >
          {feedback.text}
        </p>
      )}
      {waiting && (
        <p role="status" className="rounded-md bg-sky-50 p-3 text-sky-950" data-testid="refund-requested">
          {!late ? (
            <Trans>Erstattung angefordert. Sie erscheint im Zahlungsverlauf, sobald Stripe sie bestätigt.</Trans>
          ) : (
            <Trans>
              Erstattung angefordert. Die Bestätigung von Stripe steht noch aus; bitte später neu laden. Nicht noch einmal erstatten.
            </Trans>
          )}
        </p>
      )}

      {balance && <BalanceFacts balance={balance} />}

      {ledger.isError || balanceQuery.isError ? (
        <FormAlert>{staffErrorMessage(ledger.error ?? balanceQuery.error)}</FormAlert>
      ) : ledger.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>Noch keine Zahlungen erfasst.</Trans>
        </p>
      ) : (
        <ol aria-label={t`Zahlungsverlauf`} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {rows.map((r) => {
            const of = r.refund_of ? byId.get(r.refund_of) : undefined;
            const reversed = of?.kind === 'refund';
            const failedLater = r.kind === 'refund' ? reversalOf.get(r.id) : undefined;
            const note = r.note ? noteText(r.note) : null;
            return (
              <li
                key={r.id}
                data-kind={reversed ? 'refund-failed' : r.kind}
                className={cn(
                  'flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-2',
                  r.kind === 'refund' && 'bg-slate-50',
                  reversed && 'bg-amber-50',
                )}
              >
                <div className="flex min-w-0 flex-col">
                  <span className="font-medium text-slate-900">
                    {reversed ? (
                      <Trans>Erstattung fehlgeschlagen</Trans>
                    ) : r.kind === 'refund' ? (
                      <Trans>Erstattung</Trans>
                    ) : (
                      <Trans>Zahlung</Trans>
                    )}{' '}
                    · {methodLabel(r.method)}
                  </span>
                  <span className="text-sm text-slate-600">
                    <Trans>
                      {formatBerlinDateTime(r.recorded_at, locale)}, erfasst von {who(r)}
                    </Trans>
                  </span>
                  {of && !reversed && (
                    <span className="text-sm text-slate-600">
                      <Trans>
                        zur Zahlung vom {formatBerlinDateTime(of.recorded_at, locale)} ({methodLabel(of.method)},{' '}
                        {formatEuro(of.amount_cents, locale)})
                      </Trans>
                    </span>
                  )}
                  {of && reversed && (
                    <span className="text-sm text-amber-950">
                      {of.deposit_return ? (
                        <Trans>
                          Die Bank des Gastes hat die Pfandrückzahlung vom {formatBerlinDateTime(of.recorded_at, locale)} nicht angenommen;
                          der Betrag ist zurückgebucht. Bitte unter „Extras“ mit „Anders zurückzahlen“ per Überweisung oder bar
                          zurückzahlen.
                        </Trans>
                      ) : (
                        <Trans>
                          Die Bank des Gastes hat die Erstattung vom {formatBerlinDateTime(of.recorded_at, locale)} nicht angenommen; der
                          Betrag ist zurückgebucht. Bitte auf anderem Weg erstatten, zum Beispiel per Überweisung.
                        </Trans>
                      )}
                    </span>
                  )}
                  {failedLater && (
                    <span className="text-sm text-amber-950">
                      <Trans>Fehlgeschlagen, zurückgebucht am {formatBerlinDateTime(failedLater.recorded_at, locale)}</Trans>
                    </span>
                  )}
                  {note && <span className="text-sm break-words whitespace-pre-wrap text-slate-700">{note}</span>}
                </div>
                <span className={cn('font-semibold whitespace-nowrap', r.kind === 'refund' ? 'text-red-800' : 'text-slate-900')}>
                  {formatEuro(r.kind === 'refund' ? -r.amount_cents : r.amount_cents, locale)}
                </span>
              </li>
            );
          })}
        </ol>
      )}

      <div className="flex flex-wrap gap-3 print:hidden">
        {canRecord && balance && (
          <Button
            onClick={() => {
              setFeedback(null);
              setDialog('payment');
            }}
          >
            <Trans>Zahlung erfassen</Trans>
          </Button>
        )}
        {canRefund && (
          <Button
            variant="outline"
            disabled={waiting}
            onClick={() => {
              setFeedback(null);
              setDialog('refund');
            }}
          >
            <Trans>Erstatten</Trans>
          </Button>
        )}
      </div>

      <Dialog open={dialog !== null} onOpenChange={(open) => !open && setDialog(null)}>
        <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
          {dialog === 'payment' && balance && (
            <DeskPaymentForm
              order={order}
              balance={balance}
              onDone={(text) => {
                setDialog(null);
                setFeedback({ ok: true, text });
              }}
              onCancel={() => setDialog(null)}
            />
          )}
          {dialog === 'refund' && balance && (
            <RefundForm
              order={order}
              balance={balance}
              failedOnline={reversalOf.size > 0}
              onDone={(text, online) => {
                setDialog(null);
                if (online) setRequested({ refunds, at: Date.now() });
                else setFeedback({ ok: true, text });
              }}
              onCancel={() => setDialog(null)}
            />
          )}
        </DialogContent>
      </Dialog>
    </Section>
  );
}

function BalanceFacts({ balance }: { balance: OrderBalance }) {
  const { t, i18n } = useLingui();
  const eur = (cents: number) => formatEuro(cents, i18n.locale);
  return (
    <FactList
      items={[
        { label: t`Preis`, value: eur(balance.price_cents) },
        { label: t`Bezahlt`, value: <span data-testid="paid-total">{eur(balance.paid_cents)}</span> },
        ...(balance.refunded_cents > 0
          ? [{ label: t`Erstattet`, value: <span data-testid="refunded-total">{eur(balance.refunded_cents)}</span> }]
          : []),
        { label: t`Offen`, value: <span data-testid="outstanding">{eur(balance.outstanding_cents)}</span> },
      ]}
    />
  );
}

/** The fields both forms share, for the shared parts below (each form's schema types its own). */
type SharedFields = { method: string; amount: string; note: string };
const shared = (control: Control<DeskPaymentInput, unknown, DeskPaymentValues> | Control<RefundInput, unknown, RefundValues>) =>
  control as unknown as Control<SharedFields>;

/** The choice of method as radio buttons (a form field). */
function MethodField({
  control,
  options,
  label,
  onPick,
}: {
  control: Control<SharedFields>;
  options: { value: string; label: string; hint?: string }[];
  label: string;
  onPick?: (method: string) => void;
}) {
  return (
    <FormField
      control={control}
      name="method"
      render={({ field }) => (
        <FormItem>
          <p className="text-sm font-medium">{label}</p>
          <RadioGroup
            value={field.value}
            onValueChange={(v) => {
              field.onChange(v);
              onPick?.(v);
            }}
            aria-label={label}
            className="gap-2"
          >
            {options.map((o) => (
              <Label
                key={o.value}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[[data-state=checked]]:border-primary-dark has-[[data-state=checked]]:bg-sky-50"
              >
                <RadioGroupItem value={o.value} className="mt-0.5" />
                <span className="flex flex-col gap-0.5">
                  <span className="font-medium">{o.label}</span>
                  {o.hint && <span className="text-sm font-normal text-slate-600">{o.hint}</span>}
                </span>
              </Label>
            ))}
          </RadioGroup>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

function AmountAndNote({ control, amountHint }: { control: Control<SharedFields>; amountHint: string }) {
  return (
    <>
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
            <FormDescription>{amountHint}</FormDescription>
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
              <textarea rows={2} maxLength={500} className="rounded-md border border-slate-300 bg-white p-2" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}

/** Runs a payment action; returns the error message, or null when it went through. */
function useRun() {
  const action = usePaymentAction();
  const run = async (a: PaymentAction, onFailure?: (error: unknown) => void): Promise<string | null> => {
    try {
      await action.mutateAsync(a);
      return null;
    } catch (error) {
      onFailure?.(error);
      return staffErrorMessage(error);
    }
  };
  return { run, busy: action.isPending };
}

function DeskPaymentForm({
  order,
  balance,
  onDone,
  onCancel,
}: {
  order: Order;
  balance: OrderBalance;
  onDone: (text: string) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const methodLabel = usePaymentMethodLabel();
  const { run, busy } = useRun();
  const [error, setError] = useState<string | null>(null);
  // One request key per confirmed payment, kept for its retries: the database records it once.
  const [requestKeys] = useState(paymentRequestKeys);
  const form = useForm<DeskPaymentInput, unknown, DeskPaymentValues>({
    resolver: zodResolver(deskPaymentSchema(balance.outstanding_cents, locale)),
    defaultValues: { method: 'card_terminal', amount: centsToInput(balance.outstanding_cents, locale), note: '' },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    const requestKey = requestKeys.keyFor({ target: order.id, method: v.method, amountCents: v.amount });
    const failed = await run({
      type: 'desk-payment',
      orderId: order.id,
      method: v.method,
      amountCents: v.amount,
      note: v.note,
      requestKey,
    });
    if (failed) setError(failed);
    else onDone(t`Zahlung von ${formatEuro(v.amount, locale)} (${methodLabel(v.method)}) erfasst.`);
  });
  return (
    <>
      <DialogHeader>
        <DialogTitle>
          <Trans>Zahlung erfassen</Trans>
        </DialogTitle>
        <DialogDescription>
          <Trans>
            Eine Zahlung am Hafenbüro. Offen sind {formatEuro(balance.outstanding_cents, locale)}; ist die Buchung damit bezahlt, entsteht
            die Rechnung.
          </Trans>
        </DialogDescription>
      </DialogHeader>
      <Form {...form}>
        <form noValidate onSubmit={onSubmit} aria-label={t`Zahlung erfassen`} className="grid gap-4">
          <MethodField
            control={shared(form.control)}
            label={t`Zahlungsart`}
            options={[
              { value: 'card_terminal', label: methodLabel('card_terminal') },
              { value: 'cash', label: methodLabel('cash') },
              { value: 'bank_transfer', label: methodLabel('bank_transfer') },
            ]}
          />
          <AmountAndNote control={shared(form.control)} amountHint={t`Vorgabe: der offene Betrag.`} />
          {error && <FormAlert className="text-sm">{error}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              <Trans>Abbrechen</Trans>
            </Button>
            <Button type="submit" disabled={busy}>
              <Trans>Zahlung erfassen</Trans>
            </Button>
          </div>
        </form>
      </Form>
    </>
  );
}

function RefundForm({
  order,
  balance,
  failedOnline,
  onDone,
  onCancel,
}: {
  order: Order;
  balance: OrderBalance;
  failedOnline: boolean;
  onDone: (text: string, online: boolean) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const methodLabel = usePaymentMethodLabel();
  const { run, busy } = useRun();
  const [error, setError] = useState<string | null>(null);
  const [notify, setNotify] = useState(true);
  // One request key per confirmed refund, kept for its retries (a second click, a retry after a
  // timeout): refund-payment (online) or the database (desk) then makes it once. A new dialog or
  // another amount is a new refund.
  const [requestKeys] = useState(paymentRequestKeys);
  const limits = { onlineCents: balance.refundable_online_cents, deskCents: balance.refundable_desk_cents };
  const online = limits.onlineCents > 0;
  const desk = limits.deskCents > 0;
  const maxFor = (method: string) => (method === 'online' ? limits.onlineCents : limits.deskCents);
  const form = useForm<RefundInput, unknown, RefundValues>({
    resolver: zodResolver(refundSchema(limits, locale)),
    // After a failed refund the card is likely gone: the desk (by transfer) is offered first.
    defaultValues: (() => {
      const method = failedOnline && desk ? 'bank_transfer' : online ? 'online' : 'cash';
      return { method, amount: centsToInput(maxFor(method), locale), note: '' };
    })(),
  });
  const method = useWatch({ control: form.control, name: 'method' });
  // A new method suggests its own maximum, unless the amount was typed.
  const picked = (next: string) => {
    if (!form.getFieldState('amount').isDirty) form.setValue('amount', centsToInput(maxFor(next), locale));
  };
  const open = order.status === 'unverified' || order.status === 'confirmed' || order.status === 'checked_in';
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    const requestKey = requestKeys.keyFor({ target: order.id, method: v.method, amountCents: v.amount });
    const failed = await run(
      { type: 'refund', orderId: order.id, method: v.method, amountCents: v.amount, note: v.note, notify, requestKey },
      (error) => {
        // Refused for good: asking again is a new refund. Open (no answer, Stripe busy): the same one.
        if (!refundOutcomeOpen(error)) requestKeys.done();
      },
    );
    if (failed) return setError(failed);
    requestKeys.done();
    onDone(t`Erstattung von ${formatEuro(v.amount, locale)} (${methodLabel(v.method)}) erfasst.`, v.method === 'online');
  });
  return (
    <>
      <DialogHeader>
        <DialogTitle>
          <Trans>Erstatten</Trans>
        </DialogTitle>
        <DialogDescription>
          {open ? (
            <Trans>
              Bezahlt (abzüglich Erstattungen) sind {formatEuro(balance.net_cents, locale)}. Eine vollständige Erstattung storniert die
              Buchung und gibt Liegeplatz {order.place_snapshot.name} wieder frei.
            </Trans>
          ) : (
            <Trans>Bezahlt (abzüglich Erstattungen) sind {formatEuro(balance.net_cents, locale)}.</Trans>
          )}
        </DialogDescription>
      </DialogHeader>
      <Form {...form}>
        <form noValidate onSubmit={onSubmit} aria-label={t`Erstatten`} className="grid gap-4">
          <MethodField
            control={shared(form.control)}
            label={t`Erstatten über`}
            onPick={picked}
            options={[
              ...(online
                ? [
                    {
                      value: 'online',
                      label: t`Online über Stripe`,
                      hint: t`Zurück auf die Karte des Gastes; höchstens ${formatEuro(limits.onlineCents, locale)}.`,
                    },
                  ]
                : []),
              ...(desk
                ? (['cash', 'bank_transfer'] as const).map((value) => ({
                    value,
                    label: methodLabel(value),
                    // The database allows the desk for what Stripe could not refund (a failed refund).
                    hint: failedOnline
                      ? t`Für Zahlungen am Hafenbüro und was Stripe nicht erstatten konnte; höchstens ${formatEuro(limits.deskCents, locale)}.`
                      : t`Für Zahlungen am Hafenbüro; höchstens ${formatEuro(limits.deskCents, locale)}.`,
                  }))
                : []),
            ]}
          />
          <AmountAndNote control={shared(form.control)} amountHint={t`Höchstens ${formatEuro(maxFor(method), locale)}.`} />
          {/* A refund through Stripe is confirmed to the guest when Stripe reports it: always told. */}
          {method !== 'online' && <NotifyGuestTick email={order.email} checked={notify} onChange={setNotify} />}
          {error && <FormAlert className="text-sm">{error}</FormAlert>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              <Trans>Abbrechen</Trans>
            </Button>
            <Button type="submit" variant="destructive" disabled={busy}>
              {method === 'online' ? <Trans>Erstattung anfordern</Trans> : <Trans>Erstattung erfassen</Trans>}
            </Button>
          </div>
        </form>
      </Form>
    </>
  );
}
