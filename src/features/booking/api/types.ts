/** Rows of the booking functions (supabase/migrations/..._orders_and_bookings.sql). */
import type { PriceBreakdownData } from '@/components/price-breakdown';

/** The breakdown of quote_booking (cents); one shape with the shared price component. */
export type PriceBreakdown = PriceBreakdownData;

export interface Quote extends PriceBreakdown {
  sale_code_valid: boolean | null;
  starts_at: string;
  ends_at: string;
}

export interface PlaceResult {
  place_id: string;
  name: string;
  pier: string | null;
  description: string | null;
  description_en: string | null;
  image_path: string | null;
  width: number;
  length: number;
  one_day: boolean;
  features: string[];
  area: number;
  price_cents: number;
  quote: Quote;
}
