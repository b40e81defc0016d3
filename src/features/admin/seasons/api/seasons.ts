import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { seasonKeys } from '@/features/admin/seasons/api/keys';
import type { PriceBasis, SeasonKind } from '@/features/admin/seasons/schemas/season';

export { SEASON_KINDS, type PriceBasis, type SeasonKind } from '@/features/admin/seasons/schemas/season';

export type Season = Omit<Tables<'seasons'>, 'kind'> & { kind: SeasonKind };
export type LongTermPrice = Omit<Tables<'long_term_prices'>, 'season_kind' | 'basis'> & { season_kind: SeasonKind; basis: PriceBasis };

/** A season's name in the page's language: the English one on English pages when it has one. */
export const seasonName = (season: Pick<Season, 'name' | 'name_en'>, locale: string) => (locale === 'en' && season.name_en) || season.name;

/** Every season, earliest first (supabase/schemas/61_seasons.sql; everyone reads them). */
export const seasonsQueryOptions = () =>
  queryOptions({
    queryKey: seasonKeys.seasons(),
    queryFn: async (): Promise<Season[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('seasons')
        .select('*')
        .order('starts_on')
        .order('kind')
        // kind: a check constraint the generated type reads as text.
        .overrideTypes<{ kind: SeasonKind }[]>();
      if (error) throw error;
      return data;
    },
  });

/** The long-term price list with its history (staff read every row), oldest first. */
export const longTermPricesQueryOptions = () =>
  queryOptions({
    queryKey: seasonKeys.prices(),
    queryFn: async (): Promise<LongTermPrice[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('long_term_prices')
        .select('*')
        .order('valid_from')
        .order('id')
        // season_kind and basis: check constraints the generated type reads as text.
        .overrideTypes<{ season_kind: SeasonKind; basis: PriceBasis }[]>();
      if (error) throw error;
      return data;
    },
  });

/**
 * The price row of a kind valid on a day: the latest valid_from on or before it, the last added
 * of that day, as private.long_term_price_row decides (a season is priced by its first day).
 */
export function priceOn(prices: LongTermPrice[], kind: SeasonKind, day: string): LongTermPrice | undefined {
  let best: LongTermPrice | undefined;
  for (const p of prices) {
    if (p.season_kind !== kind || p.valid_from > day) continue;
    if (!best || p.valid_from > best.valid_from || (p.valid_from === best.valid_from && p.id > best.id)) best = p;
  }
  return best;
}

/** The rows announced after a day (the last added of each valid_from), earliest first. */
export function pricesAfter(prices: LongTermPrice[], kind: SeasonKind, day: string): LongTermPrice[] {
  const byDay = new Map<string, LongTermPrice>();
  for (const p of prices) {
    if (p.season_kind !== kind || p.valid_from <= day) continue;
    const seen = byDay.get(p.valid_from);
    if (!seen || p.id > seen.id) byDay.set(p.valid_from, p);
  }
  return [...byDay.values()].sort((a, b) => a.valid_from.localeCompare(b.valid_from));
}
