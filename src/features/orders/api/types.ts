import type { PriceBreakdownData } from '@/components/price-breakdown';

export type OrderStatus = 'unverified' | 'confirmed' | 'checked_in' | 'completed' | 'cancelled' | 'expired';
export type PaymentStatus = 'pending' | 'paid' | 'refunded';

/** A row of public.orders as its owner reads it. */
export interface Order {
  id: string;
  user_id: string | null;
  place_id: string;
  kind: 'day' | 'overnight' | 'fair';
  starts_at: string;
  ends_at: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  price_cents: number;
  price_breakdown: PriceBreakdownData;
  email: string;
  sale_code: string | null;
  place_snapshot: { id: string; name: string; pier?: string | null; width: number; length: number };
  boat: { name: string; tag?: string | null; length: number; width: number };
  person: { first_name: string; last_name: string; email: string; phone?: string; company?: string; street?: string; postal_code?: string; city?: string; country?: string };
  expires_at: string | null;
  checked_in: boolean;
  checked_in_at: string | null;
  cancelled_at: string | null;
  created_at: string;
}
