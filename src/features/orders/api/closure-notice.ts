import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { orderKeys } from '@/features/orders/api/keys';

/** What the guest chose after a closure notice: keep, move (the harbour moves the stay), cancel. */
export type ClosureChoice = 'keep' | 'move' | 'cancel';

/** The newest harbour-closure notice of an order (issue 43, ADR 0053): the stay's closed days and the choice. */
export interface ClosureNotice {
  id: string;
  closed_days: string[];
  notified_at: string;
  choice: ClosureChoice | null;
}

/** The order's newest closure notice, or null (RLS: the order's owner and staff read it). */
export const closureNoticeQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderKeys.closureNotice(orderId),
    queryFn: async (): Promise<ClosureNotice | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('harbour_closure_notices')
        .select('id, closed_days, notified_at, choice')
        .eq('order_id', orderId)
        .order('notified_at', { ascending: false })
        .limit(1)
        .maybeSingle()
        .overrideTypes<{ choice: ClosureChoice | null }>();
      if (error) throw error;
      return data;
    },
  });

/** Keeps the stay or asks the harbour to move it (answer_harbour_closure); cancelling is cancel_booking. */
export function useAnswerClosure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ noticeId, choice }: { noticeId: string; choice: 'keep' | 'move' }) => {
      const supabase = await getSupabase();
      const { error } = await supabase.rpc('answer_harbour_closure', { p_notice_id: noticeId, p_choice: choice });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}
