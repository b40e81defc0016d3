import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { Refused } from '@/lib/refused';
import { addDaysIso } from '@/lib/dates';
import { berlinDayStart } from '@/features/harbour/shared/dates';
import { harbourKeys } from '@/features/harbour/shared/keys';

export interface BlockInput {
  placeId: string;
  /** First and last blocked Berlin day (yyyy-MM-dd), inclusive. */
  from: string;
  to: string;
  reason: 'maintenance' | 'reserved';
  note: string;
}

export type BlockError = 'overlap' | 'invalid_period' | 'too_long' | 'unknown';

/** add_berth_block for whole Berlin days [from 00:00, to+1 00:00); the database refuses overlaps (23P01). */
export async function addBerthBlock(input: BlockInput): Promise<{ error: BlockError | null }> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('add_berth_block', {
    p_place_id: input.placeId,
    p_starts_at: berlinDayStart(input.from),
    p_ends_at: berlinDayStart(addDaysIso(input.to, 1)),
    p_reason: input.reason,
    p_note: input.note || undefined,
  });
  if (!error) return { error: null };
  if (error.code === '23P01') return { error: 'overlap' };
  if (error.message === 'invalid_period') return { error: 'invalid_period' };
  if (error.message === 'block_too_long') return { error: 'too_long' };
  return { error: 'unknown' };
}

/** cancel_berth_block: the block stays in the table, flagged cancelled (an UPDATE, so realtime sees it). */
export async function cancelBerthBlock(placeStatusId: string): Promise<boolean> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('cancel_berth_block', { p_place_status_id: placeStatusId });
  return !error;
}

/** Block a berth (add_berth_block); refreshes the harbour's queries (the timeline shows the block). */
export function useAddBerthBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: BlockInput) => {
      const { error } = await addBerthBlock(input);
      if (error) throw new Refused(error);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: harbourKeys.all }),
  });
}

/** Lift a block (cancel_berth_block); refreshes the harbour's queries. Throws when the database refuses. */
export function useCancelBerthBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (placeStatusId: string) => {
      if (!(await cancelBerthBlock(placeStatusId))) throw new Error('cancel_block_failed');
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: harbourKeys.all }),
  });
}
