import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { type InvoiceDocument, invoiceDocumentQueryOptions, orderKeys } from '@/features/orders';
import { invokeFunction } from '@/lib/edge-functions';
import type { DeskPaymentMethod } from '@/features/harbour/shared/payment-methods';
import { harbourKeys } from '@/features/harbour/shared/keys';

/** extras.unit: text with a check in the generated row. */
export type ExtraUnit = 'piece' | 'load' | 'day';

/** A catalogue entry (supabase/schemas/55_extras.sql): gross price in cents, VAT 19/7/0, deposits 0 %. */
export type Extra = Omit<Tables<'extras'>, 'unit'> & { unit: ExtraUnit };

/** An extra on an order, priced as when added; removed or returned ones stay with their time. */
export type OrderExtra = Omit<Tables<'order_extras'>, 'unit'> & { unit: ExtraUnit };

export const extrasKeys = {
  all: [...harbourKeys.all, 'extras'] as const,
  catalogue: () => [...harbourKeys.all, 'extras', 'catalogue'] as const,
  order: (orderId: string) => [...harbourKeys.all, 'extras', 'order', orderId] as const,
  refundsDue: (orderId: string) => [...harbourKeys.all, 'extras', 'refunds-due', orderId] as const,
};

/** The catalogue as the caller may read it (RLS: staff all entries, everyone else the active ones). */
export const extrasCatalogueQueryOptions = () =>
  queryOptions({
    queryKey: extrasKeys.catalogue(),
    queryFn: async (): Promise<Extra[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('extras')
        .select('*')
        .order('sort_order')
        .order('name')
        .overrideTypes<{ unit: ExtraUnit }[]>();
      if (error) throw error;
      return data;
    },
    staleTime: 30_000,
  });

/** The extras of an order, oldest first. */
export const orderExtrasQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: extrasKeys.order(orderId),
    queryFn: async (): Promise<OrderExtra[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('order_extras')
        .select('*')
        .eq('order_id', orderId)
        .order('added_at')
        .overrideTypes<{ unit: ExtraUnit }[]>();
      if (error) throw error;
      return data;
    },
  });

/** A deposit returned online whose refund is not in the ledger: what is due, and whether a refund of it failed. */
export interface DepositRefundDue {
  dueCents: number;
  /** The guest's bank did not take a refund of it: it may go back in cash or by transfer. */
  failed: boolean;
}

/**
 * The order's deposits returned online whose refund is not in the ledger yet: Stripe has not
 * confirmed it, could not be reached, refused it (staff retry it) or reported it failed (then
 * staff may also pay it back in cash or by transfer).
 */
export const depositRefundsDueQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: extrasKeys.refundsDue(orderId),
    queryFn: async (): Promise<Map<string, DepositRefundDue>> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('deposit_refunds_due', { p_order_id: orderId });
      if (error) throw error;
      return new Map(data.map((r) => [r.order_extra_id, { dueCents: r.due_cents, failed: r.failed }]));
    },
  });

export type ExtrasAction =
  | { type: 'add'; orderId: string; extraId: string; quantity: number; unitPriceCents?: number }
  | { type: 'remove'; orderExtraId: string }
  | { type: 'return'; orderExtraId: string; method: 'cash' | 'bank_transfer' | 'online' }
  | { type: 'accept'; messageId: string; orderId: string; extraId: string; quantity: number; unitPriceCents?: number };

async function runExtrasAction(action: ExtrasAction): Promise<void> {
  // A deposit paid online goes back to the guest's card through Stripe (refund-payment takes
  // the deposit back and refunds it; the ledger follows Stripe's refund event).
  if (action.type === 'return' && action.method === 'online') {
    await invokeFunction('refund-payment', { order_extra_id: action.orderExtraId });
    return;
  }
  const supabase = await getSupabase();
  const { error } =
    action.type === 'add'
      ? await supabase.rpc('add_order_extra', {
          p_order_id: action.orderId,
          p_extra_id: action.extraId,
          p_quantity: action.quantity,
          p_unit_price_cents: action.unitPriceCents,
        })
      : action.type === 'remove'
        ? await supabase.rpc('remove_order_extra', { p_order_extra_id: action.orderExtraId })
        : action.type === 'return'
          ? await supabase.rpc('return_deposit', { p_order_extra_id: action.orderExtraId, p_method: action.method })
          : await supabase.rpc('accept_service_request', {
              p_message_id: action.messageId,
              p_order_id: action.orderId,
              p_extra_id: action.extraId,
              p_quantity: action.quantity,
              p_unit_price_cents: action.unitPriceCents,
            });
  if (error) throw error;
}

/** Adds, removes or returns an extra (the database checks staff); the order desk and the order's documents refetch. */
export function useExtrasAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runExtrasAction,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: harbourKeys.all });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });
}

export interface DeskSaleItem {
  extraId: string;
  quantity: number;
  unitPriceCents?: number;
}

export interface DeskSaleBuyer {
  name: string;
  company?: string;
  street: string;
  postal_code: string;
  city: string;
}

/** Sells extras at the desk; answers the receipt (an invoice document without an order). */
export async function sellAtDesk(items: DeskSaleItem[], method: DeskPaymentMethod, buyer?: DeskSaleBuyer): Promise<InvoiceDocument> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('sell_at_desk', {
    p_items: items.map((i) => ({
      extra_id: i.extraId,
      quantity: i.quantity,
      ...(i.unitPriceCents !== undefined ? { unit_price_cents: i.unitPriceCents } : {}),
    })),
    p_method: method,
    p_buyer: buyer ? { ...buyer } : undefined,
  });
  if (error) throw error;
  return data as unknown as InvoiceDocument;
}

/** Cancels a desk sale by its receipt (staff; once): answers the Stornorechnung. */
export async function cancelDeskSale(receiptId: string, reason: string): Promise<InvoiceDocument> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('cancel_desk_sale', { p_receipt_id: receiptId, p_reason: reason.trim() });
  if (error) throw error;
  return data as unknown as InvoiceDocument;
}

/**
 * Sell at the desk (sellAtDesk): the receipt goes into the cache, the catalogue, the cash book and
 * the orders are refreshed, then `then` runs with the receipt (the page opens it) while still pending.
 */
export function useSellAtDesk(then: (doc: InvoiceDocument) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ items, method, buyer }: { items: DeskSaleItem[]; method: DeskPaymentMethod; buyer?: DeskSaleBuyer }) =>
      sellAtDesk(items, method, buyer),
    onSuccess: async (doc) => {
      queryClient.setQueryData(invoiceDocumentQueryOptions(doc.id).queryKey, doc);
      void queryClient.invalidateQueries({ queryKey: extrasKeys.all });
      void queryClient.invalidateQueries({ queryKey: [...harbourKeys.all, 'cash'] });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      await then(doc);
    },
  });
}

/**
 * Cancel a desk sale (cancelDeskSale): the Stornorechnung goes into the cache, the catalogue and
 * the cash book are refreshed, then `then` runs with it (the page opens it) while still pending.
 */
export function useCancelDeskSale(then: (storno: InvoiceDocument) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ receiptId, reason }: { receiptId: string; reason: string }) => cancelDeskSale(receiptId, reason),
    onSuccess: async (storno) => {
      queryClient.setQueryData(invoiceDocumentQueryOptions(storno.id).queryKey, storno);
      void queryClient.invalidateQueries({ queryKey: extrasKeys.all });
      void queryClient.invalidateQueries({ queryKey: [...harbourKeys.all, 'cash'] });
      await then(storno);
    },
  });
}

export type DeskSaleCancellation = Tables<'desk_sale_cancellations'> & { document_number: string };

/** A desk sale as sold (its method) and its cancellation, if any, with the Stornorechnung's number. */
export const deskSaleStateQueryOptions = (deskSaleId: string) =>
  queryOptions({
    queryKey: [...extrasKeys.all, 'desk-sale', deskSaleId] as const,
    queryFn: async (): Promise<{ method: DeskPaymentMethod; gross_cents: number; cancellation: DeskSaleCancellation | null }> => {
      const supabase = await getSupabase();
      const [sale, cancellation, storno] = await Promise.all([
        supabase.from('desk_sales').select('method, gross_cents').eq('id', deskSaleId).single(),
        supabase.from('desk_sale_cancellations').select('*').eq('desk_sale_id', deskSaleId).maybeSingle(),
        supabase.from('invoices').select('id, invoice_number').eq('desk_sale_id', deskSaleId).eq('kind', 'cancellation').maybeSingle(),
      ]);
      if (sale.error) throw sale.error;
      if (cancellation.error) throw cancellation.error;
      if (storno.error) throw storno.error;
      return {
        method: sale.data.method as DeskPaymentMethod,
        gross_cents: sale.data.gross_cents,
        cancellation: cancellation.data ? { ...cancellation.data, document_number: storno.data?.invoice_number ?? '' } : null,
      };
    },
  });

/** The newest desk-sale receipts and Stornorechnungen (staff read every document). */
export const deskReceiptsQueryOptions = () =>
  queryOptions({
    queryKey: [...extrasKeys.all, 'receipts'] as const,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('invoices')
        .select('id, invoice_number, issued_at, gross_cents, desk_sale_id, kind')
        .not('desk_sale_id', 'is', null)
        .order('issued_at', { ascending: false })
        .limit(10);
      if (error) throw error;
      return data;
    },
  });

export type ExtraInput = Pick<
  Extra,
  'code' | 'name' | 'name_en' | 'unit' | 'price_cents' | 'price_from' | 'vat_rate' | 'deposit' | 'active' | 'sort_order'
>;

/** An admin adds a catalogue entry or changes one (RLS: admins write; the database checks the values again). */
export async function saveExtra(id: string | null, values: ExtraInput): Promise<void> {
  const supabase = await getSupabase();
  const { error } = id ? await supabase.from('extras').update(values).eq('id', id) : await supabase.from('extras').insert(values);
  if (error) throw error;
}

/** Add (id null) or change a catalogue entry (saveExtra); refreshes the catalogue. */
export function useSaveExtra() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id: string | null; values: ExtraInput }) => saveExtra(id, values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: extrasKeys.all }),
  });
}

/** A berth tariff (public.tariffs, 32_prices_availability.sql): gross cents per unit with its VAT rate. */
export type Tariff = Omit<Tables<'tariffs'>, 'unit'> & { unit: 'metre_night' | 'metre_day' | 'night' };

export const tariffKeys = { all: [...harbourKeys.all, 'tariffs'] as const };

/** The three berth tariffs in their order (everyone reads them; admins change them). */
export const tariffsQueryOptions = () =>
  queryOptions({
    queryKey: tariffKeys.all,
    queryFn: async (): Promise<Tariff[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.from('tariffs').select('*').order('sort_order').overrideTypes<{ unit: Tariff['unit'] }[]>();
      if (error) throw error;
      return data;
    },
    staleTime: 30_000,
  });

/** An admin changes a tariff's names, gross price or VAT rate (RLS: admins only; the database checks the values). */
export async function saveTariff(code: string, values: Pick<Tariff, 'name' | 'name_en' | 'gross_cents' | 'vat_rate'>): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.from('tariffs').update(values).eq('code', code).select('code');
  if (error) throw error;
  // RLS hides the row from anyone but an admin: no row changed is a refusal.
  if (!data.length) throw { code: '42501' };
}

/** Change a berth tariff (saveTariff); refreshes the tariffs. */
export function useSaveTariff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, values }: { code: string; values: Pick<Tariff, 'name' | 'name_en' | 'gross_cents' | 'vat_rate'> }) =>
      saveTariff(code, values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tariffKeys.all }),
  });
}
