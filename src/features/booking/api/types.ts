/** Rows of the booking functions (supabase/migrations/..._orders_and_bookings.sql). */
export interface PriceBreakdown {
  kind: 'day' | 'overnight' | 'fair';
  metres: number;
  nights: number;
  berth_fee_per_metre_cents: number;
  berth_fee_cents: number;
  additional_costs_per_night_cents: number;
  additional_costs_cents: number;
  sale_code: string | null;
  net_cents: number;
  vat_rate_percent: number;
  vat_cents: number;
  gross_cents: number;
}

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
