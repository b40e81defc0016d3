import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { TZDate } from '@date-fns/tz';
import { getSupabase } from '@/lib/auth';
import { addDaysIso, HARBOUR_TIME_ZONE } from '@/lib/dates';
import type { Tables } from '@/lib/database.types';
import type { PaymentMethod } from '@/features/orders';
import { harbourKeys } from '@/features/harbour/shared/keys';

export const cashKeys = {
  all: [...harbourKeys.all, 'cash'] as const,
  day: (day: string) => [...harbourKeys.all, 'cash', day] as const,
};

export type CashEntryKind = 'payment' | 'refund' | 'opening_float' | 'bank_deposit' | 'withdrawal' | 'difference';
export type CashMovementKind = Extract<CashEntryKind, 'opening_float' | 'bank_deposit' | 'withdrawal'>;

/** A cash book entry with its order (boat and berth) and who booked it, for the page. */
export type CashEntry = Omit<Tables<'cash_book_entries'>, 'kind'> & {
  kind: CashEntryKind;
  order_label: string | null;
  recorded_by_name: string | null;
};

export type CashClosing = Tables<'cash_closings'> & { closed_by_name: string | null };

/** public.cash_day(): the open business day and, for an open day, what a closing now would compute. */
export interface CashDaySummary {
  day: string;
  today: string;
  open_day: string;
  closing: Tables<'cash_closings'> | null;
  period_from: string | null;
  opening_cents: number;
  cash_in_cents: number;
  cash_out_cents: number;
  expected_cents: number;
  later_entries: boolean;
  balance_cents: number;
}

/**
 * A non-cash payment or refund of the day (card terminal, transfer, online), listed beside the
 * book: an order's ledger row, or a desk sale / its cancellation (document_id: the receipt or the
 * Stornorechnung, order_id null).
 */
export interface OtherPayment {
  id: string;
  order_id: string | null;
  document_id?: string | null;
  kind: 'payment' | 'refund';
  method: Exclude<PaymentMethod, 'cash'>;
  amount_cents: number;
  recorded_at: string;
  order_label: string;
}

export interface CashDay {
  summary: CashDaySummary;
  entries: CashEntry[];
  closing: CashClosing | null;
  others: OtherPayment[];
}

/** [start, end) of a Berlin calendar day as instants (23 or 25 hours on DST days). */
export function berlinDayBounds(day: string): { from: string; until: string } {
  const at = (d: string) => {
    const [y, m, dd] = d.split('-').map(Number) as [number, number, number];
    // In UTC (Z): TZDate's own toISOString carries the offset, and a '+' is fragile in a URL.
    return new Date(new TZDate(y, m - 1, dd, 0, 0, 0, 0, HARBOUR_TIME_ZONE).getTime()).toISOString();
  };
  return { from: at(day), until: at(addDaysIso(day, 1)) };
}

type OrderRef = { boat: { name?: string } | null; place_snapshot: { name?: string } | null } | null;
const orderLabel = (o: OrderRef) => [o?.boat?.name, o?.place_snapshot?.name].filter(Boolean).join(' · ');

/** The day's cash book entries, its closing (if closed), the summary and the day's other payments (RLS: staff). */
export const cashDayQueryOptions = (day: string) =>
  queryOptions({
    queryKey: cashKeys.day(day),
    queryFn: async (): Promise<CashDay> => {
      const supabase = await getSupabase();
      const { from, until } = berlinDayBounds(day);
      const [summary, entries, others, deskSales, deskCancels] = await Promise.all([
        supabase.rpc('cash_day', { p_day: day }),
        supabase
          .from('cash_book_entries')
          .select('*, orders(boat, place_snapshot)')
          .eq('business_day', day)
          .order('entry_no')
          .overrideTypes<{ orders: OrderRef }[]>(),
        supabase
          .from('payments')
          .select('id, order_id, kind, method, amount_cents, recorded_at, orders(boat, place_snapshot)')
          .neq('method', 'cash')
          .gte('recorded_at', from)
          .lt('recorded_at', until)
          .order('recorded_at')
          .overrideTypes<{ orders: OrderRef }[]>(),
        supabase
          .from('invoices')
          .select('id, invoice_number, kind, gross_cents, issued_at, desk_sales!inner(method)')
          .not('desk_sale_id', 'is', null)
          .neq('desk_sales.method', 'cash')
          .gte('issued_at', from)
          .lt('issued_at', until)
          .overrideTypes<{ desk_sales: { method: string } }[]>(),
        supabase
          .from('desk_sale_cancellations')
          .select('id, document_id, method')
          .neq('method', 'cash')
          .gte('cancelled_at', from)
          .lt('cancelled_at', until),
      ]);
      if (summary.error) throw summary.error;
      if (entries.error) throw entries.error;
      if (others.error) throw others.error;
      if (deskSales.error) throw deskSales.error;
      if (deskCancels.error) throw deskCancels.error;
      // A desk sale's money (by its receipt) and a cancelled one's (by its Stornorechnung, whose
      // refund method may differ from the sale's).
      const cancelMethod = new Map(deskCancels.data.map((c) => [c.document_id, c.method]));
      const desk: OtherPayment[] = deskSales.data.flatMap((d) => {
        const method = (d.kind === 'cancellation' ? cancelMethod.get(d.id) : d.desk_sales.method) as OtherPayment['method'] | undefined;
        if (!method || method === ('cash' as string)) return [];
        return [
          {
            id: d.id,
            order_id: null,
            document_id: d.id,
            kind: d.kind === 'cancellation' ? ('refund' as const) : ('payment' as const),
            method,
            amount_cents: Math.abs(d.gross_cents),
            recorded_at: d.issued_at,
            order_label: d.invoice_number ?? '',
          },
        ];
      });
      const s = summary.data as unknown as CashDaySummary;
      const ids = new Set<string>();
      for (const e of entries.data) if (e.recorded_by) ids.add(e.recorded_by);
      if (s.closing?.closed_by) ids.add(s.closing.closed_by);
      const names = new Map<string, string>();
      if (ids.size) {
        const people = await supabase
          .from('profiles')
          .select('id, first_name, last_name, email')
          .in('id', [...ids]);
        if (people.error) throw people.error;
        for (const p of people.data) names.set(p.id, [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email || '');
      }
      return {
        summary: s,
        entries: entries.data.map(({ orders, ...e }) => ({
          ...e,
          kind: e.kind as CashEntryKind,
          order_label: e.order_id ? orderLabel(orders) : null,
          recorded_by_name: e.recorded_by ? (names.get(e.recorded_by) ?? null) : null,
        })),
        closing: s.closing ? { ...s.closing, closed_by_name: s.closing.closed_by ? (names.get(s.closing.closed_by) ?? null) : null } : null,
        others: [
          ...others.data.map(({ orders, ...p }) => ({
            ...p,
            kind: p.kind as OtherPayment['kind'],
            method: p.method as OtherPayment['method'],
            order_label: orderLabel(orders),
          })),
          ...desk,
        ].sort((a, b) => a.recorded_at.localeCompare(b.recorded_at)),
      };
    },
  });

export type CashAction =
  | { type: 'movement'; kind: CashMovementKind; amountCents: number; reason: string }
  | { type: 'close'; day: string; countedCents: number; note: string };

async function runCashAction(action: CashAction): Promise<void> {
  const supabase = await getSupabase();
  const { error } =
    action.type === 'movement'
      ? await supabase.rpc('record_cash_movement', {
          p_kind: action.kind,
          p_amount_cents: action.amountCents,
          p_reason: action.reason.trim(),
        })
      : await supabase.rpc('close_cash_day', {
          p_day: action.day,
          p_counted_cents: action.countedCents,
          p_note: action.note.trim() || undefined,
        });
  if (error) throw error;
}

/** Books a movement of the till or closes a day; then the cash book (and the order desk) refetch. */
export function useCashAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runCashAction,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: cashKeys.all }),
  });
}
