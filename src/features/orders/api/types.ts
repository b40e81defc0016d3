import type { PriceBreakdownData } from '@/components/price-breakdown';
import type { Enums, Tables } from '@/lib/database.types';

export type OrderStatus = Enums<'order_status'>;
export type PaymentStatus = Enums<'payment_status'>;

/** Online payment (issue 20): how an order is paid, and the ledger's methods. */
export type PaymentMode = Enums<'payment_mode'>;
export type PaymentMethod = Enums<'payment_method'>;

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
  /** The payment mode as booked (the order keeps it). */
  payment_mode: PaymentMode;
  /** When an unpaid order that must be paid online lapses; null otherwise. */
  pay_by: string | null;
}

/** A row of public.payments, the append-only ledger (a refund is positive with kind 'refund'; kind is text with a check). */
export type Payment = Omit<Tables<'payments'>, 'kind'> & { kind: 'payment' | 'refund' };

/**
 * The jsonb columns of public.orders as create_booking / staff_create_booking write them. The
 * generated row says `Json` (the catalog knows no jsonb shape): queries of orders add these with
 * `.overrideTypes<OrderJson>()` (merged into the generated row).
 */
export type OrderJson = {
  price_breakdown: PriceBreakdownData;
  place_snapshot: { id: string; name: string; pier?: string | null; width: number; length: number };
  boat: { name: string; tag?: string | null; length: number; width: number };
  person: {
    first_name: string;
    last_name: string;
    email: string;
    phone?: string;
    company?: string;
    street?: string;
    postal_code?: string;
    city?: string;
    country?: string;
  };
};

/** A row of public.orders as its owner reads it: the generated row with its jsonb columns typed. */
export type Order = Omit<Tables<'orders'>, keyof OrderJson> & OrderJson;
