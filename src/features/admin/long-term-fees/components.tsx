import { useMemo, useState } from 'react';
import { useForm, type Control, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef, HeaderContext } from '@tanstack/react-table';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { DataTable, DataTableColumnHeader, DataTablePagination, useUrlTable } from '@/components/ui/data-table';
import type { TableSearch } from '@/components/ui/data-table-search';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { FormAlert } from '@/components/form-alert';
import { formatDay } from '@/lib/dates';
import { centsToInput, formatEuro } from '@/lib/prices';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import {
  feesOverviewQueryOptions,
  useRecordFeeTransfer,
  useRepayFeeOverpayment,
  type FeeState,
  type FeeStatus,
} from '@/features/admin/long-term-fees/api';
import { feeRepaySchema, feeTransferSchema, type FeeTransferInput, type FeeTransferValues } from '@/features/admin/long-term-fees/schemas';
import { paymentRequestKeys } from '@/lib/request-keys';

/** A fee's state in words, for staff. */
function FeeStateLabel({ state }: { state: FeeState | null }) {
  switch (state) {
    case 'paid':
      return <Trans>bezahlt</Trans>;
    case 'overpaid':
      return <Trans>überzahlt (zurückzahlen)</Trans>;
    case 'partially_paid':
      return <Trans>teilweise bezahlt</Trans>;
    case 'processing':
      return <Trans>Lastschrift läuft</Trans>;
    case 'failed':
      return <Trans>Lastschrift zurück</Trans>;
    case 'overdue':
      return <Trans>überfällig</Trans>;
    case 'cancelled':
      return <Trans>storniert (Vertrag beendet)</Trans>;
    default:
      return <Trans>offen</Trans>;
  }
}

/** Whether a cancellation invoice took the fee's invoice back (its contract ended before the season, ADR 0052): it takes no transfer. */
function feeCancelled(fee: FeeStatus): boolean {
  return (fee.cancelled_cents ?? 0) > 0;
}

/**
 * The back office's seasonal fees (issue 42 item 7, ADR 0048): every instalment with its
 * contract, invoice, due day, amount, balance and state, failed debits and overdue fees first;
 * staff record an incoming transfer for one. Exported for the lead to mount under
 * /account/admin (its own route).
 */
export function LongTermFeesPage() {
  const { t, i18n } = useLingui();
  const fees = useQuery(feesOverviewQueryOptions());
  const [search, setSearch] = useState<TableSearch>({});
  // The fee whose dialog is open and which transfer it records (received, or paid back).
  const [paying, setPaying] = useState<{ fee: FeeStatus; action: 'transfer' | 'repay' } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const header =
    (title: string) =>
    ({ column }: HeaderContext<FeeStatus, unknown>) => <DataTableColumnHeader column={column} title={title} />;
  const columns = useMemo<ColumnDef<FeeStatus>[]>(
    () => [
      {
        id: 'reference',
        accessorFn: (f) => f.reference,
        meta: { label: t`Vertrag`, rowHeader: true },
        header: header(t`Vertrag`),
        cell: ({ row }) => `${row.original.reference ?? ''} ${row.original.instalment}/${row.original.instalments}`,
      },
      { id: 'invoice', accessorFn: (f) => f.invoice_number, meta: { label: t`Rechnung` }, header: header(t`Rechnung`) },
      {
        id: 'due_on',
        accessorFn: (f) => f.due_on,
        meta: { label: t`Fällig` },
        header: header(t`Fällig`),
        cell: ({ row }) => (row.original.due_on ? formatDay(row.original.due_on, i18n.locale) : '–'),
      },
      {
        id: 'method',
        accessorFn: (f) => f.payment_method,
        meta: { label: t`Zahlungsweg` },
        header: header(t`Zahlungsweg`),
        cell: ({ row }) => (row.original.payment_method === 'sepa_debit' ? t`Lastschrift` : t`Überweisung`),
      },
      {
        id: 'gross',
        accessorFn: (f) => f.gross_cents,
        meta: { label: t`Betrag`, className: 'text-right' },
        header: header(t`Betrag`),
        cell: ({ row }) => formatEuro(row.original.gross_cents ?? 0, i18n.locale),
      },
      {
        id: 'balance',
        accessorFn: (f) => f.balance_cents,
        meta: { label: t`Offen`, className: 'text-right' },
        header: header(t`Offen`),
        cell: ({ row }) => formatEuro(row.original.balance_cents ?? 0, i18n.locale),
      },
      {
        id: 'state',
        accessorFn: (f) => f.state,
        meta: { label: t`Stand` },
        header: header(t`Stand`),
        cell: ({ row }) => (
          <span>
            <FeeStateLabel state={row.original.state} />
            {row.original.debit_failure ? ` (${row.original.debit_failure})` : ''}
          </span>
        ),
      },
      {
        id: 'actions',
        enableSorting: false,
        enableHiding: false,
        meta: { label: t`Aktionen` },
        header: () => <span className="sr-only">{t`Aktionen`}</span>,
        cell: ({ row }) =>
          row.original.debit_state === 'requested' || row.original.debit_state === 'processing' ? null : (
            <div className="flex flex-wrap gap-2">
              {feeCancelled(row.original) ? null : (
                <Button type="button" size="sm" variant="outline" onClick={() => setPaying({ fee: row.original, action: 'transfer' })}>
                  <Trans>Überweisung erfassen</Trans>
                </Button>
              )}
              {(row.original.balance_cents ?? 0) < 0 ? (
                <Button type="button" size="sm" variant="outline" onClick={() => setPaying({ fee: row.original, action: 'repay' })}>
                  <Trans>Zurückzahlen</Trans>
                </Button>
              ) : null}
            </div>
          ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n.locale],
  );
  const table = useUrlTable({
    data: fees.data ?? [],
    columns,
    search,
    onSearch: setSearch,
    pageSize: 50,
    getRowId: (f) => f.id ?? '',
  });
  return (
    <Page title={t`Liegeplatzgebühren`} lead={t`Die Raten der Langzeitverträge: Rücklastschriften und Überfälliges zuerst.`}>
      {done ? <p role="status">{done}</p> : null}
      {fees.isError ? (
        <FormAlert box>{staffErrorMessage(fees.error)}</FormAlert>
      ) : fees.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <>
          <DataTable
            table={table}
            caption={t`Liegeplatzgebühren`}
            empty={<Trans>Keine Liegeplatzgebühren.</Trans>}
            rowProps={(row) => ({ 'data-fee': row.original.id ?? '', 'data-state': row.original.state ?? '' })}
          />
          <DataTablePagination table={table} />
        </>
      )}
      <Dialog open={paying !== null} onOpenChange={(open) => !open && setPaying(null)}>
        <DialogContent>
          {paying?.action === 'transfer' ? (
            <FeeTransferForm
              key={paying.fee.id}
              fee={paying.fee}
              onDone={(text) => {
                setDone(text);
                setPaying(null);
              }}
            />
          ) : paying?.action === 'repay' ? (
            <FeeRepayForm
              key={paying.fee.id}
              fee={paying.fee}
              onDone={(text) => {
                setDone(text);
                setPaying(null);
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </Page>
  );
}

/** Records an incoming transfer for one fee; one request key per form, kept for its retries. */
export function FeeTransferForm({ fee, onDone }: { fee: FeeStatus; onDone: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const record = useRecordFeeTransfer();
  // The order desk's keys: one per confirmed transfer (fee and amount), kept for its retries.
  const [requestKeys] = useState(paymentRequestKeys);
  const form = useForm<FeeTransferInput, unknown, FeeTransferValues>({
    resolver: zodResolver(feeTransferSchema()),
    defaultValues: { amount: centsToInput(Math.max(fee.balance_cents ?? 0, 0), locale), note: '' },
  });
  const onSubmit = form.handleSubmit((v) =>
    record.mutate(
      {
        feeId: fee.id ?? '',
        amountCents: v.amount,
        note: v.note,
        requestKey: requestKeys.keyFor({ target: fee.id ?? '', method: 'bank_transfer', amountCents: v.amount }),
      },
      { onSuccess: () => onDone(t`Überweisung von ${formatEuro(v.amount, locale)} zu ${fee.invoice_number ?? ''} erfasst.`) },
    ),
  );
  if (feeCancelled(fee)) {
    // The database refuses it too (fee_cancelled); the form says why before anyone types.
    return (
      <DialogHeader>
        <DialogTitle>
          <Trans>Überweisung erfassen</Trans>
        </DialogTitle>
        <DialogDescription>{staffErrorMessage({ message: 'fee_cancelled' })}</DialogDescription>
      </DialogHeader>
    );
  }
  return (
    <>
      <DialogHeader>
        <DialogTitle>
          <Trans>Überweisung erfassen</Trans>
        </DialogTitle>
        <DialogDescription>
          <Trans>
            Rechnung {fee.invoice_number}, offen {formatEuro(fee.balance_cents ?? 0, locale)}. Mehr als offen wird als Guthaben erfasst.
          </Trans>
        </DialogDescription>
      </DialogHeader>
      <FeeAmountForm form={form} onSubmit={onSubmit} label={t`Überweisung erfassen`} pending={record.isPending} error={record.error} />
    </>
  );
}

/**
 * Records that an overpaid fee's money went back to the holder by transfer: the overpaid amount
 * proposed, never more (zod here, the database again); one request key per form, kept for its retries.
 */
export function FeeRepayForm({ fee, onDone }: { fee: FeeStatus; onDone: (text: string) => void }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const repay = useRepayFeeOverpayment();
  const [requestKeys] = useState(paymentRequestKeys);
  const overpaid = Math.max(-(fee.balance_cents ?? 0), 0);
  const form = useForm<FeeTransferInput, unknown, FeeTransferValues>({
    resolver: zodResolver(feeRepaySchema(overpaid, locale)),
    defaultValues: { amount: centsToInput(overpaid, locale), note: '' },
  });
  const onSubmit = form.handleSubmit((v) =>
    repay.mutate(
      {
        feeId: fee.id ?? '',
        amountCents: v.amount,
        note: v.note,
        requestKey: requestKeys.keyFor({ target: fee.id ?? '', method: 'refund_bank_transfer', amountCents: v.amount }),
      },
      { onSuccess: () => onDone(t`Rückzahlung von ${formatEuro(v.amount, locale)} zu ${fee.invoice_number ?? ''} erfasst.`) },
    ),
  );
  return (
    <>
      <DialogHeader>
        <DialogTitle>
          <Trans>Überzahlung zurückzahlen</Trans>
        </DialogTitle>
        <DialogDescription>
          <Trans>
            Rechnung {fee.invoice_number}: {formatEuro(overpaid, locale)} überzahlt. Erfassen Sie hier, was Sie dem Inhaber zurücküberwiesen
            haben.
          </Trans>
        </DialogDescription>
      </DialogHeader>
      <FeeAmountForm form={form} onSubmit={onSubmit} label={t`Rückzahlung erfassen`} pending={repay.isPending} error={repay.error} />
    </>
  );
}

/** The amount and note of a fee transfer (received or paid back), its error and its button. */
function FeeAmountForm({
  form,
  onSubmit,
  label,
  pending,
  error,
}: {
  form: UseFormReturn<FeeTransferInput, unknown, FeeTransferValues>;
  onSubmit: () => void;
  label: string;
  pending: boolean;
  error: Error | null;
}) {
  // FormField types its control by the input shape; the resolver outputs cents (ADR 0020's forms do the same).
  const control = form.control as unknown as Control<FeeTransferInput>;
  return (
    <Form {...form}>
      <form noValidate onSubmit={onSubmit} aria-label={label} className="grid gap-4">
        <FormField
          control={control}
          name="amount"
          render={({ field }) => (
            <FormItem>
              <FormLabel>
                <Trans>Betrag (€)</Trans>
              </FormLabel>
              <FormControl>
                <Input inputMode="decimal" autoComplete="off" {...field} />
              </FormControl>
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
                <Trans>Notiz (z. B. Kontoauszug)</Trans>
              </FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        {error ? <FormAlert className="text-sm">{staffErrorMessage(error)}</FormAlert> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={pending}>
            {label}
          </Button>
        </div>
      </form>
    </Form>
  );
}
