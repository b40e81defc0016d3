import { env } from '@/lib/env';

/**
 * One entry of the price list (public.price_list: the berth tariffs and the active extras):
 * gross price in cents (what a consumer pays, PAngV § 3) with its VAT rate.
 * docs/adr/0011-consumer-prices-with-vat.md.
 */
export interface PriceListEntry {
  kind: 'tariff' | 'extra';
  code: string;
  name: string;
  name_en: string;
  /** tariffs: metre_night, metre_day, night; extras: piece, load, day. */
  unit: string;
  price_cents: number;
  /** "from" price: staff may charge more (boat lift). */
  price_from: boolean;
  vat_rate: number;
  /** A deposit: no VAT, returned in full. */
  deposit: boolean;
}

/** The price list, sorted (tariffs first). A plain PostgREST request with the publishable key: no supabase-js. */
async function fetchPriceList(): Promise<PriceListEntry[]> {
  const query = new URLSearchParams({
    select: 'kind,code,name,name_en,unit,price_cents,price_from,vat_rate,deposit',
    order: 'sort_order,code',
  });
  const response = await fetch(`${env.supabaseUrl}/rest/v1/price_list?${query}`, {
    headers: { apikey: env.supabaseKey, authorization: `Bearer ${env.supabaseKey}`, accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as PriceListEntry[] | { message?: string } | null;
  if (!response.ok || !Array.isArray(body))
    throw new Error((body as { message?: string } | null)?.message ?? `price_list: HTTP ${response.status}`);
  return body;
}

export const priceListKeys = { all: ['price-list'] as const };

export const priceListQueryOptions = {
  queryKey: priceListKeys.all,
  queryFn: fetchPriceList,
  staleTime: 60_000,
};

/** The VAT contained in a gross amount at a rate, half up (as private.invoice_vat_breakdown). */
export function vatInGross(grossCents: number, rate: number): number {
  return Math.round((grossCents * rate) / (100 + rate));
}

/** An entry by code, or undefined while the list is loading or when it has no such entry. */
export function priceOf(list: PriceListEntry[] | undefined, code: string): PriceListEntry | undefined {
  return list?.find((e) => e.code === code);
}
