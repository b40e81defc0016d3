import type { PriceBreakdownData } from '@/components/price-breakdown';
import type { Enums, Tables } from '@/lib/database.types';

export type OrderStatus = Enums<'order_status'>;
export type PaymentStatus = Enums<'payment_status'>;

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
