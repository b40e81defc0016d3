import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

/** The holder gives notice of a contract for the end of its season (public.give_contract_notice, ADR 0052). */
export function useGiveNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (contractId: string) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('give_contract_notice', { p_contract_id: contractId });
      if (error) throw error;
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['long-term'] }),
  });
}
