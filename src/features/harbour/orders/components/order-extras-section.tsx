import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import type { Order } from '@/features/orders';
import { formatEuro } from '@/lib/prices';
import { cn } from '@/lib/utils';
import {
  depositRefundsDueQueryOptions,
  extrasCatalogueQueryOptions,
  orderExtrasQueryOptions,
  useExtrasAction,
  type ExtrasAction,
  type OrderExtra,
  addExtraSchema,
  type AddExtraInput,
  type AddExtraValues,
  useExtraName,
  useExtraUnitLabel,
} from '@/features/harbour/extras';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

type Feedback = { ok: boolean; text: string } | null;

/**
 * The order's extras for the harbour team (washing machine, boat lift, ice, deposits): each
 * priced as when added; staff add one, remove one (an invoiced order then gets a cancellation
 * and a new invoice, issued by the database) or take a deposit's item back (refund in cash, by
 * transfer or, when the guest paid online, to their card through Stripe; the guest is mailed).
 */
export function OrderExtrasSection({ order }: { order: Order }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const unitLabel = useExtraUnitLabel();
  const nameOf = useExtraName();
  const extras = useQuery(orderExtrasQueryOptions(order.id));
  const action = useExtrasAction();
  const [feedback, setFeedback] = useState<Feedback>(null);
  // 'repay': a deposit whose refund to the card failed goes back in cash or by transfer.
  const [confirm, setConfirm] = useState<{ kind: 'remove' | 'return' | 'repay'; row: OrderExtra } | null>(null);
  const open =
    order.status === 'unverified' || order.status === 'confirmed' || order.status === 'checked_in' || order.status === 'completed';
  const takesExtras = order.status !== 'cancelled' && order.status !== 'expired';
  const rows = extras.data ?? [];
  // Paid (at least in part) online: the order carries Stripe's payment intent.
  const paidOnline = !!order.payment_id;
  const active = rows.filter((r) => !r.removed_at && !r.returned_at);
  // A deposit returned to the card whose refund is not in the ledger yet (retry offered; after
  // a failed refund also cash or transfer).
  const refundsDue = useQuery({ ...depositRefundsDueQueryOptions(order.id), enabled: rows.some((r) => r.returned_method === 'online') });
  const total = active.reduce((sum, r) => sum + r.quantity * r.unit_price_cents, 0);

  const run = async (a: ExtrasAction, done: string) => {
    setFeedback(null);
    try {
      await action.mutateAsync(a);
      setFeedback({ ok: true, text: done });
      return true;
    } catch (error) {
      setFeedback({ ok: false, text: staffErrorMessage(error) });
      return false;
    }
  };

  return (
    <Section title={t`Extras`} aria-label={t`Extras`}>
      {feedback && (
        <p
          role={feedback.ok ? 'status' : 'alert'}
          className={feedback.ok ? 'rounded-md bg-green-50 p-3 text-green-950' : 'rounded-md bg-red-50 p-3 text-red-900'}
        >
          {feedback.text}
        </p>
      )}
      {extras.isError ? (
        <FormAlert>{staffErrorMessage(extras.error)}</FormAlert>
      ) : extras.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>Noch keine Extras an dieser Buchung.</Trans>
        </p>
      ) : (
        <ul aria-label={t`Extras der Buchung`} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {rows.map((r) => {
            const closed = !!r.removed_at || !!r.returned_at;
            const due = r.returned_method === 'online' ? refundsDue.data?.get(r.id) : undefined;
            return (
              <li
                key={r.id}
                data-testid="order-extra"
                className={cn(
                  'flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2',
                  closed && 'bg-slate-50 text-slate-500',
                )}
              >
                <div className="flex min-w-0 flex-col">
                  <span className={cn('font-medium', closed ? 'line-through' : 'text-slate-900')}>
                    {r.quantity} {unitLabel(r.unit, r.quantity)} · {nameOf(r)}
                  </span>
                  <span className="text-sm text-slate-600">
                    {formatEuro(r.unit_price_cents, locale)} / {unitLabel(r.unit)} ·{' '}
                    {r.deposit ? t`Pfand, 0 % USt.` : t`inkl. ${r.vat_rate} % USt.`}
                    {r.removed_at ? ` · ${t`entfernt`}` : r.returned_at ? ` · ${t`zurückgegeben`}` : ''}
                  </span>
                  {due !== undefined && (
                    <span className="mt-1 text-sm text-amber-900" data-testid="deposit-refund-due">
                      {due.failed ? (
                        <Trans>
                          Die Bank des Gastes hat die Erstattung von {formatEuro(due.dueCents, locale)} auf die Karte nicht angenommen.
                          Bitte per Überweisung oder bar zurückzahlen.
                        </Trans>
                      ) : (
                        <Trans>
                          Die Erstattung von {formatEuro(due.dueCents, locale)} auf die Karte ist von Stripe noch nicht bestätigt.
                        </Trans>
                      )}
                    </span>
                  )}
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold whitespace-nowrap tabular-nums">
                    {formatEuro(r.quantity * r.unit_price_cents, locale)}
                  </span>
                  {due?.failed && (
                    <Button size="sm" disabled={action.isPending} onClick={() => setConfirm({ kind: 'repay', row: r })}>
                      <Trans>Anders zurückzahlen</Trans>
                    </Button>
                  )}
                  {due !== undefined && (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={action.isPending}
                      onClick={() =>
                        void run({ type: 'return', orderExtraId: r.id, method: 'online' }, t`Erstattung erneut bei Stripe angefordert.`)
                      }
                    >
                      <Trans>Erstattung erneut anfordern</Trans>
                    </Button>
                  )}
                  {!closed && open && r.deposit && (
                    <Button size="sm" variant="outline" disabled={action.isPending} onClick={() => setConfirm({ kind: 'return', row: r })}>
                      <Trans>Pfand zurück</Trans>
                    </Button>
                  )}
                  {!closed && open && (
                    <Button size="sm" variant="ghost" disabled={action.isPending} onClick={() => setConfirm({ kind: 'remove', row: r })}>
                      <Trans>Entfernen</Trans>
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {active.length > 0 && (
        <p className="text-sm text-slate-700" data-testid="extras-total">
          <Trans>
            Extras zusammen: <span className="font-semibold">{formatEuro(total, locale)}</span> (im Preis der Buchung enthalten)
          </Trans>
        </p>
      )}
      {takesExtras && <AddExtraForm orderId={order.id} busy={action.isPending} run={run} />}

      {confirm?.kind === 'remove' && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setConfirm(null)}
          title={<Trans>Extra entfernen?</Trans>}
          description={
            <Trans>
              {confirm.row.quantity} × {nameOf(confirm.row)} wird nicht mehr berechnet. Ist die Buchung schon abgerechnet, entstehen eine
              Stornorechnung und eine neue Rechnung; bereits Bezahltes bitte erstatten.
            </Trans>
          }
          confirmLabel={<Trans>Entfernen</Trans>}
          destructive
          onConfirm={() => {
            const row = confirm.row;
            setConfirm(null);
            void run({ type: 'remove', orderExtraId: row.id }, t`${nameOf(row)} entfernt.`);
          }}
        />
      )}
      {confirm?.kind === 'repay' && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setConfirm(null)}
          title={<Trans>Pfand anders zurückzahlen?</Trans>}
          description={
            <Trans>
              Die Bank des Gastes hat die Erstattung auf die Karte nicht angenommen. {nameOf(confirm.row)} (
              {formatEuro(refundsDue.data?.get(confirm.row.id)?.dueCents ?? 0, locale)}) geht per Überweisung oder bar zurück. Der Gast
              bekommt eine E-Mail darüber.
            </Trans>
          }
          actions={(['bank_transfer', 'cash'] as const).map((method) => (
            <Button
              key={method}
              variant={method === 'cash' ? 'outline' : 'default'}
              onClick={() => {
                const row = confirm.row;
                setConfirm(null);
                void run(
                  { type: 'return', orderExtraId: row.id, method },
                  method === 'cash' ? t`Pfand bar zurückgezahlt.` : t`Pfand per Überweisung zurückgezahlt.`,
                );
              }}
            >
              {method === 'cash' ? <Trans>Bar zurückzahlen</Trans> : <Trans>Per Überweisung</Trans>}
            </Button>
          ))}
        />
      )}
      {confirm?.kind === 'return' && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setConfirm(null)}
          title={<Trans>Pfand zurückgeben?</Trans>}
          description={
            <Trans>
              Der Gast gibt {nameOf(confirm.row)} zurück. Was dafür bezahlt wurde (
              {formatEuro(confirm.row.quantity * confirm.row.unit_price_cents, locale)}), geht als Erstattung zurück. Der Gast bekommt eine
              E-Mail darüber.
            </Trans>
          }
          actions={(
            (paidOnline ? ['online', 'cash', 'bank_transfer'] : ['cash', 'bank_transfer']) as ('online' | 'cash' | 'bank_transfer')[]
          ).map((method) => (
            <Button
              key={method}
              variant={paidOnline && method !== 'online' ? 'outline' : 'default'}
              onClick={() => {
                const row = confirm.row;
                setConfirm(null);
                void run(
                  { type: 'return', orderExtraId: row.id, method },
                  method === 'online' ? t`Pfand zurückgegeben: wird über Stripe auf die Karte erstattet.` : t`Pfand zurückgegeben.`,
                );
              }}
            >
              {method === 'online' ? (
                <Trans>Auf die Karte erstatten (Stripe)</Trans>
              ) : method === 'cash' ? (
                <Trans>Bar zurückzahlen</Trans>
              ) : (
                <Trans>Per Überweisung</Trans>
              )}
            </Button>
          ))}
        >
          {paidOnline && (
            <p className="rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-slate-800" data-testid="deposit-online-note">
              <Trans>
                Die Buchung wurde online mit Karte bezahlt (Stripe). Ein online bezahltes Pfand geht als Erstattung über Stripe auf die
                Karte des Gastes zurück; je nach Bank erscheint es nach 5 bis 10 Tagen auf seiner Abrechnung. Die Erstattung steht in den
                Zahlungen, sobald Stripe sie bestätigt.
              </Trans>
            </p>
          )}
        </ConfirmDialog>
      )}
    </Section>
  );
}

function AddExtraForm({
  orderId,
  busy,
  run,
}: {
  orderId: string;
  busy: boolean;
  run: (a: ExtrasAction, done: string) => Promise<boolean>;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const nameOf = useExtraName();
  const unitLabel = useExtraUnitLabel();
  const catalogue = useQuery(extrasCatalogueQueryOptions());
  const entries = (catalogue.data ?? []).filter((e) => e.active);
  const form = useForm<AddExtraInput, unknown, AddExtraValues>({
    resolver: zodResolver(addExtraSchema(entries)),
    defaultValues: { extraId: '', quantity: '1', price: '' },
  });
  // The fields see the typed values (the schema's output differs: items, cents).
  const control = form.control as unknown as Control<AddExtraInput>;
  const extraId = useWatch({ control: form.control, name: 'extraId' });
  const chosen = entries.find((e) => e.id === extraId);
  const onSubmit = form.handleSubmit(async (v) => {
    const extra = entries.find((e) => e.id === v.extraId);
    const ok = await run(
      { type: 'add', orderId, extraId: v.extraId, quantity: v.quantity, unitPriceCents: v.unitPriceCents },
      t`${v.quantity} × ${extra ? nameOf(extra) : ''} hinzugefügt.`,
    );
    if (ok) form.reset({ extraId: '', quantity: '1', price: '' });
  });
  if (catalogue.isError) return <FormAlert>{staffErrorMessage(catalogue.error)}</FormAlert>;
  return (
    <Form {...form}>
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label={t`Extra hinzufügen`}
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-[minmax(0,1fr)_7rem_auto] sm:items-start print:hidden"
      >
        <FormField
          control={control}
          name="extraId"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Extra</Trans>
              </FormLabel>
              <FormControl>
                <select className="h-10 w-full rounded-md border border-slate-300 bg-white px-3" {...field}>
                  <option value="">{t`Bitte wählen`}</option>
                  {entries.map((e) => (
                    <option key={e.id} value={e.id}>
                      {nameOf(e)} – {e.price_from ? t`ab ${formatEuro(e.price_cents, locale)}` : formatEuro(e.price_cents, locale)} /{' '}
                      {unitLabel(e.unit)}
                    </option>
                  ))}
                </select>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={control}
          name="quantity"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Menge</Trans>
              </FormLabel>
              <FormControl>
                <Input inputMode="numeric" autoComplete="off" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <Button type="submit" disabled={busy} className="sm:mt-6">
          <Trans>Hinzufügen</Trans>
        </Button>
        {chosen?.price_from && (
          <FormField
            control={control}
            name="price"
            render={({ field }) => (
              <FormItem className="sm:col-span-3">
                <FormLabel>
                  <Trans>Preis je {unitLabel(chosen.unit)} (€, optional)</Trans>
                </FormLabel>
                <FormControl>
                  <Input
                    inputMode="decimal"
                    autoComplete="off"
                    className="max-w-40"
                    placeholder={formatEuro(chosen.price_cents, locale)}
                    {...field}
                  />
                </FormControl>
                <FormDescription>
                  <Trans>„Ab“-Preis: leer lassen für {formatEuro(chosen.price_cents, locale)}, sonst höher eintragen.</Trans>
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
        )}
      </form>
    </Form>
  );
}
