/** The order list's URL search params: tiny and free of feature code, since route options load with the first page. */
import type { OrderStatus } from '@/features/orders';
import type { Enums } from '@/lib/database.types';
import { parseHide, parsePage, parseSort, parseText } from '@/components/ui/data-table-search';

export const orderStatuses = [
  'unverified',
  'confirmed',
  'checked_in',
  'completed',
  'cancelled',
  'expired',
] as const satisfies readonly OrderStatus[];
export const orderKinds = ['overnight', 'day', 'fair'] as const satisfies readonly Enums<'order_kind'>[];
export type OrderKind = (typeof orderKinds)[number];

/** The columns staff_orders can sort by (p_sort), which are the table's column ids. */
export const orderSortColumns = [
  'created_at',
  'starts_at',
  'guest',
  'boat_name',
  'place_name',
  'kind',
  'status',
  'payment_status',
  'price_cents',
] as const;
/** The columns that can be hidden (every one but the guest, which links to the order). */
export const orderHideableColumns = [
  'created_at',
  'boat_name',
  'place_name',
  'starts_at',
  'kind',
  'status',
  'payment_status',
  'price_cents',
] as const;
/** Newest first, as without a sort in the URL. */
export const ORDERS_DEFAULT_SORT = 'created_at.desc';

/** The list's filters, exactly as they stand in the URL (?status=&kind=&from=&to=&q=&page=&sort=&hide=). */
export interface OrdersSearch {
  status?: OrderStatus;
  kind?: OrderKind;
  from?: string;
  to?: string;
  q?: string;
  page?: number;
  /** `<column>.<asc|desc>`; absent: newest first. */
  sort?: string;
  /** Hidden columns, comma-separated. */
  hide?: string;
}

/** A real calendar day yyyy-MM-dd (2026-02-30 is not: it would not round-trip). */
const isDay = (v: unknown): v is string => {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** validateSearch of /account/admin/orders: unknown or malformed values are dropped, never an error. */
export function parseOrdersSearch(search: Record<string, unknown>): OrdersSearch {
  const sort = parseSort(search.sort, orderSortColumns);
  return {
    status: orderStatuses.find((s) => s === search.status),
    kind: orderKinds.find((k) => k === search.kind),
    from: isDay(search.from) ? search.from : undefined,
    to: isDay(search.to) ? search.to : undefined,
    q: parseText(search.q),
    page: parsePage(search.page),
    sort: sort === ORDERS_DEFAULT_SORT ? undefined : sort,
    hide: parseHide(search.hide, orderHideableColumns),
  };
}
