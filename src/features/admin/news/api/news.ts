import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { removeImage } from '@/features/admin/shared/image-upload';
import { check, checkList } from '@/lib/supabase-errors';
import { isUuid } from '@/lib/ids';

/** Query keys of the admin news pages; mutations invalidate the prefix. */
export const adminNewsKeys = {
  all: ['admin', 'news'] as const,
  list: () => [...adminNewsKeys.all, 'list'] as const,
  item: (id: string) => [...adminNewsKeys.all, 'item', id] as const,
};

export type AdminNews = Omit<Tables<'news'>, 'created_at' | 'updated_at'>;

const COLUMNS =
  'id,title,title_en,short_description,short_description_en,description,description_en,image_path,location,starts_at,ends_at,dates';

/** Every news item, newest start first (admins read all of them; RLS decides). */
export const adminNewsListQueryOptions = () =>
  queryOptions({
    queryKey: adminNewsKeys.list(),
    queryFn: async (): Promise<AdminNews[]> => {
      const supabase = await getSupabase();
      return checkList(await supabase.from('news').select(COLUMNS).order('starts_at', { ascending: false }).limit(500));
    },
  });

export const adminNewsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: adminNewsKeys.item(id),
    queryFn: async (): Promise<AdminNews | null> => {
      if (!isUuid(id)) return null;
      const supabase = await getSupabase();
      return check(await supabase.from('news').select(COLUMNS).eq('id', id).maybeSingle());
    },
  });

export type NewsRow = Omit<AdminNews, 'id'>;

/** Creates (with the id the image folder was named by) or updates a news item. */
export async function saveNews(id: string, row: NewsRow, isNew: boolean): Promise<void> {
  const supabase = await getSupabase();
  if (isNew) {
    check(await supabase.from('news').insert({ id, ...row }));
  } else {
    const updated = check(await supabase.from('news').update(row).eq('id', id).select('id'));
    if (!updated?.length) throw Object.assign(new Error('not found'), { code: 'PGRST116' });
  }
}

/** Deletes a news item: its title image first (a failure there is ignored), then the row. */
export async function deleteNews(item: Pick<AdminNews, 'id' | 'image_path'>): Promise<void> {
  await removeImage('news-images', item.image_path);
  const supabase = await getSupabase();
  const deleted = check(await supabase.from('news').delete().eq('id', item.id).select('id'));
  if (!deleted?.length) throw Object.assign(new Error('not found'), { code: 'PGRST116' });
}

/** Create or update a news item (saveNews); refreshes the admin's news and the public news. */
export function useSaveNews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, row, isNew }: { id: string; row: NewsRow; isNew: boolean }) => saveNews(id, row, isNew),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminNewsKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['news'] });
    },
  });
}

/** Delete a news item with its image (deleteNews); refreshes the admin's news list. */
export function useDeleteNews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: Pick<AdminNews, 'id' | 'image_path'>) => deleteNews(item),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminNewsKeys.all }),
  });
}
