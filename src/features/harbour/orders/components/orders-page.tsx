import { useMemo, useState, type FormEvent } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button, buttonVariants } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { DataTable, DataTableColumnHeader, DataTablePagination, DataTableViewOptions, useUrlTable } from '@/components/ui/data-table';
import { OrderStatusBadge } from '@/features/orders';
import { formatBerlinDateTime, formatBerlinShort } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import {
  ORDERS_PAGE_SIZE,
  orderKinds,
  orderStatuses,
  staffOrdersQueryOptions,
  type OrderListRow,
  type OrdersSearch,
} from '@/features/harbour/orders/api/orders';
import { ORDERS_DEFAULT_SORT } from '@/features/harbour/orders/api/orders-search';
import { useCalendarRealtime } from '@/features/harbour/shared/use-calendar-realtime';
import { useKindLabel, useStatusLabel, usePaymentShortLabel } from '@/features/harbour/orders/components/orders-labels';
import { DatePicker, isDateOrEmpty } from '@/components/ui/date-picker';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

const selectClass = 'h-9 rounded-md border border-slate-300 bg-white px-2';

/** The order list of the harbour team: newest first; filters, search and page live in the URL. */
export function OrdersPage({
  search,
  onSearch,
}: {
  search: OrdersSearch;
  onSearch: (next: OrdersSearch | ((previous: OrdersSearch) => OrdersSearch)) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  useCalendarRealtime();
  const statusLabel = useStatusLabel();
  const kindLabel = useKindLabel();
  const paymentLabel = usePaymentShortLabel();
  const list = useQuery(staffOrdersQueryOptions(search));
  const [query, setQuery] = useState(search.q ?? '');
  const page = search.page ?? 1;
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  const set = (patch: Partial<OrdersSearch>) =>
    onSearch((previous) => ({ ...previous, ...patch, page: 'page' in patch ? patch.page : undefined }));
  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    set({ q: query.trim() || undefined });
  };
  const invertedRange = search.from && search.to && search.to < search.from;

  const columns = useMemo<ColumnDef<OrderListRow>[]>(
    () => [
      {
        id: 'created_at',
        accessorFn: (o) => o.created_at,
        meta: { label: t`Gebucht`, className: 'whitespace-nowrap' },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Gebucht`} />,
        cell: ({ row: { original: o } }) => (
          <>
            <span className="block whitespace-nowrap" title={formatBerlinDateTime(o.created_at, locale)}>
              {formatBerlinShort(o.created_at, locale)}
            </span>
            <span className="block font-mono text-slate-600">{o.booking_number}</span>
          </>
        ),
      },
      {
        id: 'guest',
        accessorFn: (o) => o.guest ?? '',
        enableHiding: false,
        meta: { label: t`Gast`, className: 'min-w-36' },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Gast`} />,
        cell: ({ row: { original: o } }) => (
          <>
            <Link
              to="/{-$locale}/account/admin/orders/$id"
              params={{ id: o.id }}
              className="font-medium text-primary-dark underline underline-offset-4"
            >
              {o.guest ?? t`(ohne Namen)`}
            </Link>
            {o.email && <span className="block break-all text-slate-600">{o.email}</span>}
          </>
        ),
      },
      {
        id: 'boat_name',
        accessorFn: (o) => o.boat_name ?? '',
        meta: { label: t`Boot` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Boot`} />,
        cell: ({ row }) => <span className="[overflow-wrap:anywhere]">{row.original.boat_name}</span>,
      },
      {
        id: 'place_name',
        accessorFn: (o) => o.place_name,
        meta: { label: t`Liegeplatz` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Liegeplatz`} />,
        cell: ({ row }) => <span className="[overflow-wrap:anywhere]">{row.original.place_name}</span>,
      },
      {
        id: 'starts_at',
        accessorFn: (o) => o.starts_at,
        meta: { label: t`Aufenthalt` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Aufenthalt`} />,
        // Arrival and departure on two lines, numeric (the full date in the title): with the
        // sidebar the default columns fit the card at 1280 px (layouts.spec.ts).
        cell: ({ row: { original: o } }) => (
          <>
            <span className="block whitespace-nowrap" title={formatBerlinDateTime(o.starts_at, locale)}>
              {formatBerlinShort(o.starts_at, locale)} –
            </span>
            <span className="block whitespace-nowrap" title={formatBerlinDateTime(o.ends_at, locale)}>
              {formatBerlinShort(o.ends_at, locale)}
            </span>
          </>
        ),
      },
      {
        id: 'kind',
        accessorFn: (o) => o.kind,
        meta: { label: t`Art` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Art`} />,
        cell: ({ row }) => kindLabel(row.original.kind),
      },
      {
        id: 'status',
        accessorFn: (o) => o.status,
        meta: { label: t`Status` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Status`} />,
        cell: ({ row }) => <OrderStatusBadge status={row.original.status} />,
      },
      {
        id: 'payment_status',
        accessorFn: (o) => o.payment_status,
        meta: { label: t`Zahlung` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Zahlung`} />,
        cell: ({ row }) => paymentLabel(row.original.payment_status),
      },
      {
        id: 'price_cents',
        accessorFn: (o) => o.price_cents,
        meta: { label: t`Betrag`, className: 'text-right whitespace-nowrap' },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Betrag`} />,
        cell: ({ row }) => formatEuro(row.original.price_cents, locale),
      },
    ],
    [t, locale, kindLabel, paymentLabel],
  );
  const table = useUrlTable({
    data: list.data?.rows ?? [],
    columns,
    search,
    onSearch,
    pageSize: ORDERS_PAGE_SIZE,
    total,
    getRowId: (o) => o.id,
    defaultSort: ORDERS_DEFAULT_SORT,
  });

  return (
    <Page title={t`Bestellungen`}>
      <div className="flex flex-wrap gap-2">
        <Link to="/{-$locale}/account/admin/orders/new" className={buttonVariants()}>
          <Trans>Neue Buchung (Walk-in / Telefon)</Trans>
        </Link>
      </div>
      <form
        onSubmit={submitSearch}
        role="search"
        aria-label={t`Bestellungen filtern`}
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3"
      >
        <div className="flex flex-col gap-1 sm:col-span-2 lg:col-span-3">
          <Label htmlFor="orders-q">
            <Trans>Suche (Name, Boot, E-Mail oder Buchungsnummer)</Trans>
          </Label>
          <div className="flex gap-2">
            <Input id="orders-q" type="search" maxLength={100} value={query} onChange={(e) => setQuery(e.target.value)} />
            <Button type="submit">
              <Trans>Suchen</Trans>
            </Button>
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="orders-status">
            <Trans>Status</Trans>
          </Label>
          <select
            id="orders-status"
            className={selectClass}
            value={search.status ?? ''}
            onChange={(e) => set({ status: orderStatuses.find((s) => s === e.target.value) })}
          >
            <option value="">
              <Trans>Alle</Trans>
            </option>
            {orderStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="orders-kind">
            <Trans>Art</Trans>
          </Label>
          <select
            id="orders-kind"
            className={selectClass}
            value={search.kind ?? ''}
            onChange={(e) => set({ kind: orderKinds.find((k) => k === e.target.value) })}
          >
            <option value="">
              <Trans>Alle</Trans>
            </option>
            {orderKinds.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="orders-from">
              <Trans>Aufenthalt von</Trans>
            </Label>
            <DatePicker id="orders-from" value={search.from ?? ''} onChange={(v) => isDateOrEmpty(v) && set({ from: v || undefined })} />
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="orders-to">
              <Trans>bis</Trans>
            </Label>
            <DatePicker id="orders-to" value={search.to ?? ''} onChange={(v) => isDateOrEmpty(v) && set({ to: v || undefined })} />
          </div>
        </div>
        {invertedRange && (
          <p className="text-sm text-amber-900 sm:col-span-2 lg:col-span-3">
            <Trans>Das Ende liegt vor dem Anfang; gesucht wird im umgekehrten Zeitraum.</Trans>
          </p>
        )}
        {(search.status || search.kind || search.from || search.to || search.q) && (
          <div className="sm:col-span-2 lg:col-span-3">
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setQuery('');
                onSearch({});
              }}
            >
              <Trans>Filter zurücksetzen</Trans>
            </Button>
          </div>
        )}
      </form>

      {list.isError ? (
        <FormAlert box>{staffErrorMessage(list.error)}</FormAlert>
      ) : list.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <>
          <p role="status" className="text-sm text-slate-700" data-testid="orders-total">
            {total === 0 ? (
              <Trans>Keine Bestellungen gefunden.</Trans>
            ) : page > pages ? (
              <Trans>
                <Plural value={total} one="# Bestellung" other="# Bestellungen" />; Seite {page} gibt es nicht (nur {pages}).
              </Trans>
            ) : (
              <Trans>
                <Plural value={total} one="# Bestellung" other="# Bestellungen" /> · Seite {page} von {pages}
              </Trans>
            )}
          </p>
          {total > 0 && page > pages && (
            <div>
              <Button variant="outline" onClick={() => set({ page: undefined })}>
                <Trans>Zur ersten Seite</Trans>
              </Button>
            </div>
          )}
          <div className="hidden justify-end sm:flex">
            <DataTableViewOptions table={table} />
          </div>
          {/* From `sm` the table; on a phone the same rows as cards (the page never scrolls sideways). */}
          <DataTable
            table={table}
            caption={t`Bestellungen`}
            empty={<Trans>Keine Bestellungen gefunden.</Trans>}
            rowProps={(row) => ({ 'data-order': row.original.id })}
            className="hidden sm:block"
          />
          <ul aria-label={t`Bestellungen`} data-testid="order-cards" className="grid gap-2 sm:hidden">
            {table.getRowModel().rows.map(({ original: o }) => (
              <li key={o.id} data-order-card={o.id} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
                <div className="flex items-start justify-between gap-2">
                  <Link
                    to="/{-$locale}/account/admin/orders/$id"
                    params={{ id: o.id }}
                    className="min-w-0 font-medium text-primary-dark underline underline-offset-4 [overflow-wrap:anywhere]"
                  >
                    {o.guest ?? t`(ohne Namen)`}
                  </Link>
                  <OrderStatusBadge status={o.status} />
                </div>
                <p className="text-slate-700 [overflow-wrap:anywhere]">
                  <span className="font-mono">{o.booking_number}</span> · {t`Liegeplatz ${o.place_name}`}
                  {o.boat_name ? ` · ${o.boat_name}` : ''}
                </p>
                <p className="text-slate-700">
                  {formatBerlinShort(o.starts_at, locale)} – {formatBerlinShort(o.ends_at, locale)} · {kindLabel(o.kind)}
                </p>
                <p className="flex justify-between gap-2 text-slate-700">
                  <span>{t`Zahlung: ${paymentLabel(o.payment_status)}`}</span>
                  <strong className="whitespace-nowrap text-slate-900">{formatEuro(o.price_cents, locale)}</strong>
                </p>
              </li>
            ))}
          </ul>
          <DataTablePagination table={table} />
        </>
      )}
    </Page>
  );
}
