/** The order list's URL search params: tiny and free of feature code, since route options load with the first page. */
import type { OrderStatus } from '@/features/orders/api/types';
import type { Enums } from '@/lib/database.types';

export const orderStatuses = ['unverified', 'confirmed', 'checked_in', 'completed', 'cancelled', 'expired'] as const satisfies readonly OrderStatus[];
export const orderKinds = ['overnight', 'day', 'fair'] as const satisfies readonly Enums<'order_kind'>[];
export type OrderKind = (typeof orderKinds)[number];

/** The list's filters, exactly as they stand in the URL (?status=&kind=&from=&to=&q=&page=). */
export interface OrdersSearch {
  status?: OrderStatus;
  kind?: OrderKind;
  from?: string;
  to?: string;
  q?: string;
  page?: number;
}

/** A real calendar day yyyy-MM-dd (2026-02-30 is not: it would not round-trip). */
const isDay = (v: unknown): v is string => {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** validateSearch of /account/admin/orders: unknown or malformed values are dropped, never an error. */
export function parseOrdersSearch(search: Record<string, unknown>): OrdersSearch {
  const page = Number(search.page);
  const q = typeof search.q === 'string' ? search.q.trim().slice(0, 100) : typeof search.q === 'number' ? String(search.q) : '';
  return {
    status: orderStatuses.find((s) => s === search.status),
    kind: orderKinds.find((k) => k === search.kind),
    from: isDay(search.from) ? search.from : undefined,
    to: isDay(search.to) ? search.to : undefined,
    q: q || undefined,
    page: Number.isInteger(page) && page > 1 && page <= 10000 ? page : undefined,
  };
}

