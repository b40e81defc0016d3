/** Rows of the booking functions (supabase/migrations/..._orders_and_bookings.sql). */
import type { PriceBreakdownData } from '@/components/price-breakdown';
import type { Database } from '@/lib/database.types';

/** The breakdown of quote_booking (cents); one shape with the shared price component. */
export type PriceBreakdown = PriceBreakdownData;

/** quote_booking returns jsonb (`Json` in the generated type): this is the object it builds. */
export interface Quote extends PriceBreakdown {
  sale_code_valid: boolean | null;
  starts_at: string;
  ends_at: string;
}

/**
 * What the generated row of search_available_places gets wrong: RETURNS TABLE columns are typed
 * not-null, but pier, image_path and position are nullable columns of places; quote is json (`Json`).
 */
export type PlaceResultOverride = {
  pier: string | null;
  image_path: string | null;
  position: number[] | null;
  quote: Quote;
};

/** A berth search_available_places offers: its generated row with the corrections above. */
export type PlaceResult = Omit<Database['public']['Functions']['search_available_places']['Returns'][number], keyof PlaceResultOverride> &
  PlaceResultOverride;
