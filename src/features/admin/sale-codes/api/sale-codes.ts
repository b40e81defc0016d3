import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { check, checkList } from '@/lib/supabase-errors';
import { isUuid } from '@/lib/ids';
import { getSupabase } from '@/lib/auth';

export const saleCodeKeys = {
  all: ['admin', 'sale-codes'] as const,
  list: () => [...saleCodeKeys.all, 'list'] as const,
  item: (id: string) => [...saleCodeKeys.all, 'item', id] as const,
};

export interface SaleCode {
  id: string;
  code: string;
  type: 'set-additional-costs';
  value: number;
  created_at: string;
}

export const saleCodesQueryOptions = () =>
  queryOptions({
    queryKey: saleCodeKeys.list(),
    queryFn: async (): Promise<SaleCode[]> => {
      const db = await getSupabase();
      return checkList(await db.from('sale_codes').select('id,code,type,value,created_at').order('code').limit(1000));
    },
  });

export const saleCodeQueryOptions = (id: string) =>
  queryOptions({
    queryKey: saleCodeKeys.item(id),
    queryFn: async (): Promise<SaleCode | null> => {
      if (!isUuid(id)) return null;
      const db = await getSupabase();
      return check(await db.from('sale_codes').select('id,code,type,value,created_at').eq('id', id).maybeSingle());
    },
  });

/** Creates a code, or updates one; codes are stored in capitals (they are unique regardless of case). */
export async function saveSaleCode(id: string | null, row: { code: string; type: 'set-additional-costs'; value: number }): Promise<void> {
  const db = await getSupabase();
  const values = { ...row, code: row.code.trim().toUpperCase() };
  if (!id) {
    check(await db.from('sale_codes').insert(values));
    return;
  }
  const updated = checkList(await db.from('sale_codes').update(values).eq('id', id).select('id'));
  if (!updated.length) throw Object.assign(new Error('not found'), { code: 'PGRST116' });
}

export async function deleteSaleCode(id: string): Promise<void> {
  const db = await getSupabase();
  const deleted = checkList(await db.from('sale_codes').delete().eq('id', id).select('id'));
  if (!deleted.length) throw Object.assign(new Error('not found'), { code: 'PGRST116' });
}

/** Create or update a code (saveSaleCode); refreshes the code list. */
export function useSaveSaleCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, row }: { id: string | null; row: { code: string; type: 'set-additional-costs'; value: number } }) =>
      saveSaleCode(id, row),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: saleCodeKeys.all }),
  });
}

/** Delete a code (deleteSaleCode); refreshes the code list. */
export function useDeleteSaleCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteSaleCode(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: saleCodeKeys.all }),
  });
}
