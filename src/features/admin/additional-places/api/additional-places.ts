import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { adminPlaceKeys } from '@/features/admin/shared/place-keys';
import { Refused } from '@/lib/refused';
import { removeImageQuietly } from '@/features/admin/shared/upsert-image';

export const COLUMN_BUCKET = 'additional-place-images';
export const columnImagePath = (id: string) => `additional-places/${id}/title.jpg`;

export type ColumnType = 'electric' | 'water';

export interface Column {
  id: string;
  type: ColumnType;
  name: string;
  position: [number, number];
  image_path: string | null;
}

/** Every electricity and water column (everyone may read them). */
export const columnsQueryOptions = () =>
  queryOptions({
    queryKey: adminPlaceKeys.columns(),
    queryFn: async (): Promise<Column[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.from('additional_places').select('id, type, name, position, image_path').order('name');
      if (error) throw error;
      return data as Column[];
    },
  });

export const columnQueryOptions = (id: string) =>
  queryOptions({
    queryKey: adminPlaceKeys.column(id),
    queryFn: async (): Promise<Column | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('additional_places')
        .select('id, type, name, position, image_path')
        .eq('id', id)
        .maybeSingle();
      if (error) {
        if (error.code === '22P02') return null;
        throw error;
      }
      return data as Column | null;
    },
  });

export interface ColumnInput {
  type: ColumnType;
  name: string;
  position: [number, number];
}

export type ColumnSaveError = 'position' | 'invalid' | 'forbidden' | 'unknown';

export async function saveColumn(input: ColumnInput, id?: string): Promise<{ id: string } | { error: ColumnSaveError }> {
  const supabase = await getSupabase();
  const res = id
    ? await supabase.from('additional_places').update(input).eq('id', id).select('id').single()
    : await supabase.from('additional_places').insert(input).select('id').single();
  if (res.error) {
    const code = res.error.code;
    if (code === '23514' && /position/.test(res.error.message)) return { error: 'position' };
    if (code === '23502') return { error: 'position' };
    if (code === '23514' || code === '22P02') return { error: 'invalid' };
    if (code === '42501' || code === 'PGRST116') return { error: 'forbidden' };
    return { error: 'unknown' };
  }
  return { id: (res.data as { id: string }).id };
}

export async function setColumnImagePath(id: string, path: string | null): Promise<boolean> {
  const supabase = await getSupabase();
  const { error } = await supabase.from('additional_places').update({ image_path: path }).eq('id', id);
  return !error;
}

/**
 * Create or update a column (saveColumn); throws Refused<ColumnSaveError>. `then` runs while the
 * write is still pending (a new column's title image), then the admin's berth and column queries
 * are refreshed.
 */
export function useSaveColumn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, id, then }: { input: ColumnInput; id?: string; then?: (id: string) => Promise<unknown> }) => {
      const result = await saveColumn(input, id);
      if ('error' in result) throw new Refused(result.error);
      await then?.(result.id);
      return result.id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all }),
  });
}

/** Deletes the title image first (a failure there is ignored), then the column. */
export async function deleteColumn(id: string): Promise<boolean> {
  await removeImageQuietly(COLUMN_BUCKET, columnImagePath(id));
  const supabase = await getSupabase();
  const { data, error } = await supabase.from('additional_places').delete().eq('id', id).select('id');
  return !error && data.length === 1;
}

/** Delete a column with its image (deleteColumn); refreshes the admin's berth and column queries either way. */
export function useDeleteColumn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      if (!(await deleteColumn(id))) throw new Error('delete_failed');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all }),
  });
}
