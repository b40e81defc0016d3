import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database, Tables } from '@/lib/database.types';
import { type Order, type OrderJson, currentInvoice, fetchOrderDocuments, type InvoiceDocumentSummary } from '@/features/orders';
import { harbourKeys } from '@/features/harbour/shared/keys';

export {
  orderStatuses,
  orderKinds,
  parseOrdersSearch,
  type OrderKind,
  type OrdersSearch,
} from '@/features/harbour/orders/api/orders-search';
import { ORDERS_DEFAULT_SORT, type OrderKind, type OrdersSearch } from '@/features/harbour/orders/api/orders-search';
import { isUuid } from '@/lib/ids';

export const ORDERS_PAGE_SIZE = 25;

/** Query keys under the harbour prefix, so the calendar's realtime keeps the lists fresh too. */
export const orderDeskKeys = {
  all: () => [...harbourKeys.all, 'orders'] as const,
  // Hidden columns are the view's business, not the query's.
  list: ({ hide: _hide, ...search }: OrdersSearch) => [...harbourKeys.all, 'orders', 'list', search] as const,
  detail: (id: string) => [...harbourKeys.all, 'orders', 'detail', id] as const,
  moveTargets: (id: string) => [...harbourKeys.all, 'orders', 'move-targets', id] as const,
  rescheduleQuote: (id: string, arrival: string, departure: string | null) =>
    [...harbourKeys.all, 'orders', 'reschedule-quote', id, arrival, departure] as const,
};

type StaffOrdersRow = Database['public']['Functions']['staff_orders']['Returns'][number];

/** RETURNS TABLE columns are typed not-null; guest and boat_name are null when the order's person/boat lack them. */
type StaffOrdersOverride = { guest: string | null; boat_name: string | null };

/** A row of staff_orders (without the window count). */
export type OrderListRow = Omit<StaffOrdersRow, 'total_count' | keyof StaffOrdersOverride> & StaffOrdersOverride;

/** One page of staff_orders (server-side filters and sort, newest first by default) and the total. */
export const staffOrdersQueryOptions = (search: OrdersSearch) =>
  queryOptions({
    queryKey: orderDeskKeys.list(search),
    queryFn: async (): Promise<{ rows: OrderListRow[]; total: number }> => {
      const supabase = await getSupabase();
      const page = search.page ?? 1;
      // An inverted range is swapped rather than refused: the URL may have been typed by hand.
      const [from, to] = search.from && search.to && search.to < search.from ? [search.to, search.from] : [search.from, search.to];
      const [sortColumn, direction] = (search.sort ?? ORDERS_DEFAULT_SORT).split('.');
      const { data, error } = await supabase
        .rpc('staff_orders', {
          p_status: search.status,
          p_kind: search.kind,
          p_from: from,
          p_to: to,
          p_query: search.q,
          p_limit: ORDERS_PAGE_SIZE,
          p_offset: (page - 1) * ORDERS_PAGE_SIZE,
          p_sort: sortColumn,
          p_desc: direction === 'desc',
        })
        .overrideTypes<StaffOrdersOverride[]>();
      if (error) throw error;
      const rows = data;
      // total_count is bigint: a JSON number from PostgREST, made sure of here.
      let total = rows[0] ? Number(rows[0].total_count) : 0;
      if (rows.length === 0 && page > 1) {
        // Past the last page: ask for the count alone.
        const head = await supabase.rpc('staff_orders', {
          p_status: search.status,
          p_kind: search.kind,
          p_from: from,
          p_to: to,
          p_query: search.q,
          p_limit: 1,
          p_offset: 0,
        });
        if (head.error) throw head.error;
        total = head.data[0] ? Number(head.data[0].total_count) : 0;
      }
      return { rows, total };
    },
    placeholderData: keepPreviousData,
  });

export type OrderNote = Pick<Tables<'order_notes'>, 'id' | 'body' | 'created_at' | 'created_by'>;

/** The events order_events records (text with a check constraint in the generated row). */
export type OrderEventKind =
  | 'created'
  | 'status'
  | 'payment'
  | 'moved'
  | 'rescheduled'
  | 'checked_in'
  | 'payment_recorded'
  | 'refund_recorded'
  | 'payment_to_refund'
  | 'payment_failed'
  | 'refund_failed';

/** Who did a step (order_event_actors): a staff member (with the name), the guest, or the system. */
export type OrderEventActor = { kind: 'staff'; name: string | null } | { kind: 'guest' } | { kind: 'system' };

export type OrderEvent = Pick<Tables<'order_events'>, 'id' | 'from_value' | 'to_value' | 'at'> & {
  event: OrderEventKind;
  actor: OrderEventActor;
};

export interface OrderDetail {
  order: Order;
  /** Every invoice document of the order (invoices, cancellations, credit notes), oldest first. */
  documents: InvoiceDocumentSummary[];
  /** The invoice in force: the newest one no cancellation names. */
  invoice: InvoiceDocumentSummary | null;
  notes: OrderNote[];
  events: OrderEvent[];
  /** Whether the guest has a customer account (order_guest_account): with a password, verified by code only, an anonymous guest, or no user. */
  account: 'account' | 'code' | 'guest' | 'none';
}

/** Everything about one order for staff (RLS: staff read all); null when there is no such order. */
export const orderDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: orderDeskKeys.detail(id),
    queryFn: async (): Promise<OrderDetail | null> => {
      if (!isUuid(id)) return null;
      const supabase = await getSupabase();
      const [order, documents, notes, events, actors, account] = await Promise.all([
        // jsonb columns: the generated row says Json (see OrderJson).
        supabase.from('orders').select('*').eq('id', id).maybeSingle().overrideTypes<OrderJson>(),
        fetchOrderDocuments(id),
        supabase.from('order_notes').select('id, body, created_at, created_by').eq('order_id', id).order('created_at'),
        supabase
          .from('order_events')
          .select('id, event, from_value, to_value, at')
          .eq('order_id', id)
          .order('id')
          .overrideTypes<{ event: OrderEventKind }[]>(),
        // RETURNS TABLE columns are typed not-null; actor_name is null for the guest and the system.
        supabase.rpc('order_event_actors', { p_order_id: id }).overrideTypes<{ actor_name: string | null }[]>(),
        supabase.rpc('order_guest_account', { p_order_id: id }),
      ]);
      if (order.error) throw order.error;
      if (notes.error) throw notes.error;
      if (events.error) throw events.error;
      if (actors.error) throw actors.error;
      if (account.error) throw account.error;
      if (!order.data) return null;
      const actorOf = new Map(
        actors.data.map((a): [number, OrderEventActor] => [
          a.event_id,
          a.actor_kind === 'staff'
            ? { kind: 'staff', name: a.actor_name }
            : a.actor_kind === 'guest'
              ? { kind: 'guest' }
              : { kind: 'system' },
        ]),
      );
      return {
        order: order.data,
        documents,
        invoice: currentInvoice(documents),
        notes: notes.data,
        events: events.data.map((e) => ({ ...e, actor: actorOf.get(e.id) ?? { kind: 'system' } })),
        account: (account.data ?? 'none') as OrderDetail['account'],
      };
    },
  });

/** A row of order_move_targets; pier is a nullable column of places (RETURNS TABLE columns are typed not-null). */
export type MoveTarget = Omit<Database['public']['Functions']['order_move_targets']['Returns'][number], 'pier'> & { pier: string | null };

/** The berths the order could move to (order_move_targets): fitting and free for the whole stay. */
export const moveTargetsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: orderDeskKeys.moveTargets(id),
    queryFn: async (): Promise<MoveTarget[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('order_move_targets', { p_order_id: id }).overrideTypes<{ pier: string | null }[]>();
      if (error) throw error;
      return data;
    },
    staleTime: 0,
  });

/** What reschedule_booking would make of an order on other dates (reschedule_quote): new period and price. */
export interface RescheduleQuote {
  starts_at: string;
  ends_at: string;
  nights: number;
  old_price_cents: number;
  price_cents: number;
  quote: { gross_cents: number; nights: number; sale_code: string | null };
}

/** The new period and price of an order moved to other dates (staff; the database checks the dates, not yet the berth). */
export const rescheduleQuoteQueryOptions = (id: string, arrival: string, departure: string | null) =>
  queryOptions({
    queryKey: orderDeskKeys.rescheduleQuote(id, arrival, departure),
    queryFn: async (): Promise<RescheduleQuote> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('reschedule_quote', {
        p_order_id: id,
        p_arrival: arrival,
        p_departure: departure ?? undefined,
      });
      if (error) throw error;
      return data as unknown as RescheduleQuote;
    },
    staleTime: 0,
    retry: false,
  });

// Payments and refunds are the payments panel's (api/payments.ts), not order actions.
export type OrderAction =
  | { type: 'check-in'; orderId: string }
  | { type: 'cancel'; orderId: string; notify: boolean }
  | { type: 'move'; orderId: string; placeId: string; notify: boolean }
  | { type: 'reschedule'; orderId: string; placeId: string; arrival: string; departure: string | null; notify: boolean }
  | { type: 'note'; orderId: string; body: string };

async function runAction(action: OrderAction): Promise<void> {
  const supabase = await getSupabase();
  const { error } =
    action.type === 'check-in'
      ? await supabase.rpc('check_in', { p_order_id: action.orderId })
      : action.type === 'cancel'
        ? await supabase.rpc('cancel_booking', { p_order_id: action.orderId, p_notify: action.notify })
        : action.type === 'move'
          ? await supabase.rpc('move_booking', { p_order_id: action.orderId, p_place_id: action.placeId, p_notify: action.notify })
          : action.type === 'reschedule'
            ? await supabase.rpc('reschedule_booking', {
                p_order_id: action.orderId,
                p_place_id: action.placeId,
                p_arrival: action.arrival,
                p_departure: action.departure ?? undefined,
                p_notify: action.notify,
              })
            : await supabase.rpc('add_order_note', { p_order_id: action.orderId, p_body: action.body });
  if (error) throw error;
}

/**
 * Staff actions on an order; afterwards the whole ['harbour'] prefix (calendar, overview, lists,
 * the order's payments) refetches in the background: the action's answer does not wait for it.
 */
export function useOrderAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAction,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: harbourKeys.all }),
  });
}

/** Staff book for a walk-in or phone guest (staff_create_booking): confirmed at once, no e-mail code. */
export async function staffCreateBooking(params: {
  placeId: string;
  stay: { p_kind: OrderKind; p_arrival: string; p_departure?: string; p_day_start?: string; p_day_end?: string };
  boat: { name: string; tag: string | null; length: number; width: number };
  person: Record<string, string | undefined>;
  saleCode?: string;
}): Promise<{ id: string }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('staff_create_booking', {
    p_place_id: params.placeId,
    ...params.stay,
    p_boat: params.boat,
    p_person: params.person,
    p_sale_code: params.saleCode || undefined,
  });
  if (error) throw error;
  return data;
}
