import { env } from '@/lib/env';

/** public.seasons as anyone reads it (supabase/schemas/61_seasons.sql). */
export interface PublicSeason {
  id: string;
  name: string;
  name_en: string | null;
  kind: 'summer' | 'winter' | 'year_round';
  starts_on: string;
  ends_on: string;
}

/** public.long_term_prices as anon reads it: the row in force today and those announced (ADR 0046). */
export interface PublicLongTermPrice {
  id: number;
  season_kind: PublicSeason['kind'];
  basis: 'square_metre' | 'running_metre';
  /** Gross cents per unit (m² or running metre) and season, VAT included. */
  gross_cents: number;
  vat_rate: number;
  electricity_gross_cents: number;
  electricity_vat_rate: number;
  valid_from: string;
}

export interface LongTermPriceList {
  seasons: PublicSeason[];
  prices: PublicLongTermPrice[];
}

/** A plain PostgREST read with the publishable key, as the price list (no supabase-js on the public page). */
async function read<T>(table: string, query: Record<string, string>): Promise<T[]> {
  const response = await fetch(`${env.supabaseUrl}/rest/v1/${table}?${new URLSearchParams(query)}`, {
    headers: { apikey: env.supabaseKey, authorization: `Bearer ${env.supabaseKey}`, accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as T[] | { message?: string } | null;
  if (!response.ok || !Array.isArray(body))
    throw new Error((body as { message?: string } | null)?.message ?? `${table}: HTTP ${response.status}`);
  return body;
}

async function fetchLongTermPriceList(): Promise<LongTermPriceList> {
  const [seasons, prices] = await Promise.all([
    read<PublicSeason>('seasons', { select: 'id,name,name_en,kind,starts_on,ends_on', order: 'starts_on,kind' }),
    read<PublicLongTermPrice>('long_term_prices', {
      select: 'id,season_kind,basis,gross_cents,vat_rate,electricity_gross_cents,electricity_vat_rate,valid_from',
      order: 'valid_from,id',
    }),
  ]);
  return { seasons, prices };
}

export const longTermPriceListQueryOptions = {
  queryKey: ['price-list', 'long-term'] as const,
  queryFn: fetchLongTermPriceList,
  staleTime: 60_000,
};

/** The row of a kind valid on a day: the latest valid_from on or before it, the last added of that day (private.long_term_price_row). */
export function longTermPriceOn(prices: PublicLongTermPrice[], kind: PublicSeason['kind'], day: string): PublicLongTermPrice | undefined {
  let best: PublicLongTermPrice | undefined;
  for (const p of prices) {
    if (p.season_kind !== kind || p.valid_from > day) continue;
    if (!best || p.valid_from > best.valid_from || (p.valid_from === best.valid_from && p.id > best.id)) best = p;
  }
  return best;
}

/** The rows of a kind announced after a day (the last added of each valid_from), earliest first. */
export function longTermPricesAfter(prices: PublicLongTermPrice[], kind: PublicSeason['kind'], day: string): PublicLongTermPrice[] {
  const byDay = new Map<string, PublicLongTermPrice>();
  for (const p of prices) {
    if (p.season_kind !== kind || p.valid_from <= day) continue;
    const seen = byDay.get(p.valid_from);
    if (!seen || p.id > seen.id) byDay.set(p.valid_from, p);
  }
  return [...byDay.values()].sort((a, b) => a.valid_from.localeCompare(b.valid_from));
}
