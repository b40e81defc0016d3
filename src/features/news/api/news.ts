import { queryOptions } from '@tanstack/react-query';
import { env } from '@/lib/env';
import type { Tables } from '@/lib/database.types';
import { isUuid } from '@/lib/ids';

/** A news item as the public news pages show it (RLS lets visitors read only active items). */
export type NewsArticle = Pick<
  Tables<'news'>,
  | 'id'
  | 'title'
  | 'short_description'
  | 'description'
  | 'title_en'
  | 'short_description_en'
  | 'description_en'
  | 'image_path'
  | 'location'
  | 'starts_at'
  | 'ends_at'
  | 'dates'
>;

const COLUMNS =
  'id,title,short_description,description,title_en,short_description_en,description_en,image_path,location,starts_at,ends_at,dates';

/** A plain PostgREST read with the publishable key (as the start page's news, no supabase-js). */
async function readNews(params: Record<string, string>): Promise<NewsArticle[]> {
  const now = new Date().toISOString();
  const query = new URLSearchParams({ select: COLUMNS, starts_at: `lte.${now}`, ends_at: `gt.${now}`, ...params });
  const response = await fetch(`${env.supabaseUrl}/rest/v1/news?${query}`, {
    headers: { apikey: env.supabaseKey, authorization: `Bearer ${env.supabaseKey}`, accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as NewsArticle[] | { message?: string } | null;
  if (!response.ok) throw new Error((body as { message?: string } | null)?.message ?? `news: HTTP ${response.status}`);
  return body as NewsArticle[];
}

export const newsPageKeys = {
  all: ['news', 'public'] as const,
  list: () => [...newsPageKeys.all, 'list'] as const,
  item: (id: string) => [...newsPageKeys.all, 'item', id] as const,
};

/** Every active news item, newest first. */
export const newsListQueryOptions = queryOptions({
  queryKey: newsPageKeys.list(),
  queryFn: () => readNews({ order: 'starts_at.desc', limit: '50' }),
  staleTime: 5 * 60_000,
});

/** One active news item, or null when there is none with this id (unknown, ended or not yet begun). */
export const newsItemQueryOptions = (id: string) =>
  queryOptions({
    queryKey: newsPageKeys.item(id),
    queryFn: async () => (isUuid(id) ? ((await readNews({ id: `eq.${id}`, limit: '1' }))[0] ?? null) : null),
    staleTime: 5 * 60_000,
  });

/** The public URL of a news item's title image (bucket news-images, public read). */
export function newsImageUrl(path: string): string {
  return `${env.supabaseUrl}/storage/v1/object/public/news-images/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The item's texts in a locale: English where written, German otherwise. */
export function newsText(item: NewsArticle, locale: string) {
  const en = locale === 'en';
  return {
    title: (en && item.title_en) || item.title,
    short: (en && item.short_description_en) || item.short_description,
    description: (en && item.description_en) || item.description,
  };
}
