import { queryOptions } from '@tanstack/react-query';
import { env } from '@/lib/env';
import type { Tables } from '@/lib/database.types';
import { isMissingRelation } from '@/lib/supabase-errors';

/** The columns the start page selects (a plain fetch, typed from the generated row all the same). */
export type NewsItem = Pick<
  Tables<'news'>,
  'id' | 'title' | 'short_description' | 'title_en' | 'short_description_en' | 'starts_at' | 'ends_at'
>;

/**
 * Active news (start before now, end after now); RLS shows visitors only those. A plain
 * PostgREST request with the publishable key, so the start page does not load supabase-js.
 * Null while the table does not exist.
 */
async function fetchActiveNews(): Promise<NewsItem[] | null> {
  const now = new Date().toISOString();
  const query = new URLSearchParams({
    select: 'id,title,short_description,title_en,short_description_en,starts_at,ends_at',
    starts_at: `lte.${now}`,
    ends_at: `gt.${now}`,
    order: 'starts_at.desc',
    limit: '10',
  });
  const response = await fetch(`${env.supabaseUrl}/rest/v1/news?${query}`, {
    headers: { apikey: env.supabaseKey, authorization: `Bearer ${env.supabaseKey}`, accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as NewsItem[] | { code?: string; message?: string } | null;
  if (!response.ok) {
    if (isMissingRelation(body)) return null;
    throw new Error((body as { message?: string } | null)?.message ?? `news: HTTP ${response.status}`);
  }
  return body as NewsItem[];
}

export const newsKeys = { all: ['news'] as const, active: () => [...newsKeys.all, 'active'] as const };

export const activeNewsQueryOptions = queryOptions({
  queryKey: newsKeys.active(),
  queryFn: fetchActiveNews,
  staleTime: 5 * 60_000,
});
