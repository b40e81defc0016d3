import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { DataTable, DataTableColumnHeader } from '@/components/ui/data-table';
import { FormAlert } from '@/components/form-alert';
import { formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { overdueFeesQueryOptions, type OverdueFeeRow } from '@/features/admin/long-term/api/overdue-fees';

/**
 * Overdue long-term fees for the office (issue 42 item 5, docs/adr/0051): who owes how much since
 * when, which reminder went out (none, first, second) and whether the holder's door code is
 * withheld. The reminders go out by themselves (the daily job); paying ends both.
 */
export function OverdueFeesSection() {
  const { t, i18n } = useLingui();
  const query = useQuery(overdueFeesQueryOptions);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'days_overdue', desc: true }]);
  const stage = (row: OverdueFeeRow) => {
    const day = row.last_reminder_on ? formatDay(row.last_reminder_on, i18n.locale) : '';
    if (row.reminder_stage >= 2) return t`2. Erinnerung (${day})`;
    if (row.reminder_stage === 1) return t`1. Erinnerung (${day})`;
    return t`noch keine`;
  };
  const columns: ColumnDef<OverdueFeeRow>[] = [
    {
      id: 'holder',
      accessorFn: (r) => r.holder_name ?? r.email ?? '',
      meta: { label: t`Langzeitlieger`, rowHeader: true, className: 'min-w-36' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Langzeitlieger`} />,
      cell: ({ row: { original: r } }) => r.holder_name ?? r.email ?? '–',
    },
    {
      id: 'invoice',
      accessorFn: (r) => r.invoice_number ?? r.reference,
      meta: { label: t`Rechnung` },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Rechnung`} />,
      cell: ({ row: { original: r } }) => {
        const instalment = r.instalment;
        const instalments = r.instalments;
        return (
          <span>
            {r.invoice_number ?? '–'}
            <span className="block text-xs text-slate-600">
              {r.reference} ·{' '}
              <Trans>
                Rate {instalment} von {instalments}
              </Trans>
            </span>
          </span>
        );
      },
    },
    {
      id: 'due_on',
      accessorFn: (r) => r.due_on,
      meta: { label: t`Fällig am` },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Fällig am`} />,
      cell: ({ row }) => formatDay(row.original.due_on, i18n.locale),
    },
    {
      id: 'days_overdue',
      accessorFn: (r) => r.days_overdue,
      meta: { label: t`Tage überfällig`, className: 'text-right' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Tage überfällig`} />,
      cell: ({ row }) => row.original.days_overdue,
    },
    {
      id: 'balance_cents',
      accessorFn: (r) => r.balance_cents,
      meta: { label: t`Offen`, className: 'text-right whitespace-nowrap' },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Offen`} />,
      cell: ({ row }) => formatEuro(row.original.balance_cents, i18n.locale),
    },
    {
      id: 'reminder_stage',
      accessorFn: (r) => r.reminder_stage,
      meta: { label: t`Mahnstufe` },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Mahnstufe`} />,
      cell: ({ row }) => stage(row.original),
    },
    {
      id: 'door_code',
      accessorFn: (r) => r.door_code_withheld,
      meta: { label: t`Türcode` },
      header: ({ column }) => <DataTableColumnHeader column={column} title={t`Türcode`} />,
      cell: ({ row }) => (row.original.door_code_withheld ? t`gesperrt` : t`sichtbar`),
    },
  ];
  // eslint-disable-next-line react-hooks/incompatible-library -- as src/components/ui/data-table.tsx
  const table = useReactTable({
    data: query.data ?? [],
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.fee_id,
  });
  return (
    <Section title={t`Überfällige Liegeplatzgebühren`} data-testid="overdue-fees">
      <p className="text-sm text-slate-600">
        <Trans>
          Die Erinnerungen gehen täglich von selbst hinaus: die erste einige Tage nach Fälligkeit, die zweite später. Nach Ablauf der Frist
          sieht der Langzeitlieger Türcode und WLAN erst nach Zahlungseingang wieder.
        </Trans>
      </p>
      {query.isError ? (
        <FormAlert>{staffErrorMessage(query.error)}</FormAlert>
      ) : (
        <DataTable
          table={table}
          caption={t`Überfällige Liegeplatzgebühren`}
          empty={query.isPending ? t`Wird geladen …` : t`Keine Gebühr ist überfällig.`}
          rowProps={(row) => ({ 'data-fee': row.original.reference })}
        />
      )}
    </Section>
  );
}
