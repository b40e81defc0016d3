/**
 * The back office's data table, built as shadcn's data table is: TanStack Table for the model
 * (sorting, column visibility, paging), plain table markup for the view. The state is not kept
 * here but in the URL (see data-table-search.ts): `useUrlTable` reads it from the route's search
 * and writes every change back through `onSearch` (the route's navigate), so a reload or a shared
 * link shows the same table. Server tables (orders, users) pass `total` and get the rows of one
 * page; client tables (berths, news, codes) pass all rows and TanStack Table sorts and pages them.
 */
import { useEffect, useRef, useState, type ComponentProps, type HTMLAttributes, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type Column,
  type ColumnDef,
  type Row,
  type Table as TableModel,
  type Updater,
} from '@tanstack/react-table';
import { DropdownMenu } from 'radix-ui';
import { ArrowDown, ArrowUp, ArrowUpDown, Check, Columns3 } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { hideFrom, sortFrom, sortingFrom, visibilityFrom, type TableSearch } from '@/components/ui/data-table-search';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData, TValue> {
    /** The column's name in the visibility menu (the header may be a sort button). */
    label?: string;
    /** Classes of the column's cells (th and td). */
    className?: string;
    /** The cells of this column are the row headers (th scope="row"). */
    rowHeader?: boolean;
    /** Phantom use of the type parameters (the interface must declare them). */
    _types?: [TData, TValue];
  }
}

export interface UrlTableOptions<TData, S extends TableSearch> {
  data: TData[];
  columns: ColumnDef<TData, never>[] | ColumnDef<TData>[];
  search: S;
  /** A new search, or a change of the latest one (two quick changes must not undo each other). */
  onSearch: (next: S | ((previous: S) => S)) => void;
  pageSize: number;
  /** Server-side paging and sorting: the number of all matching rows (data is one page). */
  total?: number;
  getRowId?: (row: TData) => string;
  /** The order without `sort` in the URL (e.g. `created_at.desc`); choosing it clears `sort`. */
  defaultSort?: string;
}

/** A TanStack Table whose sorting, hidden columns and page live in the route's search params. */
export function useUrlTable<TData, S extends TableSearch>({
  data,
  columns,
  search,
  onSearch,
  pageSize,
  total,
  getRowId,
  defaultSort,
}: UrlTableOptions<TData, S>) {
  const server = total !== undefined;
  const sorting = sortingFrom(search.sort ?? defaultSort);
  const sortParam = (next: string | undefined) => (next === defaultSort ? undefined : next);
  const columnVisibility = visibilityFrom(search.hide);
  const pagination = { pageIndex: (search.page ?? 1) - 1, pageSize };
  const resolve = <T,>(updater: Updater<T>, old: T): T => (typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater);
  // No React Compiler in this build: the table re-renders with its state, which comes from the URL.
  // eslint-disable-next-line react-hooks/incompatible-library
  return useReactTable<TData>({
    data,
    columns: columns as ColumnDef<TData>[],
    getRowId,
    state: { sorting, columnVisibility, pagination },
    manualSorting: server,
    manualPagination: server,
    rowCount: server ? total : undefined,
    enableSortingRemoval: false,
    autoResetPageIndex: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: server ? undefined : getSortedRowModel(),
    getPaginationRowModel: server ? undefined : getPaginationRowModel(),
    // A new sort order starts at page 1; showing or hiding a column keeps the page.
    onSortingChange: (updater) =>
      onSearch((previous) => ({ ...previous, sort: sortParam(sortFrom(resolve(updater, sorting))), page: undefined })),
    onColumnVisibilityChange: (updater) => onSearch((previous) => ({ ...previous, hide: hideFrom(resolve(updater, columnVisibility)) })),
    onPaginationChange: (updater) => {
      const next = resolve(updater, pagination).pageIndex + 1;
      onSearch((previous) => ({ ...previous, page: next > 1 ? next : undefined }));
    },
  });
}

/**
 * The table: a caption for its accessible name, sortable headers (aria-sort), and a container
 * that scrolls sideways by itself on a phone, so the page never does (positioned, so that
 * absolutely placed pieces inside, such as screen-reader-only labels, scroll with it too).
 */
export function DataTable<TData>({
  table,
  caption,
  empty,
  rowProps,
  className,
}: {
  table: TableModel<TData>;
  caption: string;
  empty: ReactNode;
  rowProps?: (row: Row<TData>) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  className?: string;
}) {
  const rows = table.getRowModel().rows;
  const width = table.getVisibleLeafColumns().length;
  return (
    <div
      data-slot="data-table"
      className={cn('relative w-full max-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white', className)}
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={
                      header.column.getCanSort() ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined
                    }
                    className={cn('px-2 py-2 font-semibold whitespace-nowrap', header.column.columnDef.meta?.className)}
                  >
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={width} className="px-3 py-4 text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.id} {...rowProps?.(row)}>
                {row.getVisibleCells().map((cell) => {
                  const meta = cell.column.columnDef.meta;
                  const content = flexRender(cell.column.columnDef.cell, cell.getContext());
                  return meta?.rowHeader ? (
                    <th key={cell.id} scope="row" className={cn('px-2 py-2 align-top font-medium', meta.className)}>
                      {content}
                    </th>
                  ) : (
                    <td key={cell.id} className={cn('px-2 py-2 align-top', meta?.className)}>
                      {content}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A column header that sorts on click (ascending first, then it toggles); plain text when it cannot sort. */
export function DataTableColumnHeader<TData, TValue>({
  column,
  title,
  className,
}: {
  column: Column<TData, TValue>;
  title: string;
  className?: string;
}) {
  if (!column.getCanSort()) return <span className={className}>{title}</span>;
  const sorted = column.getIsSorted();
  const Icon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <button
      type="button"
      onClick={() => column.toggleSorting(sorted === 'asc')}
      className={cn(
        '-mx-2 inline-flex items-center gap-1 rounded px-2 py-1 font-semibold whitespace-nowrap outline-none hover:bg-slate-200 focus-visible:ring-2 focus-visible:ring-primary',
        className,
      )}
    >
      {title}
      <Icon aria-hidden className={cn('size-3.5', sorted ? 'text-slate-900' : 'text-slate-500')} />
    </button>
  );
}

/** The "Spalten" menu: show or hide each column that can be hidden (kept in the URL as `hide`). */
export function DataTableViewOptions<TData>({ table }: { table: TableModel<TData> }) {
  const { t } = useLingui();
  const columns = table.getAllLeafColumns().filter((c) => c.getCanHide());
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button type="button" variant="outline" size="sm" className="h-9">
          <Columns3 aria-hidden />
          <Trans>Spalten</Trans>
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          aria-label={t`Spalten anzeigen`}
          className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 text-sm shadow-md"
        >
          <DropdownMenu.Label className="px-2 py-1.5 font-semibold text-slate-700">
            <Trans>Spalten anzeigen</Trans>
          </DropdownMenu.Label>
          {columns.map((column) => (
            <DropdownMenu.CheckboxItem
              key={column.id}
              checked={column.getIsVisible()}
              onCheckedChange={(value) => column.toggleVisibility(value)}
              onSelect={(e) => e.preventDefault()}
              className="relative flex cursor-default items-center rounded py-1.5 pr-2 pl-8 outline-none select-none data-[highlighted]:bg-slate-100"
            >
              <DropdownMenu.ItemIndicator className="absolute left-2 inline-flex">
                <Check aria-hidden className="size-4" />
              </DropdownMenu.ItemIndicator>
              {column.columnDef.meta?.label ?? column.id}
            </DropdownMenu.CheckboxItem>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Previous/next page and "Seite x von y"; hidden when everything fits on one page. */
export function DataTablePagination<TData>({ table }: { table: TableModel<TData> }) {
  const { t } = useLingui();
  const page = table.getState().pagination.pageIndex + 1;
  const pages = Math.max(1, table.getPageCount());
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav aria-label={t`Seiten`} className="flex flex-wrap items-center gap-3">
      <Button type="button" variant="outline" size="sm" disabled={page <= 1} onClick={() => table.setPageIndex(Math.min(page, pages) - 2)}>
        <Trans>Vorherige Seite</Trans>
      </Button>
      <span className="text-sm text-slate-700">
        <Trans>
          Seite {page} von {pages}
        </Trans>
      </span>
      <Button type="button" variant="outline" size="sm" disabled={page >= pages} onClick={() => table.setPageIndex(page)}>
        <Trans>Nächste Seite</Trans>
      </Button>
    </nav>
  );
}

/**
 * A text filter that applies as one types (client tables): the field keeps what is typed, the URL
 * follows a moment later (one history entry per pause, not per key).
 */
export function DataTableTextFilter({
  id,
  label,
  value,
  onChange,
  ...props
}: { id: string; label: string; value: string; onChange: (value: string) => void } & Omit<
  ComponentProps<'input'>,
  'id' | 'value' | 'onChange'
>) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="search"
        maxLength={100}
        value={text}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            timer.current = undefined;
            onChange(next);
          }, 250);
        }}
        onBlur={() => {
          // Leaving the field (e.g. for a checkbox) applies what was typed at once.
          if (timer.current === undefined) return;
          clearTimeout(timer.current);
          timer.current = undefined;
          if (text !== value) onChange(text);
        }}
        className="w-full sm:w-64"
        {...props}
      />
    </div>
  );
}

/** A faceted filter: one of a column's values, or all of them (an empty value). */
export function DataTableFacetFilter<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T | undefined;
  options: { value: T; label: string }[];
  onChange: (value: T | undefined) => void;
}) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm"
        value={value ?? ''}
        onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value)}
      >
        <option value="">
          <Trans>Alle</Trans>
        </option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
