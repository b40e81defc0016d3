import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { isMissingRelation } from '@/lib/supabase-errors';

export interface NewsItem {
  id: string;
  title: string;
  short_description: string;
  title_en: string;
  short_description_en: string;
  starts_at: string;
  ends_at: string;
}

/** Active news (start before now, end after now); RLS shows visitors only those. Null while the table does not exist. */
async function fetchActiveNews(): Promise<NewsItem[] | null> {
  const supabase = await getSupabase();
  const now = new Date().toISOString();
  const { data, error } = await supabase
    .from('news')
    .select('id, title, short_description, title_en, short_description_en, starts_at, ends_at')
    .lte('starts_at', now)
    .gt('ends_at', now)
    .order('starts_at', { ascending: false })
    .limit(10);
  if (error) {
    if (isMissingRelation(error)) return null;
    throw error;
  }
  return data as NewsItem[];
}

export const newsKeys = { all: ['news'] as const, active: () => [...newsKeys.all, 'active'] as const };

export const activeNewsQueryOptions = queryOptions({
  queryKey: newsKeys.active(),
  queryFn: fetchActiveNews,
  staleTime: 5 * 60_000,
});
