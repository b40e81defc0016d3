import type { PriceBreakdownData } from '@/components/price-breakdown';
import type { Enums, Tables } from '@/lib/database.types';

export type OrderStatus = Enums<'order_status'>;
// TODO(pay-db types): Enums<'payment_status'> once it has partially_refunded.
export type PaymentStatus = Enums<'payment_status'> | 'partially_refunded';

/** Online payment (issue 20): how an order is paid, and the ledger's methods (contract names). */
export type PaymentMode = 'online_required' | 'online_optional' | 'desk';
export type PaymentMethod = 'online' | 'card_terminal' | 'cash' | 'bank_transfer';

/** order_balance(): an order's money as the database counts it from the ledger (all cents). */
export interface OrderBalance {
  price_cents: number;
  paid_cents: number;
  refunded_cents: number;
  /** paid − refunded */
  net_cents: number;
  /** What is still to pay (0 once cancelled, expired or anything was refunded). */
  outstanding_cents: number;
  /** Money to pay back: a second charge, or a payment for a booking that ended unpaid. */
  to_refund_cents: number;
  refundable_online_cents: number;
  refundable_desk_cents: number;
  payment_mode: PaymentMode;
}

/** A row of public.payments, the append-only ledger (a refund is positive with kind 'refund'). */
export interface Payment {
  id: string;
  order_id: string;
  kind: 'payment' | 'refund';
  method: PaymentMethod;
  amount_cents: number;
  currency: string;
  provider: string | null;
  provider_payment_id: string | null;
  provider_refund_id: string | null;
  checkout_session_id: string | null;
  refund_of: string | null;
  recorded_by: string | null;
  recorded_at: string;
  note: string | null;
}

/**
 * The jsonb columns of public.orders as create_booking / staff_create_booking write them. The
 * generated row says `Json` (the catalog knows no jsonb shape): queries of orders add these with
 * `.overrideTypes<OrderJson>()` (merged into the generated row).
 */
export type OrderJson = {
  price_breakdown: PriceBreakdownData;
  place_snapshot: { id: string; name: string; pier?: string | null; width: number; length: number };
  boat: { name: string; tag?: string | null; length: number; width: number };
  person: { first_name: string; last_name: string; email: string; phone?: string; company?: string; street?: string; postal_code?: string; city?: string; country?: string };
};

/** A row of public.orders as its owner reads it: the generated row with its jsonb columns typed. */
export type Order = Omit<Tables<'orders'>, keyof OrderJson> & OrderJson;
