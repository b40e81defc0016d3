import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';

/** One overdue long-term fee with its reminder stage (public.overdue_fees_overview, 65_fee_reminders.sql). */
export type OverdueFeeRow = Database['public']['Functions']['overdue_fees_overview']['Returns'][number];

async function fetchOverdueFees(): Promise<OverdueFeeRow[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('overdue_fees_overview');
  if (error) throw error;
  return data ?? [];
}

export const overdueFeesQueryOptions = queryOptions({
  queryKey: ['admin', 'long-term', 'overdue-fees'],
  queryFn: fetchOverdueFees,
  staleTime: 60_000,
});
